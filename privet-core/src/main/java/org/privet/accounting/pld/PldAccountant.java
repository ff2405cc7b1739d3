package org.privet.accounting.pld;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.accounting.Accountant;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.EventMeasures;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.PoissonSubsampled;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Subsampling;

/**
 * The privacy loss distribution (PLD) accountant: the tightest accountant in Privet, numerically
 * exact up to a documented, pessimistic discretisation (Meiser &amp; Mohammadi 2018; Koskela, Jälkö,
 * Honkela 2020; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022, "Connect the dots: tighter
 * discrete approximations of privacy loss distributions"; Zhu, Dong, Wang 2022 for dominating
 * pairs and subsampling). Argument: docs/proofs/pld-accountant.md.
 *
 * <p>Supports {@link PureDp}, {@link ApproxDp}, every {@link MechanismLoss} (Gaussian, Laplace,
 * discrete Laplace, discrete Gaussian, randomized response) and {@link PoissonSubsampled} versions
 * of them under add/remove neighbours. zCDP values and RDP curves have no PLD and are refused.
 *
 * <p>Identical events are grouped, each distinct event is discretised once on the grid {jΔ}, and the
 * composition is computed with one FFT per distinct event and pointwise powers. The returned ε is
 * an upper bound; its excess over the exact value comes from the grid (a few Δ² per event) and the
 * tail allowances (10⁻⁴ of the target δ). The grid adapts to the events ({@link AdaptiveGrid}):
 * events whose losses all lie on a lattice (pure ε, (ε, δ), randomized response) are discretised on
 * that lattice, where discretisation is exact; otherwise Δ is at most the default and small enough
 * for {@link #NODES_PER_SD} nodes per standard deviation of the composed loss. Within 0.5% of the
 * exact optimum for k-fold pure-ε (ε ≤ 0.01) and Gaussian compositions (PldAccountantTest). Not valid for adaptively chosen parameters stopped by a
 * budget (no filter), as the composition theorem for PLDs assumes the events are fixed in advance.
 */
public final class PldAccountant implements Accountant {
  /** The default grid spacing Δ of loss values. */
  public static final double DEFAULT_INTERVAL = 1e-4;

  /**
   * Grid nodes per standard deviation of the composed loss that the adaptive grid aims for: the
   * connect-the-dots excess of a k-fold composition shrinks with (Δ/σ)², so 4000 nodes per σ keeps
   * it well below 0.5% of ε (PldAccountantTest shows the bound for Gaussian and pure-ε events).
   */
  static final double NODES_PER_SD = 4000;

  private final double interval;
  private final boolean adaptive;

  private PldAccountant(double interval, boolean adaptive) {
    this.interval = interval;
    this.adaptive = adaptive;
  }

  /**
   * An accountant whose grid adapts to the events: at most {@link #DEFAULT_INTERVAL}, finer when
   * the composed loss is narrow, and aligned to the lattice of pure-ε / (ε, δ) events' losses.
   */
  public PldAccountant() {
    this(DEFAULT_INTERVAL, true);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Validating builder. */
  public static final class Builder {
    private double interval = DEFAULT_INTERVAL;
    private boolean adaptive = true;

    /**
     * A fixed grid spacing Δ of loss values, in (0, 1]; smaller is tighter and slower. Turns the
     * adaptive grid (the default) off.
     */
    public Builder valueDiscretizationInterval(double value) {
      if (Double.isNaN(value) || value <= 0 || value > 1) {
        throw new IllegalArgumentException("valueDiscretizationInterval must be in (0, 1], was " + value);
      }
      this.interval = value;
      this.adaptive = false;
      return this;
    }

    public PldAccountant build() {
      return new PldAccountant(interval, adaptive);
    }
  }

  @Override
  public ApproxDp compose(List<? extends PrivacyLoss> events, double delta) {
    PrivacyLoss.requireDelta("delta", delta);
    if (events.isEmpty()) {
      return new ApproxDp(0.0, 0.0);
    }
    if (delta == 0) {
      // At δ = 0 nothing beats adding the ε's of pure events.
      return BasicAccountant.INSTANCE.compose(pureOnly(events), 0.0);
    }
    PrivacyLossDistribution pld = distribution(events, delta);
    double eps = pld.epsilon(delta);
    // Basic composition is also valid; for few pure events it can beat the grid by up to Δ.
    if (events.stream().allMatch(e -> EventMeasures.asApproxDpIfDirect(e) != null)) {
      ApproxDp basic = BasicAccountant.INSTANCE.compose(events, delta);
      if (basic.delta() <= delta && basic.epsilon() <= eps) {
        return basic;
      }
    }
    return EventMeasures.approxDp(eps, delta, "PLD composition");
  }

  /** An upper bound on δ(ε) of the composition. */
  public double delta(List<? extends PrivacyLoss> events, double epsilon) {
    PrivacyLoss.requireNonNegativeFinite("epsilon", epsilon);
    if (events.isEmpty()) {
      return 0.0;
    }
    return distribution(events, 1e-12).delta(epsilon);
  }

  /**
   * The composed PLD.
   *
   * @param deltaScale the δ the caller cares about: truncation allowances are 10⁻⁴ of it
   */
  public PrivacyLossDistribution distribution(List<? extends PrivacyLoss> events, double deltaScale) {
    if (events.isEmpty()) {
      throw new IllegalArgumentException("events must not be empty");
    }
    Map<PrivacyLoss, Long> grouped = new LinkedHashMap<>();
    for (PrivacyLoss e : events) {
      grouped.merge(e, 1L, Long::sum);
    }
    long total = events.size();
    double budget = Math.max(1e-300, Math.min(1e-6, deltaScale * 1e-4));
    double eventTail = Math.max(1e-300, budget / 2 / total);
    double windowTail = budget / 2;
    boolean asymmetric = grouped.keySet().stream().anyMatch(MechanismPld::isAsymmetric);
    double step = adaptive ? AdaptiveGrid.interval(grouped, interval, NODES_PER_SD, eventTail) : interval;
    for (int attempt = 0; ; attempt++) {
      try {
        ComposedPld remove = composeDirection(grouped, true, step, eventTail, windowTail);
        ComposedPld add = asymmetric ? composeDirection(grouped, false, step, eventTail, windowTail) : remove;
        return new PrivacyLossDistribution(remove, add);
      } catch (WindowTooWide e) {
        if (attempt >= 12) {
          throw new IllegalArgumentException(e.getMessage());
        }
        step *= 2;
      }
    }
  }

  private static final class WindowTooWide extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WindowTooWide(String message) {
      super(message, null, false, false);
    }
  }

  private static ComposedPld composeDirection(
      Map<PrivacyLoss, Long> grouped, boolean remove, double step, double eventTail, double windowTail) {
    List<DiscretePld> plds = new ArrayList<>();
    long[] counts = new long[grouped.size()];
    int i = 0;
    for (Map.Entry<PrivacyLoss, Long> e : grouped.entrySet()) {
      try {
        plds.add(MechanismPld.of(e.getKey(), remove, step, eventTail));
      } catch (IllegalArgumentException ex) {
        if (ex.getMessage().startsWith("discretisation interval too fine")) {
          throw new WindowTooWide(ex.getMessage());
        }
        throw ex;
      }
      counts[i++] = e.getValue();
    }
    try {
      return ComposedPld.compose(plds, counts, windowTail);
    } catch (IllegalArgumentException ex) {
      if (ex.getMessage().startsWith("privacy loss window too wide")) {
        throw new WindowTooWide(ex.getMessage());
      }
      throw ex;
    }
  }

  private static List<PrivacyLoss> pureOnly(List<? extends PrivacyLoss> events) {
    List<PrivacyLoss> out = new ArrayList<>();
    for (PrivacyLoss e : events) {
      ApproxDp a = Subsampling.baseApproxDp(e);
      if (e instanceof PoissonSubsampled s) {
        a = s.amplifiedApproxDp();
      }
      if (a == null || a.delta() > 0) {
        throw new IllegalArgumentException(
            "delta must be positive for events without a pure epsilon (" + e.getClass().getSimpleName() + ")");
      }
      out.add(new PureDp(a.epsilon()));
    }
    return out;
  }

  @Override
  public String toString() {
    return "pld";
  }
}
