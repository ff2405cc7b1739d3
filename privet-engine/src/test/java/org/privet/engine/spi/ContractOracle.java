package org.privet.engine.spi;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The {@link BoundedAggregation} contract computed literally, row by row in Java with exact
 * integers: the reference every backend's exact aggregates are compared with in {@link
 * BackendContractTest}. It computes only results that do not depend on a backend's salted hash,
 * and refuses the others: a unit with more than L0 groups, or a pair with more than L∞ binned
 * values. Rounding is {@link Math#rint} (half to even), as DuckDB's cast and Spark's {@code rint}.
 *
 * <p>It is deliberately naive and independent of every backend's SQL, so that a bug shared by all
 * backends still shows.
 */
final class ContractOracle {
  private ContractOracle() {}

  /**
   * The groups the contract gives, keyed by {@link #key}; groups with no kept pair are absent,
   * except the one global group of a query without GROUP BY.
   *
   * @param filter the spec's filter, as a predicate on a row (SQL's TRUE only)
   */
  static Map<List<String>, GroupAggregate> aggregate(List<String> columns, List<List<?>> table,
      BoundedAggregation spec, Predicate<List<?>> filter) {
    int unit = spec.unitColumn().map(columns::indexOf).orElse(-1);
    List<Integer> groupBy = spec.groupBy().stream().map(columns::indexOf).toList();
    List<List<String>> listed = spec.publicGroups().map(l -> l.stream().map(ContractOracle::key).toList())
        .orElse(null);
    // pair (unit, group key) -> its rows, in table order
    Map<List<Object>, List<List<?>>> pairs = new LinkedHashMap<>();
    int rowNumber = 0;
    for (List<?> row : table) {
      rowNumber++;
      List<String> key = key(groupBy.stream().map(row::get).toList());
      if (!filter.test(row) || (unit >= 0 && row.get(unit) == null)
          || (listed != null && !listed.contains(key))) {
        continue;
      }
      Object who = unit >= 0 ? row.get(unit) : "row " + rowNumber;
      pairs.computeIfAbsent(List.of(who, key), p -> new ArrayList<>()).add(row);
    }
    Map<Object, Integer> groupsPerUnit = new HashMap<>();
    pairs.keySet().forEach(p -> groupsPerUnit.merge(p.get(0), 1, Integer::sum));
    Map<Object, Integer> rowsPerUnit = new HashMap<>();
    pairs.forEach((p, rows) -> rowsPerUnit.merge(p.get(0), rows.size(), Integer::sum));
    int cap = spec.maxRowsContributed();
    if (cap > 0 && pairs.keySet().stream().anyMatch(p -> rowsPerUnit.get(p.get(0)) > cap
        && groupsPerUnit.get(p.get(0)) > 1)) {
      throw new IllegalArgumentException("the total row cap binds over several groups: which rows"
          + " are kept depends on the backend's hash");
    }
    if (cap == 0 && groupsPerUnit.values().stream().anyMatch(n -> n > spec.l0())) {
      throw new IllegalArgumentException("L0 binds: which pairs are kept depends on the backend's hash");
    }
    int n = spec.measures().size();
    Map<List<String>, Totals> groups = new LinkedHashMap<>();
    if (spec.groupBy().isEmpty()) {
      groups.put(List.of(), new Totals(spec));
    }
    for (Map.Entry<List<Object>, List<List<?>>> pair : pairs.entrySet()) {
      @SuppressWarnings("unchecked")
      List<String> key = (List<String>) pair.getKey().get(1);
      Totals t = groups.computeIfAbsent(key, k -> new Totals(spec));
      List<List<?>> rows = pair.getValue();
      // The pair's row bound: L∞, or under a total cap m all its rows (the unit's total is at
      // most m) or m (its only pair).
      int lInf = cap == 0 ? spec.lInf()
          : rowsPerUnit.get(pair.getKey().get(0)) <= cap ? rows.size() : cap;
      t.units++;
      t.rows += Math.min(rows.size(), lInf);
      for (int i = 0; i < n; i++) {
        Measure m = spec.measures().get(i);
        List<Double> values = new ArrayList<>();
        int column = columns.indexOf(m.column());
        for (List<?> row : rows) {
          if (m instanceof Measure.FixedPointSum f && f.rows()) {
            values.add(1.0); // a row count: every row counts 1, the column is not read
            continue;
          }
          Object v = row.get(column);
          if (v != null && !Double.isNaN(((Number) v).doubleValue())) {
            values.add(((Number) v).doubleValue());
          }
        }
        if (m instanceof Measure.FixedPointSum f) {
          t.add(i, f, values, lInf);
        } else if (m instanceof Measure.PairRows pr) {
          t.bins[i][pr.cellOf(rows.size())]++; // every row of the kept pair, L∞ aside
        } else if (m instanceof Measure.PairValues pv) {
          t.bins[i][pairValuesCell(pv, values)]++; // every value of the kept pair, L∞ aside
        } else if (m instanceof Measure.Bins b) {
          if (values.size() > lInf) {
            throw new IllegalArgumentException("L∞ binds on binned values: depends on the backend's hash");
          }
          double perUnit = b.bins() / (b.upper() - b.lower());
          for (double x : values) {
            double c = Math.min(Math.max(x, b.lower()), b.upper());
            t.bins[i][b.logScale() ? logCell(b, c)
                : (int) Math.min(Math.floor((c - b.lower()) * perUnit), b.bins() - 1)]++;
          }
        }
      }
    }
    Map<List<String>, GroupAggregate> out = new LinkedHashMap<>();
    groups.forEach((k, t) -> out.put(k, t.aggregate(k)));
    return out;
  }

  /**
   * Independently of the measure's code: r = ⌈s/b⌉ (s &gt; 0) or ⌈s/a⌉ (s &lt; 0) with s the exact
   * sum of rint(clamp(x)·2^k), a = ⌊lower·2^k⌋, b = ⌈upper·2^k⌉; the cell of n = max(r, 1) is
   * the number of doublings from 1 needed to reach n, at most bins − 1.
   */
  static int pairValuesCell(Measure.PairValues pv, List<Double> values) {
    BigInteger s = BigInteger.ZERO;
    for (double x : values) {
      double clamped = Math.min(Math.max(x, pv.lower()), pv.upper());
      s = s.add(BigInteger.valueOf((long) Math.rint(clamped * Math.scalb(1.0, pv.scaleExponent()))));
    }
    long a = (long) Math.floor(pv.lower() * Math.scalb(1.0, pv.scaleExponent()));
    long b = (long) Math.ceil(pv.upper() * Math.scalb(1.0, pv.scaleExponent()));
    BigInteger r = BigInteger.ZERO;
    if (s.signum() != 0) {
      BigInteger den = BigInteger.valueOf(s.signum() > 0 ? b : a); // same sign as s
      BigInteger[] qr = s.divideAndRemainder(den);
      r = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
    }
    int cell = 0;
    for (BigInteger p = BigInteger.ONE; p.compareTo(r) < 0 && cell < pv.bins() - 1; p = p.shiftLeft(1)) {
      cell++;
    }
    return cell;
  }

  /** A group key as compared across backends: each value's text (NULL as "null"). */
  static List<String> key(List<?> values) {
    return values.stream().map(String::valueOf).toList();
  }

  private static final class Totals {
    long units;
    long rows;
    final BigInteger[] positive;
    final BigInteger[] negative;
    final long[] counts;
    final BigInteger[] squares;
    final long[][] bins;

    Totals(BoundedAggregation spec) {
      int n = spec.measures().size();
      positive = new BigInteger[n];
      negative = new BigInteger[n];
      squares = new BigInteger[n];
      counts = new long[n];
      bins = new long[n][];
      for (int i = 0; i < n; i++) {
        positive[i] = BigInteger.ZERO;
        negative[i] = BigInteger.ZERO;
        squares[i] = BigInteger.ZERO;
        if (Measure.cells(spec.measures().get(i)) > 0) {
          bins[i] = new long[Measure.cells(spec.measures().get(i))];
        }
      }
    }

    /** One pair's fixed-point sum, bounded as {@link Measure.FixedPointSum} states. */
    void add(int i, Measure.FixedPointSum f, List<Double> values, int lInf) {
      BigInteger s = BigInteger.ZERO;
      BigInteger q = BigInteger.ZERO;
      for (double x : values) {
        double clamped = Math.min(Math.max(x, f.lower()), f.upper());
        BigInteger v = BigInteger.valueOf((long) Math.rint(clamped * Math.scalb(1.0, f.scaleExponent())))
            .subtract(BigInteger.valueOf(f.center()));
        s = s.add(v);
        q = f.squares() ? q.add(v.multiply(v)) : q;
      }
      long c = values.size();
      boolean allRows = f.pairClamp() != null && f.pairClamp().allRows();
      if (c > lInf) {
        BigInteger l = BigInteger.valueOf(lInf);
        BigInteger count = BigInteger.valueOf(c);
        q = floorDiv(q.multiply(l), count);
        if (!allRows) {
          s = floorDiv(s.multiply(l), count);
        }
        c = lInf;
      }
      if (f.pairClamp() != null && c > 0) {
        s = s.max(BigInteger.valueOf(f.pairClamp().lower())).min(BigInteger.valueOf(f.pairClamp().upper()));
      }
      positive[i] = positive[i].add(s.max(BigInteger.ZERO));
      negative[i] = negative[i].add(s.min(BigInteger.ZERO));
      counts[i] += c;
      squares[i] = squares[i].add(q);
    }

    private static BigInteger floorDiv(BigInteger a, BigInteger b) {
      BigInteger[] qr = a.divideAndRemainder(b);
      return qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
    }

    /** Per group: S = min(Σ⁺, C) + max(Σ⁻, −C) and Q = min(Σq, C), C = {@link Measure#SUM_CAP}. */
    GroupAggregate aggregate(List<String> key) {
      int n = positive.length;
      BigInteger cap = BigInteger.valueOf(Measure.SUM_CAP);
      long[] s = new long[n];
      long[] q = new long[n];
      for (int i = 0; i < n; i++) {
        s[i] = positive[i].min(cap).add(negative[i].max(cap.negate())).longValueExact();
        q[i] = squares[i].min(cap).longValueExact();
      }
      return new GroupAggregate(List.copyOf(key), units, rows, s, counts.clone(), q, bins);
    }
  }

  /** The log-scale cell of {@link Measure.Bins}: e = ⌊log₂ max(|c|, 2^m)⌋ exactly. */
  static int logCell(Measure.Bins b, double c) {
    int k = b.bins() / 2;
    int m = b.logMinExponent();
    int e = Math.getExponent(Math.max(Math.abs(c), Math.scalb(1.0, m)));
    int offset = Math.min(Math.max(e - m, 0), k - 1);
    return c >= 0 ? k + offset : k - 1 - offset;
  }
}
