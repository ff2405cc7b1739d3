package org.privet.cli.synth;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PrivacyLoss;
import org.privet.cli.AnalystOption;
import org.privet.curator.LedgerCatalog;
import org.privet.cli.WorkspaceOption;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;
import org.privet.ledger.Charge;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.synth.Attribute;
import org.privet.synth.Domain;
import org.privet.synth.SynthesisResult;
import org.privet.synth.Synthesizer;
import org.privet.synth.Table;
import org.privet.synth.Workload;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code privet synth}: writes a DP synthetic copy of a table (AIM or MWEM), with progress on
 * stderr; {@code privet synth evaluate} compares a synthetic table with the real one.
 */
@Command(
    name = "synth",
    mixinStandardHelpOptions = true,
    description = {
      "Release a differentially private synthetic table that preserves low-order marginals.",
      "Example: privet synth --data data/adult-pgm/adult.csv --domain data/adult-pgm/adult-domain.json"
          + " --epsilon 1 --delta 1e-9 --method aim --out synthetic.csv"
    },
    subcommands = {SynthEvaluateCommand.class})
public final class SynthCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--data", paramLabel = "FILE", description = "the CSV table to protect (or use --dataset)")
  Path data;

  @Option(names = "--dataset", paramLabel = "NAME",
      description = "a registered dataset (each row a privacy unit): the whole synthesis is charged once to"
          + " its budget before any row is read; values outside --domain are clamped to it or take the"
          + " attribute's declared \"other\" value (default: its first value)")
  String dataset;

  @Mixin WorkspaceOption workspace;
  @Mixin AnalystOption analyst;

  @Option(names = "--domain", paramLabel = "DOMAIN.json",
      description = "the public domain (Private-PGM sizes or declared attributes)")
  Path domain;

  @Option(names = "--epsilon", description = "privacy parameter epsilon (> 0)")
  Double epsilon;

  @Option(names = "--delta", description = "privacy parameter delta (AIM default 1e-9; MWEM is pure DP)")
  Double delta;

  @Option(names = "--method", defaultValue = "aim", description = "aim | mwem (default: ${DEFAULT-VALUE})")
  String method;

  @Option(names = "--workload", defaultValue = "all-3way",
      description = "marginals to preserve, all-<k>way (default: ${DEFAULT-VALUE})")
  String workload;

  @Option(names = "--out", paramLabel = "FILE", description = "where to write the synthetic CSV")
  Path out;

  @Override
  public Integer call() throws IOException {
    if ((data == null) == (dataset == null)) {
      throw new IllegalArgumentException("give exactly one of --data FILE or --dataset NAME");
    }
    require(domain, "--domain");
    require(epsilon, "--epsilon");
    require(out, "--out");
    Synthesizer.Method m = switch (method.toLowerCase(Locale.ROOT)) {
      case "aim" -> Synthesizer.Method.AIM;
      case "mwem" -> Synthesizer.Method.MWEM;
      default -> throw new IllegalArgumentException("--method must be aim or mwem, was " + method);
    };
    PrintWriter err = spec.commandLine().getErr();
    Domain dom = Domain.load(domain);
    var builder = Synthesizer.builder().method(m).epsilon(epsilon).workload(Workload.parse(workload, dom))
        .progress(line -> {
          err.println(line);
          err.flush();
        });
    if (delta != null) {
      builder.delta(delta);
    } else if (m == Synthesizer.Method.AIM) {
      builder.delta(1e-9);
    }
    Synthesizer synthesizer = builder.build();
    ApproxDp guarantee = synthesizer.approxDp();
    err.printf(Locale.ROOT, "privet synth: method %s, cost %s = (%.6g, %.3g)-DP%n",
        m.name().toLowerCase(Locale.ROOT), synthesizer.privacyLoss(), guarantee.epsilon(), guarantee.delta());
    SynthesisResult result;
    if (out.toAbsolutePath().getParent() != null && !Files.isDirectory(out.toAbsolutePath().getParent())) {
      throw new IllegalArgumentException("--out: directory " + out.toAbsolutePath().getParent() + " does not exist");
    }
    if (dataset == null) {
      result = synthesizer.synthesize(Table.read(data, dom));
    } else {
      result = synthesizeRegistered(synthesizer, dom, m, err);
    }
    result.synthetic().write(out);
    PrintWriter o = spec.commandLine().getOut();
    o.printf(Locale.ROOT, "wrote %d synthetic rows to %s (%s, privacy loss %s)%n",
        result.synthetic().rows(), out, m.name().toLowerCase(Locale.ROOT), result.privacyLoss());
    o.flush();
    return 0;
  }

  /**
   * Synthesizes from a registered dataset without giving the analyst a free look at it
   * (docs/proofs/synthetic-data.md, "Reading a registered table"; threat model:
   * docs/proofs/threat-model.md). Everything checked before the charge is public: the options, the
   * analyst's domain file, the dataset's registration (privacy unit, source, column names) and the
   * budget. Then the ledger is charged once, and only then are the rows read, through the engine's
   * {@link Source} with the registered delimiter, null string, header and format, by a total scan
   * ({@link DuckDbBackend#scanText}) and a total per-value rule ({@link Table#encoder}): values
   * outside the domain are clamped or take the attribute's declared "other" value, and an empty
   * table is synthesized like any other. No message, exit code or file depends on the rows.
   */
  private SynthesisResult synthesizeRegistered(
      Synthesizer synthesizer, Domain dom, Synthesizer.Method m, PrintWriter err) {
    try (Ledger ledger = workspace.open(); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      DatasetSpec spec = ledger.dataset(dataset);
      if (!spec.privacyUnit().isRow()) {
        throw new IllegalArgumentException("--dataset: synthesis protects one row at a time, but dataset '"
            + dataset + "' has a privacy-unit column; register a table with one row per unit (--row-privacy)");
      }
      Source source = LedgerCatalog.source(spec);
      TableSchema schema = publicSchema(spec, source, backend);
      List<String> columns = new ArrayList<>();
      for (Attribute a : dom.attributes()) {
        if (schema.column(a.name()).isEmpty()) {
          throw new IllegalArgumentException("--domain: attribute '" + a.name() + "' is not a column of dataset '"
              + dataset + "'");
        }
        columns.add(a.name());
      }
      String request = String.format(Locale.ROOT, "privet synth --method %s --epsilon %s%s --workload %s",
          m.name().toLowerCase(Locale.ROOT), epsilon, delta == null ? "" : " --delta " + delta, workload);
      // A basic-composition dataset admits (ε, δ) events only (docs/proofs/ledger-filter.md).
      PrivacyLoss cost = spec.accountant() == org.privet.ledger.AccountantKind.BASIC
          && synthesizer.privacyLoss() instanceof org.privet.accounting.Zcdp
          ? synthesizer.approxDp() : synthesizer.privacyLoss();
      Charge charge = ledger.charge(dataset, analyst.resolve(), request, List.of(cost));
      err.printf(Locale.ROOT, "privet synth: charged %s to dataset '%s' (ledger charge #%d, committed before release)%n",
          cost, dataset, charge.id());
      err.flush();
      Table.RowEncoder rows = Table.encoder(dom);
      backend.scanText(source, schema, columns, rows);
      return synthesizer.synthesize(rows.build());
    }
  }

  /**
   * The registered columns: named at registration for a CSV without a header, otherwise the
   * source's column names as the engine describes them for every query.
   */
  private static TableSchema publicSchema(DatasetSpec spec, Source source, DuckDbBackend backend) {
    if (source instanceof Source.CsvFile csv && !csv.header()) {
      List<TableSchema.Column> cols = new ArrayList<>();
      csv.columnNames().forEach(c -> cols.add(new TableSchema.Column(c, ColumnType.STRING, "VARCHAR")));
      return new TableSchema(cols);
    }
    return backend.describe(source);
  }

  static void require(Object value, String option) {
    if (value == null) {
      throw new IllegalArgumentException("missing required option " + option);
    }
  }
}
