package org.privet.models;

import org.privet.accounting.NoiseCalibration;
import org.privet.accounting.pld.PldAccountant;

/**
 * DP-SGD calibration time (not a test): the bracketed search of {@link DpSgd} against the plain
 * bisection on the fine PLD accountant ({@link NoiseCalibration#noiseMultiplier}), same
 * configuration (Adult's dimension 106, q = 0.01, T = 1000, δ = 10⁻⁶), in the same JVM, alternating.
 * Arguments: the ε values (default 1 and 10).
 */
public final class DpSgdCalibrationBench {
  public static void main(String[] args) {
    double[] eps = args.length == 0 ? new double[] {1, 10} : java.util.Arrays.stream(args)
        .mapToDouble(Double::parseDouble).toArray();
    for (double e : eps) {
      long t0 = System.nanoTime();
      DpSgd sgd = DpSgd.builder().epsilon(e).delta(1e-6).dimension(106).build();
      long t1 = System.nanoTime();
      double plain = NoiseCalibration.noiseMultiplier(new PldAccountant(), sgd::events, sgd.searchTarget(),
          sgd.accountantDelta(), 1e-3);
      long t2 = System.nanoTime();
      System.out.printf("eps=%s bracketed z=%.4f %.1f s | plain fine bisection z=%.4f %.1f s | ratio %.2f%n", e,
          sgd.noiseMultiplier(), (t1 - t0) / 1e9, plain, (t2 - t1) / 1e9, (double) (t2 - t1) / (t1 - t0));
    }
  }
}
