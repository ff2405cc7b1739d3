package org.privet.curator;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.privet.accounting.PrivacyLoss;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;
import org.privet.ledger.Charge;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.RegisteredSchema;
import org.privet.synth.Attribute;
import org.privet.synth.Domain;
import org.privet.synth.SynthesisResult;
import org.privet.synth.Synthesizer;
import org.privet.synth.Table;

/**
 * DP synthesis from a registered dataset, shared by {@code privet synth --dataset} and the server's
 * {@code POST /v1/synth}: validated against public information only, charged once, then the rows
 * are read and synthesized totally.
 *
 * <p>Without giving the analyst a free look at the table (docs/proofs/synthetic-data.md, "Reading a
 * registered table"; threat model: docs/proofs/threat-model.md): everything checked before the
 * charge is public (the options, the analyst's domain, the dataset's registration: privacy unit,
 * source, public schema, and the budget). Then the ledger is charged once, and only then are the
 * rows read, through the engine's {@link Source} with the registered delimiter, null string,
 * header and format, by a total scan ({@link DuckDbBackend#scanText}) and a total per-value rule
 * ({@link Table#encoder}): values outside the domain are clamped or take the attribute's declared
 * "other" value, and an empty table is synthesized like any other. No message, status or file
 * depends on the rows.
 */
public final class RegisteredSynthesis {
  private final Ledger ledger;
  private final DatasetSpec spec;
  private final Source source;
  private final TableSchema schema;
  private final Domain domain;
  private final List<String> columns;

  private RegisteredSynthesis(Ledger ledger, DatasetSpec spec, Source source, TableSchema schema,
      Domain domain, List<String> columns) {
    this.ledger = ledger;
    this.spec = spec;
    this.source = source;
    this.schema = schema;
    this.domain = domain;
    this.columns = columns;
  }

  /**
   * Checks a synthesis request against public information only (nothing is charged or read).
   *
   * @param option how the caller names the dataset parameter in messages (e.g. {@code --dataset})
   */
  public static RegisteredSynthesis prepare(Ledger ledger, DuckDbBackend backend, String dataset, Domain domain,
      String option) {
    DatasetSpec spec = ledger.dataset(dataset);
    if (spec.database().isPresent()) {
      throw new IllegalArgumentException(option + ": dataset '" + spec.name() + "' is a PostgreSQL"
          + " table; synthesis reads files only (export the table to Parquet and register that)");
    }
    if (!spec.privacyUnit().isRow()) {
      throw new IllegalArgumentException(option + ": synthesis protects one row at a time, but dataset '"
          + spec.name() + "' has a privacy-unit column; register a table with one row per unit (--row-privacy)");
    }
    Source source = LedgerCatalog.source(spec);
    TableSchema schema = publicSchema(ledger, spec);
    List<String> columns = new ArrayList<>();
    for (Attribute a : domain.attributes()) {
      if (schema.column(a.name()).isEmpty()) {
        throw new IllegalArgumentException("domain: attribute '" + a.name() + "' is not a column of dataset '"
            + spec.name() + "'");
      }
      columns.add(a.name());
    }
    return new RegisteredSynthesis(ledger, spec, source, schema, domain, columns);
  }

  /** The registered name of the dataset. */
  public String dataset() {
    return spec.name();
  }

  /**
   * Charges with {@code charge} (which must commit the cost durably and return the charge, or throw
   * to refuse, charging nothing), then reads the rows totally and synthesizes.
   */
  public SynthesisResult run(DuckDbBackend backend, Synthesizer synthesizer,
      Function<List<PrivacyLoss>, Charge> charge) {
    Objects.requireNonNull(charge.apply(List.of(cost(synthesizer))), "charge");
    return synthesizer.synthesize(readForCurator(backend));
  }

  /**
   * The registered rows encoded through the domain, read with <b>no charge</b>: the curator's own
   * view of the private table, for comparing a synthetic table with it. This is not a release. Its
   * output, and anything computed from it, must only ever reach the curator (the server answers it
   * on a curator-only route; docs/proofs/threat-model.md, "Identity").
   */
  public Table readForCurator(DuckDbBackend backend) {
    Table.RowEncoder rows = Table.encoder(domain);
    backend.scanText(source, schema, columns, rows);
    return rows.build();
  }

  /**
   * What the ledger is charged for {@code synthesizer}: its own loss, except that a
   * basic-composition dataset admits (ε, δ) events only, so a zCDP synthesizer is charged its
   * (ε, δ) conversion there (docs/proofs/ledger-filter.md).
   */
  public PrivacyLoss cost(Synthesizer synthesizer) {
    return spec.accountant() == org.privet.ledger.AccountantKind.BASIC
        && synthesizer.privacyLoss() instanceof org.privet.accounting.Zcdp
        ? synthesizer.approxDp() : synthesizer.privacyLoss();
  }

  /** The ledger this synthesis charges. */
  public Ledger ledger() {
    return ledger;
  }

  /**
   * The registered public schema's columns, in file order (the ledger's, fixed by the curator at
   * registration; never read from the file now). Types are irrelevant: the scan reads text.
   */
  private static TableSchema publicSchema(Ledger ledger, DatasetSpec spec) {
    RegisteredSchema fixed = ledger.schema(spec.name()).orElseThrow(() -> new IllegalArgumentException("dataset '"
        + spec.name() + "' has no public schema (it was registered before schemas were fixed at registration);"
        + " the curator fixes one with: privet dataset fix-schema --name " + spec.name()));
    List<TableSchema.Column> cols = new ArrayList<>();
    fixed.columns().forEach(c -> cols.add(new TableSchema.Column(c.name(), ColumnType.STRING, "VARCHAR")));
    return new TableSchema(cols);
  }
}
