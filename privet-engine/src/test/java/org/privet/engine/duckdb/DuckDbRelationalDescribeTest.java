package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.Aggregation;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.spi.JoinScans;
import org.privet.testing.SeededRandomSource;

/**
 * DuckDB's {@code describe} of a relational source (issue 25's joins): it checks each distinct
 * scanned source (the plain tables in one statement) and refuses exactly as describing the first
 * failing scan, in scan order, refuses; a query over the join is then refused before its charge.
 * The reference for each expected refusal is {@code describe} of that one table.
 */
class DuckDbRelationalDescribeTest {
  private static DuckDbBackend db() {
    DuckDbBackend db = DuckDbBackend.inMemory();
    JoinScans.register(db::registerTable, "");
    return db;
  }

  /** orders ⋈ customer ⋈ {@code nation} ⋈ orders again ({@link JoinScans}). */
  private static Source.Relational join(DuckDbBackend db, Source nation) {
    return JoinScans.ordersCustomerNationOrders(db::describe, Source.table("orders"),
        Source.table("customer"), nation);
  }

  private static String refusal(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }

  @Test
  void describe_allScansPresent_isTheRelationsSchema() {
    try (DuckDbBackend db = db()) {
      Source.Relational r = join(db, Source.table("nation"));
      assertEquals(r.relation().schema(), db.describe(r));
    }
  }

  @Test
  void describe_scannedTablesGone_refusesAsTheFirstMissingOneInScanOrder() {
    try (DuckDbBackend db = db()) {
      Source.Relational r = join(db, Source.table("nation"));
      db.execute("DROP TABLE nation");
      String nation = refusal(() -> db.describe(Source.table("nation")));
      assertEquals(nation, refusal(() -> db.describe(r)));
      db.execute("DROP TABLE customer");
      String customer = refusal(() -> db.describe(Source.table("customer")));
      assertTrue(customer.contains("customer"), customer);
      assertEquals(customer, refusal(() -> db.describe(r)), "customer is scanned before nation");
    }
  }

  @Test
  void describe_aCsvScanGone_refusesAsDescribingThatFile(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("nation.csv");
    Files.writeString(csv, "nat,name\n0,a\n1,b\n");
    try (DuckDbBackend db = db()) {
      Source file = Source.csv(csv);
      Source.Relational r = join(db, file);
      assertEquals(r.relation().schema(), db.describe(r));
      Files.delete(csv);
      String gone = refusal(() -> db.describe(file));
      assertEquals(gone, refusal(() -> db.describe(r)));
    }
  }

  @Test
  void sessionRun_aScannedTableGone_refusedBeforeTheCharge() {
    try (DuckDbBackend db = db()) {
      Source.Relational r = join(db, Source.table("nation"));
      AtomicInteger charges = new AtomicInteger();
      Session session = Session.builder().backend(db)
          .budgetCharger(c -> charges.incrementAndGet())
          .randomSource(new SeededRandomSource(3)).build();
      Query q = Query.from(r).privacyUnit("uid").aggregate(new Aggregation.Count("n"))
          .epsilon(1.0).estimateMaxRowsPerGroup().build();
      session.run(q);
      assertEquals(1, charges.get());
      db.execute("DROP TABLE customer");
      String expected = refusal(() -> db.describe(Source.table("customer")));
      assertEquals(expected, refusal(() -> session.run(q)));
      assertEquals(1, charges.get(), "the refusal charged nothing");
    }
  }
}
