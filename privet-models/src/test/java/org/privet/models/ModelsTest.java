package org.privet.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.MechanismLoss;
import org.privet.testing.SeededRandomSource;

/** Calibration, refusals, serialisation and references for the four trainers. */
class ModelsTest {
  static final FeatureEncoder ENC = new FeatureEncoder(List.of(new Feature.Numeric("x", 0, 1)));

  @Test
  void objectivePerturbation_calibration_certifiesWithinRequestAndUsesBalleWangSigma() {
    for (double eps : new double[] {0.1, 1, 10}) {
      for (int k : new int[] {1, 5}) {
        ObjectivePerturbation op = ObjectivePerturbation.of(eps, 1e-6, k, null, 106);
        assertEquals(new ApproxDp(eps, 1e-6), op.privacyLoss());
        double certified = (double) op.statement().get("epsilon_certified");
        double certifiedDelta = (double) op.statement().get("delta_certified");
        assertTrue(certified <= eps && certified > 0.999 * eps, "eps " + certified);
        assertTrue(certifiedDelta <= 1e-6, "delta " + certifiedDelta);
        // independent reference: the Gaussian part alone at its share of epsilon and delta/(2k)
        double jac = (double) op.statement().get("epsilon_jacobian");
        double sigma = op.sigma();
        assertTrue(2 * k * MechanismLoss.Gaussian.analyticDelta(eps - jac - 2e-7, 1, sigma) <= 0.98e-6 * 1.0001);
        assertTrue(2 * k * MechanismLoss.Gaussian.analyticDelta(eps - jac, 1, sigma / 1.01) > 0.98e-6);
      }
    }
  }

  @Test
  void trainers_badParameters_refusedBeforeAnythingRuns() {
    assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.of(0, 1e-6, 1, null, 3));
    assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.of(Double.NaN, 1e-6, 1, null, 3));
    assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.of(1, 0, 1, null, 3));
    assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.of(1, 1e-6, 1, 1e-9, 3));
    assertThrows(IllegalArgumentException.class, () -> DpSgd.builder().epsilon(1).delta(1e-6).dimension(3)
        .samplingRate(0).build());
    assertThrows(IllegalArgumentException.class, () -> DpSgd.builder().epsilon(1).delta(1e-6).dimension(3)
        .steps(0).build());
    assertThrows(IllegalArgumentException.class, () -> AdaSsp.of(1, 0, 3, new SeededRandomSource(1)));
    assertThrows(IllegalArgumentException.class, () -> GaussianNaiveBayes.of(-1, 1e-6, new SeededRandomSource(1)));
  }

  @Test
  void dpSgd_calibration_pldEpsilonWithinTarget() {
    DpSgd sgd = DpSgd.builder().epsilon(1).delta(1e-6).steps(100).samplingRate(0.01).dimension(10)
        .pldInterval(1e-3).build();
    assertTrue(sgd.accountantEpsilon() <= 1 && sgd.accountantEpsilon() > 0.98, "" + sgd.accountantEpsilon());
    assertEquals(0.01, sgd.samplingRate());
    assertEquals(0.98e-6, sgd.accountantDelta(), 1e-20);
    double certified = (double) sgd.statement().get("epsilon_certified");
    assertTrue(certified <= 1, "" + certified);
  }

  @Test
  void adaSsp_parts_composeToTheStatedLoss() {
    AdaSsp a = AdaSsp.of(1, 1e-6, 4, new SeededRandomSource(3));
    ApproxDp composed = new BasicAccountant().compose(a.parts(), 1e-6);
    assertTrue(composed.epsilon() <= 1 && composed.delta() <= 1e-6, composed.toString());
    for (double v : new double[] {1, 0.1, 0.3, 1e-6, 7, 2.0 / 3}) {
      double t = AdaSsp.third(v);
      assertTrue(t + t + t <= v && t > 0.999999 * v / 3, "third of " + v);
    }
    assertEquals(new ApproxDp(1, 1e-6), a.privacyLoss());
  }

  /** Independent reference: y = 0.5·x − 0.25 (encoded) has OLS coefficients solved here by hand. */
  @Test
  void adaSsp_largeSampleAtLargeEpsilon_closeToOrdinaryLeastSquares() {
    Label.Numeric label = new Label.Numeric("y", -1, 1);
    TrainingSet.Builder b = TrainingSet.builder(ENC, label, 1);
    SeededRandomSource r = new SeededRandomSource(11);
    for (int i = 0; i < 20000; i++) {
      double x = (r.nextLong() >>> 11) * 0x1p-53;
      b.add(null, new String[] {Double.toString(x)}, Double.toString(0.8 * x - 0.3));
    }
    TrainingSet set = b.build();
    // encoded: x_enc = (1, x)/√2, y = 0.8x − 0.3  =>  y = a·1/√2 + c·x/√2 with a = −0.3√2, c = 0.8√2
    double[] expected = {-0.3 * Math.sqrt(2), 0.8 * Math.sqrt(2)};
    assertArrayEquals(expected, AdaSsp.trainNonPrivate(set).coefficients(), 1e-6);
    double[] dp = AdaSsp.of(10, 1e-6, 2, new SeededRandomSource(12)).train(set).coefficients();
    assertArrayEquals(expected, dp, 0.05);
  }

  @Test
  void model_json_roundTripsAndPredictsTheSame(@TempDir Path dir) throws Exception {
    TrainingSet.Builder b = TrainingSet.builder(ENC, new Label.Binary("y", "yes", "no"), 1);
    for (int i = 0; i < 200; i++) {
      b.add(null, new String[] {Double.toString(i / 200.0)}, i > 100 ? "yes" : "no");
    }
    TrainingSet set = b.build();
    for (Model m : List.of(ObjectivePerturbation.of(1, 1e-6, 1, null, 2).train(set, new SeededRandomSource(5)),
        GaussianNaiveBayes.of(1, 1e-6, new SeededRandomSource(6)).train(set))) {
      Path f = dir.resolve(m.kind().label() + ".json");
      m.write(f);
      Model back = Model.read(f);
      for (String v : new String[] {"0", "0.3", "0.9", "junk", null}) {
        assertEquals(m.predict(new String[] {v}), back.predict(new String[] {v}));
      }
      assertEquals(m.privacy(), back.privacy());
    }
    Files.writeString(dir.resolve("bad.json"), "{\"format\":\"other\"}");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Model.read(dir.resolve("bad.json")))
        .getMessage().startsWith("--model"));
  }

  /**
   * DP-SGD's calibration brackets z on a coarse PLD grid, then bisects on the fine one: the coarse
   * accountant's ε at the chosen z is at least the fine one's (it rounds toward more loss, which
   * makes the bracket valid), the stated ε is the fine one's and meets the target, and z equals
   * the full fine search's to its tolerance.
   */
  @Test
  void dpSgd_calibration_coarseSearchCertifiedByFineAccountant() {
    DpSgd sgd = DpSgd.builder().epsilon(1).delta(1e-6).samplingRate(0.05).steps(100).dimension(8).build();
    double z = sgd.noiseMultiplier();
    var fine = new org.privet.accounting.pld.PldAccountant();
    var coarse = org.privet.accounting.pld.PldAccountant.builder()
        .valueDiscretizationInterval(DpSgd.SEARCH_INTERVAL).build();
    double fineEps = fine.compose(sgd.events(z), sgd.accountantDelta()).epsilon();
    assertEquals(fineEps, sgd.accountantEpsilon(), "the stated epsilon is the fine accountant's");
    assertTrue(coarse.compose(sgd.events(z), sgd.accountantDelta()).epsilon() >= fineEps);
    assertTrue(fineEps <= 1);
    double full = org.privet.accounting.NoiseCalibration.noiseMultiplier(fine, sgd::events, sgd.searchTarget(),
        sgd.accountantDelta(), 1e-3);
    assertTrue(Math.abs(z - full) <= 2e-3 * full, "bracketed search " + z + ", fine search " + full);
    assertTrue(fine.compose(sgd.events(z * (1 - 3e-3)), sgd.accountantDelta()).epsilon() > sgd.searchTarget(),
        "0.3% less noise no longer meets the target: z is the smallest to the tolerance");
  }
}
