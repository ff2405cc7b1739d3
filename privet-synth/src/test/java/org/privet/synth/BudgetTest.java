package org.privet.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.accounting.ZcdpAccountant;
import org.privet.accounting.ZcdpConversion;
import org.privet.testing.SeededRandomSource;

class BudgetTest {
  /** Six small-domain Adult columns: workclass, marital-status, relationship, race, sex, income. */
  static Table smallAdult() throws IOException {
    return AdultData.table().select(new int[] {1, 4, 6, 7, 8, 13});
  }

  @Test
  void synthesize_aim_totalLossEqualsRequestedBudget() throws IOException {
    Table t = smallAdult();
    double eps = 1.0;
    double delta = 1e-6;
    Synthesizer s = Synthesizer.builder().epsilon(eps).delta(delta).randomSource(new SeededRandomSource(1))
        .estimationIterations(30).build();
    double rho = ((Zcdp) s.privacyLoss()).rho();
    SynthesisResult r = s.synthesize(t);
    double spent = ZcdpAccountant.INSTANCE.totalRho(r.events());
    assertTrue(spent <= rho, "spent " + spent + " > " + rho);
    assertTrue(spent >= rho * (1 - 1e-6), "spent " + spent + " well below " + rho);
    ApproxDp guarantee = ZcdpAccountant.INSTANCE.compose(r.events(), delta);
    assertTrue(guarantee.epsilon() <= eps, "epsilon " + guarantee.epsilon());
    assertTrue(guarantee.epsilon() >= eps * (1 - 1e-4), "epsilon " + guarantee.epsilon());
    assertTrue(s.approxDp().epsilon() <= eps);
    assertEquals(s.privacyLoss(), r.privacyLoss());
    assertEquals(t.domain(), r.synthetic().domain());
    assertTrue(Math.abs(r.synthetic().rows() - t.rows()) < 2000, "row count far from the noisy total");
  }

  @Test
  void synthesize_mst_totalLossEqualsRequestedBudgetAndReceiptListsEveryMeasurement() throws IOException {
    Table t = smallAdult();
    double eps = 1.0;
    double delta = 1e-6;
    Synthesizer s = Synthesizer.builder().method(Synthesizer.Method.MST).epsilon(eps).delta(delta)
        .randomSource(new SeededRandomSource(3)).estimationIterations(30).build();
    double rho = ((Zcdp) s.privacyLoss()).rho();
    SynthesisResult r = s.synthesize(t);
    int d = t.domain().size();
    // d one-way releases, d - 1 selections, d - 1 tree marginals.
    assertEquals(3 * d - 2, r.events().size());
    assertEquals(d - 1, r.selected().size());
    double spent = ZcdpAccountant.INSTANCE.totalRho(r.events());
    assertTrue(spent <= rho, "spent " + spent + " > " + rho);
    assertTrue(spent >= rho * (1 - 1e-6), "spent " + spent + " well below " + rho);
    assertTrue(ZcdpAccountant.INSTANCE.compose(r.events(), delta).epsilon() <= eps);
    assertEquals(s.privacyLoss(), r.privacyLoss());
    assertEquals(t.domain(), r.synthetic().domain());
  }

  @Test
  void synthesize_rapGaussian_totalLossEqualsRequestedBudgetAndReceiptListsEveryMeasurement() throws IOException {
    Table t = smallAdult();
    double eps = 1.0;
    double delta = 1e-6;
    Synthesizer s = Synthesizer.builder().method(Synthesizer.Method.RAP).epsilon(eps).delta(delta).rounds(2)
        .roundSelections(3).syntheticRows(40).estimationIterations(10).threads(1)
        .randomSource(new SeededRandomSource(4)).build();
    double rho = ((Zcdp) s.privacyLoss()).rho();
    SynthesisResult r = s.synthesize(t);
    // The noisy count, every 1-way marginal, then a selection and a measurement per selected marginal.
    int d = t.domain().size();
    assertEquals(6, r.selected().size());
    assertEquals(1 + d + 2 * 6, r.events().size());
    assertEquals(r.events().size(), r.receipt().size());
    for (int a = 0; a < d; a++) {
      String oneWay = "measure marginal " + t.domain().names(new int[] {a}) + " (";
      assertEquals(1, r.receipt().stream().filter(line -> line.startsWith(oneWay)).count(), oneWay);
    }
    double spent = ZcdpAccountant.INSTANCE.totalRho(r.events());
    assertTrue(spent <= rho, "spent " + spent + " > " + rho);
    assertTrue(spent >= rho * (1 - 1e-6), "spent " + spent + " well below " + rho);
    assertTrue(ZcdpAccountant.INSTANCE.compose(r.events(), delta).epsilon() <= eps);
    assertEquals(t.domain(), r.synthetic().domain());
  }

  /**
   * RAP on workloads that leave attributes unread, or hold only 1-ways: every attribute's 1-way is
   * measured first, and the rest of the budget (all of it when only 1-ways are left) adds up.
   */
  @Test
  void synthesize_rapPartialAndOneWayWorkloads_everyOneWayMeasuredAndBudgetAddsUp() throws IOException {
    Table t = smallAdult();
    int d = t.domain().size();
    for (Workload w : List.of(new Workload(List.of(new int[] {0, 1})), Workload.allKWay(t.domain(), 1))) {
      Synthesizer s = Synthesizer.builder().method(Synthesizer.Method.RAP).epsilon(1).delta(1e-6).workload(w)
          .rounds(2).roundSelections(3).syntheticRows(20).estimationIterations(5).threads(1)
          .randomSource(new SeededRandomSource(6)).build();
      double rho = ((Zcdp) s.privacyLoss()).rho();
      SynthesisResult r = s.synthesize(t);
      // Count, every 1-way, then the pair {0, 1} measured whole (a pool of one) or nothing.
      assertEquals(1 + d + (w.size() == 1 ? 1 : 0), r.events().size(), String.join("\n", r.receipt()));
      double spent = ZcdpAccountant.INSTANCE.totalRho(r.events());
      assertTrue(spent <= rho, "spent " + spent + " > " + rho);
      assertTrue(spent >= rho * (1 - 1e-6), "spent " + spent + " well below " + rho);
    }
  }

  @Test
  void synthesize_rapLaplace_totalLossEqualsRequestedEpsilon() throws IOException {
    Table t = smallAdult();
    double eps = 0.5;
    Synthesizer s = Synthesizer.builder().method(Synthesizer.Method.RAP).noise(Synthesizer.Noise.LAPLACE)
        .epsilon(eps).rounds(2).roundSelections(2).syntheticRows(40).estimationIterations(10).threads(1)
        .randomSource(new SeededRandomSource(5)).build();
    SynthesisResult r = s.synthesize(t);
    assertEquals(1 + t.domain().size() + 2 * 4, r.events().size());
    double spent = BasicAccountant.INSTANCE.compose(r.events(), 0).epsilon();
    assertTrue(spent <= eps, "spent " + spent);
    assertTrue(spent >= eps * (1 - 1e-6), "spent " + spent);
    assertEquals(new PureDp(eps), s.privacyLoss());
    assertEquals(new PureDp(eps), r.privacyLoss());
  }

  /** A query file on {@link #smallAdult()}: counts, conditional averages of coded columns, a marginal. */
  static QueryWorkload smallQueries(Domain dom) {
    return new QueryWorkload(java.util.stream.Stream.of(
        "count sex=0 income>50K=1", "count race=4", "mean relationship | sex=1", "mean marital-status | income>50K=1",
        "marginal race,sex")
        .map(q -> QueryWorkload.parse(q, dom, "test")).toList());
  }

  @Test
  void synthesize_rapQueryFile_budgetAddsUpExactlyAndReceiptListsEveryMeasurement() throws IOException {
    Table t = smallAdult();
    for (Synthesizer.Noise noise : Synthesizer.Noise.values()) {
      double eps = 1.0;
      double delta = 1e-6;
      var b = Synthesizer.builder().method(Synthesizer.Method.RAP).noise(noise).epsilon(eps)
          .queries(smallQueries(t.domain())).rounds(2).syntheticRows(40).estimationIterations(10).threads(1)
          .randomSource(new SeededRandomSource(6));
      if (noise == Synthesizer.Noise.GAUSSIAN) {
        b.delta(delta);
      }
      Synthesizer s = b.build();
      SynthesisResult r = s.synthesize(t);
      // The pool, measured whole without selection: the row count; 1-ways of sex, income, race,
      // relationship, marital-status; the marginal race,sex; counts of sex=0 income=1, race=4,
      // sex=1, income=1; sums of relationship | sex=1 and marital-status | income=1.
      assertEquals(1 + 5 + 1 + 4 + 2, r.events().size(), String.join("\n", r.receipt()));
      assertEquals(r.events().size(), r.receipt().size());
      for (String line : new String[] {"measure row count", "measure marginal race,sex (10 cells)",
          "measure count sex=0 income>50K=1 (1 cells)", "measure count race=4 (1 cells)",
          "measure sum relationship | sex=1 (1 cells)", "measure sum marital-status | income>50K=1 (1 cells)"}) {
        assertTrue(r.receipt().stream().anyMatch(l -> l.startsWith(line)), line + " missing: " + r.receipt());
      }
      if (noise == Synthesizer.Noise.GAUSSIAN) {
        double rho = ((Zcdp) s.privacyLoss()).rho();
        double spent = ZcdpAccountant.INSTANCE.totalRho(r.events());
        assertTrue(spent <= rho, "spent " + spent + " > " + rho);
        assertTrue(spent >= rho * (1 - 1e-6), "spent " + spent + " well below " + rho);
        assertTrue(ZcdpAccountant.INSTANCE.compose(r.events(), delta).epsilon() <= eps);
      } else {
        double spent = BasicAccountant.INSTANCE.compose(r.events(), 0).epsilon();
        assertTrue(spent <= eps, "spent " + spent);
        assertTrue(spent >= eps * (1 - 1e-6), "spent " + spent);
        assertEquals(new PureDp(eps), r.privacyLoss());
      }
    }
  }

  /**
   * On 2,000 rows at ε = 0.1 measuring the whole pool would leave noise far above 1% of n̂, so RAP
   * selects 4 per round: T·K = 8 of the 13 candidates, each a selection and a measurement.
   */
  @Test
  void synthesize_rapQueryFileSmallBudget_selectsAdaptivelyAndBudgetAddsUp() throws IOException {
    Table full = smallAdult();
    int[][] cols = new int[full.domain().size()][];
    for (int a = 0; a < cols.length; a++) {
      cols[a] = java.util.Arrays.copyOf(full.column(a), 2000);
    }
    Table t = Table.of(full.domain(), cols);
    double eps = 0.1;
    Synthesizer s = Synthesizer.builder().method(Synthesizer.Method.RAP).epsilon(eps).delta(1e-6)
        .queries(smallQueries(t.domain())).rounds(2).syntheticRows(40).estimationIterations(10).threads(1)
        .randomSource(new SeededRandomSource(7)).build();
    SynthesisResult r = s.synthesize(t);
    assertEquals(1 + 2 * 8, r.events().size(), String.join("\n", r.receipt()));
    assertEquals(8, r.receipt().stream().filter(l -> l.startsWith("select ")).count());
    double rho = ((Zcdp) s.privacyLoss()).rho();
    double spent = ZcdpAccountant.INSTANCE.totalRho(r.events());
    assertTrue(spent <= rho && spent >= rho * (1 - 1e-6), "spent " + spent + " of " + rho);
  }

  @Test
  void queryFile_badQueries_rejectedNamingTheLine() throws IOException {
    Domain dom = smallAdult().domain();
    assertTrue(assertThrows(IllegalArgumentException.class, () -> QueryWorkload.parse("mean sex | sex=1", dom, "line 3"))
        .getMessage().startsWith("line 3: the averaged column"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> QueryWorkload.parse("count sex=1 sex=0", dom, "line 4"))
        .getMessage().startsWith("line 4: attribute 'sex' appears twice"));
  }

  @Test
  void scaledWeights_codedColumn_spanMinusOneToOneOnTheGrid() {
    double[] w = RapGenerator.scaledWeights(Attribute.coded("c", 5));
    assertEquals(-1.0, w[0]);
    assertEquals(-0.5, w[1]);
    assertEquals(0.0, w[2]);
    assertEquals(1.0, w[4]);
    for (double x : RapGenerator.scaledWeights(Attribute.coded("c", 7))) {
      assertEquals(0, x * RapGenerator.GRID - Math.rint(x * RapGenerator.GRID), "on the grid: " + x);
    }
  }

  @Test
  void synthesize_mwem_totalLossEqualsRequestedEpsilon() throws IOException {
    Table t = smallAdult();
    double eps = 0.5;
    Synthesizer s = Synthesizer.builder().method(Synthesizer.Method.MWEM).epsilon(eps).rounds(5)
        .randomSource(new SeededRandomSource(2)).build();
    SynthesisResult r = s.synthesize(t);
    assertEquals(1 + t.domain().size() + 2 * 5, r.events().size());
    double spent = BasicAccountant.INSTANCE.compose(r.events(), 0).epsilon();
    assertTrue(spent <= eps, "spent " + spent);
    assertTrue(spent >= eps * (1 - 1e-6), "spent " + spent);
    assertEquals(new PureDp(eps), s.privacyLoss());
  }

  @Test
  void builder_badParameters_rejectedNamingTheParameter() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Synthesizer.builder().epsilon(Double.NaN))
        .getMessage().contains("epsilon"));
    assertThrows(IllegalArgumentException.class, () -> Synthesizer.builder().epsilon(-1));
    assertThrows(IllegalArgumentException.class, () -> Synthesizer.builder().epsilon(Double.POSITIVE_INFINITY));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Synthesizer.builder().delta(1.0))
        .getMessage().contains("delta"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Synthesizer.builder().build())
        .getMessage().contains("epsilon"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Synthesizer.builder().epsilon(1).delta(0).build())
        .getMessage().contains("delta"));
    assertThrows(IllegalArgumentException.class, () -> Synthesizer.builder().rounds(0));
    assertThrows(IllegalArgumentException.class, () -> Synthesizer.builder().maxModelCells(10));
  }
}
