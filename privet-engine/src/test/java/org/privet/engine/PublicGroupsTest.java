package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/**
 * Issue 10 item 5: public group keys are compared on their canonical values, so that one group
 * cannot be listed several times (and released several times with fresh noise for one charge)
 * under different Java spellings of the same key.
 */
class PublicGroupsTest {

  @Test
  void publicGroups_sameNumberInFourJavaTypes_refusedByTheBuilder() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Query.from("t").eachRowIsAUnit().groupBy("uid").publicGroups(1, 1L, 1.0, new BigDecimal("1.00")));
    assertTrue(e.getMessage().contains("publicGroups"), e.getMessage());
  }

  @Test
  void publicGroups_canonicallyDistinctKeys_accepted() {
    Query q = Query.from("t").eachRowIsAUnit().groupBy("uid").publicGroups(1, 2L, 2.5, new BigDecimal("3.10"))
        .count("n").epsilon(1).build();
    assertEquals(4, q.publicGroups().orElseThrow().size());
  }

  @Test
  void run_duplicatePublicGroupsInTwoSpellings_refusedBeforeTheCharge() {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      List<List<?>> rows = new ArrayList<>();
      rows.add(Arrays.asList(1L, "a", 1.0));
      TestTables.register(db, "t", rows);
      AtomicInteger charges = new AtomicInteger();
      Session s = Session.builder().backend(db).budgetCharger(c -> charges.incrementAndGet())
          .randomSource(new SeededRandomSource(1)).build();
      assertThrows(IllegalArgumentException.class, () -> s.run(Query.from("t").eachRowIsAUnit()
          .groupBy("uid").publicGroups(List.of(List.of(1), List.of(new BigDecimal("1.0"))))
          .count("n").epsilon(1).build()));
      assertEquals(0, charges.get());
    }
  }

  @Test
  void run_sameDateAsStringAndLocalDate_refusedBeforeTheCharge() {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("CREATE TABLE d (day DATE)");
      db.execute("INSERT INTO d VALUES (DATE '2020-01-01')");
      AtomicInteger charges = new AtomicInteger();
      Session s = Session.builder().backend(db).budgetCharger(c -> charges.incrementAndGet())
          .randomSource(new SeededRandomSource(1)).build();
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> s.run(Query.from("d").eachRowIsAUnit().groupBy("day")
              .publicGroups("2020-01-01", java.time.LocalDate.of(2020, 1, 1)).count("n")
              .epsilon(1).build()));
      assertTrue(e.getMessage().contains("publicGroups"), e.getMessage());
      assertEquals(0, charges.get());
    }
  }

  @Test
  void run_dateKeyAsString_matchesItsRows() {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("CREATE TABLE d (day DATE)");
      db.execute("INSERT INTO d SELECT DATE '2020-01-01' FROM range(200)");
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(1)).build();
      Result r = s.run(Query.from("d").eachRowIsAUnit().groupBy("day")
          .publicGroups("2020-01-01", "1999-12-31").count("n").epsilon(1).build());
      // Geometric noise of scale 1: |noise| > 60 has probability below 1e-25.
      assertEquals(200, r.rows().get(0).get("n").value(), 60);
      assertEquals(0, r.rows().get(1).get("n").value(), 60);
    }
  }
}
