package org.privet.cli.anonymity;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import org.privet.anonymity.AnonymityReport;

/** Prints an {@link AnonymityReport} as text. */
final class CheckPrinter {
  private CheckPrinter() {}

  static void print(PrintWriter o, AnonymityReport r) {
    o.printf(Locale.ROOT, "k-anonymity: k = %d (%d rows in %d equivalence classes; %d rows suppressed)%n",
        r.k(), r.rows(), r.classes(), r.suppressed());
    o.println("class sizes (size: classes):");
    int shown = 0;
    StringBuilder line = new StringBuilder("  ");
    for (Map.Entry<Integer, Integer> e : r.classSizes().entrySet()) {
      if (shown++ == 12) {
        line.append(" ... up to ").append(r.classSizes().lastKey());
        break;
      }
      line.append(e.getKey()).append(": ").append(e.getValue()).append("  ");
    }
    o.println(line.toString().stripTrailing());
    r.distinctL().ifPresent(l -> o.printf(Locale.ROOT, "distinct l-diversity: l = %d%n", l));
    r.t().ifPresent(t -> o.printf(Locale.ROOT, "t-closeness: t = %.4f (Earth Mover's Distance, %s distance)%n",
        t, r.tDistance()));
    o.printf(Locale.ROOT, "information loss: GIL = %.4f (0 = unchanged, 1 = all redacted); discernibility = %.4g%n",
        r.gil(), r.discernibility());
    if (r.marginalError().isPresent()) {
      o.printf(Locale.ROOT, "marginal workload (%d 1- and 2-way marginals): mean total variation error %.4f, worst %.4f%n",
          r.marginals(), r.marginalError().getAsDouble(), r.worstMarginalError().getAsDouble());
    }
  }
}
