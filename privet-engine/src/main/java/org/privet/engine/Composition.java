package org.privet.engine;

import java.util.List;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.accounting.ZcdpAccountant;

/**
 * Composition of one query's mechanism losses into the total it charges, delegated to the
 * accountants of {@code org.privet.accounting} (all rounding upward):
 *
 * <ul>
 *   <li>pure budget: {@link BasicAccountant} (Σε);
 *   <li>ρ budget: {@link ZcdpAccountant#totalApproxZcdp} (Σρ, pure parts as ε²/2); no part may
 *       carry a δ;
 *   <li>ρ-plus-δ budget (δ-approximate ρ-zCDP): {@link ZcdpAccountant#totalApproxZcdp} (Σρ and Σδ,
 *       (ε, δ) parts as δ-approximate ε²/2-zCDP; Bun &amp; Steinke 2016, Lemma 8.2);
 *   <li>(ε, δ) budget: {@link BasicAccountant} at the budget's δ (pure and approximate parts add;
 *       zCDP and approximate-zCDP parts are summed and converted once at δ − Σδᵢ, where Σδᵢ
 *       includes the approximate-zCDP parts' own δ's).
 * </ul>
 */
final class Composition {
  private Composition() {}

  static PrivacyLoss total(Budget budget, List<PrivacyLoss> parts) {
    PrivacyLoss b = budget.loss();
    if (budget.isZcdp()) {
      ApproxZcdp t = ZcdpAccountant.INSTANCE.totalApproxZcdp(parts);
      if (b instanceof Zcdp) {
        if (t.delta() > 0) {
          throw new IllegalStateException("a part with δ > 0 cannot be composed under a pure ρ "
              + "budget");
        }
        return new Zcdp(t.rho());
      }
      return t;
    }
    ApproxDp total = BasicAccountant.INSTANCE.compose(parts, budget.delta());
    if (b instanceof PureDp) {
      if (total.delta() > 0) {
        throw new IllegalStateException("a pure budget cannot pay for δ");
      }
      return new PureDp(total.epsilon());
    }
    return total;
  }

  /** The δ spent converting zCDP parts inside an (ε, δ) total (0 if none). */
  static double conversionDelta(Budget budget, List<PrivacyLoss> parts) {
    if (!(budget.loss() instanceof ApproxDp)
        || parts.stream().noneMatch(p -> p instanceof Zcdp || p instanceof ApproxZcdp)) {
      return 0.0;
    }
    double own = 0;
    for (PrivacyLoss p : parts) {
      if (p instanceof ApproxDp a) {
        own += a.delta();
      } else if (p instanceof ApproxZcdp z) {
        own += z.delta();
      }
    }
    return budget.delta() - own;
  }

  /** Equality up to 1e-9 relative (floating-point re-association), same measure. */
  static boolean same(PrivacyLoss a, PrivacyLoss b) {
    if (a instanceof Zcdp x && b instanceof Zcdp y) {
      return close(x.rho(), y.rho());
    } else if (a instanceof PureDp x && b instanceof PureDp y) {
      return close(x.epsilon(), y.epsilon());
    } else if (a instanceof ApproxDp x && b instanceof ApproxDp y) {
      return close(x.epsilon(), y.epsilon()) && close(x.delta(), y.delta());
    } else if (a instanceof ApproxZcdp x && b instanceof ApproxZcdp y) {
      return close(x.rho(), y.rho()) && close(x.delta(), y.delta());
    }
    return false;
  }

  private static boolean close(double x, double y) {
    return Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
  }

  /** True when {@code total} does not exceed {@code budget}. */
  static boolean within(PrivacyLoss total, Budget budget) {
    PrivacyLoss b = budget.loss();
    if (b instanceof Zcdp z) {
      return total instanceof Zcdp t && t.rho() <= z.rho();
    } else if (b instanceof ApproxZcdp z) {
      return total instanceof ApproxZcdp t && t.rho() <= z.rho() && t.delta() <= z.delta();
    } else if (b instanceof PureDp p) {
      return total instanceof PureDp t && t.epsilon() <= p.epsilon();
    }
    ApproxDp a = (ApproxDp) b;
    ApproxDp t = total instanceof PureDp pd ? pd.toApproxDp() : (ApproxDp) total;
    return t.epsilon() <= a.epsilon() && t.delta() <= a.delta();
  }
}
