package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.Aggregation;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.plan.Relation;
import org.privet.engine.spi.ColumnType;
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
    db.registerTable("orders", List.of("okey", "uid"), List.of(ColumnType.INTEGER,
        ColumnType.INTEGER), List.of(Arrays.asList(1L, 1L), Arrays.asList(2L, 2L)));
    db.registerTable("customer", List.of("uid", "nat"), List.of(ColumnType.INTEGER,
        ColumnType.INTEGER), List.of(Arrays.asList(1L, 0L), Arrays.asList(2L, 1L)));
    db.registerTable("nation", List.of("nat", "name"), List.of(ColumnType.INTEGER,
        ColumnType.STRING), List.of(Arrays.asList(0L, "a"), Arrays.asList(1L, "b")));
    return db;
  }

  /** orders ⋈ customer ⋈ nation, with {@code extra} joined last (another scan of a table). */
  private static Source.Relational join(DuckDbBackend db, Source third, Source extra) {
    Relation.Scan o = new Relation.Scan("o", Source.table("orders"),
        db.describe(Source.table("orders")), false);
    Relation.Scan c = new Relation.Scan("c", Source.table("customer"),
        db.describe(Source.table("customer")), false);
    Relation.Scan n = new Relation.Scan("n", third, db.describe(third), true);
    Relation.Scan o2 = new Relation.Scan("o2", extra, db.describe(extra), false);
    Relation oc = new Relation.Join(Relation.JoinKind.INNER, o, c,
        List.of(new Relation.Join.Key("o.uid", "c.uid")), Relation.JoinRole.ALONG_REFERENCE);
    Relation ocn = new Relation.Join(Relation.JoinKind.INNER, oc, n,
        List.of(new Relation.Join.Key("c.nat", "n.nat")), Relation.JoinRole.PUBLIC);
    Relation all = new Relation.Join(Relation.JoinKind.INNER, ocn, o2,
        List.of(new Relation.Join.Key("o.okey", "o2.okey")), Relation.JoinRole.ALONG_REFERENCE);
    return new Source.Relational(new Relation.Project(all, List.of(
        new Relation.Project.Output("uid", "c.uid"), new Relation.Project.Output("name", "n.name"))),
        "c.uid");
  }

  private static String refusal(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }

  @Test
  void describe_allScansPresent_isTheRelationsSchema() {
    try (DuckDbBackend db = db()) {
      Source.Relational r = join(db, Source.table("nation"), Source.table("orders"));
      assertEquals(r.relation().schema(), db.describe(r));
    }
  }

  @Test
  void describe_scannedTablesGone_refusesAsTheFirstMissingOneInScanOrder() {
    try (DuckDbBackend db = db()) {
      Source.Relational r = join(db, Source.table("nation"), Source.table("orders"));
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
      Source.Relational r = join(db, file, Source.table("orders"));
      assertEquals(r.relation().schema(), db.describe(r));
      Files.delete(csv);
      String gone = refusal(() -> db.describe(file));
      assertEquals(gone, refusal(() -> db.describe(r)));
    }
  }

  @Test
  void sessionRun_aScannedTableGone_refusedBeforeTheCharge() {
    try (DuckDbBackend db = db()) {
      Source.Relational r = join(db, Source.table("nation"), Source.table("orders"));
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
