package org.privet.engine;

import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;

/**
 * One noisy release planned by the compiler: which exact per-group aggregate it perturbs, with which
 * mechanism, sensitivity (in fixed-point units, already multiplied out over L0 groups) and budget.
 *
 * @param output the output name it serves
 * @param purpose human-readable role
 * @param kind the mechanism family
 * @param field which exact aggregate it perturbs
 * @param measure index of the backend measure (or −1)
 * @param sensitivity L1 (LAPLACE), L2 (GAUSSIAN, rounded up) over all groups, or the per-group
 *     utility sensitivity (EXPONENTIAL), in fixed-point units; for a quantile tree (field TREE)
 *     over all its nodes in all groups: L0·L∞·H (L1) or ⌈L∞·√(L0·H)⌉ (L2), H its levels
 * @param scaleExponent k of the fixed-point grid 2^-k (for squares 2k), 0 for counts
 * @param epsilon ε of a LAPLACE slot, or of an EXPONENTIAL slot summed over the L0 groups
 * @param rho ρ of a GAUSSIAN slot
 * @param rank quantile rank (EXPONENTIAL only)
 * @param l0 L0, by which an EXPONENTIAL slot's ε is divided per group
 * @param center for a centred SUM slot: subtracted (times the non-null count) from the measure's
 *     exact uncentred sum before noise, so one backend measure serves SUM and MEAN
 */
record Slot(String output, String purpose, Kind kind, Field field, int measure, long sensitivity,
    int scaleExponent, double epsilon, double rho, double rank, int l0, long center) {

  enum Kind { LAPLACE, GAUSSIAN, EXPONENTIAL }

  enum Field { UNITS, ROWS, SUM, COUNT, SQUARES, BINS, QUANTILE, TREE }

  /** The privacy loss this slot's mechanism states. */
  PrivacyLoss loss() {
    return kind == Kind.GAUSSIAN ? new Zcdp(rho) : new PureDp(epsilon);
  }

  double unit() {
    return Math.scalb(1.0, -scaleExponent);
  }

  String mechanismName() {
    return switch (kind) {
      case LAPLACE -> "GeometricMechanism(ε=" + fmt(epsilon) + ", Δ₁=" + sensitivity + ")";
      case GAUSSIAN -> "DiscreteGaussianMechanism(ρ=" + fmt(rho) + ", Δ₂=" + sensitivity + ")";
      case EXPONENTIAL -> "ExponentialMechanism(ε=" + fmt(epsilon / l0) + " per group, Δu="
          + sensitivity + ")";
    };
  }

  static String fmt(double v) {
    return String.format("%.6g", v);
  }
}
