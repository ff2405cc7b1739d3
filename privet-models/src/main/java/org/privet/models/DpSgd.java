package org.privet.models;

import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.NoiseCalibration;
import org.privet.accounting.PoissonSubsampled;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.pld.PldAccountant;
import org.privet.random.RandomSource;

/**
 * Logistic regression by DP-SGD (Abadi, Chu, Goodfellow, McMahan, Mironov, Talwar, Zhang 2016,
 * "Deep learning with differential privacy", CCS, Algorithm 1) at the level of privacy units: each
 * of T steps samples every unit independently with probability q = num/2<sup>60</sup> (Poisson
 * subsampling, by a keyed hash: SHA-256 of a fresh secret salt from the curator's source and the
 * unit's text, below {@link #thresholdHex}), computes each sampled unit's gradient over all its kept
 * rows (weights summing to 1) and clips it to ℓ2 norm C, sums on the 2<sup>−20</sup> grid, and adds
 * Gaussian noise of σ = z·C per coordinate ({@link DitheredGaussian}). The sample, clip and sum are
 * one aggregate statement per step on the dataset's backend ({@link BackendTraining#dpSgd}); the
 * noise ({@link #release}) and the update are here. The update is Adam on the noisy sums (Kingma
 * &amp; Ba 2015; scale-free, so it needs no private count), and the released θ is the average of the
 * iterates of the second half: both post-processing. The keyed sample makes the guarantee
 * computational (SHA-256 with a secret prefix assumed a PRF; docs/proofs/dp-models.md, "DP-SGD").
 *
 * <p>Privacy (docs/proofs/dp-models.md, "DP-SGD"): T adaptive compositions of the Poisson-
 * subsampled Gaussian mechanism with noise multiplier z under add/remove-one-unit neighbours,
 * composed by the project's PLD accountant ({@link PldAccountant}; the same events that
 * {@code privet account --mechanism gaussian --noise-multiplier z --sampling-rate q --steps T}
 * composes), at δ' = 0.98·δ; the dithered noise's transfer gap adds 2T·gap to ε and its tails
 * the remaining δ. z is the smallest (to 10<sup>−3</sup>) that meets the target, bracketed by a
 * search on a coarse grid first ({@link #calibrate}: speed only).
 *
 * <p>Decisions (fixed defaults, never tuned on private data): q = 0.01, T = 1000, C = 1, Adam with
 * learning rate 0.05, β = (0.9, 0.999). Immutable.
 */
public final class DpSgd {
  static final int RATE_BITS = 60;

  private final double epsilon;
  private final double delta;
  private final double samplingRate;
  private final long rateNumerator;
  private final int steps;
  private final double clip;
  private final double learningRate;
  private final double noiseMultiplier;
  private final double deltaAccountant;
  private final double epsilonAccountant;
  private final DitheredGaussian noise;
  private final double epsilonCertified;
  private final double deltaCertified;
  private final double tailX;
  private final double gap;
  private final Double pldInterval;
  private final double searchTarget;

  private DpSgd(Builder b) {
    this.epsilon = ObjectivePerturbation.requireEpsilon(b.epsilon);
    if (!(b.delta > 0 && b.delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1) for DP-SGD, was " + b.delta);
    }
    this.delta = b.delta;
    if (!(b.samplingRate > 0 && b.samplingRate <= 1)) {
      throw new IllegalArgumentException("sampling-rate must be in (0, 1], was " + b.samplingRate);
    }
    this.rateNumerator = (long) Math.floor(Math.scalb(b.samplingRate, RATE_BITS));
    if (rateNumerator < 1) {
      throw new IllegalArgumentException("sampling-rate is too small, was " + b.samplingRate);
    }
    this.samplingRate = Math.scalb((double) rateNumerator, -RATE_BITS);
    if (b.steps < 1 || b.steps > 100_000) {
      throw new IllegalArgumentException("steps must be in [1, 100000], was " + b.steps);
    }
    this.steps = b.steps;
    if (!(b.clip > 0) || !Double.isFinite(b.clip)) {
      throw new IllegalArgumentException("clip must be positive and finite, was " + b.clip);
    }
    this.clip = b.clip;
    if (!(b.learningRate > 0) || !Double.isFinite(b.learningRate)) {
      throw new IllegalArgumentException("learning-rate must be positive and finite, was " + b.learningRate);
    }
    this.learningRate = b.learningRate;
    if (b.dimension < 1) {
      throw new IllegalArgumentException("dimension must be positive");
    }
    this.deltaAccountant = 0.98 * delta;
    this.tailX = Math.log(steps * (1 + Math.exp(epsilon + 1)) / (0.01 * delta));
    DitheredGaussian smallest = new DitheredGaussian(1.0);
    double gapBound = smallest.logDensityGap(b.dimension, tailX);
    double target = epsilon - 2 * steps * gapBound;
    this.pldInterval = b.pldInterval;
    PldAccountant pld = accountant();
    this.searchTarget = target;
    this.noiseMultiplier = calibrate(pld, target);
    this.epsilonAccountant = pld.compose(events(noiseMultiplier), deltaAccountant).epsilon();
    this.noise = new DitheredGaussian(noiseMultiplier * clip);
    this.gap = noise.logDensityGap(b.dimension, tailX);
    this.epsilonCertified = epsilonAccountant + 2 * steps * gap;
    this.deltaCertified = deltaAccountant * Math.exp(steps * gap)
        + steps * Math.exp(-tailX) * (1 + Math.exp(epsilonAccountant + steps * gap));
    if (!(epsilonCertified <= epsilon) || !(deltaCertified <= delta)) {
      throw new IllegalStateException("DP-SGD calibration failed: (" + epsilonCertified + ", " + deltaCertified
          + ") exceeds (" + epsilon + ", " + delta + ")");
    }
  }

  private DpSgd(DpSgd o, DitheredGaussian weaker) {
    this.epsilon = o.epsilon;
    this.delta = o.delta;
    this.samplingRate = o.samplingRate;
    this.rateNumerator = o.rateNumerator;
    this.steps = o.steps;
    this.clip = o.clip;
    this.learningRate = o.learningRate;
    this.noiseMultiplier = o.noiseMultiplier;
    this.deltaAccountant = o.deltaAccountant;
    this.epsilonAccountant = o.epsilonAccountant;
    this.noise = weaker;
    this.epsilonCertified = o.epsilonCertified;
    this.deltaCertified = o.deltaCertified;
    this.tailX = o.tailX;
    this.gap = o.gap;
    this.pldInterval = o.pldInterval;
    this.searchTarget = o.searchTarget;
  }

  /** The accountant's ε target: ε less the transfer terms' 2T·gap bound. */
  double searchTarget() {
    return searchTarget;
  }

  /** The loss-value interval of the calibration's first search (coarse: fast; it rounds toward more loss). */
  static final double SEARCH_INTERVAL = 1e-3;

  /**
   * The smallest noise multiplier (to 10<sup>−3</sup>, relative) that meets {@code target} under
   * {@code pld}, as {@link NoiseCalibration#noiseMultiplier} finds it, with fewer compositions on
   * the fine grid: a first search on a fixed grid of {@link #SEARCH_INTERVAL} (whose ε is an upper
   * bound too, since the PLD accountant rounds each loss up) brackets the answer from above, and
   * the fine accountant then bisects from that bracket (0.5% wide where the coarse grid is close, as
   * at large ε where fine compositions are slow; stepping down when it is not). Every decision and
   * the stated ε are the fine accountant's; only the number of compositions changes.
   */
  private double calibrate(PldAccountant pld, double target) {
    if (pldInterval != null) {
      return NoiseCalibration.noiseMultiplier(pld, this::events, target, deltaAccountant, 1e-3);
    }
    PldAccountant coarse = PldAccountant.builder().valueDiscretizationInterval(SEARCH_INTERVAL).build();
    double hi = NoiseCalibration.noiseMultiplier(coarse, this::events, target, deltaAccountant, 1e-3);
    if (!meets(pld, hi, target)) {
      return NoiseCalibration.noiseMultiplier(pld, this::events, target, deltaAccountant, 1e-3);
    }
    double lo = hi / 1.005;
    for (int guard = 0; meets(pld, lo, target); guard++) {
      hi = lo;
      lo /= 1.25;
      if (guard > 200) {
        return hi;
      }
    }
    while (hi - lo > 1e-3 * hi) {
      double mid = 0.5 * (lo + hi);
      if (meets(pld, mid, target)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  private boolean meets(PldAccountant pld, double z, double target) {
    return pld.compose(events(z), deltaAccountant).epsilon() <= target;
  }

  /** The PLD accountant: the default adaptive grid, or a fixed loss-value interval if one was given. */
  PldAccountant accountant() {
    return pldInterval == null ? new PldAccountant()
        : PldAccountant.builder().valueDiscretizationInterval(pldInterval).build();
  }

  /** A copy whose noise is {@code factor} times smaller (audit power tests only). */
  DpSgd withLessNoiseForAudit(double factor) {
    return new DpSgd(this, new DitheredGaussian(noise.sigma() / factor));
  }

  /**
   * The δ this mechanism states at ε' (its privacy profile): the PLD accountant's δ at
   * ε' − 2T·gap, times e<sup>T·gap</sup>, plus the transfer tails.
   */
  double claimedDelta(double epsilonPrime) {
    double ideal = accountant().delta(events(noiseMultiplier), epsilonPrime - 2 * steps * gap);
    return Math.min(1.0, ideal * Math.exp(steps * gap) * (1 + 1e-9)
        + steps * Math.exp(-tailX) * (1 + Math.exp(epsilonPrime)));
  }

  /** The T subsampled Gaussian events for noise multiplier z (the accountant's input). */
  List<? extends PrivacyLoss> events(double z) {
    return Collections.nCopies(steps, new PoissonSubsampled(new MechanismLoss.Gaussian(z), samplingRate));
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The requested (ε, δ), certified by the PLD accountant plus the noise's transfer terms. */
  public ApproxDp privacyLoss() {
    return new ApproxDp(epsilon, delta);
  }

  /** The calibrated noise multiplier z. */
  public double noiseMultiplier() {
    return noiseMultiplier;
  }

  /** The PLD accountant's ε for the T events at δ' (what {@code privet account} prints). */
  public double accountantEpsilon() {
    return epsilonAccountant;
  }

  /** δ' = 0.98·δ, the δ the accountant is asked at. */
  public double accountantDelta() {
    return deltaAccountant;
  }

  /** The exact sampling rate used (q rounded down to a multiple of 2^−60; the keyed sample's exact rate). */
  public double samplingRate() {
    return samplingRate;
  }

  public int steps() {
    return steps;
  }

  /** The privacy statement for the model file. */
  public Map<String, Object> statement() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mechanism", "DP-SGD (Abadi et al. 2016), Poisson subsampling of units, per-unit clipping,"
        + " PLD accountant");
    m.put("epsilon", epsilon);
    m.put("delta", delta);
    m.put("epsilon_certified", epsilonCertified);
    m.put("delta_certified", deltaCertified);
    m.put("accountant", pldInterval == null ? "pld" : "pld (value interval " + pldInterval + ")");
    m.put("accountant_epsilon", epsilonAccountant);
    m.put("accountant_delta", deltaAccountant);
    m.put("noise_multiplier", noiseMultiplier);
    m.put("sampling_rate", samplingRate);
    m.put("steps", steps);
    m.put("clip", clip);
    m.put("learning_rate", learningRate);
    m.put("sampling", "Poisson by keyed hash on the dataset's backend: a unit is sampled iff the first 64 bits"
        + " of SHA-256(fresh secret salt per step || unit text) are below sampling_rate * 2^64; computational"
        + " DP, assuming SHA-256 with a secret prefix is a pseudorandom function");
    m.put("sum_grid", "2^-" + SUM_BITS);
    return m;
  }

  /** Bits of the released sums' grid: each clipped gradient coordinate is a multiple of 2^−K. */
  static final int SUM_BITS = Feature.GRID_BITS;
  /** The clip's relative margin for floating-point rounding: units are clipped to C·(1 − 2^−30). */
  static final double CLIP_MARGIN = 0x1p-30;
  /** |margin| beyond which the logistic's exponent is clamped (exp stays normal on every backend). */
  static final double MAX_EXPONENT = 700;
  /** Hex digits of a step's secret salt: 32 random bytes, exactly one SHA-256 block as text. */
  static final int SALT_HEX_DIGITS = 64;

  /**
   * One step's exact sum, where the data lives: for θ and the step's secret salt, the integers
   * Σ<sub>sampled units</sub> V<sub>u</sub> (units of 2^−{@value #SUM_BITS}) of the sampled units'
   * clipped gradients, as {@link BackendTraining#dpSgd} renders them in SQL.
   */
  interface StepSums {
    BigInteger[] sums(double[] theta, String salt);
  }

  /** A fresh secret salt from {@code random} (the curator's secure source): 64 lowercase hex digits. */
  static String salt(RandomSource random) {
    StringBuilder b = new StringBuilder(SALT_HEX_DIGITS);
    for (int i = 0; i < SALT_HEX_DIGITS / 16; i++) {
      b.append(String.format("%016x", random.nextLong()));
    }
    return b.toString();
  }

  /**
   * The sampling threshold as 16 lowercase hex digits: a unit is sampled iff the first 64 bits of
   * its keyed digest, unsigned, are below t = num·2^4 (num/2^60 the sampling rate, so that t/2^64
   * equals {@link #samplingRate()} exactly); null when q = 1 (every unit).
   */
  String thresholdHex() {
    if (rateNumerator == 1L << RATE_BITS) {
      return null;
    }
    return String.format("%016x", rateNumerator << (64 - RATE_BITS));
  }

  /** C·(1 − 2^−30): the clip applied, so that rounding never leaves a unit's release above C. */
  double clipBound() {
    return clip * (1 - CLIP_MARGIN);
  }

  /** The clip C. */
  double clip() {
    return clip;
  }

  /** One step's release: the exact sums times 2^−K, plus noise of σ = z·C per coordinate. */
  double[] release(BigInteger[] sums, RandomSource random) {
    double[] out = new double[sums.length];
    for (int j = 0; j < sums.length; j++) {
      out[j] = Math.scalb(new java.math.BigDecimal(sums[j]).doubleValue(), -SUM_BITS) + noise.sample(random);
    }
    return out;
  }

  /**
   * Trains (after the charge); total. Each step draws a fresh salt from {@code random}, asks
   * {@code step} for the sampled units' clipped sums at θ, adds the noise, and takes an Adam step.
   */
  Model train(FeatureEncoder encoder, Label.Binary label, StepSums step, RandomSource random) {
    int d = encoder.dimension();
    double[] theta = new double[d];
    double[] avg = new double[d];
    int averaged = 0;
    double[] m1 = new double[d];
    double[] m2 = new double[d];
    double b1 = 0.9;
    double b2 = 0.999;
    for (int t = 1; t <= steps; t++) {
      double[] noisy = release(step.sums(theta.clone(), salt(random)), random);
      for (int j = 0; j < d; j++) {
        m1[j] = b1 * m1[j] + (1 - b1) * noisy[j];
        m2[j] = b2 * m2[j] + (1 - b2) * noisy[j] * noisy[j];
        double mh = m1[j] / (1 - Math.pow(b1, t));
        double vh = m2[j] / (1 - Math.pow(b2, t));
        theta[j] -= learningRate * mh / (Math.sqrt(vh) + 1e-8);
      }
      if (2 * t > steps) {
        averaged++;
        for (int j = 0; j < d; j++) {
          avg[j] += (theta[j] - avg[j]) / averaged;
        }
      }
    }
    return Model.logistic("dp-sgd", encoder, label, avg, statement());
  }

  /** Validating builder: defaults q = 0.01, T = 1000, C = 1, learning rate 0.05. */
  public static final class Builder {
    private double epsilon = Double.NaN;
    private double delta = Double.NaN;
    private double samplingRate = 0.01;
    private int steps = 1000;
    private double clip = 1.0;
    private double learningRate = 0.05;
    private int dimension;
    private Double pldInterval;

    /**
     * A fixed PLD loss-value interval (as {@code privet account --value-discretization-interval});
     * default: the accountant's adaptive grid. Coarser is faster and still an upper bound.
     */
    public Builder pldInterval(double v) {
      this.pldInterval = v;
      return this;
    }

    public Builder epsilon(double v) {
      this.epsilon = v;
      return this;
    }

    public Builder delta(double v) {
      this.delta = v;
      return this;
    }

    public Builder samplingRate(double v) {
      this.samplingRate = v;
      return this;
    }

    public Builder steps(int v) {
      this.steps = v;
      return this;
    }

    public Builder clip(double v) {
      this.clip = v;
      return this;
    }

    public Builder learningRate(double v) {
      this.learningRate = v;
      return this;
    }

    public Builder dimension(int v) {
      this.dimension = v;
      return this;
    }

    public DpSgd build() {
      return new DpSgd(this);
    }
  }
}
