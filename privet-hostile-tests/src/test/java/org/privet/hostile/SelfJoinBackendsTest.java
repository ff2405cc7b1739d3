package org.privet.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.postgres.PostgresBackend;
import org.privet.engine.spark.SparkBackend;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.ColumnType;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DatasetDescriptor;
import org.privet.sql.DatasetDescriptor.Reference;
import org.privet.sql.DatasetDescriptor.TableDescriptor;
import org.privet.sql.DpSql;
import org.privet.sql.DpStatement;
import org.privet.testing.SeededRandomSource;
import org.privet.testing.TestPostgres;

/**
 * Private self-joins on the unit (issue 25; {@code docs/proofs/r2t-truncation.md}, "Self-joins")
 * through DP SQL on DuckDB, PostgreSQL (a real server, {@link TestPostgres}) and Spark (local):
 * orders joined with themselves on the customer, and a lineitem–orders chain joined with orders,
 * with the analyst's bound, the engine's L∞ estimate and R2T. Each expected value is computed here
 * from the generated rows (n_u orders and l_u line items of customer u; one customer has 300
 * orders, 90,000 joined rows before the caps): Σ_u min(n_u², L∞), Σ_u min(n_u², L̂∞) with the
 * estimate the release reports, Σ_u min(n_u², 4096) for R2T with GS = 4,096 (the largest cap of
 * two copies), Σ_u min(l_u·n_u, 4096).
 *
 * <p>LEFT joins inside the self-joins ({@code docs/proofs/r2t-truncation.md}, "Self-joins", "LEFT
 * joins"): orders LEFT-joined with a filtered copy of themselves on the customer (a derived table
 * or a filter in the ON; customers with few orders have no match: their rows are padded and keep
 * their own customer as unit), a
 * lineitem–orders chain LEFT-joined with a copy, a LEFT join along a reference inside a copy;
 * with the analyst's bound, the L∞ estimate and R2T; COUNT(column) and SUM over the padded side.
 * There each expected value is an independent plain-SQL reference computed here on DuckDB's copy
 * of the same rows: the same LEFT join written as SQL, its rows per customer truncated by hand
 * ({@code SUM(LEAST(n, L∞))}; caps m ≥ L∞ per copy leave min(n, L∞) unchanged), or, where a SUM or
 * COUNT(column) reads the padded side, data where nothing is truncated (the plain aggregate,
 * NULLs ignored as SQL does).
 *
 * <p>False-failure probability: ε = 10^12 (noise scales below 10^-6; counts compared with
 * tolerance 10^-3, R2T's release, which subtracts its bias term of order τ·L·ln(L/β)/ε, with
 * tolerance 1); deterministic with the fixed seeds.
 */
class SelfJoinBackendsTest {
  private static final List<List<?>> CUSTOMER = new ArrayList<>();
  private static final List<List<?>> ORDERS = new ArrayList<>();
  private static final List<List<?>> LINEITEM = new ArrayList<>();
  private static final List<List<?>> LU_ORDERS = new ArrayList<>();
  private static final List<List<?>> LU_LINEITEM = new ArrayList<>();
  private static final Map<String, Backend> BACKENDS = new java.util.LinkedHashMap<>();

  @BeforeAll
  static void tables() {
    long okey = 1;
    for (long c = 1; c <= 40; c++) {
      CUSTOMER.add(Arrays.asList(c, c % 3));
      long n = c == 17 ? 300 : c % 7;
      for (int k = 0; k < n; k++) {
        long o = okey++;
        ORDERS.add(Arrays.asList(o, c, (double) (k % 5)));
        for (long i = 0; i < o % 4; i++) {
          LINEITEM.add(Arrays.asList(o, (double) i));
        }
      }
    }
    LINEITEM.add(Arrays.asList(null, 1.0));
    // orphan orders (LEFT joins toward the unit): customers 41, 42 and 43 have orders and no
    // customer row (43 has 70); one order has a NULL customer; each with its line items; and a
    // line item of an order that does not exist
    LU_ORDERS.addAll(ORDERS);
    LU_LINEITEM.addAll(LINEITEM);
    for (long c = 41; c <= 43; c++) {
      long n = c == 43 ? 70 : c == 41 ? 5 : 1;
      for (int k = 0; k < n; k++) {
        long o = okey++;
        LU_ORDERS.add(Arrays.asList(o, c, (double) (k % 5)));
        for (long i = 0; i < o % 4; i++) {
          LU_LINEITEM.add(Arrays.asList(o, (double) i));
        }
      }
    }
    LU_ORDERS.add(Arrays.asList(okey, null, 4.0));
    LU_LINEITEM.add(Arrays.asList(okey++, 3.0));
    LU_LINEITEM.add(Arrays.asList(okey + 1000, 3.0));
    DuckDbBackend duck = DuckDbBackend.inMemory();
    SparkBackend spark = SparkBackend.on(LocalSpark.session());
    String url = TestPostgres.server().newDatabase();
    PostgresBackend pg = PostgresBackend.connect(url, new Properties());
    for (Object[] t : new Object[][] {
        {"sj_customer", List.of("custkey", "nat"), List.of(ColumnType.INTEGER, ColumnType.INTEGER),
            CUSTOMER},
        {"sj_orders", List.of("okey", "custkey", "total"),
            List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.FLOATING), ORDERS},
        {"sj_lineitem", List.of("okey", "qty"), List.of(ColumnType.INTEGER, ColumnType.FLOATING),
            LINEITEM},
        {"lu_orders", List.of("okey", "custkey", "total"),
            List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.FLOATING), LU_ORDERS},
        {"lu_lineitem", List.of("okey", "qty"), List.of(ColumnType.INTEGER, ColumnType.FLOATING),
            LU_LINEITEM}}) {
      @SuppressWarnings("unchecked")
      List<String> cols = (List<String>) t[1];
      @SuppressWarnings("unchecked")
      List<ColumnType> types = (List<ColumnType>) t[2];
      @SuppressWarnings("unchecked")
      List<List<?>> rows = (List<List<?>>) t[3];
      duck.registerTable((String) t[0], cols, types, rows);
      spark.registerTable((String) t[0], cols, types, rows);
      postgresTable(url, (String) t[0], cols, types, rows);
    }
    BACKENDS.put("DuckDB", duck);
    BACKENDS.put("PostgreSQL", pg);
    BACKENDS.put("Spark", spark);
  }

  @AfterAll
  static void close() {
    ((DuckDbBackend) BACKENDS.get("DuckDB")).close();
  }

  private static void postgresTable(String url, String name, List<String> columns,
      List<ColumnType> types, List<List<?>> rows) {
    StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(name).append(" (");
    for (int i = 0; i < columns.size(); i++) {
      ddl.append(i > 0 ? ", " : "").append(columns.get(i))
          .append(types.get(i) == ColumnType.INTEGER ? " bigint" : " double precision");
    }
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute(ddl.append(')').toString());
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + name + " VALUES ("
          + "?, ".repeat(columns.size() - 1) + "?)")) {
        for (List<?> row : rows) {
          for (int i = 0; i < row.size(); i++) {
            ps.setObject(i + 1, row.get(i));
          }
          ps.addBatch();
        }
        ps.executeBatch();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static DatasetCatalog catalog(Backend b) {
    return catalog(b, "sj_");
  }

  /** The shop over sj_customer and {@code prefix}'s orders and lineitem ("lu_": with orphans). */
  private static DatasetCatalog catalog(Backend b, String prefix) {
    DatasetDescriptor shop = DatasetDescriptor.builder("shop", Source.table("sj_customer"),
            b.describe(Source.table("sj_customer")))
        .privacyUnit("custkey")
        .unitTable("customer", List.of())
        .addTable(new TableDescriptor("orders", Source.table(prefix + "orders"),
            b.describe(Source.table(prefix + "orders")),
            List.of(new Reference("custkey", "customer", "custkey")), false))
        .addTable(new TableDescriptor("lineitem", Source.table(prefix + "lineitem"),
            b.describe(Source.table(prefix + "lineitem")),
            List.of(new Reference("okey", "orders", "okey")), false))
        .build();
    return DatasetCatalog.of(shop);
  }

  /** Per customer, the number of rows of {@code rows} whose customer {@code unit} gives. */
  private static Map<Long, Long> perCustomer(List<List<?>> rows, ToLongFunction<List<?>> unit) {
    Map<Long, Long> m = new HashMap<>();
    for (List<?> r : rows) {
      long u = unit.applyAsLong(r);
      if (u > 0) {
        m.merge(u, 1L, Long::sum);
      }
    }
    return m;
  }

  private static Result run(Backend b, String sql, DpStatement[] st) {
    st[0] = DpSql.parse(sql, catalog(b));
    return Session.builder().backend(b).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(3)).build().run(st[0].query());
  }

  private static double value(Result r) {
    return r.rows().get(0).values().get("n").value();
  }

  @Test
  void selfJoinOnTheUnit_boundGivenEstimatedAndR2T_equalTheReferenceOnEveryBackend() {
    Map<Long, Long> n = perCustomer(ORDERS, o -> (Long) o.get(1));
    Map<Object, Long> customerOf = new HashMap<>();
    ORDERS.forEach(o -> customerOf.put(o.get(0), (Long) o.get(1)));
    Map<Long, Long> l = perCustomer(LINEITEM,
        li -> li.get(0) == null ? 0 : customerOf.getOrDefault(li.get(0), 0L));
    long bounded = n.values().stream().mapToLong(k -> Math.min(k * k, 50)).sum();
    // Two copies keep at most 4,096 rows per unit each (docs/proofs/r2t-truncation.md,
    // "Self-joins"), so R2T's GS and L∞ are at most 4,096; customer 17's 300 orders (90,000 joined
    // rows, 135,000 with its line items) are truncated there, no side capped.
    long squares = n.values().stream().mapToLong(k -> Math.min(k * k, 4096)).sum();
    long chain = l.entrySet().stream()
        .mapToLong(e -> Math.min(e.getValue() * n.get(e.getKey()), 4096)).sum();
    String head = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12";
    for (Map.Entry<String, Backend> e : BACKENDS.entrySet()) {
      Backend b = e.getValue();
      String on = e.getKey();
      DpStatement[] st = new DpStatement[1];
      assertEquals(bounded, value(run(b, head + ", max_rows_per_group = 50) COUNT(*) AS n FROM"
          + " orders o1 JOIN orders o2 USING (custkey)", st)), 1e-3, on);
      Result est = run(b, head + ") COUNT(*) AS n FROM orders o1 JOIN orders o2 ON o1.custkey ="
          + " o2.custkey", st);
      int linf = est.estimatedMaxRowsPerGroup();
      assertTrue(linf >= 1 && Integer.bitCount(linf) == 1, on + ": " + linf);
      assertEquals(n.values().stream().mapToLong(k -> Math.min(k * k, linf)).sum(), value(est), 1e-3,
          on);
      assertEquals(squares, value(run(b, head + ", truncation = 'R2T', truncation_bound = 4096)"
          + " COUNT(*) AS n FROM orders o1 JOIN orders o2 USING (custkey)", st)), 1.0, on);
      assertEquals(chain, value(run(b, head + ", max_rows_per_group = 4096) COUNT(*) AS n FROM"
          + " lineitem l JOIN orders o1 ON l.okey = o1.okey JOIN orders o2 ON o2.custkey ="
          + " o1.custkey", st)), 1e-3, on);
    }
  }

  private static Result run(Backend b, String sql) {
    DpStatement st = DpSql.parse(sql, catalog(b));
    return Session.builder().backend(b).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(3)).build().run(st.query());
  }

  private static double value(Result r, String column) {
    return r.rows().get(0).values().get(column).value();
  }

  /** The first column of the first row of plain SQL {@code q}, on DuckDB's tables. */
  private static double plain(String q) {
    try (Statement st = ((DuckDbBackend) BACKENDS.get("DuckDB")).trustedConnection()
        .createStatement(); java.sql.ResultSet rs = st.executeQuery(q)) {
      assertTrue(rs.next());
      return rs.getDouble(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Σ_u min(n_u, linf) over the rows of plain FROM {@code from}, per customer {@code unit}. */
  private static double truncated(String from, String unit, long linf) {
    return plain("SELECT COALESCE(SUM(LEAST(n, " + linf + ")), 0) FROM (SELECT " + unit
        + " AS u, COUNT(*) AS n " + from + " GROUP BY " + unit + ") t WHERE u IS NOT NULL");
  }

  private static final String FILTERED = "FROM sj_orders o1 LEFT JOIN (SELECT * FROM sj_orders"
      + " WHERE total > 2) o2 ON o2.custkey = o1.custkey";

  @Test
  void leftSelfJoinOnTheUnit_boundGivenEstimatedAndR2T_equalThePlainLeftJoinOnEveryBackend() {
    assertTrue(plain("SELECT COUNT(*) " + FILTERED + " WHERE o2.okey IS NULL") > 0, "padded rows");
    String left = "FROM orders o1 LEFT JOIN (SELECT * FROM orders WHERE total > 2) o2 USING"
        + " (custkey)";
    String head = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12";
    for (Map.Entry<String, Backend> e : BACKENDS.entrySet()) {
      Backend b = e.getValue();
      String on = e.getKey();
      assertEquals(truncated(FILTERED, "o1.custkey", 50), value(run(b, head
          + ", max_rows_per_group = 50) COUNT(*) AS n " + left), "n"), 1e-3, on);
      // the filter written in the LEFT join's ON: the same rows
      assertEquals(truncated(FILTERED, "o1.custkey", 50), value(run(b, head
          + ", max_rows_per_group = 50) COUNT(*) AS n FROM orders o1 LEFT JOIN orders o2 ON"
          + " o2.custkey = o1.custkey AND o2.total > 2"), "n"), 1e-3, on);
      Result est = run(b, head + ") COUNT(*) AS n " + left);
      int linf = est.estimatedMaxRowsPerGroup();
      assertTrue(linf >= 1 && Integer.bitCount(linf) == 1, on + ": " + linf);
      assertEquals(truncated(FILTERED, "o1.custkey", linf), value(est, "n"), 1e-3, on);
      assertEquals(truncated(FILTERED, "o1.custkey", 4096), value(run(b, head + ", truncation ="
          + " 'R2T', truncation_bound = 4096) COUNT(*) AS n " + left), "n"), 1.0, on);
    }
  }

  @Test
  void paddedSide_countColumnAndSum_ignoreItsNulls_asThePlainLeftJoinOnEveryBackend() {
    // customer 17's 300 orders meet no copy row (all padded): nothing is truncated at 4096
    String plainFrom = "FROM sj_orders o1 LEFT JOIN (SELECT * FROM sj_orders WHERE total > 2 AND"
        + " custkey <> 17) o2 ON o2.custkey = o1.custkey";
    double rows = plain("SELECT COUNT(*) " + plainFrom);
    double matched = plain("SELECT COUNT(o2.okey) " + plainFrom);
    double sum = plain("SELECT SUM(LEAST(GREATEST(o2.total, 0), 3)) " + plainFrom);
    assertTrue(matched > 0 && matched < rows, matched + " of " + rows);
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12, max_rows_per_group ="
        + " 4096) COUNT(*) AS n, COUNT(o2.okey) AS m, SUM(o2.total, contribution_bounds_per_row =>"
        + " (0, 3)) AS s FROM orders o1 LEFT JOIN (SELECT * FROM orders WHERE total > 2 AND"
        + " custkey <> 17) o2 ON o2.custkey = o1.custkey";
    for (Map.Entry<String, Backend> e : BACKENDS.entrySet()) {
      Result r = run(e.getValue(), sql);
      assertEquals(rows, value(r, "n"), 1e-3, e.getKey());
      assertEquals(matched, value(r, "m"), 1e-3, e.getKey());
      assertEquals(sum, value(r, "s"), 1e-2, e.getKey());
    }
  }

  @Test
  void chainsAndCopies_leftJoinedOnTheUnitOrAlongAReference_equalThePlainJoinOnEveryBackend() {
    // a chain joined with a LEFT-joined copy; a LEFT join along a reference inside the first copy
    // (orders with okey % 4 = 0 have no line item)
    String chain = "FROM sj_lineitem l JOIN sj_orders o1 ON l.okey = o1.okey LEFT JOIN (SELECT *"
        + " FROM sj_orders WHERE total > 2) o2 ON o2.custkey = o1.custkey";
    String inCopy = "FROM sj_orders o1 LEFT JOIN sj_lineitem l ON l.okey = o1.okey JOIN sj_orders"
        + " o2 ON o2.custkey = o1.custkey";
    assertTrue(plain("SELECT COUNT(*) " + inCopy + " WHERE l.okey IS NULL") > 0);
    String head = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12, max_rows_per_group ="
        + " 4096) COUNT(*) AS n ";
    for (Map.Entry<String, Backend> e : BACKENDS.entrySet()) {
      Backend b = e.getValue();
      assertEquals(truncated(chain, "o1.custkey", 4096), value(run(b, head + "FROM lineitem l JOIN"
          + " orders o1 ON l.okey = o1.okey LEFT JOIN (SELECT * FROM orders WHERE total > 2) o2 ON"
          + " o2.custkey = o1.custkey"), "n"), 1e-3, e.getKey());
      assertEquals(truncated(inCopy, "o1.custkey", 4096), value(run(b, head + "FROM orders o1 LEFT"
          + " JOIN lineitem l ON l.okey = o1.okey JOIN orders o2 ON o2.custkey = o1.custkey"), "n"),
          1e-3, e.getKey());
    }
  }
  /**
   * A LEFT join toward the unit without a self-join ({@code docs/proofs/engine-joins.md}, "LEFT
   * joins toward the unit"), over orders with orphans (customers 41–43 have orders and no customer
   * row; 43 has 70, truncated): each padded order keeps its own customer key as unit, as the plain
   * LEFT join's rows per {@code o.custkey} truncated by hand; with the bound given, the L∞ estimate
   * and R2T; the deeper chain lineitem → orders → customer (a line item's unit through its order;
   * one whose order is missing has none, as the line items alone); orders filtered in the ON.
   */
  @Test
  void leftJoinTowardTheUnit_orphanOrdersKeepTheirUnit_equalThePlainLeftJoinOnEveryBackend() {
    String plainFrom = "FROM lu_orders o LEFT JOIN sj_customer c ON c.custkey = o.custkey";
    assertTrue(plain("SELECT COUNT(*) " + plainFrom + " WHERE c.custkey IS NULL") >= 76);
    assertTrue(truncated(plainFrom, "o.custkey", 50) > truncated("FROM lu_orders o JOIN"
        + " sj_customer c ON c.custkey = o.custkey", "c.custkey", 50) + 50, "power");
    String deep = "FROM lu_lineitem l LEFT JOIN lu_orders o ON o.okey = l.okey LEFT JOIN"
        + " sj_customer c ON c.custkey = o.custkey";
    String filtered = "FROM lu_lineitem l LEFT JOIN (SELECT * FROM lu_orders WHERE total > 2) o ON"
        + " o.okey = l.okey JOIN lu_orders chain ON chain.okey = l.okey";
    assertTrue(plain("SELECT COUNT(*) " + filtered + " WHERE o.okey IS NULL") > 0);
    String head = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12";
    String left = "FROM orders o LEFT JOIN customer c ON c.custkey = o.custkey";
    for (Map.Entry<String, Backend> e : BACKENDS.entrySet()) {
      Backend b = e.getValue();
      String on = e.getKey();
      java.util.function.Function<String, Result> run = sql -> Session.builder().backend(b)
          .budgetCharger(BudgetCharger.unlimited()).randomSource(new SeededRandomSource(3)).build()
          .run(DpSql.parse(sql, catalog(b, "lu_")).query());
      assertEquals(truncated(plainFrom, "o.custkey", 50), value(run.apply(head
          + ", max_rows_per_group = 50) COUNT(*) AS n " + left), "n"), 1e-3, on);
      Result est = run.apply(head + ") COUNT(*) AS n " + left);
      int linf = est.estimatedMaxRowsPerGroup();
      assertTrue(linf >= 1 && Integer.bitCount(linf) == 1, on + ": " + linf);
      assertEquals(truncated(plainFrom, "o.custkey", linf), value(est, "n"), 1e-3, on);
      assertEquals(truncated(plainFrom, "o.custkey", 4096), value(run.apply(head + ", truncation ="
          + " 'R2T', truncation_bound = 4096) COUNT(*) AS n " + left), "n"), 1.0, on);
      assertEquals(truncated(deep, "o.custkey", 100), value(run.apply(head
          + ", max_rows_per_group = 100) COUNT(*) AS n FROM lineitem l LEFT JOIN orders o ON o.okey"
          + " = l.okey LEFT JOIN customer c ON c.custkey = o.custkey"), "n"), 1e-3, on);
      assertEquals(truncated(filtered, "chain.custkey", 100), value(run.apply(head
          + ", max_rows_per_group = 100) COUNT(*) AS n FROM lineitem l LEFT JOIN orders o ON o.okey"
          + " = l.okey AND o.total > 2"), "n"), 1e-3, on);
    }
  }
}
