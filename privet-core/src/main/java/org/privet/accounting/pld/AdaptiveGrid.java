package org.privet.accounting.pld;

import java.util.Map;
import org.privet.accounting.PrivacyLoss;

/**
 * Chooses the PLD grid spacing Δ for a set of events (issue 16, item 4). The choice only affects
 * tightness and speed, never validity: whatever Δ is, {@link MechanismPld} discretises
 * pessimistically (docs/proofs/pld-accountant.md, §1 and §5).
 *
 * <ul>
 *   <li><b>Lattice.</b> When every distinct event's finite losses are integer multiples of one step
 *       s (pure ε and (ε, δ) events: losses ±ε; randomized response; discrete mechanisms with a
 *       single loss step), a grid Δ = s/m puts every atom on a node, so discretisation moves no
 *       mass and the only error left is floating point. Coarser grids also shrink the FFT and
 *       its error bound, which dominated the excess for long compositions at small δ.
 *   <li><b>Resolution.</b> Otherwise (and to refine within a lattice when some events have
 *       continuous losses) Δ ≤ σ/{@code nodesPerSd}, σ the standard deviation of the composed
 *       loss, estimated from a first discretisation at the default spacing: the connect-the-dots
 *       excess of a k-fold composition is of order (Δ/σ)² relative to the spread of the loss.
 * </ul>
 */
final class AdaptiveGrid {
  private AdaptiveGrid() {}

  /** Relative tolerance for "a loss is an integer multiple of the step". */
  private static final double LATTICE_TOLERANCE = 1e-12;
  /** Largest multiple of the step considered for one loss value. */
  private static final long MAX_MULTIPLE = 1 << 20;

  /**
   * @param grouped distinct events with their multiplicities
   * @param ceiling the largest spacing used for continuous losses
   * @param nodesPerSd target resolution in grid nodes per standard deviation of the composed loss
   * @param tail per-event truncation allowance (as for the real discretisation)
   */
  static double interval(Map<PrivacyLoss, Long> grouped, double ceiling, double nodesPerSd, double tail) {
    double lattice = latticeStep(grouped);
    boolean allAtoms = true;
    double variance = 0;
    for (Map.Entry<PrivacyLoss, Long> e : grouped.entrySet()) {
      if (!isLatticeAtoms(e.getKey())) {
        allAtoms = false;
      }
      DiscretePld d;
      try {
        d = MechanismPld.of(e.getKey(), true, ceiling, tail);
      } catch (IllegalArgumentException ex) {
        return ceiling; // let the caller's own fallback (coarser grids) handle it
      }
      variance += e.getValue() * d.meanAndVariance()[1];
    }
    if (lattice > 0 && allAtoms) {
      return lattice;
    }
    double fine = ceiling;
    double sd = Math.sqrt(variance);
    if (sd > 0 && Double.isFinite(sd)) {
      fine = Math.min(ceiling, sd / nodesPerSd);
    }
    // Never so fine that one event needs more nodes than the discretiser allows.
    fine = Math.max(fine, ceiling / 64);
    if (lattice > 0) {
      return lattice / Math.ceil(lattice / fine);
    }
    return fine;
  }

  private static boolean isLatticeAtoms(PrivacyLoss event) {
    return !MechanismPld.isAsymmetric(event) && MechanismPld.atomsOrNull(event) != null;
  }

  /**
   * The largest s (among the atoms' own |loss| values) such that every finite loss of every atom
   * event is an integer multiple of s; 0 when there is none or some event has continuous losses.
   */
  static double latticeStep(Map<PrivacyLoss, Long> grouped) {
    double smallest = Double.POSITIVE_INFINITY;
    for (PrivacyLoss e : grouped.keySet()) {
      LossAtoms a = isLatticeAtoms(e) ? MechanismPld.atomsOrNull(e) : null;
      if (a == null) {
        continue;
      }
      for (int i = 0; i < a.size; i++) {
        double l = Math.abs(a.loss[i]);
        if (a.p[i] > 0 && Double.isFinite(l) && l > 0) {
          smallest = Math.min(smallest, l);
        }
      }
    }
    if (!Double.isFinite(smallest)) {
      return 0;
    }
    for (int m = 1; m <= 16; m++) {
      double s = smallest / m;
      if (allMultiples(grouped, s)) {
        return s;
      }
    }
    return 0;
  }

  private static boolean allMultiples(Map<PrivacyLoss, Long> grouped, double s) {
    for (PrivacyLoss e : grouped.keySet()) {
      LossAtoms a = isLatticeAtoms(e) ? MechanismPld.atomsOrNull(e) : null;
      if (a == null) {
        continue;
      }
      for (int i = 0; i < a.size; i++) {
        double l = a.loss[i];
        if (a.p[i] <= 0 || !Double.isFinite(l)) {
          continue;
        }
        double r = l / s;
        if (Math.abs(r) > MAX_MULTIPLE || Math.abs(r - Math.rint(r)) > LATTICE_TOLERANCE * Math.max(1, Math.abs(r))) {
          return false;
        }
      }
    }
    return true;
  }
}
