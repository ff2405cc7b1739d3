package org.privet.accounting.pld;

/**
 * The distribution of the privacy loss L = ln(P(o)/Q(o)) of a dominating pair (P, Q), given by its
 * tail functions under P and under Q, each computed from whichever side is small so that interval
 * masses keep their relative accuracy. Implemented by the continuous mechanisms' privacy-loss
 * descriptions ({@link org.privet.accounting.MechanismLoss.Gaussian}, {@link
 * org.privet.accounting.MechanismLoss.Laplace}).
 */
public non-sealed interface LossTails extends DominatingPair {
  /** P(L ≥ l). */
  double pUpper(double l);

  /** P(L &lt; l). */
  double pLower(double l);

  /** Q(L ≥ l). */
  double qUpper(double l);

  /** Q(L &lt; l). */
  double qLower(double l);

  /** The smallest finite loss value (may be −∞). */
  double minLoss();

  /** The largest finite loss value (may be +∞). */
  double maxLoss();

  /** P(interval [a, b)) from the tail on the smaller side. */
  default double pInterval(double a, double b) {
    double ua = pUpper(a);
    if (ua <= 0.5) {
      return Math.max(0.0, ua - pUpper(b));
    }
    return Math.max(0.0, pLower(b) - pLower(a));
  }

  /** Q(interval [a, b)) from the tail on the smaller side. */
  default double qInterval(double a, double b) {
    double ua = qUpper(a);
    if (ua <= 0.5) {
      return Math.max(0.0, ua - qUpper(b));
    }
    return Math.max(0.0, qLower(b) - qLower(a));
  }
}
