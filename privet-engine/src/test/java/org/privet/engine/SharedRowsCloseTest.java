package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.testing.SeededRandomSource;

/**
 * A query's shared-rows view ({@link Backend#sharingRows}) that fails to close after the passes
 * (its temporary table cannot be dropped) does not fail the query after the charge: the paid-for
 * release is returned and the one charge stands. The backend is a real DuckDB; only the view's
 * close is made to fail after the real drop (fault injection at the SPI boundary, the component
 * under test being {@link Session}). Without {@code Session#closeShared} the run throws: the
 * test fails then.
 *
 * <p>The answers are asserted at ε = 10^9 (noise moves a count with probability below 10^-6, as in
 * {@code ContributionBoundEstimateTest}); the seeds are fixed.
 */
class SharedRowsCloseTest {
  private static DuckDbBackend db;

  @BeforeAll
  static void tables() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 10; u++) {
      for (int k = 0; k < 3; k++) {
        rows.add(Arrays.asList(u, "g" + (u % 2), 1.0 + k));
      }
    }
    TestTables.register(db, "three", rows);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void run_sharedViewFailsToClose_releaseReturnedAndChargedOnce() {
    List<Backend> views = new ArrayList<>();
    Backend failingClose = new ForwardingBackend(db) {
      @Override
      public boolean countsPairRows() {
        return false; // the two passes' shared-rows view is the path under test
      }

      @Override
      public Backend sharingRows(List<BoundedAggregation> passes) {
        Backend view = db.sharingRows(passes);
        views.add(view);
        return new ForwardingBackend(view) {
          @Override
          public void close() {
            view.close();
            throw new IllegalStateException("DuckDB drop shared rows failed (SQL state XX000)");
          }
        };
      }
    };
    List<ChargeRequest> charges = new ArrayList<>();
    Session s = Session.builder().backend(failingClose).budgetCharger(charges::add)
        .randomSource(new SeededRandomSource(5)).build();
    Query q = Query.from("three").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .epsilon(1e9).build();
    Result r = s.run(q);
    assertEquals(30, r.rows().get(0).get("n").value(), 1e-6);
    assertEquals(1, charges.size());
    assertTrue(!views.isEmpty(), "the query shared its passes' rows (the path under test ran)");
  }
}
