package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.GroupAggregate;

/**
 * The backend's database aggregates integer units whose ids span up to {@link
 * DuckDbBackend#PERFECT_HASH_BITS} bits with DuckDB's perfect hash table (issue 25, Q10's per-unit
 * {@code GROUP BY}), and the bounded aggregates are unchanged: Σ<sub>u</sub> min(n<sub>u</sub>, τ)
 * and the unit count, per group, equal the ones computed here in Java from the generated rows
 * (the independent reference), for units spread over 17 bits (past DuckDB's default of 12).
 */
class DuckDbPerfectHashTest {
  private static final int UNITS = 100_000;
  private static DuckDbBackend db;
  /** Per unit id, its rows per group (g = 0, 1); units with no rows absent. */
  private static final Map<Long, long[]> ROWS = new HashMap<>();

  @BeforeAll
  static void load() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 1; u <= UNITS; u++) {
      if (u % 3 == 0) {
        continue; // two thirds of the ids hold rows, as two thirds of TPC-H's customers do
      }
      int n = (int) (1 + (u * 7919) % 9);
      long[] perGroup = new long[2];
      for (int r = 0; r < n; r++) {
        long g = (u + r) % 5 == 0 ? 1 : 0;
        perGroup[(int) g]++;
        rows.add(List.of(u, g));
      }
      ROWS.put(u, perGroup);
    }
    db.registerTable("t", List.of("uid", "g"), List.of(ColumnType.INTEGER, ColumnType.INTEGER),
        rows);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static BoundedAggregation count(List<String> groups, int l0, int lInf) {
    return new BoundedAggregation(Source.table("t"), Optional.empty(), Optional.of("uid"), groups,
        Optional.empty(), l0, lInf, 11, List.of());
  }

  private static String explain(String statement) throws SQLException {
    StringBuilder out = new StringBuilder();
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet rs = st.executeQuery("EXPLAIN " + statement)) {
      while (rs.next()) {
        out.append(rs.getString(2)).append('\n');
      }
    }
    return out.toString();
  }

  @Test
  void perUnitCount_usesThePerfectHashTable() throws SQLException {
    String plan = explain(db.physicalPlan(count(List.of(), 1, 4)));
    assertTrue(plan.contains("PERFECT_HASH_GROUP_BY"), plan);
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet rs = st.executeQuery("SELECT current_setting('perfect_ht_threshold')")) {
      rs.next();
      assertEquals(DuckDbBackend.PERFECT_HASH_BITS, rs.getInt(1));
    }
  }

  @Test
  void scalarCount_clampedRowsAndUnits_equalTheReference() {
    for (int tau : new int[] {1, 2, 3, 5, 9, 16}) {
      long expectedRows = 0;
      for (long[] perGroup : ROWS.values()) {
        expectedRows += Math.min(perGroup[0] + perGroup[1], tau);
      }
      List<GroupAggregate> out = new ArrayList<>();
      db.aggregate(count(List.of(), 1, tau), out::add);
      assertEquals(1, out.size());
      assertEquals(ROWS.size(), out.get(0).units(), "tau " + tau);
      assertEquals(expectedRows, out.get(0).rows(), "tau " + tau);
    }
  }

  @Test
  void groupedCount_clampedRowsAndUnitsPerGroup_equalTheReference() {
    for (int tau : new int[] {1, 3, 8}) {
      long[] expectedRows = new long[2];
      long[] expectedUnits = new long[2];
      for (long[] perGroup : ROWS.values()) {
        for (int g = 0; g < 2; g++) {
          if (perGroup[g] > 0) {
            expectedUnits[g]++;
            expectedRows[g] += Math.min(perGroup[g], tau);
          }
        }
      }
      List<GroupAggregate> out = new ArrayList<>();
      db.aggregate(count(List.of("g"), 2, tau), out::add);
      assertEquals(2, out.size());
      for (GroupAggregate a : out) {
        int g = ((Number) a.key().get(0)).intValue();
        assertEquals(expectedUnits[g], a.units(), "group " + g + " tau " + tau);
        assertEquals(expectedRows[g], a.rows(), "group " + g + " tau " + tau);
      }
    }
  }
}
