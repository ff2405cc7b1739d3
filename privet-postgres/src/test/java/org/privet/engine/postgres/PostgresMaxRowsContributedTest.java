package org.privet.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.ResultRow;
import org.privet.engine.Session;
import org.privet.testing.SeededRandomSource;
import org.privet.testing.TestPostgres;

/**
 * ZetaSQL's {@code max_rows_contributed} ({@link Query.Builder#maxRowsContributed}) on a real
 * PostgreSQL server ({@link TestPostgres}): 10 units with one row in each of g0, g1, g2, every row
 * of unit u valued 1 + u mod 4. With a cap of 2 rows per unit, each unit keeps exactly 2 of its 3
 * rows, spread over its groups by salted hash: the counts over all groups total 20 (not 30, nor
 * the old reading's 30 = every row within L0 = L∞ = 2) and the sums 2·Σ(1 + u mod 4) = 46, for
 * every salt; with a cap of 3 every group is exact (10 rows, sum 23). At ε = 10^9 the noise
 * scales are below 10^-7 per value, so the answers are exact except with probability below
 * 10^-6; the seeds are fixed.
 */
class PostgresMaxRowsContributedTest {
  @Test
  void run_threeRowsSpreadOverGroups_keepsExactlyTheCapPerUnit() throws Exception {
    String url = TestPostgres.server().newDatabase(
        "CREATE TABLE spread (uid bigint, g text, x double precision)",
        "INSERT INTO spread SELECT u, 'g' || k, 1 + u % 4 FROM generate_series(0, 9) u,"
            + " generate_series(0, 2) k");
    try (PostgresBackend db = PostgresBackend.connect(url, new Properties())) {
      for (long seed = 1; seed <= 3; seed++) {
        Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
            .randomSource(new SeededRandomSource(seed)).build();
        Result r = s.run(Query.from("spread").privacyUnit("uid").maxRowsContributed(2)
            .groupBy("g").publicGroups("g0", "g1", "g2").count("n").sum("s", "x", 0, 10)
            .epsilon(1e9).build());
        double n = 0;
        double sum = 0;
        for (ResultRow row : r.rows()) {
          assertTrue(row.get("n").value() <= 10 + 1e-6, "a group holds at most its 10 rows");
          n += row.get("n").value();
          sum += row.get("s").value();
        }
        assertEquals(20, n, 1e-5, "2 rows per unit in total, seed " + seed);
        assertEquals(46, sum, 1e-3, "seed " + seed);
        Result scalar = s.run(Query.from("spread").privacyUnit("uid").maxRowsContributed(2)
            .count("n").epsilon(1e9).build());
        assertEquals(20, scalar.rows().get(0).get("n").value(), 1e-6);
      }
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(9)).build();
      Result all = s.run(Query.from("spread").privacyUnit("uid").maxRowsContributed(3)
          .groupBy("g").publicGroups("g0", "g1", "g2").count("n").sum("s", "x", 0, 10)
          .epsilon(1e9).build());
      for (ResultRow row : all.rows()) {
        assertEquals(10, row.get("n").value(), 1e-6);
        assertEquals(23, row.get("s").value(), 1e-3);
      }
    }
  }
}
