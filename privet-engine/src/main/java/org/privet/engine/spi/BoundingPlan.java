package org.privet.engine.spi;

import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The {@link BoundedAggregation} contract as one SQL statement, written once for every SQL backend
 * and rendered by a {@link SqlDialect}. The statement returns one row per group (in key order,
 * NULLs last, so that seeded runs are reproducible); {@link #group} reads it.
 *
 * <p>The chain of common table expressions, each the step of the contract with the same name
 * (argued in {@code docs/proofs/engine-bounding.md}):
 * <ol>
 *   <li>{@code src}: the filtered rows (NULL units dropped, rows restricted to public keys), with
 *       the unit as {@code __u}, the group columns as {@code __g0, __g1, ...}, per fixed-point
 *       measure its per-row value {@code __v<i>} and per binned measure its cell {@code __b<i>};
 *   <li>{@code pairs}: per (unit, group) pair its row count {@code __n} and per measure the exact
 *       sum {@code __s<i>}, count {@code __c<i>} and sum of squares {@code __q<i>};
 *   <li>{@code keptpairs} (L0): a pair is kept iff at most L0 of its unit's pairs have a salted
 *       hash ≤ its own (ties at the boundary all dropped); with a total row cap m
 *       ({@link BoundedAggregation#maxRowsContributed()}) instead, in salted-hash order each pair
 *       keeps {@code __a} = what is left of the unit's m rows (a tie past m drops all tied pairs);
 *   <li>{@code kept} (L∞, pair clamp): counts capped at L∞ (with a total row cap: at the pair's
 *       {@code __a}), sums rescaled ⌊s·L∞/c⌋, then clamped;
 *   <li>{@code agg}: per group the unit count, Σ rows, and the sums saturated at {@link
 *       Measure#SUM_CAP}, part by part;
 *   <li>{@code cells<i>}, {@code capped<i>}, {@code bins<i>}: per kept pair the first L∞ non-ignored
 *       rows in order of (salted hash of (unit, cell), cell), listed per group.
 * </ol>
 * Row-level specs (no unit) skip {@code pairs} to {@code kept}: each row is its own pair.
 *
 * <p>Before anything runs the constructor refuses (naming the part, never a value) what the plan
 * does not implement: unknown SPI record components that are set (a contract extension added later
 * must fail closed, not be silently ignored) and unknown columns.
 */
public final class BoundingPlan {
  private final BoundedAggregation spec;
  private final TableSchema schema;
  private final String from;
  private final SqlDialect d;
  private final List<String> groups; // __g0, __g1, ...

  /**
   * @param spec the aggregation
   * @param schema the source's columns
   * @param from the source as SQL text usable in a FROM clause (a quoted name or a subquery)
   * @param dialect the database's spelling
   * @throws IllegalArgumentException if the spec uses a part or a column the plan cannot honour
   */
  public BoundingPlan(BoundedAggregation spec, TableSchema schema, String from, SqlDialect dialect) {
    this.spec = spec;
    this.schema = schema;
    this.from = from;
    this.d = dialect;
    this.groups = IntStream.range(0, spec.groupBy().size()).mapToObj(i -> "__g" + i).toList();
    refuseUnknownParts(spec, SPEC_PARTS);
    for (Measure m : spec.measures()) {
      if (m instanceof Measure.PairRows p) {
        refuseUnknownParts(p, PAIR_ROWS_PARTS);
        if (!spec.unitColumn().map(p.column()::equals).orElse(false)) {
          throw new IllegalArgumentException("a pair-rows measure counts the pairs of the spec's "
              + "unit column: it needs that unit column");
        }
        continue;
      }
      if (m instanceof Measure.PairValues v) {
        refuseUnknownParts(v, PAIR_VALUES_PARTS);
        if (!unitLevel()) {
          throw new IllegalArgumentException("a pair-values measure needs a unit column");
        }
        FilterSql.column(schema, v.column());
        continue;
      }
      refuseUnknownParts((Record) m, m instanceof Measure.FixedPointSum ? SUM_PARTS : BINS_PARTS);
      FilterSql.column(schema, m.column());
      if (m instanceof Measure.FixedPointSum f && f.pairClamp() != null) {
        refuseUnknownParts(f.pairClamp(), CLAMP_PARTS);
      }
    }
    spec.unitColumn().ifPresent(u -> FilterSql.column(schema, u));
    spec.groupBy().forEach(g -> FilterSql.column(schema, g));
  }

  private static final Set<String> SPEC_PARTS = Set.of("source", "filter", "unitColumn", "groupBy",
      "publicGroups", "l0", "lInf", "salt", "measures", "maxRowsContributed");
  private static final Set<String> SUM_PARTS = Set.of("column", "lower", "upper", "scaleExponent",
      "center", "squares", "pairClamp", "rows");
  private static final Set<String> BINS_PARTS = Set.of("column", "lower", "upper", "bins",
      "logScale");
  private static final Set<String> PAIR_ROWS_PARTS = Set.of("column", "bins");
  private static final Set<String> PAIR_VALUES_PARTS = Set.of("column", "lower", "upper",
      "scaleExponent", "bins");
  private static final Set<String> CLAMP_PARTS = Set.of("lower", "upper", "allRows");

  /**
   * Fails closed on contract extensions the plan does not implement yet: a record component it does
   * not know (added to the SPI later) must be unset (null, empty, false or zero), otherwise the
   * spec is refused rather than silently computed without it.
   */
  private static void refuseUnknownParts(Record r, Set<String> known) {
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      if (known.contains(c.getName())) {
        continue;
      }
      Object v;
      try {
        v = c.getAccessor().invoke(r);
      } catch (ReflectiveOperationException e) {
        v = e;
      }
      boolean unset = v == null || Boolean.FALSE.equals(v) || Optional.empty().equals(v)
          || (v instanceof Number n && n.doubleValue() == 0)
          || (v instanceof java.util.Collection<?> col && col.isEmpty());
      if (!unset) {
        throw new IllegalArgumentException("the SQL bounding plan does not implement '"
            + c.getName() + "' of " + r.getClass().getSimpleName() + " yet");
      }
    }
  }

  private boolean unitLevel() {
    return spec.unitColumn().isPresent();
  }

  /** Whether the L0 = 1 minimum-hash strategy is used (the dialect allows it, and it applies). */
  public boolean usesMinHashJoin() {
    return d.minHashJoin() && unitLevel() && !groups.isEmpty() && spec.l0() == 1
        && spec.maxRowsContributed() == 0
        && spec.measures().stream().noneMatch(m -> m instanceof Measure.PairValues);
  }

  /**
   * Whether a total row cap per unit applies across groups (per pair allowance {@code __a}):
   * without groups a unit has one pair, and the cap is L∞ = m itself.
   */
  private boolean rowsTotal() {
    return spec.maxRowsContributed() > 0 && unitLevel() && !groups.isEmpty();
  }

  private boolean hasBins() {
    return spec.measures().stream().anyMatch(m -> m instanceof Measure.Bins);
  }

  private String groupList(String prefix) {
    return groups.stream().map(g -> prefix + g).collect(Collectors.joining(", "));
  }

  private String groupPrefix() {
    return groups.isEmpty() ? "" : groupList("") + ", ";
  }

  private String groupByClause() {
    return groups.isEmpty() ? "" : " GROUP BY " + groupList("");
  }

  private String wide(String x) {
    return "CAST(" + x + " AS " + d.wideInteger() + ")";
  }

  private String clamp(TableSchema.Column column, double lower, double upper) {
    return "LEAST(GREATEST(" + d.asDouble(column) + ", " + d.dbl(lower) + "), " + d.dbl(upper)
        + ")";
  }

  /**
   * NULL for NULL and NaN (tested first: some databases order NaN above +∞, so GREATEST/LEAST
   * would turn it into the upper bound).
   */
  private String ignoredGuard(TableSchema.Column column) {
    String x = d.asDouble(column);
    return "CASE WHEN " + x + " IS NULL OR " + d.isNaN(x) + " THEN NULL ELSE ";
  }

  private TableSchema.Column column(String name) {
    return FilterSql.column(schema, name);
  }

  /** rnd(clamp(x)·2^k) of column {@code x}: the multiplication by a power of two is exact. */
  private String scaled(Measure.FixedPointSum f, TableSchema.Column x) {
    return d.roundToBigint(clamp(x, f.lower(), f.upper()) + " * "
        + d.dbl(Math.scalb(1.0, f.scaleExponent())));
  }

  /**
   * v = rnd(clamp(x)·2^k) − rowCenter of column {@code x}, NULL for NULL/NaN; |v| ≤ 2^31 (checked
   * by the measure).
   */
  private String fixedPoint(Measure.FixedPointSum f, TableSchema.Column x) {
    if (f.rows()) {
      return d.bigint(1); // a row count: u = 1 on every row, the column is not read
    }
    return ignoredGuard(x) + scaled(f, x)
        + (f.rowCenter() == 0 ? "" : " - " + d.bigint(f.rowCenter())) + " END";
  }

  /**
   * Minimum-hash strategy: the source column {@code name} as {@code src} carries it, {@code __x<j>}
   * (j its index among the distinct columns of the fixed-point measures), with its type, so that
   * the per-row values are computed after the join, on the kept rows only.
   */
  private TableSchema.Column rawColumn(String name) {
    int j = rawColumns().indexOf(name);
    TableSchema.Column c = column(name);
    return new TableSchema.Column("__x" + j, c.type(), c.nativeType());
  }

  /** The distinct source columns read by the fixed-point measures, in measure order. */
  private List<String> rawColumns() {
    return spec.measures().stream().filter(m -> m instanceof Measure.FixedPointSum)
        .map(Measure::column).distinct().toList();
  }

  /** A BIGINT expression clamped to the pair clamp's bounds (|bounds| ≤ 2^62: BIGINT). */
  private String pairClamped(String expr, Measure.PairClamp pc) {
    return "LEAST(GREATEST(" + expr + ", " + d.bigint(pc.lower()) + "), " + d.bigint(pc.upper())
        + ")";
  }

  /**
   * A pair's (uncentred, wide) bounded sum clamped to the pair clamp, then centred by
   * center·{@code count} (Measure.FixedPointSum step 3): BIGINT without a centre, else in the wide
   * type (only the engine knows that the centred result fits 64 bits).
   */
  private String clampedAndCentred(String expr, Measure.FixedPointSum f, String count) {
    String clamped = "CAST(" + pairClamped(expr, f.pairClamp()) + " AS BIGINT)";
    return f.center() == 0 ? clamped
        : "(" + wide(clamped) + " - " + wide(d.bigint(f.center())) + " * " + count + ")";
  }

  /** The per-row value; row-level units: each row is its own pair, so a pair clamp applies here. */
  private String rowValue(Measure.FixedPointSum f) {
    TableSchema.Column x = column(f.column());
    if (unitLevel() || f.pairClamp() == null) {
      return fixedPoint(f, x);
    }
    if (f.rows()) {
      return clampedAndCentred(d.bigint(1), f, "1");
    }
    return ignoredGuard(x) + clampedAndCentred(scaled(f, x), f, "1") + " END";
  }

  /** i = min(⌊(clamp(x) − lower)·bins/(upper − lower)⌋, bins − 1), NULL for NULL/NaN. */
  private String cell(Measure.Bins b) {
    if (b.logScale()) {
      return logCell(b);
    }
    double perUnit = b.bins() / (b.upper() - b.lower());
    return ignoredGuard(column(b.column())) + "LEAST(" + d.roundToBigint("FLOOR(("
        + clamp(column(b.column()), b.lower(), b.upper()) + " - " + d.dbl(b.lower()) + ") * "
        + d.dbl(perUnit) + ")") + ", " + d.bigint(b.bins() - 1L) + ") END";
  }

  /**
   * The sign-symmetric power-of-two cell documented on {@link Measure.Bins}: with M = max(|c|,
   * 2^m), e₀ = ⌊ln M / ln 2⌋ in floating point (off by at most one), corrected exactly by comparing
   * M with 2^e₀ and 2^(e₀+1) (POWER of 2 to an integer is exact in IEEE arithmetic), so e =
   * ⌊log₂ M⌋ exactly; no row can make it fail (M ≥ 2^m &gt; 0).
   */
  private String logCell(Measure.Bins b) {
    int k = b.bins() / 2;
    String c = clamp(column(b.column()), b.lower(), b.upper());
    String floorMin = d.dbl(Math.scalb(1.0, b.logMinExponent()));
    String invLn2 = d.dbl(1 / Math.log(2));
    String two = d.dbl(2.0);
    java.util.function.Function<String, String> offset = mag -> {
      String m = "GREATEST(" + mag + ", " + floorMin + ")";
      String e0 = "FLOOR(LN(" + m + ") * " + invLn2 + ")";
      String e = "(" + e0 + " + CASE WHEN " + m + " >= POWER(" + two + ", " + e0 + " + 1) THEN 1"
          + " WHEN " + m + " < POWER(" + two + ", " + e0 + ") THEN -1 ELSE 0 END)";
      return "LEAST(GREATEST(" + d.roundToBigint(e) + " - " + d.bigint(b.logMinExponent()) + ", "
          + d.bigint(0) + "), " + d.bigint(k - 1L) + ")";
    };
    return ignoredGuard(column(b.column())) + "CASE WHEN " + c + " >= " + d.dbl(0.0) + " THEN "
        + d.bigint(k) + " + " + offset.apply(c) + " ELSE " + d.bigint(k - 1L) + " - "
        + offset.apply("-(" + c + ")") + " END END";
  }

  /** The salted hash of the pair (unit, groups) of relation {@code prefix}. */
  private String pairHash(String prefix) {
    List<String> args = new ArrayList<>();
    args.add(prefix + "__u");
    groups.forEach(g -> args.add(prefix + g));
    return d.saltedHash(args, spec.salt());
  }

  /** The WITH clause: {@code __keys} for public groups, then {@code src}. */
  private String sourceCte(List<String> valueColumns) {
    StringBuilder s = new StringBuilder("WITH ");
    List<List<Object>> keys = spec.publicGroups().orElse(null);
    boolean semiJoin = keys != null && !keys.isEmpty() && !groups.isEmpty();
    if (semiJoin) {
      List<String> rows = new ArrayList<>();
      for (List<Object> key : keys) {
        List<String> vals = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
          vals.add(d.literal(key.get(i), column(spec.groupBy().get(i))));
        }
        rows.add("(" + String.join(", ", vals) + ")");
      }
      s.append("__keys AS (SELECT * FROM ").append(d.values(rows, "__t",
          IntStream.range(0, groups.size()).mapToObj(i -> "__k" + i).toList())).append("),\n");
    }
    boolean minHash = usesMinHashJoin();
    // Minimum-hash strategy: src is read twice; re-reading is cheaper than holding it.
    s.append(minHash ? "src AS NOT MATERIALIZED (SELECT " : "src AS (SELECT ");
    List<String> cols = new ArrayList<>();
    spec.unitColumn().ifPresent(u -> cols.add("__s." + d.quote(u) + " AS __u"));
    for (int i = 0; i < groups.size(); i++) {
      cols.add("__s." + d.quote(spec.groupBy().get(i)) + " AS " + groups.get(i));
    }
    cols.addAll(valueColumns);
    if (minHash) {
      // The pair hash per row, of the same values (and types) as pairHash("") over pairs.
      List<String> args = new ArrayList<>();
      args.add("__s." + d.quote(spec.unitColumn().orElseThrow()));
      spec.groupBy().forEach(g -> args.add("__s." + d.quote(g)));
      cols.add(d.saltedHash(args, spec.salt()) + " AS __h");
    }
    if (cols.isEmpty()) {
      cols.add("1 AS __one");
    }
    s.append(String.join(", ", cols)).append(" FROM ").append(from).append(" AS __s");
    List<String> where = new ArrayList<>();
    if (semiJoin) {
      SqlDialect.Restriction r = d.semiJoin("__keys", IntStream.range(0, groups.size())
          .mapToObj(i -> d.nullSafeEquals("__s." + d.quote(spec.groupBy().get(i)), "__keys.__k" + i))
          .collect(Collectors.joining(" AND ")));
      s.append(r.join());
      if (r.where() != null) {
        where.add(r.where());
      }
    }
    spec.filter().ifPresent(f -> where.add(FilterSql.render(f, schema, d)));
    spec.unitColumn().ifPresent(u -> where.add("__s." + d.quote(u) + " IS NOT NULL"));
    if (keys != null && !semiJoin) {
      // No listed key, or no group column (one group, listed or not).
      where.add(keys.isEmpty() ? "1 = 0" : "1 = 1");
    }
    if (!where.isEmpty()) {
      s.append(" WHERE ").append(String.join(" AND ", where));
    }
    if (unitLevel() && !groups.isEmpty()) {
      s.append(d.clusterByUnit());
    }
    return s.append(")").toString();
  }

  /** Whether measure {@code f}'s pair sums are computed in DOUBLE (dialect strategy). */
  private boolean doubleSum(Measure.FixedPointSum f) {
    return !f.rows() && d.raiseError(DOUBLE_SUM_GUARD) != null && unitLevel() && exactDoubleCount(f) > 0;
  }

  /**
   * Text of the error raised when a pair has too many values for an exact DOUBLE sum; it names no
   * value. The backend then reruns the plan with a dialect without the strategy.
   */
  public static final String DOUBLE_SUM_GUARD = "privet: pair too large for exact double sum";

  /**
   * The largest per-pair value count c for which c·M ≤ 2^53 (M = max |v|), so that every partial
   * sum of a pair's values is an integer of magnitude ≤ 2^53 and the DOUBLE sum is exact in any
   * order; 0 when M &gt; 2^52. Argument: docs/proofs/engine-fixed-point.md.
   */
  public static long exactDoubleCount(Measure.FixedPointSum f) {
    double m = Math.max(Math.abs(f.lowestValue()), Math.abs(f.highestValue()));
    if (m > Math.scalb(1.0, 52)) {
      return 0;
    }
    return m < 1 ? Long.MAX_VALUE : (long) Math.floor(Math.scalb(1.0, 53) / m);
  }

  /**
   * S = min(Σ max(x, 0), C) + max(Σ min(x, 0), −C) (Measure.FixedPointSum), NULL x adding 0: over
   * at least one row a part's exact sum is NULL only on overflow (64-bit dialects), i.e. beyond
   * 2^63 − 1 &gt; C in magnitude, which saturates the part at C; over no rows (the one group of an
   * empty input without GROUP BY) it is NULL too, and the part is 0.
   */
  private String saturatedSum(String x) {
    String c = d.bigint(Measure.SUM_CAP);
    String minusC = d.bigint(-Measure.SUM_CAP);
    String zero = d.bigint(0);
    return "(LEAST(COALESCE(" + d.exactSum("GREATEST(" + x + ", " + zero + ")") + ", "
        + onNull(c) + "), " + c + ") + GREATEST(COALESCE(" + d.exactSum("LEAST(" + x + ", " + zero
        + ")") + ", " + onNull(minusC) + "), " + minusC + "))";
  }

  /** Q = min(Σq, C) for non-negative q (NULL q adding 0). */
  private String saturatedSquares(String q) {
    String c = d.bigint(Measure.SUM_CAP);
    return "LEAST(COALESCE(" + d.exactSum("COALESCE(" + q + ", " + d.bigint(0) + ")") + ", "
        + onNull(c) + "), " + c + ")";
  }

  /** What a NULL group sum stands for: 0 over no rows, else (an overflow) the saturated part. */
  private String onNull(String saturated) {
    return d.sumsOverflowToNull() ? "CASE WHEN COUNT(*) = 0 THEN " + d.bigint(0) + " ELSE "
        + saturated + " END" : d.bigint(0);
  }

  /** The single statement: one row per group, in key order. */
  public String statement() {
    List<Measure> ms = spec.measures();
    List<String> values = new ArrayList<>();
    boolean minHash = usesMinHashJoin();
    if (minHash) {
      // The fixed-point values are computed after the join (firstrows), from the raw columns.
      List<String> raw = rawColumns();
      for (int j = 0; j < raw.size(); j++) {
        values.add("__s." + d.quote(raw.get(j)) + " AS __x" + j);
      }
    }
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.FixedPointSum f) {
        if (!minHash) {
          values.add("(" + rowValue(f) + ") AS __v" + i);
        }
      } else if (ms.get(i) instanceof Measure.Bins b) {
        values.add("(" + cell(b) + ") AS __b" + i);
      } else if (ms.get(i) instanceof Measure.PairValues v) {
        values.add("(" + fixedPoint(v.rowValues(), column(v.column())) + ") AS __v" + i);
      }
    }
    StringBuilder s = new StringBuilder(sourceCte(values));
    if (!unitLevel()) {
      s.append(",\nagg AS (SELECT ").append(groupPrefix())
          .append("COUNT(*) AS __units, COUNT(*) AS __rows");
      for (int i = 0; i < ms.size(); i++) {
        if (ms.get(i) instanceof Measure.FixedPointSum f) {
          // Each row is its own pair: these are the group's sums, saturated at the cap.
          String v = "__v" + i;
          s.append(", ").append(saturatedSum(v)).append(" AS __s").append(i)
              .append(", COUNT(").append(v).append(") AS __c").append(i);
          if (f.squares()) {
            // |v| ≤ 2^31, so v·v ≤ 2^62 fits in BIGINT.
            s.append(", ").append(saturatedSquares(v + " * " + v)).append(" AS __q").append(i);
          }
        }
      }
      s.append(" FROM src").append(groupByClause()).append(")");
    } else {
      appendPairs(s);
      appendKept(s);
    }
    appendTail(s);
    return s.toString();
  }

  /** The per-measure cell lists and the final SELECT, after {@code agg}. */
  private void appendTail(StringBuilder s) {
    List<Measure> ms = spec.measures();
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.Bins) {
        appendBins(s, i);
      } else if (ms.get(i) instanceof Measure.PairRows p) {
        appendPairRows(s, i, p);
      } else if (ms.get(i) instanceof Measure.PairValues v) {
        appendPairValues(s, i, v);
      }
    }
    s.append("\nSELECT ").append(groups.isEmpty() ? "" : groupList("a.") + ", ")
        .append("a.__units, a.__rows");
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.FixedPointSum f) {
        s.append(", a.__s").append(i).append(", a.__c").append(i);
        if (f.squares()) {
          s.append(", a.__q").append(i);
        }
      } else {
        s.append(", h").append(i).append(".__cells");
      }
    }
    s.append(" FROM agg a");
    for (int i = 0; i < ms.size(); i++) {
      if (Measure.cells(ms.get(i)) > 0) {
        String h = "h" + i;
        if (groups.isEmpty()) {
          s.append(" CROSS JOIN bins").append(i).append(' ').append(h);
        } else {
          s.append(" LEFT JOIN bins").append(i).append(' ').append(h).append(" ON ")
              .append(groups.stream().map(g -> d.nullSafeEquals("a." + g, h + "." + g))
                  .collect(Collectors.joining(" AND ")));
        }
      }
    }
    if (!groups.isEmpty()) {
      s.append(" ORDER BY ").append(groups.stream().map(g -> "a." + g + " NULLS LAST")
          .collect(Collectors.joining(", ")));
    }
  }

  /** {@code pairs} and {@code keptpairs} (L0). */
  private void appendPairs(StringBuilder s) {
    appendPairs(s, true);
  }

  /** {@code pairs} and, if {@code keep}, {@code keptpairs} (L0). */
  private void appendPairs(StringBuilder s, boolean keep) {
    List<Measure> ms = spec.measures();
    boolean minHash = usesMinHashJoin();
    if (minHash) {
      // Each unit's smallest pair hash, over its rows (rows of a pair share the pair's hash).
      s.append(",\nfirsth AS (SELECT __u, MIN(__h) AS __h FROM src GROUP BY __u)");
      // The rows carrying it, with their per-row values: computed on these rows only (a row's
      // value depends on the row alone, so computing it after the join changes nothing).
      s.append(",\nfirstrows AS (SELECT __u, __h, ").append(groupList(""));
      for (int i = 0; i < ms.size(); i++) {
        if (ms.get(i) instanceof Measure.FixedPointSum f) {
          s.append(", (").append(fixedPoint(f, rawColumn(f.column()))).append(") AS __v")
              .append(i);
        }
      }
      s.append(" FROM src JOIN firsth USING (__u, __h))");
    }
    // Minimum-hash rows of one unit form one pair unless hashes tie: one aggregate per unit then.
    boolean perUnit = minHash && d.minHashUnitAggregate();
    s.append(",\npairs AS (SELECT __u, ").append(perUnit
        ? groups.stream().map(g -> "MIN(" + g + ") AS " + g + ", ").collect(Collectors.joining())
        : groupPrefix()).append("COUNT(*) AS __n");
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.FixedPointSum f) {
        String v = "__v" + i;
        String c = "COUNT(" + v + ")";
        String sum;
        if (f.rows()) {
          // A row count (u = 1 on every row): s = c = the pair's rows.
          c = "COUNT(*)";
          sum = c;
        } else if (doubleSum(f)) {
          // Exact only while c·M ≤ 2^53: otherwise fail (no value in the message), and the
          // backend reruns with exact sums. Below the guard the DOUBLE sum is an exact integer.
          sum = "CASE WHEN " + c + " > " + d.bigint(exactDoubleCount(f)) + " THEN "
              + d.raiseError(DOUBLE_SUM_GUARD) + " ELSE CAST(SUM(CAST(" + v + " AS "
              + d.doubleType() + ")) AS BIGINT) END";
        } else {
          // Pair sums: NULL without values (or, 64-bit dialects, on overflow).
          sum = d.exactSum(v);
        }
        s.append(", ").append(sum).append(" AS __s").append(i).append(", ").append(c)
            .append(" AS __c").append(i);
        if (f.squares()) {
          s.append(", ").append(d.exactSum(v + " * " + v)).append(" AS __q").append(i);
        }
      } else if (ms.get(i) instanceof Measure.PairValues) {
        // The pair's exact value sum (NULL without values, or on a 64-bit overflow).
        String v = "__v" + i;
        s.append(", ").append(d.exactSum(v)).append(" AS __s").append(i).append(", COUNT(")
            .append(v).append(") AS __c").append(i);
      }
    }
    if (minHash && hasBins()) {
      s.append(", MIN(__h) AS __h");
    }
    s.append(minHash ? " FROM firstrows" : " FROM src").append(" GROUP BY __u");
    if (perUnit) {
      // One pair iff every group column holds one value over the unit's rows (GROUP BY's
      // equality: MIN = MAX, NULL on all rows or on none); otherwise a tie, and all are dropped.
      s.append(" HAVING ").append(groups.stream().map(g -> d.nullSafeEquals("MIN(" + g + ")",
          "MAX(" + g + ")") + " AND COUNT(" + g + ") IN (" + d.bigint(0) + ", COUNT(*))")
          .collect(Collectors.joining(" AND "))).append(")");
      s.append(",\nkeptpairs AS (SELECT * FROM pairs)");
      return;
    }
    s.append(groups.isEmpty() ? "" : ", " + groupList("")).append(")");
    if (groups.isEmpty() || !keep) {
      return; // one group: L0 ≥ 1 keeps every unit's only pair
    }
    if (rowsTotal()) {
      // Total row cap m: in salted-hash order, a pair keeps __a = min(n, what is left of m);
      // the cumulative count (RANGE frame) includes the pairs tied with it, and a tie that
      // crosses m is dropped whole, so Σ __a ≤ m per unit (docs/proofs/rows-contributed.md).
      String m = d.bigint(spec.maxRowsContributed());
      s.append(",\nranked AS (SELECT *, SUM(__n) OVER (PARTITION BY __u ORDER BY __h RANGE BETWEEN")
          .append(" UNBOUNDED PRECEDING AND CURRENT ROW) AS __cum, COUNT(*) OVER (PARTITION BY")
          .append(" __u, __h) AS __peers FROM (SELECT *, ").append(pairHash(""))
          .append(" AS __h FROM pairs) __p)");
      s.append(",\nallowed AS (SELECT *, CAST(CASE WHEN __cum <= ").append(m)
          .append(" THEN __n WHEN __peers = 1 AND __cum - __n < ").append(m).append(" THEN ")
          .append(m).append(" - (__cum - __n) ELSE 0 END AS BIGINT) AS __a FROM ranked)");
      s.append(",\nkeptpairs AS (SELECT * FROM allowed WHERE __a > ").append(d.bigint(0))
          .append(")");
    } else if (minHash) {
      // Only the unit's pairs with the smallest hash reached here: keep one, drop a tie.
      s.append(",\nranked AS (SELECT *, COUNT(*) OVER (PARTITION BY __u) AS __r FROM pairs)");
      s.append(",\nkeptpairs AS (SELECT * FROM ranked WHERE __r = 1)");
    } else {
      appendKeptPairsByHash(s);
    }
  }

  /** {@code keptpairs} from {@code pairs} by the window strategy (groups present). */
  private void appendKeptPairsByHash(StringBuilder s) {
    if (groups.isEmpty()) {
      return;
    }
    // Keep a pair iff at most L0 of the unit's pairs hash at or below it (the default RANGE
    // frame counts the peers: ties at the boundary are all dropped).
    s.append(",\nranked AS (SELECT *, COUNT(*) OVER (PARTITION BY __u ORDER BY __h) AS __r FROM")
        .append(" (SELECT *, ").append(pairHash("")).append(" AS __h FROM pairs) __p)");
    s.append(",\nkeptpairs AS (SELECT * FROM ranked WHERE __r <= ").append(d.bigint(spec.l0()))
        .append(")");
  }

  /**
   * Whether the {@code pairs} step can be computed apart and shared ({@link #pairsStatement},
   * {@link #statementOverPairs}): unit-level, the window strategy (not the minimum hash, whose
   * pairs depend on the salt), no total row cap (its kept pairs are chosen otherwise), and only
   * pair-rows, pair-values and fixed-point-sum measures (no bins: their cells need the rows), so
   * that {@code pairs} holds per (unit, group) the row count and, per distinct per-row value, the
   * exact sum, count (and sum of squares) of the pair's values; these depend on neither L∞, the
   * salt, L0 nor a pair clamp, which all apply after {@code pairs}
   * ({@code docs/proofs/engine-joins.md}, "One query's passes read one join").
   */
  public boolean sharesPairs() {
    return unitLevel() && !usesMinHashJoin() && spec.maxRowsContributed() == 0
        && spec.measures().stream().allMatch(m -> m instanceof Measure.PairRows
            || m instanceof Measure.PairValues || m instanceof Measure.FixedPointSum);
  }

  /**
   * The per-row value expression of sum or pair-values measure {@code m} (as {@link #statement()}
   * computes it at unit level), else null.
   */
  private String sharedValue(Measure m) {
    if (m instanceof Measure.FixedPointSum f) {
      return fixedPoint(f, column(f.column()));
    }
    if (m instanceof Measure.PairValues v) {
      return fixedPoint(v.rowValues(), column(v.column()));
    }
    return null;
  }

  /** The distinct per-row value expressions of the measures, in measure order. */
  private List<String> sharedValues() {
    return spec.measures().stream().map(this::sharedValue).filter(java.util.Objects::nonNull)
        .distinct().toList();
  }

  /**
   * The {@code src} and {@code pairs} steps of {@link #statement()} as one statement returning
   * the pairs: {@code __u}, the group columns, {@code __n} and, per distinct per-row value j
   * ({@link #sharedValues}), its exact sum {@code __s<j>}, count {@code __c<j>} and, when a
   * measure of it needs them, its exact sum of squares {@code __q<j>} (exact: no DOUBLE strategy,
   * so the table never fails for a large pair). One query's passes that {@link #sharesPairs} with
   * the same text read the same pairs.
   */
  public String pairsStatement() {
    if (!sharesPairs()) {
      throw new IllegalStateException("these pairs are not shared");
    }
    List<String> exprs = sharedValues();
    List<String> values = new ArrayList<>();
    for (int j = 0; j < exprs.size(); j++) {
      values.add("(" + exprs.get(j) + ") AS __v" + j);
    }
    StringBuilder s = new StringBuilder(sourceCte(values));
    s.append(",\npairs AS (SELECT __u, ").append(groupPrefix()).append("COUNT(*) AS __n");
    for (int j = 0; j < exprs.size(); j++) {
      String v = "__v" + j;
      s.append(", ").append(d.exactSum(v)).append(" AS __s").append(j).append(", COUNT(")
          .append(v).append(") AS __c").append(j);
      if (squaresOf(exprs.get(j))) {
        s.append(", ").append(d.exactSum(v + " * " + v)).append(" AS __q").append(j);
      }
    }
    s.append(" FROM src GROUP BY __u").append(groups.isEmpty() ? "" : ", " + groupList(""))
        .append(")");
    return s.append("\nSELECT * FROM pairs").toString();
  }

  /** Whether a sum measure with per-row value {@code expr} needs its squares. */
  private boolean squaresOf(String expr) {
    return spec.measures().stream().anyMatch(m -> m instanceof Measure.FixedPointSum f
        && f.squares() && expr.equals(sharedValue(f)));
  }

  /**
   * {@link #statement()} reading its {@code pairs} from {@code table}, which holds the rows of
   * this plan's {@link #pairsStatement()} (the same text): the same result, measure i's pair
   * sums read from the columns of its per-row value. (The direct statement may sum in DOUBLE under
   * its exactness guard: the same integers.)
   */
  public String statementOverPairs(String table) {
    if (!sharesPairs()) {
      throw new IllegalStateException("these pairs are not shared");
    }
    List<String> exprs = sharedValues();
    StringBuilder s = new StringBuilder("WITH pairs AS (SELECT __u, ").append(groupPrefix())
        .append("__n");
    List<Measure> ms = spec.measures();
    for (int i = 0; i < ms.size(); i++) {
      String e = sharedValue(ms.get(i));
      if (e == null) {
        continue;
      }
      int j = exprs.indexOf(e);
      s.append(", __s").append(j).append(" AS __s").append(i).append(", __c").append(j)
          .append(" AS __c").append(i);
      if (ms.get(i) instanceof Measure.FixedPointSum f && f.squares()) {
        s.append(", __q").append(j).append(" AS __q").append(i);
      }
    }
    s.append(" FROM ").append(table).append(")");
    appendKeptPairsByHash(s);
    appendKept(s);
    appendTail(s);
    return s.toString();
  }

  private String keptPairs() {
    return groups.isEmpty() ? "pairs" : "keptpairs";
  }

  /** {@code kept} (L∞ and pair clamp) and {@code agg}. */
  private void appendKept(StringBuilder s) {
    List<Measure> ms = spec.measures();
    // L∞, or with a total row cap the pair's own allowance __a (≤ m, Σ per unit ≤ m).
    String l = rowsTotal() ? "__a" : d.bigint(spec.lInf());
    s.append(",\nkept AS (SELECT ").append(groupPrefix()).append("LEAST(__n, ").append(l)
        .append(") AS __n");
    for (int i = 0; i < ms.size(); i++) {
      if (!(ms.get(i) instanceof Measure.FixedPointSum f)) {
        continue;
      }
      String c = "__c" + i;
      String sum = "__s" + i;
      if (d.sumsOverflowToNull()) {
        // A NULL pair sum with values is an overflow: the pair takes c·mid instead, inside its
        // range [c·a, c·b] (Measure.FixedPointSum, overflow).
        long mid = Math.floorDiv((long) f.lowestValue() + (long) f.highestValue(), 2);
        sum = "COALESCE(" + sum + ", " + wide(c) + " * " + wide(d.bigint(mid)) + ")";
      }
      String bounded = "CASE WHEN " + c + " <= " + l + " THEN " + sum + " ELSE "
          + d.floorDiv(wide(sum) + " * " + l, c) + " END";
      Measure.PairClamp pc = f.pairClamp();
      if (pc != null) {
        // Pair clamp (Measure.FixedPointSum step 3) of the L∞-scaled or the whole pair sum.
        bounded = clampedAndCentred(pc.allRows() ? sum : "(" + bounded + ")", f,
            "LEAST(" + c + ", " + l + ")");
      } else {
        bounded = "CAST(" + bounded + " AS BIGINT)"; // |s'| ≤ L∞·M ≤ 2^62
      }
      // A pair without values adds 0.
      s.append(", CASE WHEN ").append(c).append(" = 0 THEN ").append(d.bigint(0)).append(" ELSE ")
          .append(bounded).append(" END AS __s").append(i);
      s.append(", LEAST(").append(c).append(", ").append(l).append(") AS __c").append(i);
      if (f.squares()) {
        String q = "__q" + i;
        if (d.sumsOverflowToNull()) {
          // An overflowed (NULL) sum of squares (≥ 2^63) takes min(c'·M², C), inside its range
          // [0, c'·M²]: with c ≤ L∞ the group's Q then saturates at C as with the exact sum.
          long m = (long) Math.max(Math.abs(f.lowestValue()), Math.abs(f.highestValue()));
          q = "COALESCE(" + q + ", LEAST(" + wide("LEAST(" + c + ", " + l + ")") + " * "
              + wide(d.bigint(m)) + " * " + wide(d.bigint(m)) + ", "
              + wide(d.bigint(Measure.SUM_CAP)) + "))";
        }
        // ⌊q·L∞/c⌋ = ⌊q/c⌋·L∞ + ⌊(q mod c)·L∞/c⌋ for q ≥ 0: no overflow of the wide type.
        String wq = wide(q);
        String whole = d.floorDiv(wq, c);
        s.append(", CASE WHEN ").append(c).append(" = 0 THEN ").append(d.bigint(0))
            .append(" WHEN ").append(c).append(" <= ").append(l).append(" THEN ").append(q)
            .append(" ELSE ").append(whole).append(" * ").append(l).append(" + ")
            .append(d.floorDiv("(" + wq + " - " + whole + " * " + c + ") * " + l, c))
            .append(" END AS __q").append(i);
      }
    }
    s.append(" FROM ").append(keptPairs()).append(")");
    // Σ n' and Σ c' are at most the number of rows: plain SUM cannot overflow there.
    s.append(",\nagg AS (SELECT ").append(groupPrefix())
        .append("COUNT(*) AS __units, SUM(__n) AS __rows");
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.FixedPointSum f) {
        s.append(", ").append(saturatedSum("__s" + i)).append(" AS __s").append(i)
            .append(", SUM(__c").append(i).append(") AS __c").append(i);
        if (f.squares()) {
          s.append(", ").append(saturatedSquares("__q" + i)).append(" AS __q").append(i);
        }
      }
    }
    s.append(" FROM kept").append(groupByClause()).append(")");
  }

  /**
   * CTE {@code bins<i>}: per group the list of (cell, count). Unit-level: per kept pair the
   * non-ignored rows are counted per cell; cells are taken in order of (salted hash of (unit,
   * cell), cell) and each keeps min(its rows, what is left of L∞): exactly the rows that "at most
   * L∞ rows, chosen by smallest hash of (unit, cell), ties by cell" keeps.
   */
  private void appendBins(StringBuilder s, int i) {
    String b = "__b" + i;
    String perCell;
    if (!unitLevel()) {
      perCell = "SELECT " + groupPrefix() + b + " AS __b, COUNT(*) AS __k FROM src WHERE " + b
          + " IS NOT NULL GROUP BY " + groupPrefix() + b;
    } else {
      s.append(",\ncells").append(i).append(" AS (SELECT __u, ").append(groupPrefix()).append(b)
          .append(" AS __b, COUNT(*) AS __m FROM src WHERE ").append(b)
          .append(" IS NOT NULL GROUP BY __u, ").append(groupPrefix()).append(b).append(")");
      String source = "cells" + i + " c";
      if (!groups.isEmpty()) {
        // Rows of kept pairs only: joined on the unit and the pair hash (an equi-join every
        // database can hash), then the key itself, NULL equal to NULL.
        source += " JOIN keptpairs k ON c.__u = k.__u AND k.__h = " + pairHash("c.") + " AND "
            + groups.stream().map(g -> d.nullSafeEquals("c." + g, "k." + g))
                .collect(Collectors.joining(" AND "));
      }
      s.append(",\ncapped").append(i).append(" AS (SELECT ")
          .append(groups.isEmpty() ? "" : groupList("c.") + ", ").append("c.__b, GREATEST(")
          .append(d.bigint(0)).append(", LEAST(c.__m, ")
          .append(rowsTotal() ? "k.__a" : d.bigint(spec.lInf()))
          .append(" - (SUM(c.__m) OVER (PARTITION BY c.__u")
          .append(groups.isEmpty() ? "" : ", " + groupList("c.")).append(" ORDER BY ")
          .append(d.saltedHash(List.of("c.__u", "c.__b"), spec.salt()))
          .append(", c.__b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) - c.__m))) AS __k")
          .append(" FROM ").append(source).append(")");
      perCell = "SELECT " + groupPrefix() + "__b, SUM(__k) AS __k FROM capped" + i
          + " WHERE __k > 0 GROUP BY " + groupPrefix() + "__b";
    }
    s.append(",\nbins").append(i).append(" AS (SELECT ").append(groupPrefix())
        .append(d.cellList("__b", "__k")).append(" AS __cells FROM (").append(perCell)
        .append(") __c").append(groupByClause()).append(")");
  }

  /**
   * CTE {@code bins<i>} of a {@link Measure.PairRows}: per group the number of kept pairs (after
   * L0) per cell min(⌈log₂ __n⌉, bins − 1) of their row count, the cell found by exact integer
   * comparisons with powers of two (no floating point).
   */
  private void appendPairRows(StringBuilder s, int i, Measure.PairRows p) {
    StringBuilder cell = new StringBuilder();
    if (p.bins() == 1) {
      cell.append(d.bigint(0));
    } else {
      cell.append("CASE");
      for (int j = 0; j < p.bins() - 1; j++) {
        cell.append(" WHEN __n <= ").append(d.bigint(1L << j)).append(" THEN ")
            .append(d.bigint(j));
      }
      cell.append(" ELSE ").append(d.bigint(p.bins() - 1L)).append(" END");
    }
    String perCell = "SELECT " + groupPrefix() + "__b, COUNT(*) AS __k FROM (SELECT "
        + groupPrefix() + cell + " AS __b FROM " + keptPairs() + ") __p GROUP BY "
        + groupPrefix() + "__b";
    s.append(",\nbins").append(i).append(" AS (SELECT ").append(groupPrefix())
        .append(d.cellList("__b", "__k")).append(" AS __cells FROM (").append(perCell)
        .append(") __c").append(groupByClause()).append(")");
  }

  /**
   * CTE {@code bins<i>} of a {@link Measure.PairValues}: per group the number of kept pairs (after
   * L0) per cell, the smallest j &lt; bins − 1 with 2^j·a' ≤ s ≤ 2^j·b' of the pair's exact sum s
   * (0 without values), else bins − 1; |s| &gt; 2^62 or an overflowed (NULL) sum of values: bins
   * − 1. Exact integer comparisons with constants; a threshold beyond 2^62 holds for every
   * remaining s.
   */
  private void appendPairValues(StringBuilder s, int i, Measure.PairValues v) {
    String sum = "__s" + i;
    String count = "__c" + i;
    String last = d.bigint(v.bins() - 1L);
    String cap = d.bigint(1L << 62);
    StringBuilder cell = new StringBuilder("CASE WHEN ").append(count).append(" = ")
        .append(d.bigint(0)).append(" THEN ").append(d.bigint(0)).append(" WHEN ").append(sum)
        .append(" IS NULL OR ").append(sum).append(" > ").append(cap).append(" OR ").append(sum)
        .append(" < ").append(d.bigint(-(1L << 62))).append(" THEN ").append(last);
    for (int side = 0; side < 2; side++) {
      // side 0: s ≥ 0 against 2^j·b'; side 1: s < 0 against 2^j·a'.
      long unit = side == 0 ? v.highestValue() : v.lowestValue();
      cell.append(side == 0 ? " WHEN " + sum + " >= " + d.bigint(0) + " THEN CASE"
          : " ELSE CASE");
      boolean closed = false;
      for (int j = 0; j < v.bins() - 1 && !closed; j++) {
        long t = unit << j;
        if (Math.abs(unit) > (1L << 62) >> j || Math.abs(t) > (1L << 62)) {
          cell.append(" ELSE ").append(d.bigint(j)).append(" END");
          closed = true;
        } else {
          cell.append(" WHEN ").append(sum).append(side == 0 ? " <= " : " >= ")
              .append(d.bigint(t)).append(" THEN ").append(d.bigint(j));
        }
      }
      if (!closed) {
        cell.append(" ELSE ").append(last).append(" END");
      }
    }
    cell.append(" END");
    String perCell = "SELECT " + groupPrefix() + "__b, COUNT(*) AS __k FROM (SELECT "
        + groupPrefix() + cell + " AS __b FROM " + keptPairs() + ") __p GROUP BY "
        + groupPrefix() + "__b";
    s.append(",\nbins").append(i).append(" AS (SELECT ").append(groupPrefix())
        .append(d.cellList("__b", "__k")).append(" AS __cells FROM (").append(perCell)
        .append(") __c").append(groupByClause()).append(")");
  }

  /**
   * The kept (unit, group) pairs after L0 bounding as one statement ({@link Backend#keptGroups}):
   * columns {@code __u, __g0, ...} (row-level specs: only the group columns, one row per row),
   * ordered by unit and then key (NULLs last), so that each unit's pairs are consecutive. The same
   * {@code src}, {@code pairs} and {@code keptpairs} steps as {@link #statement()}: exactly the
   * pairs it aggregates. Measures are not computed.
   *
   * @throws IllegalArgumentException without group columns (one group: nothing to select)
   */
  public String keptGroupsStatement() {
    if (groups.isEmpty()) {
      throw new IllegalArgumentException("kept groups need group columns");
    }
    BoundedAggregation bare = new BoundedAggregation(spec.source(), spec.filter(),
        spec.unitColumn(), spec.groupBy(), spec.publicGroups(), spec.l0(), spec.lInf(),
        spec.salt(), List.of(), spec.maxRowsContributed());
    BoundingPlan p = new BoundingPlan(bare, schema, from, d);
    StringBuilder s = new StringBuilder(p.sourceCte(List.of()));
    String order = groups.stream().map(g -> g + " NULLS LAST").collect(Collectors.joining(", "));
    if (!unitLevel()) {
      return s.append("\nSELECT ").append(groupList("")).append(" FROM src ORDER BY ")
          .append(order).toString();
    }
    p.appendPairs(s);
    return s.append("\nSELECT __u, ").append(groupList("")).append(" FROM keptpairs ORDER BY __u, ")
        .append(order).toString();
  }

  /**
   * Collects the rows of {@link #keptGroupsStatement()} into units: call {@link #row} per row in
   * order, then {@link #finish}.
   */
  public final class UnitGroupsReader {
    private final UnitGroupsSink sink;
    private Object unit;
    private List<List<Object>> current = new ArrayList<>();

    public UnitGroupsReader(UnitGroupsSink sink) {
      this.sink = sink;
    }

    /** One row, given by its 0-based column values. */
    public void row(IntFunction<Object> column) {
      int g = groups.size();
      int offset = unitLevel() ? 1 : 0;
      List<Object> key = new ArrayList<>(g);
      for (int i = 0; i < g; i++) {
        key.add(column.apply(i + offset));
      }
      Object u = unitLevel() ? unitKey(column.apply(0)) : null;
      if (!current.isEmpty() && (!unitLevel() || !java.util.Objects.equals(u, unit))) {
        sink.accept(current);
        current = new ArrayList<>();
      }
      unit = u;
      current.add(key);
    }

    /**
     * A unit value as SQL compares it, so that Java's {@code equals} splits the ordered stream where
     * SQL's equality does (issue 23): a (unit, group) pair keeps the unit value of its own rows, so
     * one unit may come as 0.0 and -0.0, or as NUMERIC 1.0 and 1.00 (PostgreSQL), which SQL holds
     * equal and Java does not; split apart, one unit would enter set union as several, each with
     * its own ℓ2 bound. Zeros become 0.0, NaNs one NaN, decimals lose trailing zeros.
     */
    private static Object unitKey(Object v) {
      if (v instanceof Double d) {
        return d == 0.0 ? (Object) 0.0 : Double.isNaN(d) ? (Object) Double.NaN : d;
      }
      if (v instanceof Float f) {
        return f == 0.0f ? (Object) 0.0f : Float.isNaN(f) ? (Object) Float.NaN : f;
      }
      if (v instanceof java.math.BigDecimal b) {
        return b.signum() == 0 ? java.math.BigDecimal.ZERO : b.stripTrailingZeros();
      }
      return v;
    }

    /** Hands over the last unit. */
    public void finish() {
      if (!current.isEmpty()) {
        sink.accept(current);
        current = new ArrayList<>();
      }
    }
  }

  /**
   * A value as SQL's equality (GROUP BY) compares it, for Java's {@code equals}: {@link
   * UnitGroupsReader}'s rule (zeros one zero, NaNs one NaN, decimals without trailing zeros).
   */
  static Object sqlEqualityKey(Object v) {
    return UnitGroupsReader.unitKey(v);
  }

  /**
   * Runs {@link #keptGroupsStatement()} on a JDBC connection and hands each unit's kept groups to
   * {@code sink}.
   *
   * @throws SQLException as the driver reports it (callers must withhold its message)
   */
  public void runKeptGroups(java.sql.Connection connection, int fetchSize, UnitGroupsSink sink)
      throws java.sql.SQLException {
    UnitGroupsReader reader = new UnitGroupsReader(sink);
    forEachRow(connection, fetchSize, keptGroupsStatement(), reader::row);
    reader.finish();
  }

  /**
   * The exact histogram of the kept pairs' row counts: the {@code src}, {@code pairs} and (with
   * groups) {@code keptpairs} steps of {@link #statement()} over this spec without its measures
   * (so exactly the pairs {@link #statement()} aggregates: measures, L∞ and pair clamps apply after
   * {@code keptpairs}), then per group and row count n the number of kept pairs with n rows. A
   * handful of rows on typical data (the distinct n per group); the engine computes from it the
   * pair-rows cells and every Σ min(n, L∞) exactly ({@link PairRowsHistogram}). Unit-level
   * specs without a total row cap only.
   *
   * @throws IllegalStateException for another spec (the engine asks only for those)
   */
  public String pairRowsHistogramStatement() {
    if (!unitLevel() || rowsTotal()) {
      throw new IllegalStateException("internal error: no pair-rows histogram for this spec");
    }
    BoundedAggregation bare = new BoundedAggregation(spec.source(), spec.filter(),
        spec.unitColumn(), spec.groupBy(), spec.publicGroups(), spec.l0(), spec.lInf(),
        spec.salt(), List.of());
    BoundingPlan p = new BoundingPlan(bare, schema, from, d);
    StringBuilder s = new StringBuilder(p.sourceCte(List.of()));
    p.appendPairs(s);
    String g = groups.isEmpty() ? "" : groupList("") + ", ";
    return s.append("\nSELECT ").append(g).append("__n, COUNT(*) AS __k FROM ")
        .append(keptPairs()).append(" GROUP BY ").append(g).append("__n").toString();
  }

  /**
   * One row of {@link #pairRowsHistogramStatement()}.
   *
   * @param column the row's value at a 0-based column index (as the driver returns it)
   */
  public PairRowsCount pairRowsCount(IntFunction<Object> column) {
    int g = spec.groupBy().size();
    List<Object> key = new ArrayList<>(g);
    for (int i = 0; i < g; i++) {
      key.add(column.apply(i));
    }
    return new PairRowsCount(key, toLong(column.apply(g)), toLong(column.apply(g + 1)));
  }

  /**
   * Runs {@link #pairRowsHistogramStatement()} on a JDBC connection, handing each row to {@code
   * sink}.
   *
   * @throws SQLException as the driver reports it (callers must withhold its message)
   */
  public void runPairRowsHistogram(java.sql.Connection connection, int fetchSize,
      java.util.function.Consumer<PairRowsCount> sink) throws java.sql.SQLException {
    forEachRow(connection, fetchSize, pairRowsHistogramStatement(),
        row -> sink.accept(pairRowsCount(row)));
  }

  /** Runs {@code sql}, handing each row (by 0-based column) to {@code rows}. */
  private static void forEachRow(java.sql.Connection connection, int fetchSize, String sql,
      java.util.function.Consumer<IntFunction<Object>> rows) throws java.sql.SQLException {
    try (java.sql.Statement st = connection.createStatement()) {
      st.setFetchSize(fetchSize);
      try (java.sql.ResultSet rs = st.executeQuery(sql)) {
        int n = rs.getMetaData().getColumnCount();
        Object[] row = new Object[n];
        while (rs.next()) {
          for (int i = 0; i < n; i++) {
            row[i] = rs.getObject(i + 1);
          }
          rows.accept(i -> row[i]);
        }
      }
    }
  }

  /**
   * One row of {@link #statement()} as a group's aggregates.
   *
   * @param column the row's value at a 0-based column index (as the driver returns it)
   */
  public GroupAggregate group(IntFunction<Object> column) {
    int g = spec.groupBy().size();
    int m = spec.measures().size();
    List<Object> key = new ArrayList<>(g);
    for (int i = 0; i < g; i++) {
      key.add(column.apply(i));
    }
    long units = toLong(column.apply(g));
    long rows = toLong(column.apply(g + 1));
    long[] sums = new long[m];
    long[] counts = new long[m];
    long[] squares = new long[m];
    long[][] bins = new long[m][];
    int col = g + 2;
    for (int i = 0; i < m; i++) {
      Measure measure = spec.measures().get(i);
      if (measure instanceof Measure.FixedPointSum f) {
        sums[i] = toLong(column.apply(col++));
        counts[i] = toLong(column.apply(col++));
        if (f.squares()) {
          squares[i] = toLong(column.apply(col++));
        }
      } else {
        int n = Measure.cells(measure);
        bins[i] = new long[n];
        Object cells = column.apply(col++);
        if (cells != null && !cells.toString().isEmpty()) {
          for (String entry : cells.toString().split(",")) {
            int colon = entry.indexOf(':');
            long cell = Long.parseLong(entry.substring(0, colon).trim());
            if (cell >= 0 && cell < n) {
              bins[i][(int) cell] += Long.parseLong(entry.substring(colon + 1).trim());
            }
          }
        }
      }
    }
    return new GroupAggregate(key, units, rows, sums, counts, squares, bins);
  }

  /**
   * Runs {@link #statement()} on a JDBC connection and hands each group to {@code sink} as it is
   * read ({@code fetchSize} rows at a time where the driver streams).
   *
   * @return the number of groups delivered
   * @throws SQLException as the driver reports it (callers must withhold its message: it can quote
   *     a data value)
   */
  public long run(java.sql.Connection connection, int fetchSize, GroupSink sink)
      throws java.sql.SQLException {
    long[] delivered = {0};
    forEachRow(connection, fetchSize, statement(), row -> {
      sink.accept(group(row));
      delivered[0]++;
    });
    return delivered[0];
  }

  /**
   * An aggregate as a long, saturating (total: the plan's sums are saturated at {@link
   * Measure#SUM_CAP} in SQL, so this never saturates; it only keeps the read from throwing).
   */
  public static long toLong(Object o) {
    if (o == null) {
      return 0L;
    }
    if (o instanceof BigDecimal b) {
      o = b.setScale(0, RoundingMode.FLOOR).toBigInteger();
    }
    if (o instanceof BigInteger b) {
      return b.bitLength() <= 63 ? b.longValue() : b.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    if (o instanceof Number n) {
      return n.longValue();
    }
    return Long.parseLong(o.toString());
  }
}
