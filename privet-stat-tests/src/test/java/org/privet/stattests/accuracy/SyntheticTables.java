package org.privet.stattests.accuracy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;

/**
 * Two synthetic, Adult-like tables for the accuracy suite, with the exact answers computed here
 * from the rows (never by the engine):
 * <ul>
 *   <li>{@code rows}: one row per unit (row-level privacy);
 *   <li>{@code users}: 1–3 rows per user in a home group and, for 30% of users, 1–3 rows in a
 *       second group (user-level privacy with L0 = 2, L∞ = 3: no row is dropped by contribution
 *       bounding, so the exact answer is the plain aggregate).
 * </ul>
 * Columns: {@code uid}, {@code g} (twelve groups g0..g11 of 2,000–7,500 rows), {@code x} (DOUBLE,
 * hours-like, normal with mean 37–48 and s.d. 12, a few rows beyond [0, 100]), {@code y}
 * (INTEGER, x rounded, NULL in 10% of rows) and {@code z = x − 50} (DOUBLE).
 */
final class SyntheticTables {
  static final int GROUPS = 12;
  static final List<String> KEYS = java.util.stream.IntStream.range(0, GROUPS)
      .mapToObj(g -> "g" + g).toList();

  /** One row. */
  record Row(long uid, int group, double x, Long y, double z) {}

  private SyntheticTables() {}

  static List<Row> rows(boolean users, long seed) {
    Random r = new Random(seed);
    List<Row> out = new ArrayList<>();
    long uid = 0;
    for (int g = 0; g < GROUPS; g++) {
      int target = 2000 + 500 * g;
      int made = 0;
      while (made < target) {
        int k = users ? 1 + r.nextInt(3) : 1;
        for (int i = 0; i < k; i++, made++) {
          out.add(row(r, uid, g));
        }
        if (users && r.nextDouble() < 0.3) {
          int other = (g + 1 + r.nextInt(GROUPS - 1)) % GROUPS;
          int k2 = 1 + r.nextInt(3);
          for (int i = 0; i < k2; i++) {
            out.add(row(r, uid, other));
          }
        }
        uid++;
      }
    }
    return out;
  }

  private static Row row(Random r, long uid, int g) {
    double x = 37 + g + 12 * r.nextGaussian();
    Long y = r.nextDouble() < 0.1 ? null : Math.round(x);
    return new Row(uid, g, x, y, x - 50);
  }

  static void register(DuckDbBackend db, String name, List<Row> rows) {
    List<List<?>> data = new ArrayList<>();
    for (Row row : rows) {
      data.add(Arrays.asList(row.uid(), KEYS.get(row.group()), row.x(), row.y(), row.z()));
    }
    db.registerTable(name, List.of("uid", "g", "x", "y", "z"), List.of(ColumnType.INTEGER,
        ColumnType.STRING, ColumnType.FLOATING, ColumnType.INTEGER, ColumnType.FLOATING), data);
  }

  /**
   * The exact per-group statistics of one column clamped to [lo, hi] over the rows kept by the
   * filter (y NOT NULL when {@code notNullY}): rows, distinct units, and the clamped values.
   */
  record GroupTruth(long rows, long units, double[] sortedValues) {
    double sum() {
      return Arrays.stream(sortedValues).sum();
    }

    double mean() {
      return sum() / sortedValues.length;
    }

    double variance() {
      double m = mean();
      return Arrays.stream(sortedValues).map(v -> (v - m) * (v - m)).sum() / sortedValues.length;
    }

    /** PERCENTILE_CONT: linear interpolation at p·(n − 1) of the sorted values. */
    double percentile(double p) {
      double pos = p * (sortedValues.length - 1);
      int i = (int) Math.floor(pos);
      int j = Math.min(i + 1, sortedValues.length - 1);
      return sortedValues[i] + (pos - i) * (sortedValues[j] - sortedValues[i]);
    }

    /**
     * Rows per unit of value at the p-quantile: 2·d·n over the width of the values between ranks
     * p − d and p + d (d = 0.02, a few hundred rows; the tables' normal densities are flat to
     * 0.1% over that span near the centre).
     */
    double density(double p) {
      double d = 0.02;
      return 2 * d * sortedValues.length / (percentile(Math.min(1, p + d))
          - percentile(Math.max(0, p - d)));
    }

    /** Rows whose clamped value falls in cell {@code cell} of {@code cells} equal cells. */
    long cell(int cell, int cells, double lo, double hi) {
      long n = 0;
      for (double v : sortedValues) {
        int c = (int) Math.min(cells - 1, Math.floor((v - lo) / (hi - lo) * cells));
        n += c == cell ? 1 : 0;
      }
      return n;
    }
  }

  static GroupTruth truth(List<Row> rows, int group, String column, double lo, double hi,
      boolean notNullY) {
    long n = 0;
    Set<Long> units = new HashSet<>();
    List<Double> values = new ArrayList<>();
    for (Row row : rows) {
      if (row.group() != group || (notNullY && row.y() == null)) {
        continue;
      }
      n++;
      units.add(row.uid());
      Double v = switch (column) {
        case "x" -> row.x();
        case "z" -> row.z();
        case "y" -> row.y() == null ? null : row.y().doubleValue();
        default -> null;
      };
      if (v != null) {
        values.add(Math.max(lo, Math.min(hi, v)));
      }
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return new GroupTruth(n, units.size(), sorted);
  }
}
