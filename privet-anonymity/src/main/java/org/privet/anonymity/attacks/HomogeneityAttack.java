package org.privet.anonymity.attacks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privet.anonymity.GeneralizedTable;

/**
 * Attack 2, homogeneity and background knowledge: Machanavajjhala, Kifer, Gehrke &amp;
 * Venkitasubramaniam, "ℓ-Diversity: Privacy Beyond k-Anonymity", ACM TKDD 1(1), 2007, Section 3.
 *
 * <p>The attacker knows the target's quasi-identifiers and that the target is in the k-anonymous
 * table, so finds the target's equivalence class; the class's sensitive values are the attacker's
 * posterior. <em>Homogeneity</em>: when the class holds one value, the attacker learns it with
 * certainty despite k. <em>Background knowledge</em>: an attacker who can rule out b wrong values
 * for the target (e.g. "she is not in the armed forces") removes them from the class. The attack
 * reports, over all people, the fraction whose true value the attacker then holds with certainty,
 * or with posterior probability at least 0.9. Distinct ℓ-diversity removes certainty without
 * background knowledge, but an attacker who rules out ℓ − 1 values recovers it, and skewed
 * classes still give ≥ 0.9.
 */
public final class HomogeneityAttack {
  private HomogeneityAttack() {}

  /** One table's outcome. */
  public record Outcome(String release, int people, int background, double certain, double atLeast90) {}

  /**
   * Attacks every released person of {@code table}, ruling out up to {@code background} of the
   * wrong values in their class (the most frequent ones: the attacker's best case).
   */
  public static Outcome run(String name, GeneralizedTable table, int background) {
    String[] sensitive = table.sensitive().orElseThrow().asCategorical().labels();
    int certain = 0;
    int ninety = 0;
    for (int[] cls : table.classes()) {
      Map<String, Integer> counts = new HashMap<>();
      for (int r : cls) {
        counts.merge(sensitive[table.sourceRows()[r]], 1, Integer::sum);
      }
      for (int r : cls) {
        String truth = sensitive[table.sourceRows()[r]];
        List<Map.Entry<String, Integer>> wrong = new ArrayList<>(counts.entrySet());
        wrong.removeIf(e -> e.getKey().equals(truth));
        wrong.sort((a, b) -> Integer.compare(b.getValue(), a.getValue()));
        int left = cls.length;
        for (int i = 0; i < Math.min(background, wrong.size()); i++) {
          left -= wrong.get(i).getValue();
        }
        double posterior = counts.get(truth) / (double) left;
        int maxOther = wrong.size() > background ? wrong.get(background).getValue() : 0;
        if (posterior == 1.0) {
          certain++;
        }
        if (posterior >= 0.9 && counts.get(truth) > maxOther) {
          ninety++;
        }
      }
    }
    int n = table.rows();
    return new Outcome(name, n, background, n == 0 ? 0 : certain / (double) n, n == 0 ? 0 : ninety / (double) n);
  }

  /**
   * The same attack against a DP release of the classes' sensitive histograms: the count of every
   * public sensitive value in the target's class plus Laplace noise of scale 1/ε. A person is in one
   * (class, value) cell, so the histogram of all classes is ε-DP by parallel composition when the
   * classes are keyed by public quasi-identifier values (as for the tables the test compares, which
   * differ only in the target's sensitive value). The attacker guesses the value with the largest
   * noisy count.
   *
   * @param row the target's released row
   * @param values the sensitive column's public domain
   */
  public static String noisyHistogramGuess(GeneralizedTable table, int row, List<String> values, double epsilon,
      org.privet.random.RandomSource random) {
    String[] sensitive = table.sensitive().orElseThrow().asCategorical().labels();
    int cls = table.classOfRow()[row];
    Map<String, Integer> counts = new HashMap<>();
    for (int r : table.classes().get(cls)) {
      counts.merge(sensitive[table.sourceRows()[r]], 1, Integer::sum);
    }
    org.privet.mechanisms.LaplaceMechanism laplace = org.privet.mechanisms.LaplaceMechanism.builder()
        .epsilon(epsilon).sensitivity(1).randomSource(random).build();
    String best = null;
    double bestCount = Double.NEGATIVE_INFINITY;
    for (String v : values) {
      double noisy = laplace.release(counts.getOrDefault(v, 0));
      if (noisy > bestCount) {
        bestCount = noisy;
        best = v;
      }
    }
    return best;
  }

  public static String summary(List<Outcome> outcomes) {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%-32s %10s %10s %10s%n", "release",
        "ruled out", "certain", "p >= 0.9"));
    for (Outcome o : outcomes) {
      s.append(String.format(Locale.ROOT, "%-32s %10d %10s %10s%n", o.release(), o.background(),
          HtmlReport.percent(o.certain()), HtmlReport.percent(o.atLeast90())));
    }
    return s.toString();
  }

  public static void report(HtmlReport html, List<Outcome> outcomes, String setup) {
    html.heading("Attack 2: homogeneity and background knowledge");
    html.paragraph(setup);
    html.pre(summary(outcomes));
    html.barChart("People whose sensitive value the attacker holds with certainty", "certain",
        outcomes.stream().map(o -> o.release().replaceAll(", k=[0-9]+", "").replace("occupation", "occ.") + (o.background() > 0 ? " +bk" : "")).toList(),
        outcomes.stream().mapToDouble(Outcome::certain).toArray(), "#8e44ad",
        Math.max(0.05, outcomes.stream().mapToDouble(Outcome::certain).max().orElse(0)));
  }
}
