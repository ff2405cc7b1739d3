package org.privet.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The rules a table must meet to join a registered dataset (issue 25), checked against the
 * registration only (names, schemas, references: public metadata), never against the data, before
 * anything is stored; each refusal names the parameter.
 *
 * <ul>
 *   <li>its name is an identifier that differs, ignoring case, from the dataset's other tables and
 *       from the dataset's own name (unless that is the unit table's);
 *   <li>its source is read by the dataset's backend: files for a dataset of files, the dataset's
 *       own database for a PostgreSQL dataset (one query joins them in one place);
 *   <li>a public table has no references; a private table has exactly one reference to a private
 *       table already in the dataset (so every private table reaches the unit table along one
 *       path, each row has one unit, and references never form a cycle), and may reference public
 *       tables too; a reference to the unit table names its privacy unit column (the engine reads
 *       a row's unit from that reference); each reference goes from a column of its schema to a
 *       column of the target's schema of the same type, not a floating one ({@code double}:
 *       float equality is not one relation on every backend, docs/proofs/engine-joins.md,
 *       "Keys"), which must be a key of the target (checked on the data by the curator's {@code LedgerCatalog.addTable}, not here);
 *   <li>a public table may be declared referenced by private tables added before it ({@code
 *       --referenced-by}, e.g. the unit table's {@code c_nationkey}, which no {@code add-table}
 *       could declare), under the same type rules, at most once per referencing column;
 *   <li>a dataset whose unit is each row ({@code --row-privacy}) takes public tables only: its rows
 *       have no unit column that a reference could lead to.
 * </ul>
 */
final class TableRules {
  private TableRules() {}

  /**
   * Checks what of {@code table} can be checked without its schema (so before its source is read):
   * its name, its backend, its kind, and the tables its references name.
   *
   * @throws IllegalArgumentException naming the parameter
   */
  static void place(DatasetSpec dataset, List<DatasetTable> tables, TableSpec table) {
    DatasetTable unit = tables.get(0);
    if (unit.schema().isEmpty()) {
      throw new IllegalArgumentException("dataset: '" + dataset.name() + "' has no public schema (it"
          + " was registered before schemas were kept); fix one first with privet dataset fix-schema");
    }
    String lower = table.name().toLowerCase(Locale.ROOT);
    for (DatasetTable t : tables) {
      if (t.name().toLowerCase(Locale.ROOT).equals(lower)) {
        throw new IllegalArgumentException("name: dataset '" + dataset.name() + "' has a table named '"
            + t.name() + "' already (table names differ ignoring case)");
      }
    }
    if (dataset.name().toLowerCase(Locale.ROOT).equals(lower)) {
      throw new IllegalArgumentException("name: a table cannot be named as its dataset '"
          + dataset.name() + "'");
    }
    if (!table.database().equals(dataset.database())) {
      throw new IllegalArgumentException(dataset.database().isPresent()
          ? "jdbc-url: the tables of dataset '" + dataset.name() + "' are in its database "
              + dataset.database().get().jdbcUrl() + " (same --jdbc-url, --db-user and password"
              + " source), so that a query joins them there; give --table only"
          : "jdbc-url: the tables of dataset '" + dataset.name() + "' are files (CSV or Parquet),"
              + " read by one backend; give --source FILE");
    }
    if (table.isPublic()) {
      // TableSpec refuses references on a public table; tables added before it may reference it
      for (TableReference r : table.referencedBy()) {
        DatasetTable from = target("referenced-by", dataset, tables, r);
        if (from.spec().isPublic()) {
          throw new IllegalArgumentException("referenced-by: " + from.name() + " is public; only a"
              + " private table (e.g. the unit table " + unit.name() + ") is declared to reference a public table");
        }
      }
      return;
    }
    if (dataset.privacyUnit().isRow()) {
      throw new IllegalArgumentException("references: dataset '" + dataset.name() + "' protects each"
          + " row (--row-privacy), so no column leads to its unit; only --public tables can be added");
    }
    List<TableReference> toPrivate = new ArrayList<>();
    for (TableReference r : table.references()) {
      if (r.references(table.name())) {
        throw new IllegalArgumentException("references: table '" + table.name() + "' cannot reference"
            + " itself (" + r + "); its rows reach the privacy unit through another table");
      }
      if (!target(dataset, tables, r).spec().isPublic()) {
        toPrivate.add(r);
      }
    }
    if (toPrivate.isEmpty()) {
      throw new IllegalArgumentException("references: a private table must reach the privacy unit"
          + " through a reference to a private table of dataset '" + dataset.name() + "' (--references"
          + " COLUMN=TABLE.COLUMN, e.g. to " + unit.name() + "), or be --public; it gives "
          + (table.references().isEmpty() ? "none" : "only references to public tables " + table.references()));
    }
    if (toPrivate.size() > 1) {
      throw new IllegalArgumentException("references: a private table reaches the privacy unit through"
          + " exactly one reference to a private table (so each row has one unit); '" + table.name()
          + "' gives " + toPrivate.size() + ": " + toPrivate);
    }
  }

  /**
   * Checks {@code table} with its schema against the dataset's tables so far ({@link #place}, then
   * its references' columns and types) and returns it with its references spelled as registered
   * (table and column names as in their schemas).
   *
   * @throws IllegalArgumentException naming the parameter; nothing is stored then
   */
  static TableSpec check(DatasetSpec dataset, List<DatasetTable> tables, TableSpec table,
      RegisteredSchema schema) {
    place(dataset, tables, table);
    schema.requireFits(table.asSource(dataset));
    List<TableReference> spelled = new ArrayList<>();
    for (TableReference r : table.references()) {
      DatasetTable target = target(dataset, tables, r);
      RegisteredSchema.Column from = column(schema, r.column()).orElseThrow(() ->
          new IllegalArgumentException("references: column '" + r.column() + "' is not in the schema"
              + " of table '" + table.name() + "' " + schema.names()));
      RegisteredSchema targetSchema = target.schema().orElseThrow();
      RegisteredSchema.Column to = column(targetSchema, r.targetColumn()).orElseThrow(() ->
          new IllegalArgumentException("references: column '" + r.targetColumn() + "' is not in the"
              + " schema of table '" + target.name() + "' " + targetSchema.names()));
      requireKeyTypes("references", table.name(), from, target.name(), to);
      if (target == tables.get(0) && !target.spec().isPublic()
          && !to.name().equalsIgnoreCase(dataset.privacyUnit().columnName().orElseThrow())) {
        // The engine reads a row's unit from its reference to the unit table: that reference must
        // hold the unit itself, or one unit's rows would count as several units.
        throw new IllegalArgumentException("references: " + table.name() + "." + from.name() + " references"
            + " the unit table '" + target.name() + "', so it must reference its privacy unit column "
            + target.name() + "." + dataset.privacyUnit().columnName().orElseThrow() + ", not "
            + target.name() + "." + to.name());
      }
      TableReference s = new TableReference(from.name(), target.name(), to.name());
      if (spelled.contains(s)) {
        throw new IllegalArgumentException("references: " + s + " is given twice");
      }
      spelled.add(s);
    }
    List<TableReference> spelledBy = new ArrayList<>();
    for (TableReference r : table.referencedBy()) {
      DatasetTable source = target("referenced-by", dataset, tables, r);
      RegisteredSchema.Column to = column(schema, r.column()).orElseThrow(() ->
          new IllegalArgumentException("referenced-by: column '" + r.column() + "' is not in the schema"
              + " of table '" + table.name() + "' " + schema.names()));
      RegisteredSchema sourceSchema = source.schema().orElseThrow();
      RegisteredSchema.Column from = column(sourceSchema, r.targetColumn()).orElseThrow(() ->
          new IllegalArgumentException("referenced-by: column '" + r.targetColumn() + "' is not in the"
              + " schema of table '" + source.name() + "' " + sourceSchema.names()));
      requireKeyTypes("referenced-by", source.name(), from, table.name(), to);
      TableReference s = new TableReference(to.name(), source.name(), from.name());
      boolean declared = source.spec().references().stream()
          .anyMatch(x -> x.column().equals(from.name()) && x.references(table.name()));
      if (spelledBy.stream().anyMatch(x -> x.table().equals(s.table()) && x.targetColumn().equals(s.targetColumn()))
          || declared) {
        throw new IllegalArgumentException("referenced-by: " + source.name() + "." + from.name()
            + " is given a reference to " + table.name() + " twice");
      }
      spelledBy.add(s);
    }
    return new TableSpec(table.name(), table.source(), table.format(), table.csv(), table.database(),
        spelled, table.isPublic(), spelledBy);
  }

  /**
   * A reference's column and its target: the same type (or both numeric), and not a floating one.
   *
   * @throws IllegalArgumentException naming {@code parameter}
   */
  private static void requireKeyTypes(String parameter, String fromTable, RegisteredSchema.Column from,
      String toTable, RegisteredSchema.Column to) {
    if (from.type().equals("double") || to.type().equals("double")) {
      // A unit is read along references by key equality (KeyUnit groups the parent rows by the
      // key): docs/proofs/engine-joins.md, "Keys", argues for values with one equality on every
      // backend, which floating values (NaN, -0.0, a DECIMAL read as double) do not have.
      throw new IllegalArgumentException(parameter + ": " + fromTable + "." + from.name() + " ("
          + from.type() + ") -> " + toTable + "." + to.name() + " (" + to.type() + "): a reference"
          + " and its target must not be of a floating type (double, which includes DECIMAL); use an"
          + " integer, string or date key");
    }
    if (!from.type().equals(to.type()) && !(from.isNumeric() && to.isNumeric())) {
      throw new IllegalArgumentException(parameter + ": " + fromTable + "." + from.name() + " ("
          + from.type() + ") cannot reference " + toTable + "." + to.name() + " (" + to.type()
          + "): the types differ");
    }
  }

  private static DatasetTable target(DatasetSpec dataset, List<DatasetTable> tables, TableReference r) {
    return target("references", dataset, tables, r);
  }

  private static DatasetTable target(String parameter, DatasetSpec dataset, List<DatasetTable> tables,
      TableReference r) {
    return tables.stream().filter(t -> r.references(t.name())).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(parameter + ": dataset '" + dataset.name()
            + "' has no table '" + r.table() + "' (" + r + "); its tables are "
            + tables.stream().map(DatasetTable::name).toList()));
  }

  /** The column a written name denotes: the one of that name, else the one equal ignoring case. */
  private static Optional<RegisteredSchema.Column> column(RegisteredSchema schema, String written) {
    Optional<RegisteredSchema.Column> exact =
        schema.columns().stream().filter(c -> c.name().equals(written)).findFirst();
    return exact.isPresent() ? exact
        : schema.columns().stream().filter(c -> c.name().equalsIgnoreCase(written)).findFirst();
  }
}
