package org.privet.anonymity.attacks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privet.anonymity.Generalization;
import org.privet.anonymity.GeneralizedTable;
import org.privet.anonymity.Microdata;

/**
 * Attack 1, linkage (re-identification): Sweeney, "k-anonymity: a model for protecting privacy",
 * IJUFKS 10(5), 2002 (the Massachusetts GIC / voter-list join on ZIP, birth date and sex).
 *
 * <p>The attacker holds a public register: every person's name (here, the row number) and
 * quasi-identifiers. A release holds quasi-identifiers (possibly generalized) and a sensitive
 * value. The attacker joins them: a released record (an equivalence class of identical released
 * quasi-identifiers) that is consistent with exactly one person of the register is linked to that
 * person, and the attacker claims the class's most common sensitive value for them. A link is
 * <em>correct</em> when that value is the person's true one.
 *
 * <p>On the raw release every person with unique quasi-identifiers is re-identified. A k-anonymous
 * release (k ≥ 2) built from the same people makes every class consistent with at least k people,
 * so no record is linked uniquely (attack 2 shows what still leaks). A DP synthetic release links
 * records to people by coincidence: its records are not anyone's, and the correctness of the claimed
 * values is that of guessing from population statistics.
 */
public final class LinkageAttack {
  private LinkageAttack() {}

  /** One release's outcome. */
  public record Outcome(String release, String guarantee, int people, int linked, int correct,
      double baseline) {

    /** Fraction of the register's people linked to exactly one released record. */
    public double linkedRate() {
      return people == 0 ? 0 : linked / (double) people;
    }

    /** Fraction of the register's people linked and given their true sensitive value. */
    public double reidentifiedRate() {
      return people == 0 ? 0 : correct / (double) people;
    }

    /** Among linked people, the fraction whose claimed value is right. */
    public double precision() {
      return linked == 0 ? Double.NaN : correct / (double) linked;
    }
  }

  /**
   * Joins {@code release} with the register {@code people} on the quasi-identifiers.
   *
   * @param people the register: quasi-identifiers and (for scoring only) the true sensitive value
   * @param sensitive the sensitive column's name, in both tables
   */
  public static Outcome run(String name, String guarantee, Microdata people, GeneralizedTable release,
      String sensitive) {
    List<String> qis = release.quasiIdentifiers();
    int d = qis.size();
    int n = people.rows();
    Microdata.Column[] cols = new Microdata.Column[d];
    for (int q = 0; q < d; q++) {
      cols[q] = people.column("register", qis.get(q));
    }
    String[] truth = people.column("register", sensitive).asCategorical().labels();
    // The register grouped by exact quasi-identifier tuple, indexed by the first quasi-identifier.
    Map<List<String>, List<Integer>> byTuple = new LinkedHashMap<>();
    for (int r = 0; r < n; r++) {
      List<String> key = new ArrayList<>(d);
      for (int q = 0; q < d; q++) {
        key.add(cols[q].text(r));
      }
      byTuple.computeIfAbsent(key, x -> new ArrayList<>()).add(r);
    }
    Map<String, List<List<String>>> byFirst = new HashMap<>();
    for (List<String> key : byTuple.keySet()) {
      byFirst.computeIfAbsent(key.get(0), x -> new ArrayList<>()).add(key);
    }
    String[] released = release.sensitive().orElseThrow().asCategorical().labels();
    Map<String, Integer> overall = new HashMap<>();
    for (String v : truth) {
      overall.merge(v, 1, Integer::sum);
    }
    double baseline = overall.values().stream().mapToInt(Integer::intValue).max().orElse(0) / (double) Math.max(1, n);
    int linked = 0;
    int correct = 0;
    for (int[] cls : release.classes()) {
      Generalization[] cell = release.cells()[cls[0]];
      int matches = 0;
      int person = -1;
      for (Map.Entry<String, List<List<String>>> e : byFirst.entrySet()) {
        if (!covers(cell[0], e.getKey(), cols[0])) {
          continue;
        }
        for (List<String> key : e.getValue()) {
          boolean all = true;
          for (int q = 1; q < d && all; q++) {
            all = covers(cell[q], key.get(q), cols[q]);
          }
          if (all) {
            List<Integer> who = byTuple.get(key);
            matches += who.size();
            person = who.get(0);
          }
        }
        if (matches > 1) {
          break;
        }
      }
      if (matches == 1) {
        linked++;
        Map<String, Integer> votes = new HashMap<>();
        for (int r : cls) {
          votes.merge(released[release.sourceRows()[r]], 1, Integer::sum);
        }
        String claim = votes.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        if (claim.equals(truth[person])) {
          correct++;
        }
      }
    }
    return new Outcome(name, guarantee, n, linked, correct, baseline);
  }

  private static boolean covers(Generalization g, String text, Microdata.Column c) {
    return g.covers(text, c.numeric() ? Double.parseDouble(text) : Double.NaN);
  }

  /** The side-by-side text table. */
  public static String summary(List<Outcome> outcomes) {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%-28s %-22s %10s %14s %10s%n",
        "release", "guarantee", "linked", "re-identified", "precision"));
    for (Outcome o : outcomes) {
      s.append(String.format(Locale.ROOT, "%-28s %-22s %10s %14s %10s%n", o.release(), o.guarantee(),
          HtmlReport.percent(o.linkedRate()), HtmlReport.percent(o.reidentifiedRate()),
          Double.isNaN(o.precision()) ? "-" : HtmlReport.percent(o.precision())));
    }
    return s.toString();
  }

  /** Adds the attack's section to a report. */
  public static void report(HtmlReport html, List<Outcome> outcomes, String setup) {
    html.heading("Attack 1: linkage (re-identification)");
    html.paragraph(setup);
    List<List<String>> rows = new ArrayList<>();
    for (Outcome o : outcomes) {
      rows.add(List.of(o.release(), o.guarantee(), Integer.toString(o.people()), HtmlReport.percent(o.linkedRate()),
          HtmlReport.percent(o.reidentifiedRate()),
          Double.isNaN(o.precision()) ? "-" : HtmlReport.percent(o.precision()), HtmlReport.percent(o.baseline())));
    }
    html.table(List.of("release", "guarantee", "people", "linked uniquely", "re-identified (right value)",
        "precision of links", "guess the commonest value"), rows);
    html.barChart("People re-identified with their true sensitive value, by release", "re-identified",
        outcomes.stream().map(Outcome::release).toList(),
        outcomes.stream().mapToDouble(Outcome::reidentifiedRate).toArray(), "#c0392b",
        Math.max(0.05, outcomes.stream().mapToDouble(Outcome::reidentifiedRate).max().orElse(0)));
  }
}
