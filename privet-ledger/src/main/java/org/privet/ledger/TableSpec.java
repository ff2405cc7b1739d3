package org.privet.ledger;

import java.util.List;
import java.util.Optional;

/**
 * One table of a multi-table dataset (issue 25): where its rows are, and how it relates to the
 * dataset's privacy unit. The dataset's own registration ({@link DatasetSpec}) describes its first
 * table, the <em>unit table</em>, which holds the privacy-unit column; every table added after it
 * is either
 *
 * <ul>
 *   <li><b>private</b>: it has exactly one {@link TableReference} to a private table added
 *       before it (or the unit table), so each of its rows reaches the privacy unit through one
 *       chain of references; removing a unit removes every row that references it, transitively
 *       (the threat model's neighbour relation). It may also reference public tables; or
 *   <li><b>public</b>: its contents are public (a reference table such as nations), so it has no
 *       references and no privacy unit, and its values, e.g. its distinct keys, are public
 *       metadata.
 * </ul>
 *
 * <p>Since a reference names a table registered before the one that declares it, the references
 * of a dataset never form a cycle. Registered once, fixed from then on, like the public schema.
 *
 * @param name the table's name in queries, an identifier unique (ignoring case) within the dataset
 * @param source the source: an absolute file path, or the PostgreSQL table or view
 * @param format the source format
 * @param csv how to read a CSV source (ignored otherwise)
 * @param database for a {@link SourceFormat#POSTGRES} table, its database (the dataset's); empty for
 *     files
 * @param references the references of a private table: one to a private table, any to public
 *     tables (none for a public table, and none for the unit table)
 * @param isPublic whether the table's contents are public
 * @param referencedBy for a public table, the references to it from private tables added before
 *     it (the unit table among them, e.g. {@code customer.c_nationkey} to {@code
 *     nation.n_nationkey}), each written from this table's side: {@code column} is this table's
 *     (the target), {@code table.targetColumn} the referencing column ({@code
 *     --referenced-by n_nationkey=customer.c_nationkey}); empty for a private table
 */
public record TableSpec(String name, String source, SourceFormat format, CsvOptions csv,
    Optional<DatabaseSource> database, List<TableReference> references, boolean isPublic,
    List<TableReference> referencedBy) {

  /** A table that no table added before it references. */
  public TableSpec(String name, String source, SourceFormat format, CsvOptions csv,
      Optional<DatabaseSource> database, List<TableReference> references, boolean isPublic) {
    this(name, source, format, csv, database, references, isPublic, List.of());
  }

  public TableSpec {
    DatasetSpec.requireIdentifier("name", name);
    if (source == null || source.isBlank()) {
      throw new IllegalArgumentException("source must not be empty");
    }
    if (format == null || csv == null || database == null || references == null) {
      throw new IllegalArgumentException("format, csv, database and references must not be null");
    }
    if ((format == SourceFormat.POSTGRES) != database.isPresent()) {
      throw new IllegalArgumentException("a postgres source needs its database (jdbc-url), and only"
          + " a postgres source has one");
    }
    if (format == SourceFormat.POSTGRES) {
      DatabaseSource.requireTable(source);
    }
    references = List.copyOf(references);
    if (isPublic && !references.isEmpty()) {
      throw new IllegalArgumentException("references: a public table has no references (its"
          + " contents are public, it holds no privacy unit); leave out --references or --public");
    }
    referencedBy = List.copyOf(referencedBy == null ? List.of() : referencedBy);
    if (!isPublic && !referencedBy.isEmpty()) {
      throw new IllegalArgumentException("referenced-by: only a public table is referenced by the"
          + " tables added before it (a private table gives its own --references)");
    }
  }

  /** The unit table: the dataset's own source, under {@code name}. */
  static TableSpec unitTable(DatasetSpec dataset, String name) {
    return new TableSpec(name, dataset.source(), dataset.format(), dataset.csv(), dataset.database(),
        List.of(), false);
  }

  /** The references {@link #referencedBy} states, each as the referencing table declares it. */
  public List<TableReference> incoming() {
    return referencedBy.stream().map(r -> new TableReference(r.targetColumn(), r.table(), r.column())).toList();
  }

  /**
   * The table read as a dataset of its own, for what reads a source (schema inference, backends):
   * its source under the table's name, the dataset's budget, unit {@code each row}. It is never
   * registered.
   */
  public DatasetSpec asSource(DatasetSpec dataset) {
    return new DatasetSpec(name, source, format, csv, PrivacyUnit.row(), dataset.relation(),
        dataset.budget(), dataset.accountant(), PublicMetadata.NONE, database);
  }
}
