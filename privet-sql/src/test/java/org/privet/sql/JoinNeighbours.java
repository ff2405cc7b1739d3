package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/**
 * Base of the DuckDB join tests: one in-memory database per test class holding the neighbours D
 * ({@link JoinFixture} with every customer, tables "d_…") and D′ (without the heavy customer,
 * tables "n_…"), and unlimited-budget sessions with fixed seeds. Test classes run one after
 * another (no JUnit parallelism is configured), so the static fields belong to the running class.
 */
abstract class JoinNeighbours {
  static DuckDbBackend db;
  static JoinFixture d;
  static JoinFixture dPrime;

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    d = new JoinFixture(db, 0, "d_");
    dPrime = new JoinFixture(db, JoinFixture.HEAVY, "n_");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  /** An unlimited-budget session on {@link #db} with a seeded source. */
  static Session session(long seed) {
    return Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(seed)).build();
  }

  /** The functional tests' session (seed 5). */
  static Session session() {
    return session(5);
  }

  /** The first column of the first row of plain SQL {@code q} over {@link #db}'s tables. */
  static double plain(String q) {
    try (java.sql.Statement st = db.trustedConnection().createStatement();
        java.sql.ResultSet rs = st.executeQuery(q)) {
      assertTrue(rs.next());
      return rs.getDouble(1);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Σ_u min(n_u, linf) over the rows of plain FROM {@code from}, per unit expression {@code unit}
   * (rows whose unit is NULL left out): the hand truncation of the plain join.
   */
  static double truncatedCount(String from, String unit, long linf) {
    return plain("SELECT COALESCE(SUM(LEAST(n, " + linf + ")), 0) FROM (SELECT " + unit
        + " AS u, COUNT(*) AS n " + from + " GROUP BY " + unit + ") t WHERE u IS NOT NULL");
  }

  /** The first released cell of {@code sql} on fixture {@code f}, run in {@link #session()}. */
  static Estimate value(String sql, JoinFixture f) {
    DpStatement st = DpSql.parse(sql, f.catalog);
    Result r = session().run(st.query());
    return (Estimate) st.present(r).rows().get(0).get(0);
  }

  /**
   * {@link R2TTestSupport#N} releases of {@code sql} on D, one after another in one session with
   * seed 11, each the estimate {@code pick} takes from the result.
   */
  static double[] engineReleases(String sql, Function<Result, Estimate> pick) {
    DpStatement st = DpSql.parse(sql, d.catalog);
    Session s = session(11);
    double[] engine = new double[R2TTestSupport.N];
    for (int i = 0; i < engine.length; i++) {
      engine[i] = pick.apply(s.run(st.query())).value();
    }
    return engine;
  }

  /**
   * EXPLAIN of {@code sql} on D, asserted equal to EXPLAIN on D′ once the neighbours' table
   * prefixes and the salt are made equal ({@link R2TTestSupport#normalized}).
   */
  static String explainAlikeOnNeighbours(String sql) {
    String a = session().explain(DpSql.parse(sql, d.catalog).query()).render();
    String b = session().explain(DpSql.parse(sql, dPrime.catalog).query()).render();
    assertEquals(R2TTestSupport.normalized(a), R2TTestSupport.normalized(b));
    return a;
  }

  /** The first released cell of {@code sql} carries no interval, on D and on D′ alike. */
  static void assertNoIntervalOnNeighbours(String sql) {
    Estimate ea = value(sql, d);
    Estimate eb = value(sql, dPrime);
    assertEquals(ea.hasInterval(), eb.hasInterval());
    assertTrue(!ea.hasInterval());
  }
}
