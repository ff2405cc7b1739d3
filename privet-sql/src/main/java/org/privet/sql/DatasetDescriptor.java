package org.privet.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.privet.engine.Source;
import org.privet.engine.spi.TableSchema;

/**
 * What DP SQL knows about one dataset: its name, where its rows are, its privacy unit, its columns
 * (names and types; public) and optional public metadata: per-column value bounds (used as
 * per-row contribution bounds when a query gives none) and per-column public key sets (used for
 * {@code group_selection_strategy = PUBLIC_GROUPS}).
 *
 * <p>A dataset has one or more {@linkplain #tables() tables} under one budget (issue 25). Table 0
 * is the <em>unit table</em>: it holds the privacy unit column, and {@link #source()} and
 * {@link #schema()} are its. A single-table dataset has exactly this one table, named as the
 * dataset. Every other private table reaches the unit table through a chain of
 * {@linkplain Reference references} (each private table has exactly one reference to a private
 * table, so the references form a tree rooted at the unit table and every row has at most one
 * unit); a public table's contents are public and it references no private table. The neighbour
 * relation is the threat model's: removing a unit removes every row that references it,
 * transitively ({@code docs/proofs/engine-joins.md}). A reference to the unit table names its
 * privacy unit column (checked when the descriptor is built: a row's unit is read from it). A
 * reference's target column is meant to be a key of its table (unique values), as a foreign key
 * names a primary key: {@code dataset add-table} checks it on the data at registration, but
 * nothing here does, and files or tables may change later. Privacy does not depend on it: a row
 * keeps a unit only when all the parent rows its key meets have one and the same unit, and is
 * dropped otherwise ({@code JoinBinder}, {@code org.privet.engine.plan.Relation.KeyUnit}).
 *
 * <p>Immutable; build with {@link #builder}. Column and table look-ups are case-insensitive, as in
 * SQL.
 */
public final class DatasetDescriptor {
  private final String name;
  private final Source source;
  private final String privacyUnit;
  private final TableSchema schema;
  private final Map<String, ColumnBounds> publicBounds;
  private final Map<String, List<Object>> publicKeys;
  private final List<TableDescriptor> tables;

  /**
   * One table of a dataset.
   *
   * @param name the name queries use in FROM (unique in its dataset, ignoring case)
   * @param source where the engine reads its rows
   * @param schema its columns (public)
   * @param references this table's references to other tables of the dataset
   * @param isPublic whether its contents are public (then it references no private table)
   */
  public record TableDescriptor(String name, Source source, TableSchema schema,
      List<Reference> references, boolean isPublic) {
    public TableDescriptor {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("table name must not be blank");
      }
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(schema, "schema");
      if (schema.columns().isEmpty()) {
        throw new IllegalArgumentException("table '" + name + "': schema must have at least one column");
      }
      references = List.copyOf(Objects.requireNonNull(references, "references"));
      for (Reference r : references) {
        if (DatasetDescriptor.column(schema, r.column()).isEmpty()) {
          throw new IllegalArgumentException("references: table '" + name + "' has no column named '"
              + r.column() + "'");
        }
      }
    }

    /** The column named {@code written}, matched exactly first, then ignoring case. */
    public Optional<TableSchema.Column> column(String written) {
      return DatasetDescriptor.column(schema, written);
    }

    /** This table's reference toward the privacy unit (to a private table), if it has one. */
    Optional<Reference> parentIn(DatasetDescriptor dataset) {
      return references.stream()
          .filter(r -> dataset.table(r.table()).map(t -> !t.isPublic()).orElse(false))
          .findFirst();
    }
  }

  /**
   * A reference: this table's {@code column} holds values of {@code table.targetColumn}, a key of
   * that table (as a foreign key references a primary key).
   */
  public record Reference(String column, String table, String targetColumn) {
    public Reference {
      for (String[] p : new String[][] {{"column", column}, {"table", table},
          {"targetColumn", targetColumn}}) {
        if (p[1] == null || p[1].isBlank()) {
          throw new IllegalArgumentException("reference " + p[0] + " must not be blank");
        }
      }
    }

    @Override
    public String toString() {
      return column + " -> " + table + "." + targetColumn;
    }
  }

  /** Public bounds of a numeric column: every value lies in [lower, upper]. */
  public record ColumnBounds(double lower, double upper) {
    public ColumnBounds {
      if (!Double.isFinite(lower) || !Double.isFinite(upper) || !(lower < upper)) {
        throw new IllegalArgumentException("bounds must be finite with lower < upper, were "
            + lower + " and " + upper);
      }
    }
  }

  private DatasetDescriptor(Builder b) {
    this.name = b.name;
    this.source = b.source;
    this.privacyUnit = b.privacyUnit;
    this.schema = b.schema;
    this.publicBounds = Collections.unmodifiableMap(new LinkedHashMap<>(b.publicBounds));
    this.publicKeys = Collections.unmodifiableMap(new LinkedHashMap<>(b.publicKeys));
    List<TableDescriptor> all = new ArrayList<>();
    all.add(new TableDescriptor(b.unitTableName, b.source, b.schema, b.unitReferences, false));
    all.addAll(b.tables);
    this.tables = List.copyOf(all);
  }

  /**
   * Starts a descriptor.
   *
   * @param name the name queries use in FROM
   * @param source where the engine reads the rows
   * @param schema the columns (e.g. from {@link org.privet.engine.spi.Backend#describe})
   */
  public static Builder builder(String name, Source source, TableSchema schema) {
    return new Builder(name, source, schema);
  }

  public String name() {
    return name;
  }

  public Source source() {
    return source;
  }

  /** The privacy unit column, or empty when each row is its own privacy unit. */
  public Optional<String> privacyUnit() {
    return Optional.ofNullable(privacyUnit);
  }

  public TableSchema schema() {
    return schema;
  }

  /** Public value bounds by exact column name. */
  public Map<String, ColumnBounds> publicBounds() {
    return publicBounds;
  }

  /** Public key sets by exact column name. */
  public Map<String, List<Object>> publicKeys() {
    return publicKeys;
  }

  /**
   * The dataset's tables; index 0 is the unit table (holding the privacy unit column). A
   * single-table dataset has exactly one, named as the dataset.
   */
  public List<TableDescriptor> tables() {
    return tables;
  }

  /** The table named {@code written}, ignoring case. */
  public Optional<TableDescriptor> table(String written) {
    if (written == null) {
      return Optional.empty();
    }
    return tables.stream().filter(t -> t.name().equalsIgnoreCase(written)).findFirst();
  }

  /** Whether this dataset has more than one table. */
  public boolean isMultiTable() {
    return tables.size() > 1;
  }

  /**
   * The chain of references from table {@code name} to the unit table (empty for the unit table
   * itself), or empty if the table is public or unknown. The chain is unique: each private table
   * has exactly one reference to a private table.
   */
  public Optional<List<Reference>> unitPath(String name) {
    Optional<TableDescriptor> t = table(name);
    if (t.isEmpty() || t.get().isPublic()) {
      return Optional.empty();
    }
    List<Reference> path = new ArrayList<>();
    TableDescriptor at = t.get();
    while (at != tables.get(0)) {
      Reference r = at.parentIn(this).orElseThrow();
      path.add(r);
      at = table(r.table()).orElseThrow();
    }
    return Optional.of(List.copyOf(path));
  }

  /** The column named {@code written}, matched exactly first, then ignoring case. */
  public Optional<TableSchema.Column> column(String written) {
    return column(schema, written);
  }

  static Optional<TableSchema.Column> column(TableSchema schema, String written) {
    if (written == null) {
      return Optional.empty();
    }
    Optional<TableSchema.Column> exact = schema.column(written);
    if (exact.isPresent()) {
      return exact;
    }
    List<TableSchema.Column> matches = schema.columns().stream()
        .filter(c -> c.name().toLowerCase(Locale.ROOT).equals(written.toLowerCase(Locale.ROOT)))
        .toList();
    return matches.size() == 1 ? Optional.of(matches.get(0)) : Optional.empty();
  }

  @Override
  public String toString() {
    return "DatasetDescriptor[" + name + ", unit=" + (privacyUnit == null ? "<each row>" : privacyUnit)
        + ", " + schema.columns().size() + " columns"
        + (tables.size() > 1 ? ", " + tables.size() + " tables" : "") + "]";
  }

  /** Validating builder. */
  public static final class Builder {
    private final String name;
    private final Source source;
    private final TableSchema schema;
    private String privacyUnit;
    private boolean eachRow;
    private final Map<String, ColumnBounds> publicBounds = new LinkedHashMap<>();
    private final Map<String, List<Object>> publicKeys = new LinkedHashMap<>();
    private String unitTableName;
    private List<Reference> unitReferences = List.of();
    private final List<TableDescriptor> tables = new ArrayList<>();

    private Builder(String name, Source source, TableSchema schema) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank");
      }
      this.name = name;
      this.unitTableName = name;
      this.source = Objects.requireNonNull(source, "source");
      this.schema = Objects.requireNonNull(schema, "schema");
      if (schema.columns().isEmpty()) {
        throw new IllegalArgumentException("schema must have at least one column");
      }
    }

    /** The column identifying the privacy unit. */
    public Builder privacyUnit(String column) {
      this.privacyUnit = requireColumn("privacyUnit", column);
      return this;
    }

    /** Each row is its own privacy unit. */
    public Builder eachRowIsAUnit() {
      this.eachRow = true;
      return this;
    }

    /** Public bounds of a numeric column (used when a query gives no contribution bounds). */
    public Builder publicBounds(String column, double lower, double upper) {
      TableSchema.Column c = schema.column(requireColumn("publicBounds", column)).orElseThrow();
      if (!c.type().isNumeric()) {
        throw new IllegalArgumentException("publicBounds: column '" + column + "' is not numeric");
      }
      publicBounds.put(column, new ColumnBounds(lower, upper));
      return this;
    }

    /** The public set of values of a column (for PUBLIC_GROUPS group selection). */
    public Builder publicKeys(String column, List<?> keys) {
      requireColumn("publicKeys", column);
      if (keys == null || keys.isEmpty()) {
        throw new IllegalArgumentException("publicKeys must not be empty");
      }
      publicKeys.put(column, Collections.unmodifiableList(new ArrayList<>(keys)));
      return this;
    }

    /**
     * Names the unit table (table 0, whose source and schema this builder was started with) and
     * its references, which may point at public tables only. Without this call the unit table is
     * named as the dataset and has no references.
     */
    public Builder unitTable(String tableName, List<Reference> references) {
      if (tableName == null || tableName.isBlank()) {
        throw new IllegalArgumentException("unitTable: table name must not be blank");
      }
      requireNewTableName(tableName);
      references = List.copyOf(references);
      for (Reference r : references) {
        requireColumn("references", r.column());
      }
      this.unitTableName = tableName;
      this.unitReferences = references;
      return this;
    }

    /**
     * Adds a table (index 1, 2, ... in call order). Its name must be new (ignoring case); its
     * references are checked at {@link #build}, so tables may be added in any order.
     */
    public Builder addTable(TableDescriptor table) {
      Objects.requireNonNull(table, "table");
      requireNewTableName(table.name());
      if (unitTableName.equalsIgnoreCase(table.name())) {
        throw new IllegalArgumentException("table name '" + table.name() + "' is used twice in dataset '"
            + name + "' (it names the unit table)");
      }
      tables.add(table);
      return this;
    }

    private void requireNewTableName(String tableName) {
      if (tables.stream().anyMatch(t -> t.name().equalsIgnoreCase(tableName))) {
        throw new IllegalArgumentException("table name '" + tableName + "' is used twice in dataset '"
            + name + "'");
      }
    }

    public DatasetDescriptor build() {
      if ((privacyUnit == null) == !eachRow) {
        throw new IllegalArgumentException(
            "privacyUnit: name the privacy unit column or call eachRowIsAUnit(), exactly one");
      }
      DatasetDescriptor d = new DatasetDescriptor(this);
      validateTables(d);
      return d;
    }

    /**
     * References point at existing columns of existing tables, with compatible types; a public
     * table references no private table; every private table has exactly one reference to a
     * private table, and following them reaches the unit table (no cycles).
     */
    private static void validateTables(DatasetDescriptor d) {
      List<TableDescriptor> all = d.tables();
      boolean anyPrivate = all.stream().skip(1).anyMatch(t -> !t.isPublic());
      if (anyPrivate && d.privacyUnit().isEmpty()) {
        throw new IllegalArgumentException("privacyUnit: a dataset with several private tables needs a"
            + " privacy unit column in its unit table '" + all.get(0).name() + "'");
      }
      for (int i = 0; i < all.size(); i++) {
        TableDescriptor t = all.get(i);
        int toPrivate = 0;
        for (Reference r : t.references()) {
          TableDescriptor target = d.table(r.table()).orElseThrow(() -> new IllegalArgumentException(
              "references: table '" + t.name() + "' references unknown table '" + r.table() + "'"));
          if (target == t) {
            throw new IllegalArgumentException("references: table '" + t.name()
                + "' references itself");
          }
          TableSchema.Column from = t.column(r.column()).orElseThrow();
          TableSchema.Column to = target.column(r.targetColumn()).orElseThrow(() ->
              new IllegalArgumentException("references: table '" + target.name()
                  + "' has no column named '" + r.targetColumn() + "'"));
          if (isFloating(from.type()) || isFloating(to.type())) {
            // docs/proofs/engine-joins.md, "Key types": float equality is not one relation on
            // every backend, and the unit along a reference is read by key equality
            throw new IllegalArgumentException("references: '" + t.name() + "." + from.name() + "' and '"
                + target.name() + "." + to.name() + "': a reference and its target must not be of a"
                + " floating type (floating or decimal)");
          }
          if (from.type() != to.type() && !(from.type().isNumeric() && to.type().isNumeric())) {
            throw new IllegalArgumentException("references: '" + t.name() + "." + from.name()
                + "' and '" + target.name() + "." + to.name() + "' have different types");
          }
          if (target == all.get(0) && !t.isPublic() && d.privacyUnit().isPresent()
              && !to.name().equalsIgnoreCase(d.privacyUnit().get())) {
            // The engine reads a row's unit from this reference: another key of the unit table
            // could split one unit (several unit-table rows) into several.
            throw new IllegalArgumentException("references: '" + t.name() + "." + from.name()
                + "' references the unit table '" + target.name() + "', so it must name its privacy"
                + " unit column '" + d.privacyUnit().get() + "'");
          }
          if (!target.isPublic()) {
            if (t.isPublic()) {
              throw new IllegalArgumentException("references: public table '" + t.name()
                  + "' references private table '" + target.name() + "'");
            }
            toPrivate++;
          }
        }
        if (t.isPublic()) {
          if (i == 0) {
            throw new IllegalArgumentException("the unit table '" + t.name() + "' cannot be public");
          }
          continue;
        }
        if (i == 0 && toPrivate > 0) {
          throw new IllegalArgumentException("references: the unit table '" + t.name()
              + "' may reference public tables only");
        }
        if (i > 0 && toPrivate != 1) {
          throw new IllegalArgumentException("references: private table '" + t.name() + "' needs"
              + " exactly one reference to a private table (toward the privacy unit), has " + toPrivate);
        }
      }
      for (TableDescriptor t : all) {
        if (t.isPublic()) {
          continue;
        }
        java.util.Set<TableDescriptor> seen = new java.util.HashSet<>();
        TableDescriptor at = t;
        while (at != all.get(0)) {
          if (!seen.add(at)) {
            throw new IllegalArgumentException("references: private table '" + t.name()
                + "' does not reach the unit table '" + all.get(0).name() + "' (the references form"
                + " a cycle)");
          }
          at = d.table(at.parentIn(d).orElseThrow().table()).orElseThrow();
        }
      }
    }

    private static boolean isFloating(org.privet.engine.spi.ColumnType type) {
      return type == org.privet.engine.spi.ColumnType.FLOATING || type == org.privet.engine.spi.ColumnType.DECIMAL;
    }

    private String requireColumn(String parameter, String column) {
      if (column == null || schema.column(column).isEmpty()) {
        throw new IllegalArgumentException(parameter + ": no column named '" + column + "'");
      }
      return column;
    }
  }
}
