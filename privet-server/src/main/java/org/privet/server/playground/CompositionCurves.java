package org.privet.server.playground;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.accounting.Accountant;
import org.privet.accounting.AdvancedCompositionAccountant;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.PoissonSubsampled;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.RdpAccountant;
import org.privet.accounting.RdpCurve;
import org.privet.accounting.Subsampling;
import org.privet.accounting.ZcdpAccountant;
import org.privet.accounting.pld.PldAccountant;

/**
 * The playground's composition view: the total ε at a target δ after k runs of one mechanism,
 * under each of privet-core's accountants, all on one chart. Every number is the accountant's own
 * {@link Accountant#compose} answer; nothing is recomputed here.
 *
 * <ul>
 *   <li>The mechanism is Laplace with ε₀ = {@code param} (noise multiplier 1/ε₀), or Gaussian with
 *       noise multiplier σ = {@code param}, each run on a Poisson subsample of rate q.
 *   <li>zCDP, RDP and PLD compose the mechanism's exact description ({@link MechanismLoss}, wrapped
 *       in {@link PoissonSubsampled} when q &lt; 1), which is what those accountants are for.
 *   <li>Basic and advanced composition need an (ε₀, δ₀) per run: the pure ε₀ for Laplace; for the
 *       Gaussian its exact ε at δ₀ = δ/(2k) (Balle–Wang profile, {@link MechanismLoss.Gaussian#epsilon}),
 *       leaving half the target δ for advanced composition's slack. Subsampling then amplifies that
 *       (ε₀, δ₀) with {@link Subsampling#poisson}.
 * </ul>
 *
 * An accountant that refuses an event type (for example zCDP for a subsampled mechanism, which has
 * no zCDP reading) gives no curve, and its reason is reported.
 */
record CompositionCurves(String mechanism, double param, double samplingRate, double delta, int maxK) {
  static final List<String> ACCOUNTANTS = List.of("basic", "advanced", "zcdp", "rdp", "pld");
  /** The PLD grid for an interactive chart: coarser than the default (about 0.05% looser at k = 186), still an upper bound. */
  static final double PLD_INTERVAL = 1e-2;
  static final double MAX_LAPLACE_EPSILON = 2;
  /** The largest k for which the open playground computes the PLD curve. */
  static final int MAX_PLD_K = 200;
  static final double MIN_GAUSSIAN_SIGMA = 0.5;
  static final double MAX_GAUSSIAN_SIGMA = 100;

  CompositionCurves {
    if (!mechanism.equals("laplace") && !mechanism.equals("gaussian")) {
      throw new IllegalArgumentException("mechanism must be laplace or gaussian, was " + mechanism);
    }
    // Bounds that keep the PLD grid (and so each request's work) small: the playground is open.
    if (mechanism.equals("laplace") && !(param > 0 && param <= MAX_LAPLACE_EPSILON)) {
      throw new IllegalArgumentException("param: the Laplace epsilon per run must be in (0, " + MAX_LAPLACE_EPSILON + "]");
    }
    if (mechanism.equals("gaussian") && !(param >= MIN_GAUSSIAN_SIGMA && param <= MAX_GAUSSIAN_SIGMA)) {
      throw new IllegalArgumentException("param: the Gaussian noise multiplier must be in [" + MIN_GAUSSIAN_SIGMA
          + ", " + MAX_GAUSSIAN_SIGMA + "]");
    }
  }

  /** One accountant's curve: ε at each k (null where it refused), or the reason it refused. */
  record Curve(String accountant, List<Double> epsilons, String refusal) {}

  MechanismLoss base() {
    return mechanism.equals("laplace") ? new MechanismLoss.Laplace(1 / param) : new MechanismLoss.Gaussian(param);
  }

  /** About 12 values of k from 1 to maxK, roughly evenly spaced on a log scale. */
  static List<Integer> ks(int maxK) {
    List<Integer> ks = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      int k = (int) Math.round(Math.pow(maxK, i / 11.0));
      if (ks.isEmpty() || k > ks.get(ks.size() - 1)) {
        ks.add(k);
      }
    }
    if (ks.get(ks.size() - 1) != maxK) {
      ks.add(maxK);
    }
    return ks;
  }

  /** The per-run event each accountant composes k times. */
  PrivacyLoss event(String accountant, int k) {
    MechanismLoss base = base();
    boolean sampled = samplingRate < 1;
    if (accountant.equals("basic") || accountant.equals("advanced")) {
      ApproxDp perRun;
      if (base instanceof MechanismLoss.Gaussian g) {
        double d0 = delta / (2.0 * k);
        perRun = new ApproxDp(g.epsilon(d0), d0);
      } else {
        perRun = new ApproxDp(base.pureEpsilon(), 0);
      }
      return sampled ? Subsampling.poisson(perRun, samplingRate) : perRun;
    }
    return sampled ? new PoissonSubsampled(base, samplingRate) : base;
  }

  static Accountant accountant(String name) {
    return switch (name) {
      case "basic" -> BasicAccountant.INSTANCE;
      case "advanced" -> AdvancedCompositionAccountant.INSTANCE;
      case "zcdp" -> ZcdpAccountant.INSTANCE;
      case "rdp" -> new RdpAccountant();
      case "pld" -> PldAccountant.builder().valueDiscretizationInterval(PLD_INTERVAL).build();
      default -> throw new IllegalArgumentException("unknown accountant " + name);
    };
  }

  /** ε after k runs under {@code accountant}, as that accountant composes it. */
  double epsilon(String accountant, int k) {
    return accountant(accountant).compose(Collections.nCopies(k, event(accountant, k)), delta).epsilon();
  }

  /**
   * The RDP accountant's ε after k runs, from the one run's RDP curve composed k times: the
   * accountant adds curves order by order either way (Mironov 2017, Prop. 1), so this equals
   * {@code epsilon("rdp", k)} while computing the subsampled Gaussian's curve once, not k times.
   */
  static double rdpEpsilon(RdpCurve oneRun, int k, double delta) {
    return new RdpAccountant().compose(Collections.nCopies(k, oneRun), delta).epsilon();
  }

  Map<String, Curve> curves() {
    List<Integer> ks = ks(maxK);
    Map<String, Curve> out = new LinkedHashMap<>();
    for (String a : ACCOUNTANTS) {
      List<Double> eps = new ArrayList<>();
      String refusal = null;
      RdpCurve oneRun = null;
      for (int k : ks) {
        try {
          if (a.equals("pld") && k > MAX_PLD_K) {
            refusal = "shown up to k = " + MAX_PLD_K + " here: its grid grows with k (privet account gives it for any k)";
            eps.add(null);
            continue;
          }
          if (a.equals("rdp")) {
            oneRun = oneRun != null ? oneRun : new RdpAccountant().curve(List.of(event(a, 1)));
            eps.add(rdpEpsilon(oneRun, k, delta));
            continue;
          }
          eps.add(epsilon(a, k));
        } catch (IllegalArgumentException e) {
          refusal = e.getMessage();
          eps.add(null);
        }
      }
      out.put(a, new Curve(a, eps, refusal));
    }
    return out;
  }
}
