package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupSink;
import org.privet.engine.spi.PairRowsCount;
import org.privet.engine.spi.PairRowsHistogram;
import org.privet.testing.SeededRandomSource;

/**
 * A COUNT(*) query's L∞ estimate and main pass from the kept pairs' row-count histogram ({@link
 * PairRowsHistogram}, one backend statement) through {@link Session} on DuckDB: the same seeds
 * release exactly what the two passes release, on a table and over a join (the same tree,
 * reading rule, L̂, exact clamped count and noise), which shapes read the histogram (decided
 * before the charge, shown by EXPLAIN), and that they run one statement and no other.
 *
 * <p>The two passes run on the same DuckDB through {@link Counting} with {@code countsPairRows}
 * false: every call goes to the real backend (its shared-rows view included), so the reference
 * is main's two-pass path itself, not a re-implementation. No statistical assertion: the runs
 * are deterministic (fixed seeds) and compared for equality.
 */
class PairRowsHistogramTest {
  private static DuckDbBackend db;
  private static final List<List<?>> ROWS = new ArrayList<>();

  @BeforeAll
  static void tables() {
    db = DuckDbBackend.inMemory();
    // 300 units with 1 to 40 rows in groups a/b/c; two units with 500 and 2,000 rows.
    SeededRandomSource r = new SeededRandomSource(20261128L);
    for (long u = 0; u < 300; u++) {
      int n = 1 + (int) r.nextLong(u % 7 == 0 ? 40 : 6);
      for (int k = 0; k < n; k++) {
        ROWS.add(Arrays.asList(u, "g" + "abc".charAt((int) r.nextLong(3)), 1.0));
      }
    }
    for (int k = 0; k < 500; k++) {
      ROWS.add(Arrays.asList(1000L, "ga", 1.0));
    }
    for (int k = 0; k < 2000; k++) {
      ROWS.add(Arrays.asList(1001L, k % 2 == 0 ? "gb" : "gc", 1.0));
    }
    TestTables.register(db, "pairrows", ROWS);
    // A join: orders ⋈ customer along the reference, the unit customer's; customer 7 has 900
    // orders, the others 0 to 9 (customer 0 and 5 none: no joined row).
    List<List<?>> customers = new ArrayList<>();
    List<List<?>> orders = new ArrayList<>();
    long okey = 1;
    for (long u = 0; u < 120; u++) {
      customers.add(Arrays.asList(u, "g" + "abc".charAt((int) (u % 3))));
      long n = u == 7 ? 900 : u % 5 == 0 ? 0 : r.nextLong(10);
      for (int k = 0; k < n; k++) {
        orders.add(Arrays.asList(okey++, u));
      }
    }
    db.registerTable("h_customer", List.of("uid", "g"),
        List.of(org.privet.engine.spi.ColumnType.INTEGER, org.privet.engine.spi.ColumnType.STRING),
        customers);
    db.registerTable("h_orders", List.of("okey", "uid"),
        List.of(org.privet.engine.spi.ColumnType.INTEGER,
            org.privet.engine.spi.ColumnType.INTEGER), orders);
  }

  /** orders ⋈ customer along o.uid = c.uid, projected to (uid, g); the unit is c.uid. */
  private static Source joined() {
    org.privet.engine.plan.Relation.Scan o = scan("o", "h_orders");
    org.privet.engine.plan.Relation.Scan c = scan("c", "h_customer");
    org.privet.engine.plan.Relation rel = new org.privet.engine.plan.Relation.Join(
        org.privet.engine.plan.Relation.JoinKind.INNER, o, c,
        List.of(new org.privet.engine.plan.Relation.Join.Key("o.uid", "c.uid")),
        org.privet.engine.plan.Relation.JoinRole.ALONG_REFERENCE);
    return new Source.Relational(new org.privet.engine.plan.Relation.Project(rel, List.of(
        new org.privet.engine.plan.Relation.Project.Output("uid", "c.uid"),
        new org.privet.engine.plan.Relation.Project.Output("g", "c.g"))), "c.uid");
  }

  private static org.privet.engine.plan.Relation.Scan scan(String alias, String table) {
    Source s = Source.table(table);
    return new org.privet.engine.plan.Relation.Scan(alias, s, db.describe(s), false);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Session session(Backend backend, long seed) {
    return Session.builder().backend(backend).budgetCharger(c -> { })
        .randomSource(new SeededRandomSource(seed)).build();
  }

  private static Query.Builder from() {
    return Query.from("pairrows").privacyUnit("uid").estimateMaxRowsPerGroup();
  }

  private static Query scalar(double epsilon) {
    return from().count("n").epsilon(epsilon).build();
  }

  private static Query publicGroups(double epsilon) {
    return from().groupBy("g").publicGroups("ga", "gb", "gc", "gz").maxGroupsContributed(4)
        .count("n").epsilon(epsilon).build();
  }

  /** Every released value, interval end and L̂ of a result, in order. */
  private static List<Object> released(Result r) {
    List<Object> out = new ArrayList<>(List.of(r.estimatedMaxRowsPerGroup()));
    for (ResultRow row : r.rows()) {
      out.add(row.key());
      for (String o : r.outputs()) {
        Estimate e = row.get(o);
        out.addAll(List.of(e.value(), e.lower(), e.upper()));
      }
    }
    return out;
  }

  @Test
  void run_countScalarAndPublicGroups_releasesExactlyWhatTheTwoPassesReleaseSeedForSeed() {
    Set<Integer> estimates = new HashSet<>();
    Set<Object> values = new HashSet<>();
    Query joinedCount = Query.from(joined()).privacyUnit("uid").estimateMaxRowsPerGroup()
        .count("n").epsilon(1).build();
    Query joinedGroups = Query.from(joined()).privacyUnit("uid").estimateMaxRowsPerGroup()
        .groupBy("g").publicGroups("ga", "gb", "gc").maxGroupsContributed(3).count("n")
        .epsilon(2).build();
    for (Query q : List.of(scalar(1), publicGroups(1), scalar(0.2), publicGroups(5), joinedCount,
        joinedGroups)) {
      boolean join = q == joinedCount || q == joinedGroups;
      for (long seed = 1; seed <= (join ? 3 : 12); seed++) {
        Counting histogram = new Counting(db, true);
        Counting twoPasses = new Counting(db, false);
        Result h = session(histogram, seed).run(q);
        Result t = session(twoPasses, seed).run(q);
        assertEquals(released(t), released(h), q + " seed " + seed);
        assertEquals(1, histogram.histograms, "one histogram statement");
        assertEquals(0, histogram.aggregates, "no other statement");
        assertEquals(0, twoPasses.histograms);
        estimates.add(h.estimatedMaxRowsPerGroup());
        values.add(h.rows().get(0).get("n").value());
      }
    }
    // Power: the comparison covers several estimates (the clamp binds: units have up to 2,000
    // rows) and noisy values that differ from seed to seed, so a path that drew its noise, read
    // its tree or clamped its count otherwise would differ here.
    assertTrue(estimates.size() >= 2, "estimates " + estimates);
    assertTrue(estimates.stream().allMatch(l -> l < 1000), "the clamp binds: " + estimates);
    assertTrue(values.size() >= 50, "distinct noisy values: " + values.size());
  }

  @Test
  void run_countAtHugeEpsilon_releasesTheCountClampedAtTheEstimatedBound() {
    // At ε = 10^9 the geometric noise moves a count with probability below 10^-6 (as in
    // ContributionBoundEstimateTest): the reference is Σ_u min(c_u, L̂) from the rows.
    for (Query q : List.of(scalar(1e9), publicGroups(1e9))) {
      Result r = session(db, 7).run(q);
      long lInf = r.estimatedMaxRowsPerGroup();
      Map<Object, Map<Object, Long>> perGroupUnit = new HashMap<>();
      boolean grouped = !q.groupBy().isEmpty();
      for (List<?> row : ROWS) {
        perGroupUnit.computeIfAbsent(grouped ? row.get(1) : "", k -> new HashMap<>())
            .merge(row.get(0), 1L, Long::sum);
      }
      for (ResultRow row : r.rows()) {
        Object key = grouped ? row.key().get(0) : "";
        long expected = perGroupUnit.getOrDefault(key, Map.of()).values().stream()
            .mapToLong(c -> Math.min(c, lInf)).sum();
        assertEquals(expected, row.get("n").value(), 1e-6, q + " group " + key + " L̂ " + lInf);
      }
      assertEquals(grouped ? 4 : 1, r.rows().size());
    }
  }

  @Test
  void explain_count_showsTheHistogramStatementAndNoMainPass() {
    for (Query q : List.of(scalar(1), publicGroups(1), Query.from(joined()).privacyUnit("uid")
        .estimateMaxRowsPerGroup().count("n").epsilon(1).build())) {
      String text = session(db, 1).explain(q).toString();
      assertTrue(text.contains("-- L∞ estimate pass and main pass, one statement: the kept pairs'"
          + " row-count histogram"), text);
      assertTrue(text.contains("COUNT(*) AS __k FROM") && text.contains("__n"), text);
      assertFalse(text.contains("-- main pass"), text);
    }
  }

  @Test
  void run_sumBindingL0OrPrivateGroups_keepsTheTwoPasses() {
    for (Query q : List.of(from().sum("s", "x", 0, 10).epsilon(1).build(),
        from().count("n").sum("s", "x", 0, 10).epsilon(1).build(),
        from().groupBy("g").publicGroups("ga", "gb", "gc").maxGroupsContributed(2).count("n")
            .epsilon(1).build(),
        from().groupBy("g").maxGroupsContributed(3).count("n")
            .budget(org.privet.accounting.Budget.approx(1, 1e-6)).build())) {
      Counting c = new Counting(db, true);
      session(c, 3).run(q);
      assertEquals(0, c.histograms, q.toString());
      assertTrue(c.aggregates >= 2, q.toString());
      String text = session(db, 1).explain(q).toString();
      assertTrue(text.contains("-- L∞ estimate pass\n") && text.contains("-- main pass"), text);
    }
  }

  /**
   * DuckDB as is, counting the statements that reach it, with {@code countsPairRows} as given
   * (false: the engine runs main's two passes on the real backend and its shared-rows view).
   */
  private static class Counting extends ForwardingBackend {
    private final boolean counts;
    int aggregates;
    int histograms;

    Counting(Backend backend, boolean counts) {
      super(backend);
      this.counts = counts;
    }

    @Override
    public void aggregate(BoundedAggregation spec, GroupSink sink) {
      aggregates++;
      to.aggregate(spec, sink);
    }

    @Override
    public Backend sharingRows(List<BoundedAggregation> passes) {
      Counting outer = this;
      return new Counting(to.sharingRows(passes), counts) {
        @Override
        public void aggregate(BoundedAggregation spec, GroupSink sink) {
          outer.aggregates++;
          to.aggregate(spec, sink);
        }

        @Override
        public void close() {
          to.close(); // the view drops its shared rows
        }
      };
    }

    @Override
    public boolean countsPairRows() {
      return counts;
    }

    @Override
    public void pairRowsHistogram(BoundedAggregation spec, Consumer<PairRowsCount> sink) {
      histograms++;
      to.pairRowsHistogram(spec, sink);
    }

    @Override
    public void close() {
      // the backend stays open
    }
  }
}
