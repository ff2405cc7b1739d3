package org.privet.anonymity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class FullDomainGeneralizationTest {

  @Provide
  Arbitrary<MondrianTest.RandomTable> tables() {
    return new MondrianTest().tables();
  }

  @Property(tries = 100)
  void anonymize_randomTables_kAnonymousWithinTheSuppressionLimit(@ForAll("tables") MondrianTest.RandomTable t,
      @ForAll @IntRange(min = 1, max = 8) int k, @ForAll @IntRange(min = 0, max = 20) int percent) {
    Microdata data = t.data();
    double limit = percent / 100.0;
    GeneralizedTable g = new FullDomainGeneralization(k, 1, limit).anonymize(data, List.of("a", "b", "c"), "s",
        Hierarchies.none());
    assertEquals(data.rows(), g.rows() + g.suppressed());
    if (g.rows() > 0) {
      assertTrue(AnonymityCheck.check(g, data).k() >= k);
      assertTrue(g.suppressed() <= Math.floor(limit * data.rows()), "suppressed " + g.suppressed());
    }
    MondrianTest.assertCellsCoverOriginals(data, g);
  }

  @Test
  void anonymize_hierarchy_picksTheLeastLossyLevelAndCountsSuppression() {
    // zip z1, z2 are "north", z3, z4 "south". Ages: 3 people each at 30 and 31, 1 at 70.
    Microdata d = Microdata.of(List.of(
        Microdata.Column.categorical("zip", new String[] {"z1", "z2", "z1", "z3", "z4", "z3", "z4"}),
        Microdata.Column.numeric("age", new double[] {30, 30, 30, 31, 31, 31, 70})));
    Hierarchies h = Hierarchies.parse(List.of("zip;z1;north;*", "zip;z2;north;*", "zip;z3;south;*", "zip;z4;south;*"));
    // k = 3 with one row of suppression allowed: zip at "north/south", age unchanged, 70 suppressed.
    GeneralizedTable g = new FullDomainGeneralization(3, 1, 1 / 7.0).anonymize(d, List.of("zip", "age"), null, h);
    assertEquals(1, g.suppressed());
    assertEquals(3, AnonymityCheck.check(g, d).k());
    assertEquals("{z1|z2}", g.cells()[0][0].text());
    assertEquals("30", g.cells()[0][1].text());
    // No suppression allowed: the 70-year-old forces age intervals wide enough to join others.
    GeneralizedTable strict = new FullDomainGeneralization(3, 1, 0).anonymize(d, List.of("zip", "age"), null, h);
    assertEquals(0, strict.suppressed());
    assertTrue(AnonymityCheck.check(strict, d).k() >= 3);
  }

  @Test
  void parse_unevenLevels_isRefusedNamingTheLine() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> Hierarchies.parse(List.of("zip;z1;north;*", "zip;z2;*")));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
  }
}
