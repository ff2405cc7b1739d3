package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.Budget;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/** The noise choice: AUTO per budget kind, overrides in every valid combination, refusals. */
class NoiseKindTest {
  private DuckDbBackend db;

  @BeforeEach
  void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 100; u++) {
      rows.add(Arrays.asList(u, "g" + (u % 3), (double) (u % 7)));
    }
    TestTables.register(db, "t", rows);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private Session session() {
    return Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(11)).build();
  }

  private static Query build(Budget b, NoiseKind kind, int counts) {
    return build(b, kind, counts, true);
  }

  private static Query build(Budget b, NoiseKind kind, int counts, boolean quantiles) {
    Query.Builder q = Query.from("t").privacyUnit("uid").maxGroupsContributed(1)
        .maxRowsPerGroup(1).groupBy("g").publicGroups("g0", "g1", "g2");
    if (quantiles) {
      q.quantiles("q", "x", 0, 10, 0.5);
    }
    for (int i = 0; i < counts; i++) {
      q.count("n" + i);
    }
    return q.budget(b).noise(kind).build();
  }

  /** Value mechanisms only (quantiles always use the exponential mechanism). */
  private static List<String> valueMechanisms(Plan p) {
    return p.mechanisms().stream().map(m -> m.cost().mechanism())
        .filter(m -> !m.startsWith("ExponentialMechanism")).toList();
  }

  private void assertPlan(Budget b, NoiseKind requested, NoiseKind expected,
      Class<? extends PrivacyLoss> totalType) {
    Query q = build(b, requested, 2);
    Plan p = session().explain(q);
    assertEquals(expected, p.noise(), b + " " + requested);
    String prefix = expected == NoiseKind.LAPLACE ? "GeometricMechanism" : "DiscreteGaussianMechanism";
    assertTrue(valueMechanisms(p).stream().allMatch(m -> m.startsWith(prefix)),
        valueMechanisms(p).toString());
    assertTrue(totalType.isInstance(p.total()), p.total().toString());
    Result r = session().run(q);
    assertEquals(3, r.rows().size());
    assertTrue(b.admits(r.receipt().charge().total()));
  }

  @Test
  void pureBudget_autoAndLaplace_useGeometricNoise() {
    assertPlan(Budget.pure(1), NoiseKind.AUTO, NoiseKind.LAPLACE, PureDp.class);
    assertPlan(Budget.pure(1), NoiseKind.LAPLACE, NoiseKind.LAPLACE, PureDp.class);
  }

  @Test
  void pureBudget_gaussian_isRefusedNamingNoise() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> build(Budget.pure(1), NoiseKind.GAUSSIAN, 1));
    assertTrue(e.getMessage().startsWith("noise: GAUSSIAN needs δ > 0"), e.getMessage());
    // δ = 0 is a pure budget too.
    assertThrows(IllegalArgumentException.class,
        () -> build(Budget.approx(1, 0), NoiseKind.GAUSSIAN, 1));
  }

  @Test
  void approxBudget_overrides_areHonoured() {
    assertPlan(Budget.approx(1, 1e-6), NoiseKind.LAPLACE, NoiseKind.LAPLACE, ApproxDp.class);
    assertPlan(Budget.approx(1, 1e-6), NoiseKind.GAUSSIAN, NoiseKind.GAUSSIAN, ApproxDp.class);
    assertTrue(session().explain(build(Budget.approx(1, 1e-6), NoiseKind.GAUSSIAN, 2))
        .zcdpConversionDelta() > 0);
  }

  @Test
  void zcdpBudget_autoAndGaussian_useDiscreteGaussian_laplaceOverrideUsesGeometric() {
    assertPlan(Budget.zcdp(0.5), NoiseKind.AUTO, NoiseKind.GAUSSIAN, Zcdp.class);
    assertPlan(Budget.zcdp(0.5), NoiseKind.GAUSSIAN, NoiseKind.GAUSSIAN, Zcdp.class);
    // Laplace-type noise under ρ: each ε-DP release costs ε²/2 ρ; still charged as ρ.
    assertPlan(Budget.zcdp(0.5), NoiseKind.LAPLACE, NoiseKind.LAPLACE, Zcdp.class);
  }

  /**
   * AUTO under (ε, δ) picks the kind whose summed noise variance (from the forced plans) is lower.
   * Counts only, so that the plans' standard deviations are in the same unit.
   */
  @Test
  void approxBudget_auto_picksTheKindWithLessNoise() {
    boolean sawLaplace = false;
    boolean sawGaussian = false;
    for (int counts : new int[] {1, 4, 30}) {
      for (double delta : new double[] {1e-12, 1e-5}) {
        Budget b = Budget.approx(1, delta);
        double lap = variance(session().explain(build(b, NoiseKind.LAPLACE, counts, false)));
        double gau = variance(session().explain(build(b, NoiseKind.GAUSSIAN, counts, false)));
        NoiseKind auto = session().explain(build(b, NoiseKind.AUTO, counts, false)).noise();
        assertEquals(gau < lap ? NoiseKind.GAUSSIAN : NoiseKind.LAPLACE, auto,
            counts + " counts, δ=" + delta + ": lap " + lap + ", gau " + gau);
        sawLaplace |= auto == NoiseKind.LAPLACE;
        sawGaussian |= auto == NoiseKind.GAUSSIAN;
      }
    }
    assertTrue(sawLaplace && sawGaussian, "both choices occur over these budgets");
  }

  private static double variance(Plan p) {
    return p.mechanisms().stream().filter(m -> !Double.isNaN(m.noiseStddev()))
        .mapToDouble(m -> m.noiseStddev() * m.noiseStddev()).sum();
  }
}
