package org.privet.engine.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.privet.engine.Aggregation;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.spi.JoinScans;
import org.privet.testing.SeededRandomSource;

/**
 * Spark's {@code describe} of a relational source (issue 25's joins): it checks each distinct
 * scanned view (the tables in one analysis) and refuses exactly as describing the first failing
 * scan, in scan order, refuses; a query over the join is then refused before its charge. The
 * reference for each expected refusal is {@code describe} of that one view.
 */
class SparkRelationalDescribeTest {
  private static SparkBackend backend() {
    SparkBackend b = SparkBackend.on(LocalSpark.session());
    JoinScans.register(b::registerTable, "rd_");
    return b;
  }

  /** orders ⋈ customer ⋈ nation ⋈ orders again ({@link JoinScans}). */
  private static Source.Relational join(SparkBackend b) {
    return JoinScans.ordersCustomerNationOrders(b::describe, Source.table("rd_orders"),
        Source.table("rd_customer"), Source.table("rd_nation"));
  }

  private static String refusal(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }

  private static void drop(String view) {
    SparkSession spark = LocalSpark.session();
    spark.catalog().dropTempView(view);
  }

  @Test
  void describe_scannedViewsGone_refusesAsTheFirstMissingOneInScanOrder() {
    SparkBackend b = backend();
    try {
      Source.Relational r = join(b);
      assertEquals(r.relation().schema(), b.describe(r));
      drop("rd_nation");
      String nation = refusal(() -> b.describe(Source.table("rd_nation")));
      assertEquals(nation, refusal(() -> b.describe(r)));
      drop("rd_customer");
      String customer = refusal(() -> b.describe(Source.table("rd_customer")));
      assertTrue(customer.contains("rd_customer"), customer);
      assertEquals(customer, refusal(() -> b.describe(r)), "customer is scanned before nation");
    } finally {
      b.close();
    }
  }

  @Test
  void sessionRun_aScannedViewGone_refusedBeforeTheCharge() {
    SparkBackend b = backend();
    try {
      Source.Relational r = join(b);
      AtomicInteger charges = new AtomicInteger();
      Session session = Session.builder().backend(b).budgetCharger(c -> charges.incrementAndGet())
          .randomSource(new SeededRandomSource(3)).build();
      Query q = Query.from(r).privacyUnit("uid").aggregate(new Aggregation.Count("n"))
          .epsilon(1.0).estimateMaxRowsPerGroup().build();
      session.run(q);
      assertEquals(1, charges.get());
      drop("rd_customer");
      String expected = refusal(() -> b.describe(Source.table("rd_customer")));
      assertEquals(expected, refusal(() -> session.run(q)));
      assertEquals(1, charges.get(), "the refusal charged nothing");
    } finally {
      b.close();
    }
  }
}
