package org.privet.engine.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.privet.engine.Filter;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnLiterals;
import org.privet.engine.spi.FilterSql;
import org.privet.engine.spi.TableSchema;

/**
 * The engine's relational plan (issue 25): an immutable tree of scan, filter ({@link Select}),
 * project, join, {@link KeyUnit}, truncate and aggregate nodes. Each node states its {@link
 * Stability} once, in its Javadoc and its {@link #stability()} method; the argument that chains
 * them is {@code docs/proofs/engine-joins.md}.
 *
 * <p>The nodes below {@link Truncate} are rendered by {@link RelationSql} with a backend's {@link
 * org.privet.engine.spi.SqlDialect} as the FROM subquery of the {@link
 * org.privet.engine.spi.BoundingPlan}, which <em>is</em> the truncation (per-unit L0/L∞ bounding)
 * and the aggregation: {@link Truncate} and {@link Aggregate} describe it (for EXPLAIN and the
 * stability chain) and are not rendered here. A backend reads such a plan as a {@link
 * Source.Relational} source.
 *
 * <p>Column names: a {@link Scan} names its columns {@code alias.column}; joins keep their inputs'
 * names (aliases are unique in a plan, so names are too); a {@link Project} gives the final names.
 * Only names and public schemas decide a plan; no node reads a row when built.
 */
public sealed interface Relation {

  /** The output columns (names unique), with types from the scanned schemas. */
  TableSchema schema();

  /** This node's stability (not its inputs'). */
  Stability stability();

  /** The direct inputs, left to right. */
  List<Relation> inputs();

  /** One line naming this node, for EXPLAIN. */
  String describe();

  /** The scans of this plan, left to right. */
  default List<Scan> scans() {
    List<Scan> out = new ArrayList<>();
    if (this instanceof Scan s) {
      out.add(s);
    }
    inputs().forEach(in -> out.addAll(in.scans()));
    return out;
  }

  /** The stability of the whole chain below and including this node. */
  default Stability chainedStability() {
    Stability s = null;
    for (Relation in : inputs()) {
      Stability c = in.chainedStability();
      s = s == null ? c : new Stability(s.unitLocal() && c.unitLocal(),
          Math.max(s.rowFactor(), c.rowFactor()), Math.max(s.rowsPerUnit(), c.rowsPerUnit()), "");
    }
    return s == null ? stability() : s.then(stability());
  }

  /** The plan as an indented tree, one node per line, with each node's stability. */
  default String explain() {
    StringBuilder b = new StringBuilder();
    explain(this, 0, b);
    return b.toString();
  }

  private static void explain(Relation r, int depth, StringBuilder b) {
    b.append("  ".repeat(depth)).append(r.describe()).append("   [").append(r.stability().statement())
        .append("]\n");
    for (Relation in : r.inputs()) {
      explain(in, depth + 1, b);
    }
  }

  /**
   * A table's rows. Stability 1: the rows of a unit are that unit's rows (a public table's rows
   * carry no unit and never change between neighbours).
   *
   * @param alias the name the query gives the table (unique in the plan)
   * @param source where the backend reads it
   * @param table its public schema
   * @param isPublic whether its contents are public
   */
  record Scan(String alias, Source source, TableSchema table, boolean isPublic) implements Relation {
    public Scan {
      Objects.requireNonNull(alias, "alias");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(table, "table");
      if (source instanceof Source.Relational) {
        throw new IllegalArgumentException("a scan reads a table or file, not a plan");
      }
    }

    /** The output name of column {@code column} of this table. */
    public String name(String column) {
      return alias + "." + column;
    }

    @Override
    public TableSchema schema() {
      List<TableSchema.Column> cols = new ArrayList<>();
      for (TableSchema.Column c : table.columns()) {
        cols.add(new TableSchema.Column(name(c.name()), c.type(), c.nativeType()));
      }
      return new TableSchema(cols);
    }

    @Override
    public Stability stability() {
      return Stability.one(isPublic ? "public: the same on neighbours"
          : "stability 1: a unit's rows are its own");
    }

    @Override
    public List<Relation> inputs() {
      return List.of();
    }

    @Override
    public String describe() {
      return "Scan " + alias + (isPublic ? " (public)" : "");
    }
  }

  /**
   * The rows of {@code input} where {@code predicate} is true (SQL WHERE, three-valued). Stability
   * 1 and unit-local: a per-row decision that never adds a row nor moves it to another unit.
   *
   * @param input the rows
   * @param predicate over {@code input}'s column names; its literals are typed for their columns
   *     when the node is built ({@link ColumnLiterals#typed}), so rendering cannot fail on a value
   */
  record Select(Relation input, Filter predicate) implements Relation {
    public Select {
      Objects.requireNonNull(input, "input");
      predicate = ColumnLiterals.typed(Objects.requireNonNull(predicate, "predicate"), input.schema());
    }

    @Override
    public TableSchema schema() {
      return input.schema();
    }

    @Override
    public Stability stability() {
      return Stability.one("stability 1: per-row filter");
    }

    @Override
    public List<Relation> inputs() {
      return List.of(input);
    }

    @Override
    public String describe() {
      return "Filter";
    }
  }

  /**
   * Some columns of {@code input}, renamed. Stability 1 and unit-local: one output row per input
   * row, the unit column carried unchanged.
   *
   * @param input the rows
   * @param outputs the output columns, in order (names unique)
   */
  record Project(Relation input, List<Output> outputs) implements Relation {
    /** Output column {@code name} is {@code input}'s column {@code column}. */
    public record Output(String name, String column) {
      public Output {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(column, "column");
      }
    }

    public Project {
      Objects.requireNonNull(input, "input");
      outputs = List.copyOf(outputs);
      Set<String> seen = new HashSet<>();
      for (Output o : outputs) {
        FilterSql.column(input.schema(), o.column());
        if (!seen.add(o.name())) {
          throw new IllegalArgumentException("project: output name '" + o.name() + "' used twice");
        }
      }
      if (outputs.isEmpty()) {
        throw new IllegalArgumentException("project: no output column");
      }
    }

    @Override
    public TableSchema schema() {
      List<TableSchema.Column> cols = new ArrayList<>();
      for (Output o : outputs) {
        TableSchema.Column c = FilterSql.column(input.schema(), o.column());
        cols.add(new TableSchema.Column(o.name(), c.type(), c.nativeType()));
      }
      return new TableSchema(cols);
    }

    @Override
    public Stability stability() {
      return Stability.one("stability 1: per-row projection");
    }

    @Override
    public List<Relation> inputs() {
      return List.of(input);
    }

    @Override
    public String describe() {
      return "Project " + outputs.stream().map(Output::name).toList();
    }
  }

  /**
   * {@code input}'s columns plus one computed per row, {@code name} = {@code expr} (DOUBLE).
   * Stability 1 and unit-local: one output row per input row, nothing else changed.
   *
   * @param input the rows
   * @param name the new column's name (not one of {@code input}'s)
   * @param expr over {@code input}'s numeric columns
   */
  record Compute(Relation input, String name, Expr expr) implements Relation {
    public Compute {
      Objects.requireNonNull(input, "input");
      Objects.requireNonNull(expr, "expr");
      if (input.schema().column(name).isPresent()) {
        throw new IllegalArgumentException("compute: column '" + name + "' exists already");
      }
      check(input.schema(), expr);
    }

    private static void check(TableSchema schema, Expr e) {
      if (e instanceof Expr.Column c) {
        if (!FilterSql.column(schema, c.name()).type().isNumeric()) {
          throw new IllegalArgumentException("compute: column '" + c.name() + "' is not numeric");
        }
      } else if (e instanceof Expr.Arith a) {
        check(schema, a.left());
        check(schema, a.right());
      } else if (e instanceof Expr.Negate n) {
        check(schema, n.operand());
      }
    }

    @Override
    public TableSchema schema() {
      List<TableSchema.Column> cols = new ArrayList<>(input.schema().columns());
      cols.add(new TableSchema.Column(name, org.privet.engine.spi.ColumnType.FLOATING, "DOUBLE"));
      return new TableSchema(cols);
    }

    @Override
    public Stability stability() {
      return Stability.one("stability 1: per-row derived column");
    }

    @Override
    public List<Relation> inputs() {
      return List.of(input);
    }

    @Override
    public String describe() {
      return "Compute " + name;
    }
  }

  /** How a join keeps rows. */
  enum JoinKind {
    /** Pairs of rows whose keys are equal (NULL equals nothing). */
    INNER,
    /** As INNER, plus each left row without a match, once, with NULL right columns. */
    LEFT
  }

  /** Why a join is allowed: what each joined row's unit is. */
  enum JoinRole {
    /**
     * Along a reference between private tables: one side's key is the reference column, the other
     * side's the referenced key (unique), so a row of the referencing side meets at most one row,
     * of the same unit.
     */
    ALONG_REFERENCE,
    /** With a public table: the joined row's unit is the private side's. */
    PUBLIC,
    /**
     * On the privacy unit (a private self-join, issue 25): one key pair equates the two sides'
     * unit columns, so a row of unit w meets only rows of unit w; each side is a {@link UnitCap},
     * so a unit's joined rows are at most the product of the sides' caps (LEFT too: an unmatched
     * left row is kept once, padded, with its own unit; l·max(1, r) ≤ l·r).
     */
    UNIT
  }

  /**
   * An equi-join of two relations on {@code keys} (every pair equal).
   *
   * <p>Stability: unit-local in both roles (every output row carries the unit of its private input
   * rows, which agree along a reference). {@link JoinRole#ALONG_REFERENCE}: stability 1 for the
   * referencing side (the referenced key is unique), and the unit's joined rows are at most its
   * rows of the referencing side (plus, for LEFT with the referenced side on the left, one row per
   * unmatched referenced row). {@link JoinRole#PUBLIC}: a private row meets as many public rows as
   * hold its key, a public number not bounded here: the {@link Truncate} above bounds the unit's
   * rows whatever it is.
   *
   * @param kind INNER or LEFT
   * @param left the left input
   * @param right the right input
   * @param keys (left column, right column) pairs, at least one, of comparable types
   * @param role why the join is allowed
   */
  record Join(JoinKind kind, Relation left, Relation right, List<Key> keys, JoinRole role)
      implements Relation {
    /** {@code left} column equals {@code right} column. */
    public record Key(String left, String right) {
      public Key {
        Objects.requireNonNull(left, "left");
        Objects.requireNonNull(right, "right");
      }
    }

    public Join {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
      Objects.requireNonNull(role, "role");
      keys = List.copyOf(keys);
      if (keys.isEmpty()) {
        throw new IllegalArgumentException("join: at least one key pair");
      }
      for (Key k : keys) {
        TableSchema.Column l = FilterSql.column(left.schema(), k.left());
        TableSchema.Column r = FilterSql.column(right.schema(), k.right());
        if (l.type() != r.type() && !(l.type().isNumeric() && r.type().isNumeric())) {
          throw new IllegalArgumentException("join: '" + k.left() + "' and '" + k.right()
              + "' have types that cannot be compared");
        }
      }
      Set<String> names = new HashSet<>();
      left.schema().columns().forEach(c -> names.add(c.name()));
      for (TableSchema.Column c : right.schema().columns()) {
        if (!names.add(c.name())) {
          throw new IllegalArgumentException("join: column '" + c.name() + "' on both sides");
        }
      }
      if (role == JoinRole.UNIT) {
        // Totality after the charge: a unit's joined rows are at most the product of the caps.
        long l = left.chainedStability().rowsPerUnit();
        long r = right.chainedStability().rowsPerUnit();
        if (Stability.times(l, r) > UnitCap.MAX_JOINED_ROWS_PER_UNIT) {
          throw new IllegalArgumentException("join on the privacy unit: each side needs a unit cap"
              + " (UnitCap maxRows) whose product is at most " + UnitCap.MAX_JOINED_ROWS_PER_UNIT
              + " joined rows per unit, was " + (l == Stability.UNBOUNDED || r == Stability.UNBOUNDED
                  ? "unbounded" : l + " x " + r));
        }
      }
    }

    @Override
    public TableSchema schema() {
      List<TableSchema.Column> cols = new ArrayList<>(left.schema().columns());
      cols.addAll(right.schema().columns());
      return new TableSchema(cols);
    }

    @Override
    public Stability stability() {
      if (role == JoinRole.UNIT) {
        long l = left.chainedStability().rowsPerUnit();
        long r = right.chainedStability().rowsPerUnit();
        // LEFT: a left row of unit w meets only w's right rows, or is kept once, padded; so at
        // most l x max(1, r) = l x r rows per unit (r ≥ 1), and which happens depends on w's rows
        return new Stability(true, Math.max(l, r), Stability.times(l, r),
            "unit-local: on the privacy unit (a unit's rows meet only its own rows"
                + (kind == JoinKind.LEFT ? ", or are kept once padded" : "") + "; at most "
                + (l == Stability.UNBOUNDED || r == Stability.UNBOUNDED ? "unbounded"
                    : l + " x " + r) + " joined rows per unit)");
      }
      return role == JoinRole.ALONG_REFERENCE
          ? Stability.one("stability 1, unit-local: along a reference (many-to-one, same unit)")
          : new Stability(true, Stability.UNBOUNDED, Stability.UNBOUNDED,
              "unit-local: with a public table (rows per unit bounded by the truncation)");
    }

    /** As the default, but a join on the unit multiplies its sides' rows per unit. */
    @Override
    public Stability chainedStability() {
      Stability s = Relation.super.chainedStability();
      return role != JoinRole.UNIT ? s
          : new Stability(s.unitLocal(), s.rowFactor(), stability().rowsPerUnit(), s.statement());
    }

    @Override
    public List<Relation> inputs() {
      return List.of(left, right);
    }

    @Override
    public String describe() {
      return kind + " JOIN on " + keys.stream().map(k -> k.left() + " = " + k.right()).toList()
          + (role == JoinRole.ALONG_REFERENCE ? " (along a reference)"
              : role == JoinRole.UNIT ? " (on the privacy unit)" : " (public table)");
    }
  }

  /**
   * At most {@code maxRows} rows of each unit of {@code input}: per unit, the rows with the
   * smallest salted hash of the whole row ({@link org.privet.engine.spi.SqlDialect#saltedHash}
   * over every column of {@code input}, as the bounding plan chooses a unit's pairs), the rest
   * dropped; rows whose unit is NULL are capped alike (they belong to no unit and are dropped by
   * the truncation). Put by the join binder below each side of a join on the unit ({@link
   * JoinRole#UNIT}, a private self-join), so that a unit's joined rows are at most a public
   * product of caps, never {@code n_u²} (totality after the charge; {@code
   * docs/proofs/r2t-truncation.md}, "Self-joins").
   *
   * <p>Stability: each input row gives at most one output row, of the same unit (rowFactor 1);
   * each unit has at most {@code maxRows} rows afterwards, whatever it had before; unit-local:
   * which rows of unit u stay is a function of u's rows and the salt only (the hash reads one row,
   * the rank compares it with u's rows), so removing unit v changes no other unit's rows. Equal
   * rows hash alike: which of them stays does not change the output multiset. The cap is not the
   * truncation: the sensitivity of a release comes from {@link Truncate} above the joins.
   *
   * @param input the rows, carrying their unit in {@code unitColumn}
   * @param unitColumn the unit column of {@code input}
   * @param maxRows m, at least 1 (public: chosen from the statement only)
   * @param salt the hash's salt; it may be public (privacy rests on unit-locality, not on the
   *     choice being unpredictable)
   */
  record UnitCap(Relation input, String unitColumn, long maxRows, long salt) implements Relation {
    /**
     * The most joined rows one unit may have in a join on the unit (the product of its sides'
     * caps): 2^24. A public bound on what one unit costs the backend after the charge (time,
     * memory, a materialised temporary table of joined rows), small enough that no deployment
     * fails on it where it runs the same query without the unit: with k copies each keeps at most
     * {@link #maxRowsPerCopy}(k) rows per unit (4,096 for two, 256 for three). {@code
     * docs/proofs/r2t-truncation.md}, "Self-joins", "Totality after the charge".
     */
    public static final long MAX_JOINED_ROWS_PER_UNIT = 1L << 24;

    /**
     * The largest cap m per copy with m^k ≤ {@link #MAX_JOINED_ROWS_PER_UNIT}, for {@code copies}
     * = k ≥ 1 copies joined on the unit (the integer k-th root, rounded down: 2^24, 4,096, 256,
     * 64, 27, 16, ...; 1 from k = 25 on). Public: a function of the statement's shape only.
     *
     * @throws IllegalArgumentException if {@code copies < 1}
     */
    public static long maxRowsPerCopy(int copies) {
      if (copies < 1) {
        throw new IllegalArgumentException("copies must be at least 1");
      }
      long m = (long) Math.floor(Math.pow(MAX_JOINED_ROWS_PER_UNIT, 1.0 / copies));
      while (m > 1 && power(m, copies) > MAX_JOINED_ROWS_PER_UNIT) {
        m--; // the floating-point root may round up
      }
      while (power(m + 1, copies) <= MAX_JOINED_ROWS_PER_UNIT) {
        m++; // or down
      }
      return Math.max(1, m);
    }

    /**
     * The smallest cap m of the {@link UnitCap} nodes in {@code r} (anywhere in the tree), or 0
     * if there is none. A truncation keeping at most L rows per unit never meets a cap when L ≤
     * this m: each copy still holds at least L of a unit's rows, so a unit's truncated count over
     * a join on the unit alone is not lowered by the caps ({@code docs/proofs/r2t-truncation.md},
     * "Self-joins"). Public: a function of the plan only.
     */
    public static long smallestIn(Relation r) {
      long m = r instanceof UnitCap c ? c.maxRows() : 0;
      for (Relation in : r.inputs()) {
        long below = smallestIn(in);
        if (below > 0 && (m == 0 || below < m)) {
          m = below;
        }
      }
      return m;
    }

    /**
     * The rows per unit R2T's largest threshold keeps: L0·2^⌈log2 GS⌉ (thresholds 2^j, j = 1..
     * ⌈log2 GS⌉, each per group in at most L0 groups), saturating.
     *
     * @param l0 the unit's groups, at least 1
     * @param gs R2T's global-sensitivity bound, at least 2
     */
    public static long rowsKeptByR2T(long l0, long gs) {
      if (l0 < 1 || gs < 2) {
        throw new IllegalArgumentException("rowsKeptByR2T: L0 ≥ 1 and GS ≥ 2");
      }
      return Stability.times(l0, 1L << (64 - Long.numberOfLeadingZeros(gs - 1)));
    }

    /**
     * The largest e ≤ {@code maxExponent} with L0·2^e ≤ {@code cap}: the L∞ estimate's read
     * limited so that its truncation keeps at most {@code cap} rows per unit ({@code
     * org.privet.engine.ContributionBoundEstimate#withMaxExponent}); -1 if even L0·1 &gt; cap.
     */
    public static int largestExponentWithin(long cap, long l0, int maxExponent) {
      if (l0 < 1 || maxExponent < 0) {
        throw new IllegalArgumentException("largestExponentWithin: L0 ≥ 1 and maxExponent ≥ 0");
      }
      return cap < l0 ? -1 : Math.min(maxExponent, 63 - Long.numberOfLeadingZeros(cap / l0));
    }

    /** b^k, saturating at {@link Stability#UNBOUNDED}. */
    private static long power(long b, int k) {
      long p = 1;
      for (int i = 0; i < k && p != Stability.UNBOUNDED; i++) {
        p = Stability.times(p, b);
      }
      return p;
    }

    public UnitCap {
      Objects.requireNonNull(input, "input");
      FilterSql.column(input.schema(), unitColumn);
      if (maxRows < 1) {
        throw new IllegalArgumentException("unit cap: at least one row per unit");
      }
    }

    @Override
    public TableSchema schema() {
      return input.schema();
    }

    @Override
    public Stability stability() {
      return new Stability(true, 1, maxRows, "stability 1, unit-local: at most " + maxRows
          + " row(s) per unit, by salted hash of the unit's own rows");
    }

    @Override
    public List<Relation> inputs() {
      return List.of(input);
    }

    @Override
    public String describe() {
      return "Cap per unit " + unitColumn + ": at most " + maxRows + " row(s) (salted hash of each"
          + " row)";
    }
  }

  /**
   * The values k of {@code key} in {@code input} whose rows all carry one and the same unit, each
   * with that unit (SQL: {@code GROUP BY key HAVING COUNT(*) = COUNT(unit) AND MIN(unit) =
   * MAX(unit)}): a key held by rows of two units, or by a row without a unit, is left out. A child
   * joined INNER to this on its reference column keeps only the rows whose parents all have one
   * unit, and gets that unit; so a reference whose target is not a key (data changed after
   * registration, a descriptor built in Java) still gives each row at most one unit, the same on
   * neighbours ({@code docs/proofs/engine-joins.md}, "Keys").
   *
   * <p>Stability: one output row per kept key, keys unique (a join on it is many-to-one, stability
   * 1). Unit-local for the rows it labels: a key is kept with u only when all its rows have unit u;
   * removing v ≠ u removes none of them (a row reaching v does not have unit u) and adds none, so
   * the key stays, with u; a key with a row of v is left out, or kept with v.
   *
   * @param input the rows, carrying their unit in {@code unit} (NULL: none)
   * @param key the key column of {@code input} (the referenced column)
   * @param unit the unit column of {@code input}
   * @param keyName the output name of the key
   * @param unitName the output name of the key's unit
   */
  record KeyUnit(Relation input, String key, String unit, String keyName, String unitName)
      implements Relation {
    public KeyUnit {
      Objects.requireNonNull(input, "input");
      FilterSql.column(input.schema(), key);
      FilterSql.column(input.schema(), unit);
      Objects.requireNonNull(keyName, "keyName");
      Objects.requireNonNull(unitName, "unitName");
      if (keyName.equals(unitName)) {
        throw new IllegalArgumentException("key unit: output names must differ");
      }
    }

    @Override
    public TableSchema schema() {
      TableSchema.Column k = FilterSql.column(input.schema(), key);
      TableSchema.Column u = FilterSql.column(input.schema(), unit);
      return new TableSchema(List.of(new TableSchema.Column(keyName, k.type(), k.nativeType()),
          new TableSchema.Column(unitName, u.type(), u.nativeType())));
    }

    @Override
    public Stability stability() {
      return new Stability(true, 1, Stability.UNBOUNDED,
          "unique keys; a key is kept only when all its rows have one unit");
    }

    @Override
    public List<Relation> inputs() {
      return List.of(input);
    }

    @Override
    public String describe() {
      return "Unit per key " + key + " (keys whose rows all have one unit)";
    }
  }

  /**
   * The rows of {@code input} except those whose {@code column} holds a key that {@code keys}'s
   * table holds but {@link KeyUnit} leaves out (a broken key: rows of two units, or a row without
   * a unit); NULL and keys its table does not hold stay (SQL: an anti-join with {@code GROUP BY
   * key HAVING NOT (COUNT(*) = COUNT(unit) AND MIN(unit) = MAX(unit))}). Where the join binder puts
   * it (above an all-INNER join in which {@code input}'s rows of {@code column} meet their
   * reference's target, and their unit is taken from another table) it keeps exactly the rows the
   * INNER join with {@link KeyUnit} below the joins keeps: a joined row's key is held by the
   * target table, so "not broken" is "kept by KeyUnit" there. Cheaper: the broken keys are few
   * (none when the reference's target is a key), so the anti-join's hash table is small and the
   * database plans the joins as without it ({@code docs/proofs/engine-joins.md}, "Keys").
   *
   * <p>Stability 1 and unit-local as {@link KeyUnit}: a per-row decision on the row's key, by a
   * set of keys whose membership for a key of unit u changes only with rows of u or with rows
   * that make it broken ({@link KeyUnit}'s argument).
   *
   * @param input the rows
   * @param column the reference column of {@code input} (the key looked up)
   * @param keys the reference target's keys and units
   */
  record DropBrokenKeys(Relation input, String column, KeyUnit keys) implements Relation {
    public DropBrokenKeys {
      Objects.requireNonNull(input, "input");
      Objects.requireNonNull(keys, "keys");
      TableSchema.Column c = FilterSql.column(input.schema(), column);
      TableSchema.Column k = FilterSql.column(keys.input().schema(), keys.key());
      if (c.type() != k.type() && !(c.type().isNumeric() && k.type().isNumeric())) {
        throw new IllegalArgumentException("broken keys: '" + column + "' and '" + keys.key()
            + "' have types that cannot be compared");
      }
    }

    @Override
    public TableSchema schema() {
      return input.schema();
    }

    @Override
    public Stability stability() {
      return Stability.one("stability 1: drops rows whose key's parent rows have no one unit");
    }

    @Override
    public List<Relation> inputs() {
      return List.of(input, keys);
    }

    @Override
    public String describe() {
      return "Drop rows whose " + column + " is a broken key (parent rows without one unit)";
    }
  }

  /**
   * Contribution bounding per unit over the joined rows (the truncation): for each unit keep at
   * most {@code l0} groups (salted-hash selection) and at most {@code lInf} rows per group, as the
   * {@link org.privet.engine.spi.BoundedAggregation} contract states. Stability: each unit has at
   * most l0·lInf rows afterwards, whatever its rows before; unit-local (the choice reads the unit's
   * own rows and the salt only). Rendered by the bounding plan, not by {@link RelationSql}.
   *
   * @param input the rows, carrying the unit in {@code unitColumn}
   * @param unitColumn the derived unit column
   * @param l0 max groups per unit
   * @param lInf max rows per unit per group
   * @param how how the bounds were chosen (given, or estimated privately and at what share)
   */
  record Truncate(Relation input, String unitColumn, int l0, int lInf, String how) implements Relation {
    public Truncate {
      Objects.requireNonNull(input, "input");
      FilterSql.column(input.schema(), unitColumn);
      if (l0 < 1 || lInf < 1) {
        throw new IllegalArgumentException("truncate: l0 and lInf must be positive");
      }
      Objects.requireNonNull(how, "how");
    }

    @Override
    public TableSchema schema() {
      return input.schema();
    }

    @Override
    public Stability stability() {
      long cap = Math.multiplyHigh(l0, lInf) != 0 ? Stability.UNBOUNDED : (long) l0 * lInf;
      return new Stability(true, 1, cap, "at most " + l0 + " group(s) x " + lInf
          + " row(s) per unit");
    }

    @Override
    public List<Relation> inputs() {
      return List.of(input);
    }

    @Override
    public String describe() {
      return "Truncate per unit " + unitColumn + ": L0 = " + l0 + ", Linf = " + lInf + " (" + how + ")";
    }
  }

  /**
   * The DP aggregation of the truncated rows per group (noise added in Java). Its sensitivity is
   * the bounding plan's ({@code docs/proofs/engine-bounding.md}), computed from the truncation's
   * l0·lInf and the value bounds. Rendered by the bounding plan, not by {@link RelationSql}.
   *
   * @param input the truncated rows
   * @param groupBy the group columns
   * @param aggregates the released aggregates, by name
   */
  record Aggregate(Relation input, List<String> groupBy, List<String> aggregates) implements Relation {
    public Aggregate {
      Objects.requireNonNull(input, "input");
      groupBy = List.copyOf(groupBy);
      aggregates = List.copyOf(aggregates);
      groupBy.forEach(g -> FilterSql.column(input.schema(), g));
    }

    @Override
    public TableSchema schema() {
      return input.schema();
    }

    @Override
    public Stability stability() {
      return new Stability(true, 1, 1, "DP release: sensitivity from the truncation's bounds");
    }

    @Override
    public List<Relation> inputs() {
      return List.of(input);
    }

    @Override
    public String describe() {
      return "Aggregate " + aggregates + (groupBy.isEmpty() ? "" : " by " + groupBy);
    }
  }
}
