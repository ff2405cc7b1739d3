package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.engine.Aggregation;
import org.privet.engine.Estimate;
import org.privet.engine.Filter;
import org.privet.engine.Plan;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.ResultRow;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/**
 * The shared query corpus: every valid query compiles to its expected structure and, run end to end
 * on UCI Adult through the DuckDB backend, answers within its confidence intervals of the exact
 * values (computed independently by {@link ExactOracle}); every invalid or attacking query is
 * refused with its position and reason, without echoing table values and without any charge.
 */
class DpSqlCorpusTest {
  /** Coverage asked of every confidence interval in the end-to-end runs. */
  private static final double LEVEL = 0.99;

  private static DuckDbBackend backend;
  private static AdultFixture adult;
  private static ExactOracle oracle;
  private static Set<String> dataValues;

  @BeforeAll
  static void setUp() {
    backend = DuckDbBackend.inMemory();
    adult = new AdultFixture(backend);
    oracle = new ExactOracle(adult);
    dataValues = adult.categoricalValues();
  }

  @AfterAll
  static void tearDown() {
    backend.close();
  }

  static Stream<CorpusFile> valid() {
    return CorpusFile.all("valid");
  }

  static Stream<CorpusFile> invalid() {
    return CorpusFile.all("invalid");
  }

  // --- valid queries: structure -------------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void parse_validQuery_compilesToExpectedStructure(CorpusFile f) {
    DpStatement st = DpSql.parse(f.sql(), adult.catalog);
    Query q = st.query();
    Map<String, String> e = f.expect();
    assertEquals(e.get("columns"), String.join(", ", st.columnNames()), "columns");
    assertEquals(e.get("group_by"), String.join(", ", q.groupBy()), "group_by");
    assertEquals(e.get("aggregations"),
        q.aggregations().stream().map(DpSqlCorpusTest::describe).collect(Collectors.joining("; ")),
        "aggregations");
    String selection = q.groupBy().isEmpty() ? "none"
        : q.publicGroups().map(k -> "public " + k.size()).orElse("private");
    assertEquals(e.get("selection"), selection, "selection");
    assertEquals(numbers(e.get("budget")), budget(q.budget().loss()), "budget");
    assertEquals(e.get("contributions"),
        "L0=" + q.maxGroupsContributed() + " Linf=" + (q.contributionBoundEstimate().isPresent()
            ? "estimated" : q.maxRowsPerGroup()) + (q.maxRowsContributed() > 0
            ? " maxRows=" + q.maxRowsContributed() : ""), "contributions of " + f);
    assertEquals(e.get("filter"), q.filter().map(DpSqlCorpusTest::describe).orElse(""), "filter");
    assertEquals(Boolean.parseBoolean(e.getOrDefault("explain", "false")), st.explain(), "explain");
    if (e.containsKey("order")) {
      assertTrue(st.postProcessing().contains("ORDER BY " + e.get("order")), st.postProcessing());
    } else {
      assertFalse(st.postProcessing().contains("ORDER BY"), st.postProcessing());
    }
    assertEquals(e.containsKey("limit") ? Long.parseLong(e.get("limit")) : -1,
        st.limit().orElse(-1), "limit");
    assertEquals(Long.parseLong(e.getOrDefault("offset", "0")), st.offset(), "offset");
  }

  // --- valid queries: end to end on Adult -------------------------------------------------------

  /**
   * Runs the query with a fixed seed and checks every released estimate that has an interval
   * against the exact value. Each interval misses with probability at most 1 − LEVEL = 0.01, so
   * the number of misses among N checks is stochastically below Binomial(N, 0.01); we allow the
   * smallest k with P[Poisson(0.01·N) &gt; k] &lt; 1e-6 (a Poisson bound on the binomial tail),
   * so this test fails by chance with probability below 1e-6 per file. Quantile intervals (tree
   * method) are checked against the exact k-th smallest value, k = ⌈r·n⌉, like any other interval;
   * quantiles must also be within 0.05 of their rank in groups of at least 2,000 rows (the tree's
   * and the exponential mechanism's rank errors there are far smaller except with probability far
   * below 1e-6). Private partition selection
   * must release every group with at least 500 units (thresholds here are below 100) and nothing
   * that is absent from the data.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void run_validQuery_answersCoverExactValues(CorpusFile f) {
    AtomicInteger charges = new AtomicInteger();
    Session session = Session.builder().backend(backend)
        .budgetCharger(c -> charges.incrementAndGet())
        .randomSource(new SeededRandomSource(f.name().hashCode()))
        .confidenceLevel(LEVEL).build();
    DpStatement st = DpSql.parse(f.sql(), adult.catalog);
    if (st.explain()) {
      Plan plan = session.explain(st.query());
      assertFalse(plan.render().isBlank());
      assertEquals(0, charges.get(), "EXPLAIN must not charge");
      return;
    }
    Query q = st.query();
    Result result = session.run(q);
    assertEquals(1, charges.get(), "a run charges exactly once");

    Map<List<Object>, List<Object[]>> groups = oracle.groups(q);
    int checks = 0;
    int misses = 0;
    for (ResultRow row : result.rows()) {
      List<Object[]> rows = groups.get(row.key());
      if (rows == null) {
        assertTrue(q.publicGroups().isPresent(), "released a group absent from the data: " + row.key());
        rows = List.of();
      }
      for (Aggregation a : q.aggregations()) {
        if (a instanceof Aggregation.Quantiles quantiles) {
          for (double r : quantiles.ranks()) {
            Estimate qe = row.get(quantiles.ranks().size() > 1 ? a.name() + "[" + r + "]" : a.name());
            if (rows.size() >= 2000) {
              // Within 0.05 in rank, up to one grid cell (values tie heavily, e.g. 40 hours).
              double cell = (quantiles.upper() - quantiles.lower()) / quantiles.bins();
              double atMost = oracle.rank(quantiles, rows, qe.value() + cell);
              double below = oracle.rank(quantiles, rows, Math.nextDown(qe.value() - cell));
              assertTrue(atMost >= r - 0.05 && below <= r + 0.05, a.name() + "[" + r
                  + "] has ranks " + below + ".." + atMost + " in group " + row.key());
            }
            double exactQuantile = oracle.quantile(quantiles, rows, r);
            if (qe.hasInterval() && !Double.isNaN(exactQuantile)) {
              checks++;
              if (exactQuantile < qe.lower() || exactQuantile > qe.upper()) {
                misses++;
              }
            }
          }
          continue;
        }
        Estimate est = row.get(a.name());
        double exact = oracle.exact(a, rows);
        if (!est.hasInterval() || Double.isNaN(exact)) {
          continue;
        }
        checks++;
        if (exact < est.lower() || exact > est.upper()) {
          misses++;
        }
      }
    }
    if (q.usesPrivatePartitionSelection()) {
      Set<List<Object>> released = result.rows().stream().map(ResultRow::key).collect(Collectors.toSet());
      groups.forEach((key, rows) -> {
        if (rows.size() >= 500) {
          assertTrue(released.contains(key), "group with " + rows.size() + " units not released");
        }
      });
    } else if (q.publicGroups().isPresent()) {
      assertEquals(q.publicGroups().get().size(), result.rows().size(), "every public group released");
    }
    assertTrue(checks >= 1 || q.aggregations().stream().allMatch(a -> a instanceof Aggregation.Quantiles),
        "nothing was checked");
    int allowed = poissonQuantile((1 - LEVEL) * checks, 1e-6);
    assertTrue(misses <= allowed, misses + " of " + checks + " intervals missed (allowed " + allowed + ")");

    SqlResult answer = st.present(result);
    assertEquals(f.expect().get("columns"), String.join(", ", answer.columnNames()));
    int total = result.rows().size();
    long offset = st.offset();
    long expectedRows = Math.max(0, Math.min(st.limit().orElse(Long.MAX_VALUE), total - offset));
    assertEquals(expectedRows, answer.rows().size(), "rows after OFFSET/LIMIT");
    if (f.expect().containsKey("order") && answer.rows().size() > 1) {
      assertFirstKeySorted(f.expect().get("order"), answer);
    }
  }

  private static void assertFirstKeySorted(String order, SqlResult answer) {
    String first = order.split(",")[0].trim();
    boolean desc = first.endsWith(" DESC");
    String column = first.substring(0, first.lastIndexOf(' '));
    int c = answer.columnNames().indexOf(column);
    assertTrue(c >= 0, "order column " + column);
    for (int i = 1; i < answer.rows().size(); i++) {
      Comparable<Object> a = sortValue(answer.rows().get(i - 1).get(c));
      Object b = sortValue(answer.rows().get(i).get(c));
      int cmp = a.compareTo(b);
      assertTrue(desc ? cmp >= 0 : cmp <= 0, "rows not sorted by " + first);
    }
  }

  @SuppressWarnings("unchecked")
  private static Comparable<Object> sortValue(Object cell) {
    Object v = cell instanceof Estimate e ? (Object) e.value() : cell;
    return (Comparable<Object>) v;
  }

  /** The smallest k with P[Poisson(mean) > k] < p. */
  static int poissonQuantile(double mean, double p) {
    double term = Math.exp(-mean);
    double cdf = term;
    int k = 0;
    while (1 - cdf >= p) {
      k++;
      term *= mean / k;
      cdf += term;
    }
    return k;
  }

  // --- invalid queries ------------------------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void parse_invalidQuery_refusedWithPositionWithoutDataOrCharge(CorpusFile f) {
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(f.sql(), adult.catalog));
    String[] lc = f.expect().get("error").split(":");
    String where = "line " + lc[0] + ", column " + lc[1] + ": ";
    assertTrue(e.getMessage().startsWith(where), "expected " + where + " but got: " + e.getMessage());
    assertEquals(Integer.parseInt(lc[0]), e.line());
    assertEquals(Integer.parseInt(lc[1]), e.column());
    assertTrue(e.reason().contains(f.expect().get("reason")),
        "reason should mention '" + f.expect().get("reason") + "': " + e.getMessage());
    for (String value : dataValues) {
      if (!f.sql().contains(value)) {
        assertFalse(e.getMessage().contains(value), "the error echoes a table value: " + value);
      }
    }
    // The same text through the whole pipeline: refused before the charger is ever called.
    AtomicInteger charges = new AtomicInteger();
    Session session = Session.builder().backend(backend)
        .budgetCharger(c -> charges.incrementAndGet()).randomSource(new SeededRandomSource(1)).build();
    assertThrows(IllegalArgumentException.class, () -> session.run(DpSql.parse(f.sql(), adult.catalog).query()));
    assertEquals(0, charges.get(), "a refused query must charge nothing");
  }

  // --- rendering of engine structures for the expectations ------------------------------------

  static String describe(Aggregation a) {
    if (a instanceof Aggregation.Count c) {
      return "Count(" + c.name() + ")";
    } else if (a instanceof Aggregation.CountDistinctUnits c) {
      return "CountDistinctUnits(" + c.name() + ")";
    } else if (a instanceof Aggregation.Sum s) {
      return "Sum(" + s.name() + ", " + s.column() + ", " + num(s.lower()) + ", " + num(s.upper())
          + perGroup(s.perGroup()) + ")";
    } else if (a instanceof Aggregation.Mean m) {
      return "Mean(" + m.name() + ", " + m.column() + ", " + num(m.lower()) + ", " + num(m.upper())
          + perGroup(m.perGroup()) + ")";
    } else if (a instanceof Aggregation.Variance v) {
      return "Variance(" + v.name() + ", " + v.column() + ", " + num(v.lower()) + ", " + num(v.upper()) + ")";
    } else if (a instanceof Aggregation.StdDev s) {
      return "StdDev(" + s.name() + ", " + s.column() + ", " + num(s.lower()) + ", " + num(s.upper()) + ")";
    } else if (a instanceof Aggregation.Quantiles q) {
      return "Quantiles(" + q.name() + ", " + q.column() + ", " + num(q.lower()) + ", " + num(q.upper())
          + ", " + q.ranks().stream().map(DpSqlCorpusTest::num).collect(Collectors.joining(", ")) + ")";
    }
    return a.toString();
  }

  private static String perGroup(Aggregation.GroupBounds g) {
    return g == null ? "" : ", perGroup " + num(g.lower()) + ".." + num(g.upper())
        + (g.allRows() ? " allRows" : "");
  }

  static String describe(Filter f) {
    if (f instanceof Filter.Compare c) {
      return c.column() + " " + c.op().sql() + " " + literal(c.literal());
    } else if (f instanceof Filter.In in) {
      return in.column() + " IN (" + in.literals().stream().map(DpSqlCorpusTest::literal)
          .collect(Collectors.joining(", ")) + ")";
    } else if (f instanceof Filter.IsNull n) {
      return n.column() + " IS NULL";
    } else if (f instanceof Filter.Not n) {
      return "NOT (" + describe(n.operand()) + ")";
    } else if (f instanceof Filter.And a) {
      return "(" + a.operands().stream().map(DpSqlCorpusTest::describe).collect(Collectors.joining(" AND ")) + ")";
    } else if (f instanceof Filter.Or o) {
      return "(" + o.operands().stream().map(DpSqlCorpusTest::describe).collect(Collectors.joining(" OR ")) + ")";
    }
    return f.toString();
  }

  private static String literal(Object v) {
    return v instanceof String s ? "'" + s.replace("'", "''") + "'" : String.valueOf(v);
  }

  private static String num(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  /** "epsilon=1 delta=1e-6" → {epsilon: 1.0, delta: 1e-6}. */
  private static Map<String, Double> numbers(String spec) {
    assertNotNull(spec, "budget expectation");
    Map<String, Double> out = new HashMap<>();
    for (String part : spec.trim().split("\\s+")) {
      String[] kv = part.split("=");
      out.put(kv[0].toLowerCase(Locale.ROOT), Double.parseDouble(kv[1]));
    }
    return out;
  }

  private static Map<String, Double> budget(PrivacyLoss loss) {
    Map<String, Double> out = new HashMap<>();
    if (loss instanceof PureDp p) {
      out.put("epsilon", p.epsilon());
    } else if (loss instanceof ApproxDp a) {
      out.put("epsilon", a.epsilon());
      out.put("delta", a.delta());
    } else if (loss instanceof Zcdp z) {
      out.put("rho", z.rho());
    } else if (loss instanceof ApproxZcdp z) {
      out.put("rho", z.rho());
      out.put("delta", z.delta());
    } else {
      fail("unexpected budget " + loss);
    }
    return out;
  }
}
