package org.privet.engine.duckdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A crafted (uid, g, x) table where units have many rows in one group, for pair-clamp tests. */
public final class PairClampFixture {
  private PairClampFixture() {}

  /**
   * g0: unit 1 has 5 rows of 10 (total 50); unit 2 has 2 rows of 3 (total 6); unit 3 has 7 rows of
   * 10 (total 70; with 7 &gt; L∞ = 5 scaled to ⌊70·5/7⌋ = 50); unit 4 has one row of 2; unit 5 only a
   * NULL value; unit 6 rows 40 and −3 (clamped per row to [0, 10]: 10 and 0, total 10). g1: unit 1
   * again, 3 rows of 9 (total 27).
   */
  public static List<List<?>> rows() {
    List<List<?>> rows = new ArrayList<>();
    for (int r = 0; r < 5; r++) {
      rows.add(Arrays.asList(1L, "g0", 10.0));
    }
    rows.add(Arrays.asList(2L, "g0", 3.0));
    rows.add(Arrays.asList(2L, "g0", 3.0));
    for (int r = 0; r < 7; r++) {
      rows.add(Arrays.asList(3L, "g0", 10.0));
    }
    rows.add(Arrays.asList(4L, "g0", 2.0));
    rows.add(Arrays.asList(5L, "g0", null));
    rows.add(Arrays.asList(6L, "g0", 40.0));
    rows.add(Arrays.asList(6L, "g0", -3.0));
    for (int r = 0; r < 3; r++) {
      rows.add(Arrays.asList(1L, "g1", 9.0));
    }
    return rows;
  }
}
