package org.privet.engine.duckdb;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.TableSchema;

/**
 * Translates a {@link BoundedAggregation} into DuckDB SQL: one main statement (unit and row
 * counts, fixed-point sums) and one statement per binned measure. The contract implemented here is
 * the one documented on {@code BoundedAggregation} and argued in
 * {@code docs/proofs/engine-bounding.md}.
 */
final class SqlPlan {
  private final BoundedAggregation spec;
  private final TableSchema schema;
  private final List<String> groups; // __g0, __g1, ...

  /** 0, or (tests only) a modulus applied to the salted hash to provoke ties. */
  private final long hashModulus;
  /** Whether an L0 = 1 plan may use the minimum-hash join (tests compare both plans). */
  private final boolean minHashJoin;
  /** Whether unit-level pair sums may be computed in DOUBLE under the exactness guard. */
  private final boolean doubleSums;

  /**
   * Text of the error raised when a pair has too many values for an exact DOUBLE sum; it names no
   * value. {@link DuckDbBackend} then reruns the plan with 128-bit pair sums.
   */
  static final String DOUBLE_SUM_GUARD = "privet: pair too large for exact double sum";

  /** The plan with every fast path allowed. */
  SqlPlan(BoundedAggregation spec, TableSchema schema) {
    this(spec, schema, 0, true, true);
  }

  SqlPlan(BoundedAggregation spec, TableSchema schema, long hashModulus, boolean minHashJoin,
      boolean doubleSums) {
    this.spec = spec;
    this.schema = schema;
    this.groups = IntStream.range(0, spec.groupBy().size()).mapToObj(i -> "__g" + i).toList();
    this.hashModulus = hashModulus;
    this.minHashJoin = minHashJoin;
    this.doubleSums = doubleSums;
  }

  /** This plan with 128-bit (HUGEINT) pair sums: the fallback when the DOUBLE guard fires. */
  SqlPlan withExactPairSums() {
    return new SqlPlan(spec, schema, hashModulus, minHashJoin, false);
  }

  /**
   * M = max |v| over the per-row values a measure can produce: max(|⌊lo·2^k⌋ − c|,
   * |⌈hi·2^k⌉ − c|) with c its {@link Measure.FixedPointSum#rowCenter() row centre}, as a double (exact: both terms are integers below 2^63 here or the
   * comparison with 2^52 decides anyway).
   */
  static double maxAbsValue(Measure.FixedPointSum f) {
    return Math.max(Math.abs(f.lowestValue()), Math.abs(f.highestValue()));
  }

  /**
   * The largest per-pair value count c for which c·M ≤ 2^53, so that every partial sum of a
   * pair's values is an integer of magnitude ≤ 2^53 and the DOUBLE sum is exact in any order; 0
   * when M &gt; 2^52 (the DOUBLE path is then not used). Argument: docs/proofs/engine-fixed-point.md.
   */
  static long exactDoubleCount(Measure.FixedPointSum f) {
    double m = maxAbsValue(f);
    if (m > Math.scalb(1.0, 52)) {
      return 0;
    }
    return m < 1 ? Long.MAX_VALUE : (long) Math.floor(Math.scalb(1.0, 53) / m);
  }

  /** Whether measure {@code f}'s pair sum (not its squares) is computed in DOUBLE. */
  private boolean doubleSum(Measure.FixedPointSum f) {
    return doubleSums && unitLevel() && exactDoubleCount(f) > 0;
  }

  /**
   * Whether the unit-level plan selects each unit's group by the minimum-hash join (L0 = 1 with
   * groups): a per-unit MIN over rows and a join instead of a window over all (unit, group) pairs.
   */
  boolean usesMinHashJoin() {
    return minHashJoin && unitLevel() && !groups.isEmpty() && spec.l0() == 1;
  }

  private boolean unitLevel() {
    return spec.unitColumn().isPresent();
  }

  private String groupList() {
    return String.join(", ", groups);
  }

  private String groupPrefix() {
    return groups.isEmpty() ? "" : groupList() + ", ";
  }

  private String groupByClause() {
    return groups.isEmpty() ? "" : " GROUP BY " + groupList();
  }

  private static String x(String column) {
    return "CAST(" + SqlText.quote(column) + " AS DOUBLE)";
  }

  private static String clamp(String column, double lower, double upper) {
    return "LEAST(GREATEST(" + x(column) + ", " + SqlText.dbl(lower) + "), "
        + SqlText.dbl(upper) + ")";
  }

  private static String ignoredGuard(String column) {
    return "CASE WHEN " + SqlText.quote(column) + " IS NULL OR isnan(" + x(column)
        + ") THEN NULL ELSE ";
  }

  /**
   * CAST(clamp(x)·2^k AS BIGINT) − center, NULL for NULL/NaN. The multiplication by a power of two
   * is exact; DuckDB's cast rounds to the nearest integer, and any monotone rounding keeps the
   * result within [⌊lower·2^k⌋, ⌈upper·2^k⌉], which is all the sensitivity bound needs.
   */
  static String fixedPoint(Measure.FixedPointSum f) {
    return ignoredGuard(f.column()) + scaled(f)
        + (f.rowCenter() == 0 ? "" : " - " + f.rowCenter()) + " END";
  }

  private static String scaled(Measure.FixedPointSum f) {
    return "CAST(" + clamp(f.column(), f.lower(), f.upper()) + " * "
        + SqlText.dbl(Math.scalb(1.0, f.scaleExponent())) + " AS BIGINT)";
  }

  /**
   * A pair's uncentred bounded sum {@code expr} clamped to the pair clamp, then centred by
   * center·{@code count} (Measure.FixedPointSum step 3), in 128 bits: the result is within the
   * measure's sensitivity bound, the intermediate need not fit 64 bits.
   */
  private static String clampedAndCentred(String expr, Measure.FixedPointSum f, String count) {
    String clamped = pairClamped("CAST(" + expr + " AS HUGEINT)", f.pairClamp());
    return f.center() == 0 ? clamped
        : "(" + clamped + " - CAST(" + f.center() + " AS HUGEINT) * " + count + ")";
  }

  /** {@code expr} clamped to the pair clamp's integer bounds (expr must not be NULL here). */
  private static String pairClamped(String expr, Measure.PairClamp pc) {
    return "LEAST(GREATEST(" + expr + ", " + pc.lower() + "), " + pc.upper() + ")";
  }

  /**
   * The per-row value: with row-level units each row is its own pair, so a pair clamp applies to
   * the row's value (inside the NULL/NaN guard).
   */
  private String rowValue(Measure.FixedPointSum f) {
    if (unitLevel() || f.pairClamp() == null) {
      return fixedPoint(f);
    }
    return ignoredGuard(f.column()) + clampedAndCentred(scaled(f), f, "1") + " END";
  }

  static String cell(Measure.Bins b) {
    double perUnit = b.bins() / (b.upper() - b.lower());
    return ignoredGuard(b.column()) + "LEAST(CAST(FLOOR((" + clamp(b.column(), b.lower(), b.upper())
        + " - " + SqlText.dbl(b.lower()) + ") * " + SqlText.dbl(perUnit) + ") AS BIGINT), "
        + (b.bins() - 1) + ") END";
  }

  /** The WITH clause defining {@code src} (and {@code __keys} for public groups). */
  private String sourceCte(List<String> valueColumns) {
    return sourceCte(valueColumns, false);
  }

  /**
   * As {@link #sourceCte(List)}; with {@code pairHash} also the salted hash of (unit, group key)
   * per row as {@code __h} (the same value the pair-level plan computes per pair), and the CTE
   * marked NOT MATERIALIZED: it is read twice, and re-reading is cheaper than holding it.
   */
  private String sourceCte(List<String> valueColumns, boolean pairHash) {
    StringBuilder s = new StringBuilder("WITH ");
    if (spec.publicGroups().isPresent()) {
      s.append("__keys AS (SELECT * FROM (VALUES ");
      List<String> rows = new ArrayList<>();
      for (List<Object> key : spec.publicGroups().get()) {
        List<String> vals = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
          vals.add(SqlText.literal(key.get(i), SqlText.column(schema, spec.groupBy().get(i))));
        }
        rows.add("(" + String.join(", ", vals) + ")");
      }
      s.append(String.join(", ", rows)).append(") AS __t(")
          .append(IntStream.range(0, spec.groupBy().size()).mapToObj(i -> "__k" + i)
              .collect(Collectors.joining(", ")))
          .append(")),\n");
    }
    s.append(pairHash ? "src AS NOT MATERIALIZED (SELECT " : "src AS (SELECT ");
    List<String> cols = new ArrayList<>();
    spec.unitColumn().ifPresent(u -> cols.add(SqlText.quote(u) + " AS __u"));
    for (int i = 0; i < groups.size(); i++) {
      cols.add(SqlText.quote(spec.groupBy().get(i)) + " AS " + groups.get(i));
    }
    cols.addAll(valueColumns);
    if (pairHash) {
      cols.add(salted(SqlText.quote(spec.unitColumn().orElseThrow()) + ", "
          + spec.groupBy().stream().map(SqlText::quote).collect(Collectors.joining(", ")))
          + " AS __h");
    }
    if (cols.isEmpty()) {
      cols.add("1 AS __one");
    }
    s.append(String.join(", ", cols)).append(" FROM ").append(SqlText.from(spec.source()));
    List<String> where = new ArrayList<>();
    spec.filter().ifPresent(f -> where.add(SqlText.filter(f, schema)));
    spec.unitColumn().ifPresent(u -> where.add(SqlText.quote(u) + " IS NOT NULL"));
    if (spec.publicGroups().isPresent()) {
      where.add("EXISTS (SELECT 1 FROM __keys WHERE "
          + IntStream.range(0, groups.size()).mapToObj(i -> "__k" + i + " IS NOT DISTINCT FROM "
              + SqlText.quote(spec.groupBy().get(i))).collect(Collectors.joining(" AND ")) + ")");
    }
    if (!where.isEmpty()) {
      s.append(" WHERE ").append(String.join(" AND ", where));
    }
    return s.append(")").toString();
  }

  /**
   * A salted hash: hash(xor(hash(args), salt)). DuckDB combines the hashes of several arguments
   * in a way that keeps the relative order of two keys for most salts, so the salt is mixed in by
   * an outer hash instead.
   */
  private String salted(String args) {
    String h = "hash(xor(hash(" + args + "), CAST(" + (spec.salt() >>> 1) + " AS UBIGINT)))";
    return hashModulus == 0 ? h : "(" + h + " % " + hashModulus + ")";
  }

  /**
   * Keeps a unit's pair iff at most L0 of the unit's pairs have a salted hash ≤ its own. This is
   * the L0 smallest hashes, except that pairs tied at the boundary (64-bit hash collisions) are all
   * dropped: deterministic without an extra sort key, and still at most L0 pairs per unit.
   */
  private String keepL0(String prefix) {
    return "COUNT(*) OVER (PARTITION BY " + prefix + "__u ORDER BY "
        + salted(prefix + "__u, " + groups.stream().map(g -> prefix + g)
            .collect(Collectors.joining(", "))) + ") <= " + spec.l0();
  }

  String mainStatement() {
    List<String> values = new ArrayList<>();
    List<Measure> ms = spec.measures();
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.FixedPointSum f) {
        values.add("(" + rowValue(f) + ") AS __v" + i);
      }
    }
    boolean minHash = usesMinHashJoin();
    StringBuilder s = new StringBuilder(sourceCte(values, minHash)).append(",\n");
    if (!unitLevel()) {
      s.append("agg AS (SELECT ").append(groupPrefix()).append("COUNT(*) AS __units, ")
          .append("COUNT(*) AS __rows");
      appendRowAggregates(s);
      s.append(" FROM src").append(groupByClause()).append(")\n");
    } else {
      long l = spec.lInf();
      if (minHash) {
        // Each unit's smallest pair hash, over its rows (rows of a pair share the pair's hash).
        s.append("firsth AS (SELECT __u, MIN(__h) AS __h FROM src GROUP BY __u),\n");
      }
      s.append("pairs AS (SELECT __u, ").append(groupPrefix()).append("COUNT(*) AS __n");
      appendRowAggregates(s);
      s.append(minHash ? " FROM src JOIN firsth USING (__u, __h)" : " FROM src")
          .append(" GROUP BY __u").append(groups.isEmpty() ? "" : ", " + groupList())
          .append("),\n");
      s.append("kept AS (SELECT ").append(groupPrefix()).append("LEAST(__n, ").append(l)
          .append(") AS __n");
      for (int i = 0; i < ms.size(); i++) {
        if (ms.get(i) instanceof Measure.FixedPointSum f) {
          String bounded;
          String whole; // the pair's unscaled sum (for an all-rows pair clamp)
          if (doubleSum(f)) {
            // Exact only while c·M ≤ 2^53: otherwise fail (no value in the message) and let the
            // backend rerun with 128-bit sums. Then the integer, and the rescaling in 128 bits.
            String guard = "CASE WHEN __c" + i + " > " + exactDoubleCount(f) + " THEN error("
                + SqlText.string(DOUBLE_SUM_GUARD) + ") ";
            bounded = guard + "WHEN __c" + i + " <= " + l + " THEN CAST(__s" + i
                + " AS BIGINT) ELSE CAST(" + floorDiv("CAST(__s" + i + " AS HUGEINT) * " + l, "__c" + i)
                + " AS BIGINT) END";
            whole = guard + "ELSE CAST(__s" + i + " AS BIGINT) END";
          } else {
            bounded = "CASE WHEN __c" + i + " <= " + l + " THEN __s" + i + " ELSE "
                + floorDiv("__s" + i + " * " + l, "__c" + i) + " END";
            whole = "__s" + i;
          }
          Measure.PairClamp pc = f.pairClamp();
          if (pc != null) {
            // Pair clamp (Measure.FixedPointSum step 3); pairs without values stay NULL (0).
            bounded = "CASE WHEN __c" + i + " = 0 THEN NULL ELSE "
                + clampedAndCentred("(" + (pc.allRows() ? whole : bounded) + ")", f,
                    "LEAST(__c" + i + ", " + l + ")") + " END";
          }
          s.append(", ").append(bounded).append(" AS __s").append(i);
          s.append(", LEAST(__c").append(i).append(", ").append(l).append(") AS __c").append(i);
          if (f.squares()) {
            // ⌊q·L∞/c⌋ = (q // c)·L∞ + ⌊(q mod c)·L∞/c⌋ for q ≥ 0: no 128-bit overflow even
            // for a pair with 2^62 rows.
            String q = "__q" + i;
            String c = "__c" + i;
            s.append(", CASE WHEN ").append(c).append(" <= ").append(l).append(" THEN ").append(q)
                .append(" ELSE (").append(q).append(" // ").append(c).append(") * ").append(l)
                .append(" + ((").append(q).append(" % ").append(c).append(") * ").append(l)
                .append(") // ").append(c).append(" END AS ").append(q);
          }
        }
      }
      s.append(" FROM pairs");
      if (minHash) {
        // Only the unit's pairs with the smallest hash reached here: keep one, drop a tie.
        s.append(" QUALIFY COUNT(*) OVER (PARTITION BY __u) = 1");
      } else if (!groups.isEmpty()) {
        s.append(" QUALIFY ").append(keepL0(""));
      }
      s.append("),\n");
      s.append("agg AS (SELECT ").append(groupPrefix())
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
      s.append(" FROM kept").append(groupByClause()).append(")\n");
    }
    s.append("SELECT ").append(groupPrefix()).append("__units, __rows");
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.FixedPointSum f) {
        s.append(", __s").append(i).append(", __c").append(i);
        if (f.squares()) {
          s.append(", __q").append(i);
        }
      }
    }
    // Groups in key order, so that seeded runs draw their noise in a reproducible order.
    s.append(" FROM agg");
    if (!groups.isEmpty()) {
      s.append(" ORDER BY ").append(groups.stream().map(g -> g + " NULLS LAST")
          .collect(Collectors.joining(", ")));
    }
    return s.toString();
  }

  /**
   * S = min(Σ max(x, 0), C) + max(Σ min(x, 0), −C) over the group (Measure.FixedPointSum): the
   * exact 128-bit sums of the positive and negative parts, each saturated at the public cap C.
   * DuckDB's GREATEST and LEAST skip NULLs, so NULL values add 0.
   */
  static String saturatedSum(String x) {
    return "(LEAST(COALESCE(SUM(GREATEST(" + x + ", 0)), 0), " + Measure.SUM_CAP
        + ") + GREATEST(COALESCE(SUM(LEAST(" + x + ", 0)), 0), " + (-Measure.SUM_CAP) + "))";
  }

  /** Q = min(Σq, C) for non-negative q (Measure.FixedPointSum), exact in 128 bits. */
  static String saturatedSquares(String q) {
    return "LEAST(COALESCE(SUM(" + q + "), 0), " + Measure.SUM_CAP + ")";
  }

  /**
   * ⌊n/d⌋ for integers and d &gt; 0, exactly: DuckDB's {@code //} truncates toward zero, which
   * differs from the floor of the {@link Measure} contract for negative n.
   */
  static String floorDiv(String n, String d) {
    return "((" + n + ") - (((" + n + ") % " + d + ") + " + d + ") % " + d + ") // " + d;
  }

  /**
   * Σv, non-NULL count and (if requested) Σv² of every fixed-point measure, over rows; Σv in
   * DOUBLE where {@link #doubleSum} allows (exact under the guard applied in {@code kept}).
   */
  private void appendRowAggregates(StringBuilder s) {
    List<Measure> ms = spec.measures();
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.FixedPointSum f) {
        String v = "__v" + i;
        String square = "CAST(" + v + " AS HUGEINT) * " + v;
        if (!unitLevel()) {
          // Each row is its own pair: these are the group's sums, saturated at the cap.
          s.append(", ").append(saturatedSum(v)).append(" AS __s").append(i)
              .append(", COUNT(").append(v).append(") AS __c").append(i);
          if (f.squares()) {
            s.append(", ").append(saturatedSquares(square)).append(" AS __q").append(i);
          }
          continue;
        }
        s.append(", SUM(").append(doubleSum(f) ? "CAST(" + v + " AS DOUBLE)" : v)
            .append(") AS __s").append(i)
            .append(", COUNT(").append(v).append(") AS __c").append(i);
        if (f.squares()) {
          s.append(", SUM(").append(square).append(") AS __q").append(i);
        }
      }
    }
  }

  String binStatement(int index) {
    Measure.Bins b = (Measure.Bins) spec.measures().get(index);
    String cte = sourceCte(List.of("(" + cell(b) + ") AS __b"));
    if (!unitLevel()) {
      return cte + "\nSELECT " + groupPrefix() + "__b, COUNT(*) FROM src WHERE __b IS NOT NULL"
          + " GROUP BY " + groupPrefix() + "__b";
    }
    String partition = "s.__u" + (groups.isEmpty() ? ""
        : ", " + groups.stream().map(g -> "s." + g).collect(Collectors.joining(", ")));
    String kept = "";
    String join = "";
    if (!groups.isEmpty()) {
      kept = ",\nkeptpairs AS (SELECT __u, " + groupList() + " FROM (SELECT DISTINCT __u, "
          + groupList() + " FROM src) QUALIFY " + keepL0("") + ")";
      join = " JOIN keptpairs k ON s.__u = k.__u AND " + groups.stream()
          .map(g -> "s." + g + " IS NOT DISTINCT FROM k." + g)
          .collect(Collectors.joining(" AND "));
    }
    String sPrefix = groups.isEmpty() ? "" : groups.stream().map(g -> "s." + g + " AS " + g)
        .collect(Collectors.joining(", ")) + ", ";
    return cte + kept + ",\nranked AS (SELECT " + sPrefix + "s.__b, "
        + "ROW_NUMBER() OVER (PARTITION BY " + partition + " ORDER BY (s.__b IS NULL), "
        + salted("s.__u, s.__b") + ", s.__b) AS __rr FROM src s" + join + ")\n"
        + "SELECT " + groupPrefix() + "__b, COUNT(*) FROM ranked WHERE __b IS NOT NULL AND __rr <= "
        + spec.lInf() + " GROUP BY " + groupPrefix() + "__b";
  }
}
