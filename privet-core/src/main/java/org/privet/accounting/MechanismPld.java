package org.privet.accounting;

import java.util.Arrays;
import org.privet.math.Normal;

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
      LossTails baseTails = tails(s.base());
      if (baseTails != null) {
        return fromTails(q == 1 ? baseTails : new Subsampled(baseTails, q, remove), interval, tail);
      }
      Atoms base = atoms(s.base());
      return fromAtoms(q == 1 ? base : base.subsample(q, remove), interval);
    }
    LossTails t = tails(event);
    if (t != null) {
      return fromTails(t, interval, tail);
    }
    return fromAtoms(atoms(event), interval);
  }

  private static LossTails tails(PrivacyLoss event) {
    if (event instanceof MechanismLoss.Gaussian g) {
      return new GaussianTails(g.noiseMultiplier());
    }
    if (event instanceof MechanismLoss.Laplace l) {
      return new LaplaceTails(l.noiseMultiplier());
    }
    return null;
  }

  private static Atoms atoms(PrivacyLoss event) {
    if (event instanceof PureDp p) {
      return Atoms.randomizedResponse(p.epsilon(), 2);
    }
    if (event instanceof ApproxDp a) {
      return Atoms.approx(a.epsilon(), a.delta());
    }
    if (event instanceof MechanismLoss.RandomizedResponse r) {
      return Atoms.randomizedResponse(r.epsilon(), r.categories());
    }
    if (event instanceof MechanismLoss.DiscreteLaplace d) {
      return Atoms.discreteLaplace(d.scale(), d.sensitivity());
    }
    if (event instanceof MechanismLoss.DiscreteGaussian d) {
      return Atoms.discreteGaussian(d.sigma(), d.sensitivity());
    }
    throw new IllegalArgumentException(
        "PldAccountant does not support events of type " + event.getClass().getSimpleName()
            + " (zCDP and RDP curves have no privacy loss distribution)");
  }

  // ---------------------------------------------------------------- discretisation

  static DiscretePld fromAtoms(Atoms atoms, double interval) {
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

  // ---------------------------------------------------------------- continuous mechanisms

  /**
   * Gaussian with noise multiplier σ: under P the loss is N(1/(2σ²), 1/σ²), under Q N(−1/(2σ²),
   * 1/σ²) (Balle &amp; Wang 2018, Lemma 3; Dong, Roth, Su 2019).
   */
  static final class GaussianTails implements LossTails {
    private final double mean;
    private final double scale;

    GaussianTails(double sigma) {
      this.mean = 0.5 / (sigma * sigma);
      this.scale = Math.sqrt(2.0) / sigma;
    }

    @Override
    public double pUpper(double l) {
      return 0.5 * Normal.erfc((l - mean) / scale);
    }

    @Override
    public double pLower(double l) {
      return 0.5 * Normal.erfc((mean - l) / scale);
    }

    @Override
    public double qUpper(double l) {
      return 0.5 * Normal.erfc((l + mean) / scale);
    }

    @Override
    public double qLower(double l) {
      return 0.5 * Normal.erfc((-mean - l) / scale);
    }

    @Override
    public double minLoss() {
      return Double.NEGATIVE_INFINITY;
    }

    @Override
    public double maxLoss() {
      return Double.POSITIVE_INFINITY;
    }
  }

  /**
   * Laplace with scale b (sensitivity 1): P = Lap(0, b), Q = Lap(1, b), loss (|x − 1| − |x|)/b,
   * non-increasing in x, with atoms at ±1/b.
   */
  static final class LaplaceTails implements LossTails {
    private final double b;
    private final double max;

    LaplaceTails(double b) {
      this.b = b;
      this.max = 1.0 / b;
    }

    private double cdf(double x) {
      return x < 0 ? 0.5 * Math.exp(x / b) : 1 - 0.5 * Math.exp(-x / b);
    }

    private double survival(double x) {
      return x >= 0 ? 0.5 * Math.exp(-x / b) : 1 - 0.5 * Math.exp(x / b);
    }

    private double threshold(double l) {
      return (1 - l * b) / 2;
    }

    @Override
    public double pUpper(double l) {
      return l > max ? 0 : l <= -max ? 1 : cdf(threshold(l));
    }

    @Override
    public double pLower(double l) {
      return l > max ? 1 : l <= -max ? 0 : survival(threshold(l));
    }

    @Override
    public double qUpper(double l) {
      return l > max ? 0 : l <= -max ? 1 : cdf(threshold(l) - 1);
    }

    @Override
    public double qLower(double l) {
      return l > max ? 1 : l <= -max ? 0 : survival(threshold(l) - 1);
    }

    @Override
    public double minLoss() {
      return -max;
    }

    @Override
    public double maxLoss() {
      return max;
    }
  }

  // ---------------------------------------------------------------- discrete mechanisms

  /** A finite list of privacy loss atoms with their masses under P and Q. */
  static final class Atoms {
    final double[] loss;
    final double[] p;
    final double[] q;
    final int size;

    Atoms(double[] loss, double[] p, double[] q) {
      this.loss = loss;
      this.p = p;
      this.q = q;
      this.size = loss.length;
    }

    static Atoms randomizedResponse(double eps, int k) {
      if (eps == 0) {
        return new Atoms(new double[] {0}, new double[] {1}, new double[] {1});
      }
      // D = e^ε + k − 1; written with e^{−ε} to avoid overflow.
      double em = Math.exp(-eps);
      double dTop = 1 + (k - 1) * em; // D·e^{−ε}
      double high = 1 / dTop;
      double low = em / dTop;
      double mid = (k - 2) * em / dTop;
      return new Atoms(
          new double[] {eps, 0.0, -eps}, new double[] {high, mid, low}, new double[] {low, mid, high});
    }

    static Atoms approx(double eps, double delta) {
      Atoms rr = randomizedResponse(eps, 2);
      double keep = 1 - delta;
      double[] loss = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, eps, -eps};
      double[] p = {delta, 0, keep * rr.p[0], keep * rr.p[2]};
      double[] q = {0, delta, keep * rr.q[0], keep * rr.q[2]};
      if (eps == 0) {
        return new Atoms(
            new double[] {loss[0], loss[1], 0.0}, new double[] {delta, 0, keep}, new double[] {0, delta, keep});
      }
      return new Atoms(loss, p, q);
    }

    static Atoms discreteLaplace(double t, long sensitivity) {
      if (sensitivity > 10_000_000) {
        throw new IllegalArgumentException("sensitivity too large for the PLD accountant: " + sensitivity);
      }
      int middle = (int) (sensitivity - 1);
      double[] loss = new double[middle + 2];
      double[] p = new double[middle + 2];
      double[] q = new double[middle + 2];
      double e1 = Math.exp(-1 / t);
      double c = (1 - e1) / (1 + e1);
      double side = 1 / (1 + e1);
      double far = Math.exp(-sensitivity / t) / (1 + e1);
      loss[0] = sensitivity / t;
      p[0] = side;
      q[0] = far;
      loss[1] = -sensitivity / t;
      p[1] = far;
      q[1] = side;
      for (int x = 1; x <= middle; x++) {
        loss[x + 1] = (sensitivity - 2.0 * x) / t;
        p[x + 1] = c * Math.exp(-x / t);
        q[x + 1] = c * Math.exp(-(sensitivity - x) / t);
      }
      return new Atoms(loss, p, q);
    }

    static Atoms discreteGaussian(double sigma, long sensitivity) {
      long k = (long) Math.ceil(39 * sigma) + 1;
      long count = 2 * k + sensitivity + 1;
      if (count > 20_000_000L) {
        throw new IllegalArgumentException(
            "sigma/sensitivity too large for the PLD accountant's discrete Gaussian: sigma=" + sigma);
      }
      double twoVar = 2 * sigma * sigma;
      double z = 1;
      for (long x = 1; x <= k + sensitivity + 1; x++) {
        z += 2 * Math.exp(-(double) x * x / twoVar);
      }
      int n = (int) count;
      double[] loss = new double[n];
      double[] p = new double[n];
      double[] q = new double[n];
      double s = sensitivity;
      for (int i = 0; i < n; i++) {
        double x = -k + i;
        loss[i] = (s * s - 2 * x * s) / twoVar;
        p[i] = Math.exp(-x * x / twoVar) / z;
        q[i] = Math.exp(-(x - s) * (x - s) / twoVar) / z;
      }
      return new Atoms(loss, p, q);
    }

    /** The atoms of the Poisson-subsampled pair in the given direction. */
    Atoms subsample(double rate, boolean remove) {
      double[] l2 = new double[size];
      double[] p2 = new double[size];
      double[] q2 = new double[size];
      for (int i = 0; i < size; i++) {
        double mix = (1 - rate) * q[i] + rate * p[i];
        double g = subsampledLoss(loss[i], rate);
        if (remove) {
          l2[i] = g;
          p2[i] = mix;
          q2[i] = q[i];
        } else {
          l2[i] = -g;
          p2[i] = q[i];
          q2[i] = mix;
        }
      }
      return new Atoms(l2, p2, q2);
    }

    @Override
    public String toString() {
      return "Atoms" + Arrays.toString(loss);
    }
  }
}
