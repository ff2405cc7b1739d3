package org.privet.accounting.pld;

import org.privet.accounting.ApproxDp;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.PoissonSubsampled;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.UpwardRounding;

/**
 * Builds the pessimistically discretised privacy loss distribution of one privacy event, in one
 * direction of the add/remove relation. Package-private; the argument is in
 * docs/proofs/pld-accountant.md.
 *
 * <p>Discretisation ("connect the dots", Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022): a loss
 * value l in [a, b) = [jΔ, (j+1)Δ) is replaced by the two-point law on {a, b} with the same value of
 * E[e^{−L}], i.e. mass (1 − e^{a−l})/(1 − e^{a−b}) on b and the rest on a. Since (1 − x·e^{−l})_+ is
 * convex in e^{−l}, Jensen's inequality makes every δ(ε) of the result at least that of the
 * original, and the pair stays valid (E_P[e^{−L}] unchanged). Loss mass above the top node goes to
 * +∞, mass below the bottom node is moved up to it: both only increase δ. Floating-point error in
 * the tail-function path is covered by moving an extra fraction {@link #SPLIT_BIAS} of each
 * interval's mass to its upper node.
 */
final class MechanismPld {
  private MechanismPld() {}

  /** Fraction of each interval's mass moved up to cover floating-point error in the split. */
  static final double SPLIT_BIAS = 1e-3;

  /** Largest number of grid nodes one event may occupy. */
  static final int MAX_NODES = 1 << 22;

  /** Whether the event's PLD differs between the remove and add directions. */
  static boolean isAsymmetric(PrivacyLoss event) {
    return event instanceof PoissonSubsampled s && s.samplingRate() < 1;
  }

  /**
   * @param remove true for the pair (D with the unit, D without it), false for the reverse
   * @param interval the grid spacing Δ
   * @param tail loss mass allowed to be moved to +∞ by truncation of unbounded supports
   */
  static DiscretePld of(PrivacyLoss event, boolean remove, double interval, double tail) {
    if (event instanceof PoissonSubsampled s) {
      double q = s.samplingRate();
      DominatingPair base = pair(s.base());
      if (base instanceof LossTails baseTails) {
        return fromTails(q == 1 ? baseTails : new Subsampled(baseTails, q, remove), interval, tail);
      }
      LossAtoms atoms = (LossAtoms) base;
      return fromAtoms(q == 1 ? atoms : atoms.subsample(q, remove), interval);
    }
    DominatingPair pair = pair(event);
    return pair instanceof LossTails t ? fromTails(t, interval, tail) : fromAtoms((LossAtoms) pair, interval);
  }

  /** The event's loss atoms when its dominating pair is given by atoms (not subsampled), else null. */
  static LossAtoms atomsOrNull(PrivacyLoss event) {
    if (event instanceof PoissonSubsampled) {
      return null;
    }
    try {
      return pair(event) instanceof LossAtoms a ? a : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static DominatingPair pair(PrivacyLoss event) {
    if (event instanceof MechanismLoss m) {
      return m.dominatingPair();
    }
    if (event instanceof PureDp p) {
      return LossAtoms.approxDp(p.epsilon(), 0.0);
    }
    if (event instanceof ApproxDp a) {
      return LossAtoms.approxDp(a.epsilon(), a.delta());
    }
    throw new IllegalArgumentException(
        "PldAccountant does not support events of type " + event.getClass().getSimpleName()
            + " (zCDP and RDP curves have no privacy loss distribution)");
  }

  // ---------------------------------------------------------------- discretisation

  static DiscretePld fromAtoms(LossAtoms atoms, double interval) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    double inf = 0.0;
    for (int i = 0; i < atoms.size; i++) {
      double l = atoms.loss[i];
      if (atoms.p[i] <= 0) {
        continue;
      }
      if (l == Double.POSITIVE_INFINITY) {
        inf += atoms.p[i];
      } else if (l != Double.NEGATIVE_INFINITY) {
        min = Math.min(min, l);
        max = Math.max(max, l);
      }
    }
    if (min == Double.POSITIVE_INFINITY) {
      return new DiscretePld(interval, 0, new double[] {0.0}, UpwardRounding.up(inf));
    }
    long jlo = (long) Math.floor(min / interval);
    long jhi = (long) Math.floor(max / interval) + 1;
    int n = nodes(jlo, jhi);
    double[] masses = new double[n];
    double denominator = -Math.expm1(-interval);
    for (int i = 0; i < atoms.size; i++) {
      double l = atoms.loss[i];
      double p = atoms.p[i];
      if (p <= 0 || Double.isInfinite(l)) {
        continue;
      }
      long j = (long) Math.floor(l / interval);
      int k = (int) (j - jlo);
      double d = Math.min(interval, Math.max(0.0, l - j * interval));
      double up = Math.min(p, p * (-Math.expm1(-d)) / denominator * (1 + 1e-12));
      masses[k] += p - up;
      masses[k + 1] += up;
    }
    return new DiscretePld(interval, jlo, masses, UpwardRounding.up(inf));
  }

  static DiscretePld fromTails(LossTails t, double interval, double tail) {
    double hi = t.maxLoss();
    if (Double.isInfinite(hi)) {
      hi = searchUpper(t, tail);
    }
    double lo = t.minLoss();
    if (Double.isInfinite(lo)) {
      lo = searchLower(t, tail);
    }
    long jlo = (long) Math.floor(lo / interval);
    // A finite top loss may be an atom (Laplace): keep it strictly inside the last interval.
    long jhi =
        Math.max(
            jlo + 1,
            Double.isInfinite(t.maxLoss()) ? (long) Math.ceil(hi / interval) : (long) Math.floor(hi / interval) + 1);
    int n = nodes(jlo, jhi);
    double[] masses = new double[n];
    masses[0] += t.pLower(jlo * interval);
    double denominator = -Math.expm1(-interval);
    for (int k = 0; k < n - 1; k++) {
      double a = (jlo + k) * interval;
      double b = (jlo + k + 1) * interval;
      double p = t.pInterval(a, b);
      if (p <= 0) {
        continue;
      }
      double q = t.qInterval(a, b);
      double up = (p - Math.exp(a) * q) / denominator;
      up = Math.min(p, Math.max(0.0, up) + SPLIT_BIAS * p);
      masses[k] += p - up;
      masses[k + 1] += up;
    }
    double inf = t.pUpper(jhi * interval);
    return new DiscretePld(interval, jlo, masses, UpwardRounding.up(inf));
  }

  private static int nodes(long jlo, long jhi) {
    long n = jhi - jlo + 1;
    if (n > MAX_NODES) {
      throw new IllegalArgumentException(
          "discretisation interval too fine for this mechanism (" + n
              + " grid points); use a larger value discretisation interval");
    }
    return (int) n;
  }

  /** A loss l with P(L ≥ l) ≤ tail (bisection keeps that invariant on its upper end). */
  private static double searchUpper(LossTails t, double tail) {
    double lo = 0.0;
    double hi = 1.0;
    while (t.pUpper(hi) > tail) {
      lo = hi;
      hi *= 2;
      if (hi > 1e6) {
        throw new IllegalArgumentException("privacy loss tail too heavy to truncate");
      }
    }
    for (int i = 0; i < 60; i++) {
      double mid = 0.5 * (lo + hi);
      if (t.pUpper(mid) > tail) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  /** A loss l with P(L &lt; l) ≤ tail (bisection keeps that invariant on its lower end). */
  private static double searchLower(LossTails t, double tail) {
    double hi = 0.0;
    double lo = -1.0;
    while (t.pLower(lo) > tail) {
      hi = lo;
      lo *= 2;
      if (lo < -1e6) {
        throw new IllegalArgumentException("privacy loss tail too heavy to truncate");
      }
    }
    for (int i = 0; i < 60; i++) {
      double mid = 0.5 * (lo + hi);
      if (t.pLower(mid) > tail) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return lo;
  }

  // ---------------------------------------------------------------- subsampling

  /** g(ℓ) = ln(1 − q + q·e^ℓ): the remove-direction loss of a Poisson-subsampled pair. */
  static double subsampledLoss(double l, double q) {
    if (l == Double.NEGATIVE_INFINITY) {
      return Math.log1p(-q);
    }
    if (l == Double.POSITIVE_INFINITY) {
      return l;
    }
    if (l > 0) {
      return l + Math.log(q + (1 - q) * Math.exp(-l));
    }
    return Math.log1p(q * Math.expm1(l));
  }

  /** g⁻¹(l) = ln((e^l − 1 + q)/q), −∞ when l ≤ ln(1 − q). */
  static double subsampledLossInverse(double l, double q) {
    if (l == Double.POSITIVE_INFINITY) {
      return l;
    }
    if (l > 1) {
      return l + Math.log1p(-(1 - q) * Math.exp(-l)) - Math.log(q);
    }
    double v = Math.expm1(l) + q;
    return v <= 0 ? Double.NEGATIVE_INFINITY : Math.log(v / q);
  }

  /** Tails of the Poisson-subsampled pair built from a base pair's loss tails. */
  static final class Subsampled implements LossTails {
    private final LossTails base;
    private final double q;
    private final boolean remove;

    Subsampled(LossTails base, double q, boolean remove) {
      this.base = base;
      this.q = q;
      this.remove = remove;
    }

    @Override
    public double pUpper(double l) {
      if (remove) {
        double t = subsampledLossInverse(l, q);
        return (1 - q) * base.qUpper(t) + q * base.pUpper(t);
      }
      double t = subsampledLossInverse(-l, q);
      return base.qLower(t);
    }

    @Override
    public double pLower(double l) {
      if (remove) {
        double t = subsampledLossInverse(l, q);
        return (1 - q) * base.qLower(t) + q * base.pLower(t);
      }
      double t = subsampledLossInverse(-l, q);
      return base.qUpper(t);
    }

    @Override
    public double qUpper(double l) {
      if (remove) {
        return base.qUpper(subsampledLossInverse(l, q));
      }
      double t = subsampledLossInverse(-l, q);
      return (1 - q) * base.qLower(t) + q * base.pLower(t);
    }

    @Override
    public double qLower(double l) {
      if (remove) {
        return base.qLower(subsampledLossInverse(l, q));
      }
      double t = subsampledLossInverse(-l, q);
      return (1 - q) * base.qUpper(t) + q * base.pUpper(t);
    }

    @Override
    public double minLoss() {
      return remove ? subsampledLoss(base.minLoss(), q) : -subsampledLoss(base.maxLoss(), q);
    }

    @Override
    public double maxLoss() {
      return remove ? subsampledLoss(base.maxLoss(), q) : -subsampledLoss(base.minLoss(), q);
    }
  }
}
