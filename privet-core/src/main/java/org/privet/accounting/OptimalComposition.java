package org.privet.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The optimal composition of (ε, δ)-DP mechanisms: the smallest ε such that every k-fold adaptive
 * composition of (ε<sub>i</sub>, δ<sub>i</sub>)-DP mechanisms is (ε, δ<sub>g</sub>)-DP.
 *
 * <p><b>Homogeneous</b> (Kairouz, Oh, Viswanath 2015, Thm. 3.3): the worst case is the k-fold
 * composition of the four-point pair that is randomized response with probability 1 − δ<sub>0</sub>
 * and a give-away with probability δ<sub>0</sub>, so δ<sub>g</sub>(ε) = 1 − (1 − δ<sub>0</sub>)^k
 * (1 − δ<sub>RR</sub>(ε)) with δ<sub>RR</sub>(ε) = Σ<sub>ℓ</sub> C(k, ℓ) [e^{(k−ℓ)ε₀} −
 * e^ε·e^{ℓε₀}]<sub>+</sub> / (1 + e^{ε₀})^k. We find the smallest ε by bisection on this exact
 * expression (evaluated in log space).
 *
 * <p><b>Heterogeneous</b>: the same four-point pairs are still the worst case (Murtagh &amp; Vadhan
 * 2016, "The complexity of computing the optimal composition of differential privacy", Lemma 3.1),
 * but computing the optimum exactly is #P-hard (ibid., Thm. 1.5). Following their approximation, we
 * round every ε<sub>i</sub> to a multiple of a grid step η: rounding <em>up</em> gives a mechanism
 * that dominates the original, so its exact optimum (computable on the grid by convolution) is an
 * upper bound, and rounding <em>down</em> gives a lower bound. {@link #heterogeneousBracket} returns
 * both; the accountant reports the upper one, and the documented error bound is their distance,
 * which is computed every time rather than assumed.
 */
public final class OptimalComposition {
  private OptimalComposition() {}

  /** The optimal ε for k-fold composition of one (ε₀, δ₀) at total δ, rounded up. */
  public static double homogeneousEpsilon(double eps0, double delta0, int k, double delta) {
    PrivacyLoss.requireNonNegativeFinite("epsilon", eps0);
    PrivacyLoss.requireDelta("delta0", delta0);
    PrivacyLoss.requireDelta("delta", delta);
    if (k < 1) {
      throw new IllegalArgumentException("k must be positive, was " + k);
    }
    double logKeep = k * Math.log1p(-delta0); // ln (1 − δ₀)^k
    if (-Math.expm1(logKeep) > delta) {
      throw new IllegalArgumentException(
          "delta (" + delta + ") is below 1 − (1 − delta0)^k; no finite epsilon");
    }
    if (eps0 == 0) {
      return 0.0;
    }
    // Loss values (k − 2ℓ)ε₀ with P-probabilities C(k,ℓ) e^{(k−ℓ)ε₀}/(1+e^{ε₀})^k.
    double[] loss = new double[k + 1];
    double[] prob = new double[k + 1];
    double logNorm = k * (eps0 + Math.log1p(Math.exp(-eps0)));
    double logC = 0;
    for (int l = 0; l <= k; l++) {
      if (l > 0) {
        logC += Math.log(k - l + 1) - Math.log(l);
      }
      loss[l] = (k - 2.0 * l) * eps0;
      prob[l] = Math.exp(logC + (k - l) * eps0 - logNorm);
    }
    return smallestEpsilon(loss, prob, logKeep, delta, k * eps0);
  }

  /**
   * Lower and upper bounds on the optimal ε for heterogeneous (ε<sub>i</sub>, δ<sub>i</sub>), by
   * rounding each ε<sub>i</sub> down and up to multiples of {@code step}.
   */
  public static double[] heterogeneousBracket(List<ApproxDp> events, double delta, double step) {
    PrivacyLoss.requireDelta("delta", delta);
    if (!(step > 0)) {
      throw new IllegalArgumentException("step must be positive, was " + step);
    }
    double logKeep = 0;
    for (ApproxDp e : events) {
      logKeep += Math.log1p(-e.delta());
    }
    if (-Math.expm1(logKeep) > delta) {
      throw new IllegalArgumentException("delta (" + delta + ") is below the events' total delta; no finite epsilon");
    }
    double upper = gridOptimum(events, step, true, logKeep, delta);
    double lower = gridOptimum(events, step, false, logKeep, delta);
    return new double[] {lower, upper};
  }

  /** A step giving at most about {@code points} grid points for the composed loss. */
  static double defaultStep(List<ApproxDp> events) {
    double sum = 0;
    for (ApproxDp e : events) {
      sum += e.epsilon();
    }
    return Math.max(sum / 20_000, 1e-7);
  }

  private static double gridOptimum(List<ApproxDp> events, double step, boolean roundUp, double logKeep, double delta) {
    // Multiplicities of each grid multiple m (ε rounded to mη).
    Map<Long, Integer> groups = new TreeMap<>();
    for (ApproxDp e : events) {
      double r = e.epsilon() / step;
      long m = roundUp ? (long) Math.ceil(r * (1 - 1e-15)) : (long) Math.floor(r * (1 + 1e-15));
      if (roundUp && m * step < e.epsilon()) {
        m++;
      }
      if (m > 0) {
        groups.merge(m, 1, Integer::sum);
      }
    }
    if (groups.isEmpty()) {
      return 0.0;
    }
    // Distribution of the total loss in units of η: offset + index.
    double[] dist = {1.0};
    long offset = 0;
    for (Map.Entry<Long, Integer> g : groups.entrySet()) {
      long m = g.getKey();
      int c = g.getValue();
      double eps = m * step;
      // c-fold RR(eps): loss (c − 2ℓ)·m units, probability C(c,ℓ) e^{(c−ℓ)ε}/(1+e^ε)^c.
      long len = 2L * c * m + 1;
      long newLen = dist.length + len - 1;
      if ((double) dist.length * (c + 1) > 2e8 || newLen > 50_000_000L) {
        throw new IllegalArgumentException(
            "heterogeneous optimal composition too large to compute; use the PLD accountant");
      }
      double[] next = new double[(int) newLen];
      double logNorm = c * (eps + Math.log1p(Math.exp(-eps)));
      double logC = 0;
      for (int l = 0; l <= c; l++) {
        if (l > 0) {
          logC += Math.log(c - l + 1) - Math.log(l);
        }
        double p = Math.exp(logC + (c - l) * eps - logNorm);
        if (p == 0) {
          continue;
        }
        int shift = (int) ((long) (c - 2 * l) * m + (long) c * m);
        for (int i = 0; i < dist.length; i++) {
          next[i + shift] += dist[i] * p;
        }
      }
      dist = next;
      offset -= (long) c * m;
    }
    double[] loss = new double[dist.length];
    for (int i = 0; i < dist.length; i++) {
      loss[i] = (offset + i) * step;
    }
    double max = (offset + dist.length - 1) * step;
    return smallestEpsilon(loss, dist, logKeep, delta, max);
  }

  /** Bisection for the smallest ε with 1 − keep·(1 − δ_RR(ε)) ≤ delta, rounded up. */
  private static double smallestEpsilon(double[] loss, double[] prob, double logKeep, double delta, double max) {
    double keep = Math.exp(logKeep);
    java.util.function.DoubleUnaryOperator total =
        eps -> {
          double d = 0;
          for (int i = 0; i < loss.length; i++) {
            if (loss[i] > eps) {
              d += prob[i] * -Math.expm1(eps - loss[i]);
            }
          }
          // Upper bound on 1 − keep·(1 − d) with a relative margin for the summation error.
          return -Math.expm1(logKeep) + keep * d * (1 + 1e-9) + 1e-300;
        };
    if (total.applyAsDouble(0) <= delta) {
      return 0.0;
    }
    double lo = 0;
    double hi = max;
    for (int i = 0; i < 200 && hi - lo > 1e-14 * Math.max(1, hi); i++) {
      double mid = 0.5 * (lo + hi);
      if (total.applyAsDouble(mid) <= delta) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return UpwardRounding.up(hi);
  }

  static List<ApproxDp> asApproxDp(List<? extends PrivacyLoss> events, String accountant) {
    List<ApproxDp> out = new ArrayList<>();
    for (PrivacyLoss e : events) {
      ApproxDp a = EventMeasures.asApproxDpIfDirect(e);
      if (a == null) {
        throw new IllegalArgumentException(
            accountant + " needs (epsilon, delta) events; " + e.getClass().getSimpleName() + " has none");
      }
      out.add(a);
    }
    return out;
  }
}
