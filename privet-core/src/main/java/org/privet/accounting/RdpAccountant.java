package org.privet.accounting;

import java.util.ArrayList;
import java.util.List;
import org.privet.math.Normal;

/**
 * The Rényi DP ("moments") accountant (Abadi et al. 2016; Mironov 2017): each event becomes an RDP
 * curve over a grid of orders, curves add order by order (Mironov 2017, Prop. 1), and the total is
 * converted with the improved conversion of Balle et al. 2020 ({@link RenyiConversion}).
 *
 * <p>Curves per event (all for sensitivity-normalised parameters):
 *
 * <ul>
 *   <li>Gaussian, noise multiplier σ: α/(2σ²) (Mironov 2017, Prop. 7); discrete Gaussian:
 *       αΔ²/(2σ²) (Canonne, Kamath, Steinke 2020); ρ-zCDP: αρ.
 *   <li>Laplace, scale b: (1/(α−1))·ln(α/(2α−1)·e^{(α−1)/b} + (α−1)/(2α−1)·e^{−α/b}) (Mironov
 *       2017, Prop. 6).
 *   <li>ε-DP (and discrete Laplace through its ε): binary randomized response, whose loss dominates
 *       every ε-DP pair: (1/(α−1))·ln(p^α(1−p)^{1−α} + (1−p)^α p^{1−α}), p = e^ε/(1+e^ε). k-ary
 *       randomized response: its exact Rényi divergence.
 *   <li>Poisson-subsampled Gaussian: Mironov, Talwar, Zhang 2019, Sec. 3 — the exact binomial sum
 *       A_α for integer α and the two erfc series for fractional α (capped by the value at ⌈α⌉,
 *       since RDP is non-decreasing in α). Other subsampled bases use the amplified ε' = ln(1 +
 *       q(e^ε − 1)) through randomized response (valid, looser than Zhu &amp; Wang 2019); subsampled
 *       discrete Gaussians use the base curve (subsampling never hurts, by quasi-convexity).
 *   <li>RDP curves: their value at the next grid order at or above α. (ε, δ) events and
 *       δ-approximate zCDP events with δ &gt; 0 have no RDP curve and are refused (0-approximate
 *       ρ-zCDP reads as αρ).
 * </ul>
 */
public final class RdpAccountant implements Accountant {
  /** The default orders: fractional ones near 1 and integers up to 256. */
  public static final double[] DEFAULT_ORDERS = defaultOrders();

  private final double[] orders;

  public RdpAccountant() {
    this(DEFAULT_ORDERS);
  }

  /** An accountant over the given orders (each finite and &gt; 1). */
  public RdpAccountant(double[] orders) {
    if (orders.length == 0) {
      throw new IllegalArgumentException("orders must not be empty");
    }
    for (double a : orders) {
      if (!(a > 1) || Double.isInfinite(a)) {
        throw new IllegalArgumentException("orders must be finite and > 1, was " + a);
      }
    }
    this.orders = orders.clone();
  }

  private static double[] defaultOrders() {
    List<Double> list = new ArrayList<>();
    for (int i = 1; i <= 40; i++) {
      list.add(1 + i / 10.0); // 1.1 .. 5.0
    }
    for (int a = 6; a <= 64; a++) {
      list.add((double) a);
    }
    for (double a : new double[] {72, 80, 96, 112, 128, 160, 192, 256}) {
      list.add(a);
    }
    return list.stream().mapToDouble(Double::doubleValue).toArray();
  }

  @Override
  public ApproxDp compose(List<? extends PrivacyLoss> events, double delta) {
    PrivacyLoss.requireDelta("delta", delta);
    if (events.isEmpty()) {
      return new ApproxDp(0, 0);
    }
    if (delta == 0) {
      throw new IllegalArgumentException("delta must be positive for the RDP accountant");
    }
    RdpCurve curve = curve(events);
    return EventMeasures.approxDp(curve.epsilon(delta), delta, "RDP composition");
  }

  /** The composed RDP curve over this accountant's orders, rounded up. */
  public RdpCurve curve(List<? extends PrivacyLoss> events) {
    double[] total = new double[orders.length];
    java.util.Map<PrivacyLoss, Long> grouped = new java.util.LinkedHashMap<>();
    for (PrivacyLoss e : events) {
      grouped.merge(e, 1L, Long::sum);
    }
    for (java.util.Map.Entry<PrivacyLoss, Long> g : grouped.entrySet()) {
      for (int i = 0; i < orders.length; i++) {
        double r = rdp(g.getKey(), orders[i]);
        total[i] = UpwardRounding.add(total[i], UpwardRounding.multiply(r, (double) g.getValue()));
      }
    }
    return new RdpCurve(sorted(orders), sortedBy(orders, total));
  }

  /** An upper bound on the RDP of one event at order α, rounded up. */
  static double rdp(PrivacyLoss event, double alpha) {
    if (event instanceof Zcdp z) {
      return UpwardRounding.multiply(alpha, z.rho());
    }
    if (event instanceof RdpCurve c) {
      return c.upperBoundAt(alpha);
    }
    if (event instanceof ApproxZcdp z) {
      if (z.delta() > 0) {
        throw new IllegalArgumentException("RdpAccountant cannot account delta-approximate zCDP "
            + "events with delta > 0 (they have no RDP curve); use basic or zcdp");
      }
      return UpwardRounding.multiply(alpha, z.rho());
    }
    if (event instanceof PureDp p) {
      return pure(p.epsilon(), alpha);
    }
    if (event instanceof ApproxDp a) {
      if (a.delta() > 0) {
        throw new IllegalArgumentException(
            "RdpAccountant cannot account (epsilon, delta) events with delta > 0; use basic, zcdp or pld");
      }
      return pure(a.epsilon(), alpha);
    }
    if (event instanceof MechanismLoss m) {
      return m.rdp(alpha);
    }
    if (event instanceof PoissonSubsampled s) {
      double q = s.samplingRate();
      if (s.base() instanceof MechanismLoss.Gaussian g) {
        return q == 1 ? rdp(g, alpha) : Math.min(rdp(g, alpha), subsampledGaussian(q, g.noiseMultiplier(), alpha));
      }
      ApproxDp amplified = s.amplifiedApproxDp();
      if (amplified != null) {
        if (amplified.delta() > 0) {
          throw new IllegalArgumentException(
              "RdpAccountant cannot account (epsilon, delta) events with delta > 0; use basic, zcdp or pld");
        }
        return Math.min(rdp(s.base(), alpha), pure(amplified.epsilon(), alpha));
      }
      return rdp(s.base(), alpha);
    }
    throw new IllegalArgumentException("RdpAccountant does not support " + event.getClass().getSimpleName());
  }

  /** RDP of an ε-DP event: that of binary randomized response (the worst case over ε-DP). */
  static double pure(double eps, double alpha) {
    return MechanismLoss.RandomizedResponse.pureRdp(eps, alpha);
  }

  /** Mironov–Talwar–Zhang 2019: RDP of the Poisson-subsampled Gaussian, rounded up. */
  static double subsampledGaussian(double q, double sigma, double alpha) {
    double up = integerOrder(q, sigma, (long) Math.ceil(alpha));
    if (alpha == Math.rint(alpha)) {
      return up;
    }
    double frac = fractionalOrder(q, sigma, alpha);
    if (Double.isNaN(frac) || frac < 0) {
      return up;
    }
    return Math.min(up, frac);
  }

  /** log A_α = log Σ_k C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2σ²)}, all terms positive. */
  private static double integerOrder(double q, double sigma, long alpha) {
    double logQ = Math.log(q);
    double log1mQ = Math.log1p(-q);
    double twoVar = 2 * sigma * sigma;
    double logA = Double.NEGATIVE_INFINITY;
    double logC = 0;
    double magnitude = 0;
    for (long k = 0; k <= alpha; k++) {
      if (k > 0) {
        logC += Math.log((double) (alpha - k + 1)) - Math.log((double) k);
      }
      double term = logC + k * logQ + (alpha - k) * log1mQ + ((double) k * k - k) / twoVar;
      logA = logSumExp(logA, term);
      magnitude = Math.max(magnitude, Math.abs(term));
    }
    return Math.max(0.0, UpwardRounding.withMargin(logA / (alpha - 1), (magnitude + alpha) / (alpha - 1)));
  }

  /** The fractional-order series of Mironov, Talwar, Zhang 2019, Sec. 3.3, in log space. */
  private static double fractionalOrder(double q, double sigma, double alpha) {
    double z = sigma * sigma * Math.log(1 / q - 1) + 0.5;
    double logQ = Math.log(q);
    double log1mQ = Math.log1p(-q);
    double twoVar = 2 * sigma * sigma;
    double sqrt2Sigma = Math.sqrt(2) * sigma;
    double pos = Double.NEGATIVE_INFINITY;
    double neg = Double.NEGATIVE_INFINITY;
    double logAbsC = 0;
    int sign = 1;
    for (int i = 0; i < 10_000; i++) {
      if (i > 0) {
        double factor = (alpha - i + 1) / i;
        if (factor < 0) {
          sign = -sign;
        }
        logAbsC += Math.log(Math.abs(factor));
      }
      double j = alpha - i;
      double s0 = logAbsC + i * logQ + j * log1mQ + ((double) i * i - i) / twoVar
          + Math.log(0.5) + Normal.logErfc((i - z) / sqrt2Sigma);
      double s1 = logAbsC + j * logQ + i * log1mQ + (j * j - j) / twoVar
          + Math.log(0.5) + Normal.logErfc((z - j) / sqrt2Sigma);
      double both = logSumExp(s0, s1);
      if (sign > 0) {
        pos = logSumExp(pos, both);
      } else {
        neg = logSumExp(neg, both);
      }
      if (i > alpha + 2 && Math.max(s0, s1) < -40) {
        break;
      }
    }
    if (!(pos > neg)) {
      return Double.NaN;
    }
    double logA = pos + Math.log1p(-Math.exp(neg - pos));
    // Alternating series: allow a relative margin of 10⁻⁹ on A before the log.
    return Math.max(0.0, (logA + 1e-9) / (alpha - 1));
  }

  static double logSumExp(double a, double b) {
    if (a == Double.NEGATIVE_INFINITY) {
      return b;
    }
    if (b == Double.NEGATIVE_INFINITY) {
      return a;
    }
    double m = Math.max(a, b);
    return m + Math.log1p(Math.exp(Math.min(a, b) - m));
  }

  private static double[] sorted(double[] a) {
    double[] c = a.clone();
    java.util.Arrays.sort(c);
    return c;
  }

  private static double[] sortedBy(double[] keys, double[] values) {
    Integer[] idx = new Integer[keys.length];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    java.util.Arrays.sort(idx, (x, y) -> Double.compare(keys[x], keys[y]));
    double[] out = new double[keys.length];
    for (int i = 0; i < idx.length; i++) {
      out[i] = values[idx[i]];
    }
    return out;
  }

  @Override
  public String toString() {
    return "rdp";
  }
}
