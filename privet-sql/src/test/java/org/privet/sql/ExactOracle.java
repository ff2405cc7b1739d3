package org.privet.sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.engine.Aggregation;
import org.privet.engine.Filter;
import org.privet.engine.Query;

/**
 * Exact (noise-free) answers of an engine query over {@link AdultFixture} rows, computed in plain
 * Java without the engine or DuckDB. Every unit of the fixture has one row, so contribution
 * bounding keeps every row and the bounded exact answer is the clamped plain aggregate.
 */
final class ExactOracle {
  private final AdultFixture data;

  ExactOracle(AdultFixture data) {
    this.data = data;
  }

  /** The rows of each group (key = group-by values) that pass the query's filter. */
  Map<List<Object>, List<Object[]>> groups(Query q) {
    Map<List<Object>, List<Object[]>> out = new LinkedHashMap<>();
    if (q.groupBy().isEmpty()) {
      out.put(List.of(), new ArrayList<>());
    }
    for (Object[] r : data.rows) {
      if (q.filter().isPresent() && test(q.filter().get(), r) != Boolean.TRUE) {
        continue;
      }
      List<Object> key = new ArrayList<>();
      for (String g : q.groupBy()) {
        key.add(r[data.index.get(g)]);
      }
      out.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }
    return out;
  }

  /** The exact value of {@code a} over {@code rows} (NaN for an empty mean/variance). */
  double exact(Aggregation a, List<Object[]> rows) {
    if (a instanceof Aggregation.Count || a instanceof Aggregation.CountDistinctUnits) {
      return rows.size();
    }
    double[] v = values(a, rows);
    if (a instanceof Aggregation.Sum) {
      return Arrays.stream(v).sum();
    }
    double mean = Arrays.stream(v).average().orElse(Double.NaN);
    if (a instanceof Aggregation.Mean) {
      return mean;
    }
    double var = Arrays.stream(v).map(x -> (x - mean) * (x - mean)).average().orElse(Double.NaN);
    return a instanceof Aggregation.StdDev ? Math.sqrt(var) : var;
  }

  /**
   * The k-th smallest clamped non-null value, k = max(1, ⌈r·n⌉) with r as written in decimal (NaN
   * without values): the quantile a tree interval must cover.
   */
  double quantile(Aggregation.Quantiles a, List<Object[]> rows, double r) {
    double[] v = values(a, rows);
    if (v.length == 0) {
      return Double.NaN;
    }
    Arrays.sort(v);
    long k = new java.math.BigDecimal(Double.toString(r)).multiply(java.math.BigDecimal.valueOf(v.length))
        .setScale(0, java.math.RoundingMode.CEILING).longValueExact();
    return v[(int) Math.max(1, k) - 1];
  }

  /** The fraction of the (clamped, non-null) values of {@code a}'s column that are ≤ x. */
  double rank(Aggregation.Quantiles a, List<Object[]> rows, double x) {
    double[] v = values(a, rows);
    return v.length == 0 ? Double.NaN : Arrays.stream(v).filter(y -> y <= x).count() / (double) v.length;
  }

  private double[] values(Aggregation a, List<Object[]> rows) {
    String column;
    double lo;
    double hi;
    Aggregation.GroupBounds perGroup = null; // one row per unit: the unit's total is its value
    if (a instanceof Aggregation.Sum s) {
      column = s.column(); lo = s.lower(); hi = s.upper(); perGroup = s.perGroup();
    } else if (a instanceof Aggregation.Mean m) {
      column = m.column(); lo = m.lower(); hi = m.upper(); perGroup = m.perGroup();
    } else if (a instanceof Aggregation.Variance v) {
      column = v.column(); lo = v.lower(); hi = v.upper();
    } else if (a instanceof Aggregation.StdDev s) {
      column = s.column(); lo = s.lower(); hi = s.upper();
    } else if (a instanceof Aggregation.Quantiles q) {
      column = q.column(); lo = q.lower(); hi = q.upper();
    } else {
      throw new IllegalArgumentException("no values for " + a);
    }
    int i = data.index.get(column);
    double glo = perGroup == null ? Double.NEGATIVE_INFINITY : perGroup.lower();
    double ghi = perGroup == null ? Double.POSITIVE_INFINITY : perGroup.upper();
    return rows.stream().map(r -> r[i]).filter(x -> x != null)
        .mapToDouble(x -> Math.min(hi, Math.max(lo, ((Number) x).doubleValue())))
        .map(x -> Math.min(ghi, Math.max(glo, x))).toArray();
  }

  /** SQL three-valued logic: TRUE, FALSE or null (unknown). */
  private Boolean test(Filter f, Object[] r) {
    if (f instanceof Filter.Compare c) {
      Object v = r[data.index.get(c.column())];
      if (v == null) {
        return null;
      }
      int cmp = compare(v, c.literal());
      return switch (c.op()) {
        case EQ -> cmp == 0;
        case NE -> cmp != 0;
        case LT -> cmp < 0;
        case LE -> cmp <= 0;
        case GT -> cmp > 0;
        case GE -> cmp >= 0;
      };
    } else if (f instanceof Filter.In in) {
      Object v = r[data.index.get(in.column())];
      if (v == null) {
        return null;
      }
      return in.literals().stream().anyMatch(l -> compare(v, l) == 0);
    } else if (f instanceof Filter.IsNull n) {
      return r[data.index.get(n.column())] == null;
    } else if (f instanceof Filter.Not n) {
      Boolean b = test(n.operand(), r);
      return b == null ? null : !b;
    } else if (f instanceof Filter.And and) {
      boolean unknown = false;
      for (Filter g : and.operands()) {
        Boolean b = test(g, r);
        if (b == Boolean.FALSE) {
          return false;
        }
        unknown |= b == null;
      }
      return unknown ? null : Boolean.TRUE;
    } else if (f instanceof Filter.Or or) {
      boolean unknown = false;
      for (Filter g : or.operands()) {
        Boolean b = test(g, r);
        if (b == Boolean.TRUE) {
          return true;
        }
        unknown |= b == null;
      }
      return unknown ? null : Boolean.FALSE;
    }
    throw new IllegalArgumentException("unknown filter " + f);
  }

  private static int compare(Object value, Object literal) {
    if (value instanceof Number a && literal instanceof Number b) {
      return Double.compare(a.doubleValue(), b.doubleValue());
    }
    return value.toString().compareTo(literal.toString());
  }
}
