package org.privet.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.testing.SeededRandomSource;
import org.privet.testing.TestPostgres;

/**
 * Issue 24 on a real PostgreSQL server ({@link TestPostgres}): with L∞ estimated privately
 * ({@link Query.Builder#estimateMaxRowsPerGroup}), a table with 3 rows per privacy unit counts
 * 30, not 10, and sums every row. At ε = 10^9 the tree's and the count's noise scales are below
 * 10^-7, so the answers are exact except with probability below 10^-6; the seed is fixed.
 */
class PostgresDefaultContributionTest {
  @Test
  void run_threeRowsPerUnit_countsAndSumsEveryRow() throws Exception {
    String url = TestPostgres.server().newDatabase();
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE three (uid bigint, g text, x double precision)");
      st.execute("INSERT INTO three SELECT u, 'g' || (u % 2), 1 + k FROM generate_series(0, 9) u,"
          + " generate_series(0, 2) k");
    }
    try (PostgresBackend db = PostgresBackend.connect(url, new Properties())) {
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(4)).build();
      Result r = s.run(Query.from("three").privacyUnit("uid").estimateMaxRowsPerGroup()
          .count("n").sum("s", "x", 0, 10).epsilon(1e9).build());
      assertEquals(4, r.estimatedMaxRowsPerGroup());
      assertEquals(30, r.rows().get(0).get("n").value(), 1e-6);
      assertEquals(60, r.rows().get(0).get("s").value(), 1e-3); // 10 units × (1 + 2 + 3)
    }
  }
}
