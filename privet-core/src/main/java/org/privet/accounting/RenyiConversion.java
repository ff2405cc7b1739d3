package org.privet.accounting;

/**
 * From Rényi DP (Mironov 2017) to (ε, δ)-DP, using the improved conversion of Balle, Barthe,
 * Gaboardi, Hsu, Sato 2020 ("Hypothesis testing interpretations and Rényi differential privacy",
 * Thm. 21), equivalently Canonne, Kamath, Steinke 2020 (Prop. 12) and Asoodeh et al. 2021: if a
 * mechanism is (α, τ)-RDP then it is (ε, δ)-DP with
 *
 * <pre>  ε = τ + ln(1 − 1/α) − (ln δ + ln α)/(α − 1).</pre>
 *
 * <p>This is never worse than Mironov's ε = τ + ln(1/δ)/(α − 1), since ln(1 − 1/α) − ln α/(α−1)
 * &lt; 0. Each order gives a valid bound; we take the minimum over the orders supplied (or, for a
 * continuous curve, over a numerically minimised order). Results are rounded up with an explicit
 * error margin ({@link UpwardRounding#withMargin}).
 */
public final class RenyiConversion {
  private RenyiConversion() {}

  /** An upper bound τ(α) on the Rényi divergence of order α of a mechanism. */
  @FunctionalInterface
  interface Curve {
    double at(double alpha);
  }

  /**
   * The smallest ε over the given orders at which an RDP curve gives (ε, δ)-DP.
   *
   * @param orders Rényi orders α &gt; 1
   * @param rdp the RDP bound τ(α) for each order (may be +∞ where unbounded)
   * @param delta the target δ ∈ (0, 1)
   */
  public static double epsilon(double[] orders, double[] rdp, double delta) {
    checkCurve(orders, rdp);
    if (Double.isNaN(delta) || delta <= 0 || delta >= 1) {
      throw new IllegalArgumentException("delta must be in (0, 1) to convert Renyi DP, was " + delta);
    }
    double logDelta = Math.log(delta);
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < orders.length; i++) {
      best = Math.min(best, epsilonAtOrder(orders[i] - 1.0, rdp[i], logDelta));
    }
    return Math.max(0.0, best);
  }

  /**
   * Mironov's original conversion ε = min over orders of τ + ln(1/δ)/(α − 1) (Mironov 2017, Prop.
   * 3), which older accountants (TF Privacy, Opacus before 1.4) report; kept to reproduce published
   * numbers. Never smaller than {@link #epsilon}.
   */
  public static double classicEpsilon(double[] orders, double[] rdp, double delta) {
    checkCurve(orders, rdp);
    if (Double.isNaN(delta) || delta <= 0 || delta >= 1) {
      throw new IllegalArgumentException("delta must be in (0, 1) to convert Renyi DP, was " + delta);
    }
    double logInv = -Math.log(delta);
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < orders.length; i++) {
      double t = orders[i] - 1.0;
      best = Math.min(best, UpwardRounding.withMargin(rdp[i] + logInv / t, rdp[i] + logInv / t));
    }
    return best;
  }

  /**
   * The smallest δ over the given orders at which an RDP curve gives (ε, δ)-DP (capped at 1).
   */
  public static double delta(double[] orders, double[] rdp, double epsilon) {
    checkCurve(orders, rdp);
    PrivacyLoss.requireNonNegativeFinite("epsilon", epsilon);
    double best = 1.0;
    for (int i = 0; i < orders.length; i++) {
      best = Math.min(best, deltaAtOrder(orders[i] - 1.0, rdp[i], epsilon));
    }
    return best;
  }

  /** ε at order α = 1 + t for RDP value tau, rounded up. */
  static double epsilonAtOrder(double t, double tau, double logDelta) {
    if (!(t > 0) || Double.isInfinite(tau) || Double.isNaN(tau)) {
      return Double.POSITIVE_INFINITY;
    }
    double logT = Math.log(t);
    double log1pT = Math.log1p(t);
    double a = logT - log1pT; // ln(1 − 1/α)
    double b = -(logDelta + log1pT) / t;
    double value = tau + a + b;
    double magnitude = Math.abs(tau) + Math.abs(logT) + log1pT + (Math.abs(logDelta) + log1pT) / t;
    return UpwardRounding.withMargin(value, magnitude);
  }

  /** δ at order α = 1 + t for RDP value tau and target ε, rounded up. */
  static double deltaAtOrder(double t, double tau, double epsilon) {
    if (!(t > 0) || Double.isInfinite(tau) || Double.isNaN(tau)) {
      return 1.0;
    }
    double logT = Math.log(t);
    double log1pT = Math.log1p(t);
    double logDelta = t * (tau - epsilon + logT - log1pT) - log1pT;
    double magnitude = t * (Math.abs(tau) + epsilon + Math.abs(logT) + log1pT) + log1pT;
    double upperLog = UpwardRounding.withMargin(logDelta, magnitude);
    return Math.min(1.0, UpwardRounding.up(Math.exp(upperLog)));
  }

  /**
   * Minimises the conversion over a continuous range of orders α = 1 + t, t ∈ [tMin, tMax]: a
   * log-spaced grid followed by golden-section refinement around the best grid point. Every
   * evaluated point is a valid bound, so the result is valid whatever the shape of the function.
   */
  static double minimiseOverOrders(Curve curve, double logDelta, double tMin, double tMax) {
    java.util.function.DoubleUnaryOperator f =
        logT -> {
          double t = Math.exp(logT);
          return epsilonAtOrder(t, curve.at(1.0 + t), logDelta);
        };
    return minimise(f, Math.log(tMin), Math.log(tMax));
  }

  /** As {@link #minimiseOverOrders} but for δ at a given ε. */
  static double minimiseDeltaOverOrders(Curve curve, double epsilon, double tMin, double tMax) {
    java.util.function.DoubleUnaryOperator f =
        logT -> {
          double t = Math.exp(logT);
          return deltaAtOrder(t, curve.at(1.0 + t), epsilon);
        };
    return Math.min(1.0, minimise(f, Math.log(tMin), Math.log(tMax)));
  }

  private static double minimise(java.util.function.DoubleUnaryOperator f, double lo, double hi) {
    int n = 200;
    double step = (hi - lo) / n;
    double best = Double.POSITIVE_INFINITY;
    int bestI = 0;
    for (int i = 0; i <= n; i++) {
      double v = f.applyAsDouble(lo + i * step);
      if (v < best) {
        best = v;
        bestI = i;
      }
    }
    double a = lo + Math.max(0, bestI - 1) * step;
    double b = lo + Math.min(n, bestI + 1) * step;
    double g = (Math.sqrt(5) - 1) / 2;
    double c = b - g * (b - a);
    double d = a + g * (b - a);
    double fc = f.applyAsDouble(c);
    double fd = f.applyAsDouble(d);
    for (int it = 0; it < 80; it++) {
      if (fc < fd) {
        b = d;
        d = c;
        fd = fc;
        c = b - g * (b - a);
        fc = f.applyAsDouble(c);
      } else {
        a = c;
        c = d;
        fc = fd;
        d = a + g * (b - a);
        fd = f.applyAsDouble(d);
      }
      best = Math.min(best, Math.min(fc, fd));
    }
    return best;
  }

  private static void checkCurve(double[] orders, double[] rdp) {
    if (orders.length == 0 || orders.length != rdp.length) {
      throw new IllegalArgumentException("orders and rdp must be non-empty and of equal length");
    }
    for (int i = 0; i < orders.length; i++) {
      if (!(orders[i] > 1) || Double.isInfinite(orders[i])) {
        throw new IllegalArgumentException("orders must be finite and > 1, was " + orders[i]);
      }
      if (Double.isNaN(rdp[i]) || rdp[i] < 0) {
        throw new IllegalArgumentException("rdp must be non-negative, was " + rdp[i]);
      }
    }
  }
}
