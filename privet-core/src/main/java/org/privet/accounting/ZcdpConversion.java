package org.privet.accounting;

/**
 * From ρ-zCDP to (ε, δ)-DP.
 *
 * <ul>
 *   <li>{@link #simpleEpsilon}: ε = ρ + 2√(ρ ln(1/δ)) (Bun &amp; Steinke 2016, Prop. 1.3).
 *   <li>{@link #tightEpsilon}: the conversion of Canonne, Kamath, Steinke 2020 ("The Discrete
 *       Gaussian for Differential Privacy", Prop. 12 / Cor. 13), which for every order α &gt; 1
 *       gives δ = exp((α−1)(αρ−ε)) / α · (1 − 1/α)<sup>α−1</sup>, i.e. ε = αρ + ln(1 − 1/α) −
 *       (ln δ + ln α)/(α − 1); we minimise over α numerically. Any α gives a valid bound, so an
 *       imperfect minimiser only costs tightness, never safety.
 * </ul>
 *
 * <p>All results are rounded up.
 */
public final class ZcdpConversion {
  private ZcdpConversion() {}

  /** The simple conversion ε = ρ + 2√(ρ ln(1/δ)), rounded up. */
  public static double simpleEpsilon(double rho, double delta) {
    check(rho, delta);
    if (rho == 0) {
      return 0.0;
    }
    double logInvDelta = UpwardRounding.up(-Math.log(delta));
    double root = UpwardRounding.sqrt(UpwardRounding.multiply(rho, logInvDelta));
    return UpwardRounding.add(rho, UpwardRounding.multiply(2.0, root));
  }

  /** The tight Canonne–Kamath–Steinke conversion (never larger than the simple one), rounded up. */
  public static double tightEpsilon(double rho, double delta) {
    check(rho, delta);
    if (rho == 0) {
      return 0.0;
    }
    double logDelta = Math.log(delta);
    RenyiConversion.Curve curve = alpha -> UpwardRounding.multiply(alpha, rho);
    double eps = RenyiConversion.minimiseOverOrders(curve, logDelta, 1e-9, 1e12);
    return Math.max(0.0, Math.min(eps, simpleEpsilon(rho, delta)));
  }

  /** The best of the available conversions (currently the tight one). */
  public static double epsilon(double rho, double delta) {
    return tightEpsilon(rho, delta);
  }

  /**
   * The δ at which ρ-zCDP gives the stated ε by the CKS20 conversion (minimised over orders),
   * rounded up.
   */
  public static double delta(double rho, double epsilon) {
    PrivacyLoss.requireNonNegativeFinite("rho", rho);
    PrivacyLoss.requireNonNegativeFinite("epsilon", epsilon);
    if (rho == 0) {
      return 0.0;
    }
    return RenyiConversion.minimiseDeltaOverOrders(
        alpha -> UpwardRounding.multiply(alpha, rho), epsilon, 1e-9, 1e12);
  }

  /**
   * The inverse of {@link #epsilon}: the largest ρ (to about 10<sup>−16</sup> relative, by
   * bisection that keeps only values the conversion certifies, so it errs on the private side)
   * with {@code epsilon(ρ, delta) ≤ epsilon}; 0 for ε = 0.
   */
  public static double largestRho(double epsilon, double delta) {
    PrivacyLoss.requireNonNegativeFinite("epsilon", epsilon);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1) to convert zCDP to (epsilon, delta)-DP, was " + delta);
    }
    // ρ ≥ ε never gives ε: the conversion is at least ρ.
    return largestCertified(epsilon, 80, rho -> epsilon(rho, delta) <= epsilon);
  }

  /**
   * The inverse of {@link #delta}: the largest ρ found by 100 bisection steps on [0, ε] with
   * {@code delta(ρ, epsilon) ≤ delta} (only certified values are kept); 0 if none.
   */
  public static double largestRhoAtEpsilon(double epsilon, double delta) {
    PrivacyLoss.requireNonNegativeFinite("epsilon", epsilon);
    PrivacyLoss.requireDelta("delta", delta);
    return largestCertified(epsilon, 100, rho -> delta(rho, epsilon) <= delta);
  }

  /** Bisection on [0, hi] keeping the largest ρ seen with {@code certified(ρ)}; 0 if none. */
  private static double largestCertified(double hi, int steps, java.util.function.DoublePredicate certified) {
    double lo = 0;
    for (int i = 0; i < steps; i++) {
      double mid = (lo + hi) / 2;
      if (certified.test(mid)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static void check(double rho, double delta) {
    PrivacyLoss.requireNonNegativeFinite("rho", rho);
    PrivacyLoss.requireDelta("delta", delta);
    if (delta == 0 && rho > 0) {
      throw new IllegalArgumentException("delta must be positive to convert zCDP (rho > 0) to (epsilon, delta)-DP");
    }
  }
}
