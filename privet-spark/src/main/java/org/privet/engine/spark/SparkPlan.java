package org.privet.engine.spark;

import static org.privet.engine.spark.SparkSqlText.bigint;
import static org.privet.engine.spark.SparkSqlText.dbl;
import static org.privet.engine.spark.SparkSqlText.quote;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.TableSchema;

/**
 * Translates a {@link BoundedAggregation} into one Spark SQL statement that returns one row per
 * group: the group key, unit and row counts, per fixed-point measure its sum, count (and sum of
 * squares), and per binned measure a map from cell to count. The contract implemented is the one
 * documented on {@code BoundedAggregation} and argued in {@code docs/proofs/engine-bounding.md};
 * the Spark-specific arithmetic is argued in {@code docs/proofs/engine-spark.md}.
 *
 * <p>Exactness and totality: fixed-point values are BIGINT with |v| ≤ 2^31 (checked before
 * anything runs), so v² fits; sums use {@code try_sum}, which is NULL on overflow instead of
 * wrapping as Spark's SUM(BIGINT) does outside ANSI mode (or failing inside it). A pair whose sum
 * overflows (more than 2^32 values in one pair) takes a value in its range instead, as the
 * {@link Measure.FixedPointSum} contract allows; per group, the positive and the negative parts
 * are summed separately and an overflow (NULL) saturates the part at the public cap 2^62 — exactly
 * the contract's saturated sum, since a part's sum only grows in magnitude. Nothing raises an error
 * on a data-dependent magnitude (issue 10, item 3). The L∞ rescaling ⌊s·L∞/c⌋ is computed in
 * DECIMAL(38,0) with an exact floor division. No floating point touches a sum.
 */
final class SparkPlan {
  private static final long MAX_ABS_VALUE = 1L << 31;

  private final BoundedAggregation spec;
  private final TableSchema schema;
  private final String from;
  private final List<String> groups; // __g0, __g1, ...

  /**
   * @param spec the aggregation
   * @param schema the source's columns
   * @param from the source as SQL text (a quoted table or view name)
   */
  SparkPlan(BoundedAggregation spec, TableSchema schema, String from) {
    this.spec = spec;
    this.schema = schema;
    this.from = from;
    this.groups = IntStream.range(0, spec.groupBy().size()).mapToObj(i -> "__g" + i).toList();
    refuseUnknownParts(spec, SPEC_PARTS);
    for (Measure m : spec.measures()) {
      if (!(m instanceof Measure.FixedPointSum || m instanceof Measure.Bins)) {
        throw new IllegalArgumentException("the Spark backend does not implement measure "
            + m.getClass().getSimpleName() + " yet");
      }
      refuseUnknownParts((Record) m,
          m instanceof Measure.FixedPointSum ? SUM_PARTS : BINS_PARTS);
      SparkSqlText.column(schema, m.column());
      if (m instanceof Measure.FixedPointSum f) {
        requireSmallValues(f);
      } else if (m instanceof Measure.Bins b && b.bins() < 1) {
        throw new IllegalArgumentException("bins must be positive");
      }
    }
    spec.unitColumn().ifPresent(u -> SparkSqlText.column(schema, u));
    spec.groupBy().forEach(g -> SparkSqlText.column(schema, g));
  }

  private static final Set<String> SPEC_PARTS = Set.of("source", "filter", "unitColumn", "groupBy",
      "publicGroups", "l0", "lInf", "salt", "measures");
  private static final Set<String> SUM_PARTS = Set.of("column", "lower", "upper", "scaleExponent",
      "center", "squares", "pairClamp");
  private static final Set<String> BINS_PARTS = Set.of("column", "lower", "upper", "bins");

  /**
   * Fails closed on contract extensions this backend does not implement yet: a record component
   * it does not know (added to the SPI later, e.g. a per-unit-per-group clamp) must be unset
   * (null, empty, false or zero), otherwise the spec is refused rather than silently computed
   * without it.
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
        throw new IllegalArgumentException("the Spark backend does not implement '" + c.getName()
            + "' of " + r.getClass().getSimpleName() + " yet");
      }
    }
  }

  /**
   * The contract promises |v| ≤ 2^31; checked here because the no-overflow argument for v² and for
   * the per-pair sums relies on it.
   */
  private static void requireSmallValues(Measure.FixedPointSum f) {
    double bound = Math.max(Math.abs(f.lowestValue()), Math.abs(f.highestValue()));
    if (!(f.lower() <= f.upper()) || !(bound <= MAX_ABS_VALUE)) {
      throw new IllegalArgumentException("fixed-point measure on column '" + f.column()
          + "': clamped, scaled and centred values must lie within ±2^31");
    }
  }

  private boolean unitLevel() {
    return spec.unitColumn().isPresent();
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

  private static String x(String column) {
    return "CAST(" + quote(column) + " AS DOUBLE)";
  }

  private static String clamp(String column, double lower, double upper) {
    return "LEAST(GREATEST(" + x(column) + ", " + dbl(lower) + "), " + dbl(upper) + ")";
  }

  private static String ignoredGuard(String column) {
    return "CASE WHEN " + x(column) + " IS NULL OR isnan(" + x(column) + ") THEN NULL ELSE ";
  }

  /**
   * CAST(rint(clamp(x)·2^k) AS BIGINT) − center, NULL for NULL/NaN. Clamping is exact, the
   * multiplication by a power of two is exact, rint rounds half to even (as DuckDB's cast does), so
   * both backends produce the same integers; any monotone rounding keeps v within
   * [⌊lo·2^k⌋, ⌈hi·2^k⌉]. NaN must be tested first: Spark orders NaN above +∞, so GREATEST/LEAST
   * would turn it into the upper bound.
   */
  static String fixedPoint(Measure.FixedPointSum f) {
    return ignoredGuard(f.column()) + scaled(f)
        + (f.rowCenter() == 0 ? "" : " - " + bigint(f.rowCenter())) + " END";
  }

  private static String scaled(Measure.FixedPointSum f) {
    return "CAST(rint(" + clamp(f.column(), f.lower(), f.upper()) + " * "
        + dbl(Math.scalb(1.0, f.scaleExponent())) + ") AS BIGINT)";
  }

  /** LEAST(GREATEST(expr, lower), upper) on BIGINT, for a {@link Measure.PairClamp}. */
  private static String pairClamped(String expr, Measure.PairClamp pc) {
    return "LEAST(GREATEST(" + expr + ", " + bigint(pc.lower()) + "), " + bigint(pc.upper()) + ")";
  }

  /**
   * A pair's uncentred bounded sum clamped to the pair clamp, then centred by center·{@code count}
   * (Measure.FixedPointSum step 3); the centring in DECIMAL(38,0), since only the result (within
   * the measure's sensitivity bound) is known to fit 64 bits.
   */
  private static String clampedAndCentred(String expr, Measure.FixedPointSum f, String count) {
    String clamped = pairClamped(expr, f.pairClamp());
    return f.center() == 0 ? "CAST(" + clamped + " AS BIGINT)" : "CAST(CAST(" + clamped
        + " AS DECIMAL(38,0)) - CAST(" + f.center() + " AS DECIMAL(38,0)) * " + count
        + " AS BIGINT)";
  }

  /**
   * A pair's value when its exact sum overflowed 64 bits (Measure.FixedPointSum, overflow): c·mid
   * with mid = ⌊(a + b)/2⌋, inside the pair's range [c·a, c·b]; in DECIMAL(38,0) (c may exceed
   * 2^32 here), so it is meant to be bounded afterwards (L∞ scaling, pair clamp).
   */
  private static String overflowedSum(Measure.FixedPointSum f, String count) {
    long mid = Math.floorDiv((long) f.lowestValue() + (long) f.highestValue(), 2);
    return "(CAST(" + count + " AS DECIMAL(38,0)) * " + mid + ")";
  }

  /**
   * The per-row value: with row-level units each row is its own pair, so a pair clamp applies to
   * the row's value (inside the NULL/NaN guard; a pair clamp implies center 0).
   */
  private String rowValue(Measure.FixedPointSum f) {
    if (spec.unitColumn().isPresent() || f.pairClamp() == null) {
      return fixedPoint(f);
    }
    return ignoredGuard(f.column()) + clampedAndCentred(scaled(f), f, "1") + " END";
  }

  static String cell(Measure.Bins b) {
    double perUnit = b.bins() / (b.upper() - b.lower());
    return ignoredGuard(b.column()) + "LEAST(CAST(FLOOR((" + clamp(b.column(), b.lower(), b.upper())
        + " - " + dbl(b.lower()) + ") * " + dbl(perUnit) + ") AS BIGINT), "
        + bigint(b.bins() - 1L) + ") END";
  }

  /**
   * S = min(Σ max(x, 0), C) + max(Σ min(x, 0), −C) (Measure.FixedPointSum): over at least one row
   * each part's try_sum is NULL only on overflow (GREATEST and LEAST skip NULLs, so NULL values
   * add 0), i.e. beyond 2^63 − 1 &gt; C in magnitude, which saturates the part at C; over no rows
   * (the one group of an empty input without GROUP BY) it is NULL too, and the part is 0.
   */
  private static String saturatedSum(String x) {
    String c = bigint(Measure.SUM_CAP);
    String minusC = bigint(-Measure.SUM_CAP);
    return "(LEAST(COALESCE(TRY_SUM(GREATEST(" + x + ", CAST(0 AS BIGINT))), " + onOverflow(c) + "), "
        + c + ") + GREATEST(COALESCE(TRY_SUM(LEAST(" + x + ", CAST(0 AS BIGINT))), "
        + onOverflow(minusC) + "), " + minusC + "))";
  }

  /** Q = min(Σq, C) for non-negative q: try_sum is NULL on overflow (NULLs count as 0) or no rows. */
  private static String saturatedSquares(String q) {
    String c = bigint(Measure.SUM_CAP);
    return "LEAST(COALESCE(TRY_SUM(COALESCE(" + q + ", CAST(0 AS BIGINT))), " + onOverflow(c) + "), "
        + c + ")";
  }

  /** What a NULL try_sum stands for: the saturated part, unless the group has no rows (then 0). */
  private static String onOverflow(String saturated) {
    return "CASE WHEN COUNT(*) = 0 THEN CAST(0 AS BIGINT) ELSE " + saturated + " END";
  }

  /** ⌊a·l/c⌋ for BIGINT a, c &gt; 0: a·l exactly in DECIMAL(38,0) (|a·l| &lt; 2^94), floor division. */
  private static String scaledToLinf(String a, String c, long l) {
    String num = "(CAST(" + a + " AS DECIMAL(38,0)) * " + l + ")";
    return "CAST((" + num + " DIV " + c + ") - CASE WHEN " + num + " % " + c
        + " < 0 THEN 1 ELSE 0 END AS BIGINT)";
  }

  /** The salted 64-bit hash: xxhash64 seeded through the salt as its first argument. */
  private String salted(String args) {
    return "xxhash64(" + bigint(spec.salt()) + ", " + args + ")";
  }

  /** The WITH clause: {@code __keys} for public groups, then {@code src}. */
  private String sourceCte(List<String> valueColumns) {
    StringBuilder s = new StringBuilder("WITH ");
    boolean semiJoin = spec.publicGroups().isPresent() && !spec.publicGroups().get().isEmpty()
        && !groups.isEmpty();
    if (semiJoin) {
      List<String> rows = new ArrayList<>();
      for (List<Object> key : spec.publicGroups().get()) {
        List<String> vals = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
          vals.add(SparkSqlText.literal(key.get(i),
              SparkSqlText.column(schema, spec.groupBy().get(i))));
        }
        rows.add("(" + String.join(", ", vals) + ")");
      }
      s.append("__keys AS (SELECT * FROM VALUES ").append(String.join(", ", rows))
          .append(" AS __t(").append(IntStream.range(0, groups.size()).mapToObj(i -> "__k" + i)
              .collect(Collectors.joining(", "))).append(")),\n");
    }
    s.append("src AS (SELECT ");
    List<String> cols = new ArrayList<>();
    spec.unitColumn().ifPresent(u -> cols.add("__s." + quote(u) + " AS __u"));
    for (int i = 0; i < groups.size(); i++) {
      cols.add("__s." + quote(spec.groupBy().get(i)) + " AS " + groups.get(i));
    }
    cols.addAll(valueColumns);
    if (cols.isEmpty()) {
      cols.add("1 AS __one");
    }
    s.append(String.join(", ", cols)).append(" FROM ").append(from).append(" AS __s");
    if (semiJoin) {
      s.append(" LEFT SEMI JOIN __keys ON ").append(IntStream.range(0, groups.size())
          .mapToObj(i -> "__s." + quote(spec.groupBy().get(i)) + " <=> __keys.__k" + i)
          .collect(Collectors.joining(" AND ")));
    }
    List<String> where = new ArrayList<>();
    spec.filter().ifPresent(f -> where.add(SparkSqlText.filter(f, schema)));
    spec.unitColumn().ifPresent(u -> where.add("__s." + quote(u) + " IS NOT NULL"));
    if (spec.publicGroups().isPresent() && !semiJoin) {
      // No listed key, or no group column (one group, listed or not).
      where.add(spec.publicGroups().get().isEmpty() ? "FALSE" : "TRUE");
    }
    if (!where.isEmpty()) {
      s.append(" WHERE ").append(String.join(" AND ", where));
    }
    if (unitLevel() && !groups.isEmpty()) {
      // One shuffle by unit serves the pair aggregation (clustered by unit and group) and the
      // per-unit window alike; without it Spark shuffles by (unit, group) and again by unit.
      s.append(" DISTRIBUTE BY __u");
    }
    return s.append(")").toString();
  }

  /** The single statement: one row per group, in key order (so seeded runs are reproducible). */
  String statement() {
    List<Measure> ms = spec.measures();
    List<String> values = new ArrayList<>();
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.FixedPointSum f) {
        values.add("(" + rowValue(f) + ") AS __v" + i);
      } else {
        values.add("(" + cell((Measure.Bins) ms.get(i)) + ") AS __b" + i);
      }
    }
    StringBuilder s = new StringBuilder(sourceCte(values));
    long l = spec.lInf();
    if (!unitLevel()) {
      s.append(",\nagg AS (SELECT ").append(groupPrefix())
          .append("COUNT(*) AS __units, COUNT(*) AS __rows");
      appendRowAggregates(s);
      s.append(" FROM src").append(groupByClause()).append(")");
    } else {
      s.append(",\npairs AS (SELECT __u, ").append(groupPrefix()).append("COUNT(*) AS __n");
      appendRowAggregates(s);
      s.append(" FROM src GROUP BY __u").append(groups.isEmpty() ? "" : ", " + groupList(""))
          .append(")");
      String keptSource = "pairs";
      if (!groups.isEmpty()) {
        // Keep a pair iff at most L0 of the unit's pairs hash at or below it (RANGE frame: ties
        // at the boundary are all dropped).
        s.append(",\nranked AS (SELECT *, COUNT(*) OVER (PARTITION BY __u ORDER BY ")
            .append(salted("__u, " + groupList(""))).append(") AS __r FROM pairs)");
        s.append(",\nkeptpairs AS (SELECT * FROM ranked WHERE __r <= ").append(spec.l0())
            .append(")");
        keptSource = "keptpairs";
      }
      s.append(",\nkept AS (SELECT ").append(groupPrefix()).append("LEAST(__n, ").append(l)
          .append(") AS __n");
      for (int i = 0; i < ms.size(); i++) {
        if (ms.get(i) instanceof Measure.FixedPointSum f) {
          // A NULL pair sum with values is an overflow (try_sum): the pair takes c·mid instead.
          String sum = "COALESCE(__s" + i + ", " + overflowedSum(f, "__c" + i) + ")";
          String bounded = "CASE WHEN __c" + i + " <= " + l + " THEN " + sum + " ELSE "
              + scaledToLinf(sum, "__c" + i, l) + " END";
          Measure.PairClamp pc = f.pairClamp();
          if (pc != null) {
            // Pair clamp (Measure.FixedPointSum step 3) of the L∞-scaled or the whole pair sum,
            // then the centre; a pair without values adds 0 (DuckDB keeps it NULL: the same sums).
            bounded = "CASE WHEN __c" + i + " = 0 THEN CAST(0 AS BIGINT) ELSE "
                + clampedAndCentred(pc.allRows() ? sum : "(" + bounded + ")", f,
                    "LEAST(__c" + i + ", " + l + ")") + " END";
          } else {
            bounded = "CASE WHEN __c" + i + " = 0 THEN CAST(0 AS BIGINT) ELSE CAST(" + bounded
                + " AS BIGINT) END";
          }
          s.append(", ").append(bounded).append(" AS __s").append(i);
          s.append(", LEAST(__c").append(i).append(", ").append(l).append(") AS __c").append(i);
          if (f.squares()) {
            // An overflowed (NULL) sum of squares (≥ 2^63) takes min(c'·M², C), inside its
            // range [0, c'·M²]: with c ≤ L∞ the group's Q then saturates at C as with the exact
            // sum; beyond L∞ rows it is any admissible value (Measure.FixedPointSum, overflow).
            long m = (long) Math.max(Math.abs(f.lowestValue()), Math.abs(f.highestValue()));
            String q = "CASE WHEN __c" + i + " = 0 THEN CAST(0 AS BIGINT) ELSE COALESCE(__q" + i
                + ", CAST(LEAST(CAST(LEAST(__c" + i + ", " + l + ") AS DECIMAL(38,0)) * CAST("
                + m + " AS DECIMAL(38,0)) * CAST(" + m + " AS DECIMAL(38,0)), CAST("
                + Measure.SUM_CAP + " AS DECIMAL(38,0))) AS BIGINT)) END";
            s.append(", CASE WHEN __c").append(i).append(" <= ").append(l).append(" THEN ")
                .append(q).append(" ELSE ").append(scaledToLinf(q, "__c" + i, l))
                .append(" END AS __q").append(i);
          }
        }
      }
      s.append(" FROM ").append(keptSource).append(")");
      // Σ n' ≤ number of rows and Σ c' ≤ number of rows: plain SUM cannot overflow there.
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
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.Bins) {
        appendBins(s, i);
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
      if (ms.get(i) instanceof Measure.Bins) {
        if (groups.isEmpty()) {
          s.append(" CROSS JOIN bins").append(i).append(" h").append(i);
        } else {
          String h = "h" + i;
          s.append(" LEFT JOIN bins").append(i).append(' ').append(h).append(" ON ")
              .append(groups.stream().map(g -> "a." + g + " <=> " + h + "." + g)
                  .collect(Collectors.joining(" AND ")));
        }
      }
    }
    if (!groups.isEmpty()) {
      s.append(" ORDER BY ").append(groups.stream().map(g -> "a." + g + " ASC NULLS LAST")
          .collect(Collectors.joining(", ")));
    }
    return s.toString();
  }

  /** Σv, non-NULL count and (if requested) Σv² of every fixed-point measure, over rows. */
  private void appendRowAggregates(StringBuilder s) {
    List<Measure> ms = spec.measures();
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.FixedPointSum f) {
        String v = "__v" + i;
        String c = "COUNT(" + v + ")";
        if (!unitLevel()) {
          // Each row is its own pair: these are the group's sums, saturated at the cap.
          s.append(", ").append(saturatedSum(v)).append(" AS __s").append(i)
              .append(", ").append(c).append(" AS __c").append(i);
          if (f.squares()) {
            s.append(", ").append(saturatedSquares(v + " * " + v)).append(" AS __q").append(i);
          }
          continue;
        }
        // Pair sums: NULL without values or on overflow (the kept step tells them apart by c).
        s.append(", TRY_SUM(").append(v).append(") AS __s").append(i)
            .append(", ").append(c).append(" AS __c").append(i);
        if (f.squares()) {
          // |v| ≤ 2^31, so v·v ≤ 2^62 fits in BIGINT.
          s.append(", TRY_SUM(").append(v).append(" * ").append(v).append(") AS __q").append(i);
        }
      }
    }
  }

  /**
   * CTE {@code bins<i>}: per group a map cell → count. Unit-level: per kept (unit, group) pair the
   * non-ignored rows are counted per cell; cells are taken in order of (salted hash of (unit, cell),
   * cell) and each keeps min(its rows, what is left of L∞): exactly the rows that "at most L∞ rows,
   * chosen by smallest hash of (unit, cell), ties by cell" keeps.
   */
  private void appendBins(StringBuilder s, int i) {
    String b = "__b" + i;
    String perCell;
    if (!unitLevel()) {
      perCell = "SELECT " + groupPrefix() + b + " AS __b, COUNT(*) AS __k FROM src WHERE " + b
          + " IS NOT NULL GROUP BY " + groupPrefix() + b;
    } else {
      s.append(",\ncells").append(i).append(" AS (SELECT c.__u, ")
          .append(groups.isEmpty() ? "" : groupList("c.") + ", ").append("c.").append(b)
          .append(" AS __b, COUNT(*) AS __m FROM src c");
      if (!groups.isEmpty()) {
        s.append(" LEFT SEMI JOIN keptpairs k ON c.__u = k.__u AND ").append(groups.stream()
            .map(g -> "c." + g + " <=> k." + g).collect(Collectors.joining(" AND ")));
      }
      s.append(" WHERE c.").append(b).append(" IS NOT NULL GROUP BY c.__u, ")
          .append(groups.isEmpty() ? "" : groupList("c.") + ", ").append("c.").append(b)
          .append(")");
      s.append(",\ncapped").append(i).append(" AS (SELECT ").append(groupPrefix())
          .append("__b, GREATEST(CAST(0 AS BIGINT), LEAST(__m, ").append(spec.lInf())
          .append(" - (SUM(__m) OVER (PARTITION BY __u").append(groups.isEmpty() ? "" : ", ")
          .append(groupList("")).append(" ORDER BY ").append(salted("__u, __b"))
          .append(", __b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) - __m))) AS __k")
          .append(" FROM cells").append(i).append(")");
      perCell = "SELECT " + groupPrefix() + "__b, SUM(__k) AS __k FROM capped" + i
          + " WHERE __k > 0 GROUP BY " + groupPrefix() + "__b";
    }
    s.append(",\nbins").append(i).append(" AS (SELECT ").append(groupPrefix())
        .append("map_from_entries(collect_list(struct(__b, __k))) AS __cells FROM (")
        .append(perCell).append(")").append(groupByClause()).append(")");
  }
}
