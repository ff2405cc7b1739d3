package org.privet.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DomainAndTableTest {
  @TempDir Path dir;

  private static Path resource(String name) {
    return Path.of("src/test/resources").resolve(name).toAbsolutePath();
  }

  @Test
  void load_pgmAdult_has14ColumnsAnd48842Rows() throws IOException {
    Table t = AdultData.table();
    assertEquals(14, t.domain().size());
    assertEquals(48842, t.rows());
    assertEquals(85, t.domain().cardinality(0));
    assertEquals(364, Workload.allKWay(t.domain(), 3).size());
  }

  @Test
  void read_rawAdultThroughDeclaredDomain_codesEveryRow() throws IOException {
    Domain dom = Domain.load(resource("adult-raw-domain.json"));
    Table t = Table.read(AdultData.repoRoot().resolve("data/adult-raw/adult.data"), dom);
    assertEquals(32561, t.rows());
    assertEquals(6, t.domain().size());
    // 39-year-old in the first row: bin width 5 over [16, 101) -> bin 4.
    assertEquals(4, t.get(0, 0));
    assertEquals(5, t.get(0, 1)); // State-gov
    assertEquals(1, t.get(0, 3)); // Male
    double[] sex = t.marginal(new int[] {3});
    assertEquals(32561, sex[0] + sex[1], 0);
  }

  @Test
  void read_valueOutsideDomain_namesColumnAndLineButNotValue() throws IOException {
    Path f = dir.resolve("t.csv");
    Files.writeString(f, "a,b\n1,0\n7,1\n");
    Domain dom = Domain.of(List.of(Attribute.coded("a", 3), Attribute.coded("b", 2)));
    var e = assertThrows(IllegalArgumentException.class, () -> Table.read(f, dom));
    assertTrue(e.getMessage().contains("'a'"), e.getMessage());
    assertTrue(e.getMessage().contains("line 3"), e.getMessage());
    assertFalse(e.getMessage().contains("7"), e.getMessage());
  }

  @Test
  void read_categoricalValueNotDeclared_rejectedWithoutValue() throws IOException {
    Path f = dir.resolve("t.csv");
    Files.writeString(f, "colour\nred\nSecretValue\n");
    Domain dom = Domain.of(List.of(Attribute.categorical("colour", List.of("red", "blue"))));
    var e = assertThrows(IllegalArgumentException.class, () -> Table.read(f, dom));
    assertFalse(e.getMessage().contains("SecretValue"), e.getMessage());
  }

  @Test
  void read_numericOutsideBounds_rejected() throws IOException {
    Path f = dir.resolve("t.csv");
    Files.writeString(f, "x\n5\n10\n");
    Domain dom = Domain.of(List.of(Attribute.numeric("x", 0, 10, 5)));
    assertThrows(IllegalArgumentException.class, () -> Table.read(f, dom));
  }

  @Test
  void read_missingColumn_namesTheColumn() throws IOException {
    Path f = dir.resolve("t.csv");
    Files.writeString(f, "a\n1\n");
    Domain dom = Domain.of(List.of(Attribute.coded("a", 3), Attribute.coded("b", 2)));
    var e = assertThrows(IllegalArgumentException.class, () -> Table.read(f, dom));
    assertTrue(e.getMessage().contains("'b'") && e.getMessage().contains("missing"), e.getMessage());
  }

  @Test
  void read_emptyTable_rejected() throws IOException {
    Path header = dir.resolve("h.csv");
    Files.writeString(header, "a\n");
    Path nothing = dir.resolve("n.csv");
    Files.writeString(nothing, "");
    Domain dom = Domain.of(List.of(Attribute.coded("a", 3)));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Table.read(header, dom)).getMessage()
        .contains("empty"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Table.read(nothing, dom)).getMessage()
        .contains("empty"));
  }

  @Test
  void load_badDomainFiles_rejected() throws IOException {
    Path bad = dir.resolve("d.json");
    Files.writeString(bad, "{\"a\": \"x\"}");
    assertThrows(IllegalArgumentException.class, () -> Domain.load(bad));
    Files.writeString(bad, "{not json");
    assertThrows(IllegalArgumentException.class, () -> Domain.load(bad));
    Files.writeString(bad, "{\"attributes\": [{\"name\": \"x\", \"type\": \"numeric\", \"lower\": 5, \"upper\": 1, \"bins\": 3}]}");
    assertThrows(IllegalArgumentException.class, () -> Domain.load(bad));
    assertThrows(IllegalArgumentException.class, () -> Attribute.categorical("c", List.of("x", "x")));
    assertThrows(IllegalArgumentException.class, () -> Attribute.coded("c", 0));
  }

  @Test
  void write_thenRead_roundTripsCodesOfEveryKind() throws IOException {
    Domain dom = Domain.of(List.of(Attribute.coded("a", 3), Attribute.categorical("b", List.of("x,1", "y")),
        Attribute.numeric("c", -1, 1, 4)));
    Table t = Table.of(dom, new int[][] {{0, 2, 1}, {1, 0, 1}, {3, 0, 2}});
    Path f = dir.resolve("rt.csv");
    t.write(f);
    Table back = Table.read(f, dom);
    for (int a = 0; a < 3; a++) {
      for (int i = 0; i < 3; i++) {
        assertEquals(t.get(i, a), back.get(i, a));
      }
    }
  }
}
