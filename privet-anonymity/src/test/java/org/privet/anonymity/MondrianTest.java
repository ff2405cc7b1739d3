package org.privet.anonymity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class MondrianTest {

  /** A random table: two numeric and one categorical quasi-identifier, a categorical sensitive column. */
  record RandomTable(int[][] rows) {
    Microdata data() {
      int n = rows.length;
      double[] a = new double[n];
      double[] b = new double[n];
      String[] c = new String[n];
      String[] s = new String[n];
      for (int i = 0; i < n; i++) {
        a[i] = rows[i][0];
        b[i] = rows[i][1];
        c[i] = "c" + rows[i][2];
        s[i] = "s" + rows[i][3];
      }
      return Microdata.of(List.of(Microdata.Column.numeric("a", a), Microdata.Column.numeric("b", b),
          Microdata.Column.categorical("c", c), Microdata.Column.categorical("s", s)));
    }
  }

  @Provide
  Arbitrary<RandomTable> tables() { // also used by FullDomainGeneralizationTest
    Arbitrary<int[]> row = Combinators.combine(Arbitraries.integers().between(0, 40),
        Arbitraries.integers().between(-5, 5), Arbitraries.integers().between(0, 6),
        Arbitraries.integers().between(0, 3)).as((a, b, c, s) -> new int[] {a, b, c, s});
    return row.array(int[][].class).ofMinSize(0).ofMaxSize(300).map(RandomTable::new);
  }

  @Property(tries = 200)
  void anonymize_randomTables_everyClassHasAtLeastKRowsAndEveryRowIsAccountedFor(
      @ForAll("tables") RandomTable t, @ForAll @IntRange(min = 1, max = 12) int k,
      @ForAll @IntRange(min = 1, max = 3) int l) {
    Microdata data = t.data();
    GeneralizedTable g = new Mondrian(k, l).anonymize(data, List.of("a", "b", "c"), "s");
    assertEquals(data.rows(), g.rows() + g.suppressed(), "released + suppressed = input");
    AnonymityReport r = AnonymityCheck.check(g, data);
    if (g.rows() > 0) {
      assertTrue(r.k() >= k, "k=" + r.k() + " < " + k);
      assertTrue(r.distinctL().getAsInt() >= l);
      assertEquals(0, g.suppressed());
    } else {
      // Suppression only when the whole table cannot be k-anonymous and l-diverse.
      long distinct = Arrays.stream(t.rows()).mapToInt(x -> x[3]).distinct().count();
      assertTrue(data.rows() < k || distinct < l);
      assertEquals(data.rows(), g.suppressed());
    }
    assertCellsCoverOriginals(data, g);
  }

  /** Each released cell holds its row's original value (generalization, never perturbation). */
  static void assertCellsCoverOriginals(Microdata data, GeneralizedTable g) {
    boolean[] seen = new boolean[data.rows()];
    for (int r = 0; r < g.rows(); r++) {
      int src = g.sourceRows()[r];
      assertTrue(!seen[src], "each input row is released at most once");
      seen[src] = true;
      for (int q = 0; q < g.quasiIdentifiers().size(); q++) {
        Microdata.Column c = data.column("q", g.quasiIdentifiers().get(q));
        assertTrue(g.cells()[r][q].covers(c.text(src), c.numeric() ? c.numbers()[src] : Double.NaN));
      }
    }
  }

  @Test
  void anonymize_adult_isKAnonymousForEveryK() {
    Microdata adult = TableReader.read(AdultFixture.source(),
        List.of("age", "sex", "race", "native_country", "education_num", "income"), "columns");
    List<String> qi = List.of("age", "sex", "race", "native_country", "education_num");
    Microdata rawK = adult;
    assertEquals(1, AnonymityCheck.check(GeneralizedTable.fromMicrodata(rawK, qi, "income"), null).k(),
        "raw Adult has unique people on these quasi-identifiers");
    List<Double> gils = new ArrayList<>();
    for (int k : new int[] {2, 5, 10, 50}) {
      GeneralizedTable g = new Mondrian(k, 1).anonymize(adult, qi, "income");
      AnonymityReport r = AnonymityCheck.check(g, adult);
      assertTrue(r.k() >= k && r.k() < 2 * k + 50, "k=" + r.k());
      assertEquals(adult.rows(), g.rows());
      gils.add(r.gil());
    }
    for (int i = 1; i < gils.size(); i++) {
      assertTrue(gils.get(i) > gils.get(i - 1), "information loss grows with k: " + gils);
    }
    GeneralizedTable l2 = new Mondrian(5, 2).anonymize(adult, qi, "income");
    assertTrue(AnonymityCheck.check(l2, adult).distinctL().getAsInt() >= 2);
  }

  @Test
  void anonymize_tooFewRows_suppressesAllAndCountsThem() {
    Microdata d = Microdata.of(List.of(Microdata.Column.numeric("a", new double[] {1, 2, 3})));
    GeneralizedTable g = new Mondrian(4, 1).anonymize(d, List.of("a"), null);
    assertEquals(0, g.rows());
    assertEquals(3, g.suppressed());
    assertEquals(0, AnonymityCheck.check(g, d).k());
  }

  @Test
  void anonymize_smallTable_splitsAtTheMedianIntoRanges() {
    Microdata d = Microdata.of(List.of(
        Microdata.Column.numeric("age", new double[] {21, 22, 23, 24, 41, 42, 43, 44}),
        Microdata.Column.categorical("sex", new String[] {"F", "M", "F", "M", "F", "M", "F", "M"})));
    GeneralizedTable g = new Mondrian(2, 1).anonymize(d, List.of("age", "sex"), null);
    List<String> cells = new ArrayList<>();
    for (Generalization[] row : g.cells()) {
      cells.add(row[0].text() + "/" + row[1].text());
    }
    // Age and sex both have normalized width 1; the tie keeps column order, so age is cut at its
    // lower median 24. In each half age spans 3/23 of its range and sex still 1: sex is cut next.
    // The four pairs cannot be cut again with k = 2.
    assertEquals(List.of("[21..23]/F", "[21..23]/F", "[22..24]/M", "[22..24]/M",
        "[41..43]/F", "[41..43]/F", "[42..44]/M", "[42..44]/M"), cells.stream().sorted().toList());
  }
}
