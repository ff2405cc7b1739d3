package org.privet.anonymity.attacks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privet.anonymity.GeneralizedTable;
import org.privet.anonymity.Microdata;
import org.privet.anonymity.Mondrian;
import org.privet.testing.SeededRandomSource;

/** Linkage: the raw release re-identifies exactly the people unique on their quasi-identifiers. */
class LinkageAttackTest {

  private static Microdata people(int n, SeededRandomSource random) {
    double[] age = new double[n];
    String[] sex = new String[n];
    String[] zip = new String[n];
    String[] disease = new String[n];
    for (int i = 0; i < n; i++) {
      age[i] = 20 + random.nextLong(50);
      sex[i] = random.nextBoolean() ? "F" : "M";
      zip[i] = "z" + random.nextLong(8);
      disease[i] = "d" + random.nextLong(4);
    }
    return Microdata.of(List.of(Microdata.Column.numeric("age", age), Microdata.Column.categorical("sex", sex),
        Microdata.Column.categorical("zip", zip), Microdata.Column.categorical("disease", disease)));
  }

  @Test
  void run_rawRelease_reidentifiesExactlyTheUniquePeople() {
    Microdata p = people(1500, new SeededRandomSource(41));
    List<String> qi = List.of("age", "sex", "zip");
    Map<String, Integer> counts = new HashMap<>();
    for (int r = 0; r < p.rows(); r++) {
      counts.merge(p.column("x", "age").text(r) + "/" + p.column("x", "sex").text(r) + "/"
          + p.column("x", "zip").text(r), 1, Integer::sum);
    }
    long unique = counts.values().stream().filter(c -> c == 1).count();
    LinkageAttack.Outcome raw = LinkageAttack.run("raw", "none", p, GeneralizedTable.fromMicrodata(p, qi, "disease"),
        "disease");
    assertEquals(unique, raw.linked());
    assertEquals(unique, raw.correct(), "a unique raw record is the person's own");
    for (int k : new int[] {2, 5}) {
      LinkageAttack.Outcome anon = LinkageAttack.run("k", "none", p, new Mondrian(k, 1).anonymize(p, qi, "disease"),
          "disease");
      assertEquals(0, anon.linked(), "every k-anonymous class matches at least k people");
    }
  }

  @Test
  void run_releaseOfOtherPeople_linksOnlyByCoincidence() {
    // A release drawn from the same population but holding none of the register's people: links
    // happen, but the claimed values are right only at the population's rate (4 equally likely).
    Microdata register = people(1500, new SeededRandomSource(42));
    Microdata others = people(1500, new SeededRandomSource(43));
    LinkageAttack.Outcome o = LinkageAttack.run("others", "none", register,
        GeneralizedTable.fromMicrodata(others, List.of("age", "sex", "zip"), "disease"), "disease");
    org.junit.jupiter.api.Assertions.assertTrue(o.linked() > 50, "coincidental links: " + o.linked());
    // Binomial(linked, ¼): a precision above ½ has probability < 1e-6 at this size.
    org.junit.jupiter.api.Assertions.assertTrue(o.precision() < 0.5, "precision " + o.precision());
  }
}
