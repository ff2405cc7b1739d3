package org.privet.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.testing.SeededRandomSource;

/**
 * The per-value rule for registered tables read after their charge (issue 10 item 4): total,
 * silent, and as documented in docs/proofs/synthetic-data.md.
 */
class TotalEncodingTest {
  private static final Domain DOMAIN = parse("""
      {"header": false, "fileColumns": ["age", "sex", "job", "code"], "attributes": [
        {"name": "age", "type": "numeric", "lower": 0, "upper": 100, "bins": 5, "other": 50},
        {"name": "sex", "type": "categorical", "values": ["F", "M"]},
        {"name": "job", "type": "categorical", "values": ["clerk", "VP", "other"], "other": "other"},
        {"name": "code", "type": "coded", "size": 4}]}
      """);

  private static Domain parse(String json) {
    try {
      return Domain.fromJson(new ObjectMapper().readTree(json));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int code(int attr, String raw) {
    return DOMAIN.attribute(attr).encodeTotal(raw);
  }

  @Test
  void encodeTotal_numeric_clampsOutOfRangeAndSendsTheRestToOther() {
    assertEquals(1, code(0, "37"));
    assertEquals(0, code(0, "-5"));
    assertEquals(0, code(0, "-Infinity"));
    assertEquals(4, code(0, "100"));
    assertEquals(4, code(0, "1e300"));
    assertEquals(4, code(0, "Infinity"));
    assertEquals(2, code(0, "NaN"), "declared other 50 is in bin 2");
    assertEquals(2, code(0, "abc"));
    assertEquals(2, code(0, null));
  }

  @Test
  void encodeTotal_coded_clampsAndRoundsDown() {
    assertEquals(2, code(3, "2"));
    assertEquals(2, code(3, "2.0"), "a Parquet DOUBLE read as text");
    assertEquals(2, code(3, "2.7"));
    assertEquals(0, code(3, "-1"));
    assertEquals(3, code(3, "17"));
    assertEquals(3, code(3, "9e18"));
    assertEquals(0, code(3, "x"), "undeclared other: the first code");
    assertEquals(0, code(3, null));
  }

  @Test
  void encodeTotal_categorical_unknownOrMissingIsOther() {
    assertEquals(1, code(1, " M "));
    assertEquals(0, code(1, "X"));
    assertEquals(0, code(1, null));
    assertEquals(1, code(2, "VP"));
    assertEquals(2, code(2, "CEO"));
    assertEquals(2, code(2, null));
  }

  @Test
  void withOther_valueOutsideDomain_refusedNamingTheAttribute() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> Attribute.categorical("job", List.of("a", "b")).withOther("c"));
    assertTrue(e.getMessage().contains("'job'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Attribute.numeric("age", 0, 10, 2).withOther("10"));
  }

  @Test
  void encoder_shortRowsAndEmptyTables_neverFail() {
    Table.RowEncoder enc = Table.encoder(DOMAIN);
    assertEquals(0, enc.build().rows());
    enc.accept(new String[] {"37"});
    enc.accept(new String[] {"99", "M", "VP", "3", "extra"});
    Table t = enc.build();
    assertEquals(2, t.rows());
    assertEquals(List.of(1, 0, 2, 0), List.of(t.get(0, 0), t.get(0, 1), t.get(0, 2), t.get(0, 3)));
    assertEquals(List.of(4, 1, 1, 3), List.of(t.get(1, 0), t.get(1, 1), t.get(1, 2), t.get(1, 3)));
  }

  @Test
  void synthesize_emptyTable_releasesLikeAnyOther() {
    Table empty = Table.encoder(DOMAIN).build();
    for (Synthesizer.Method m : Synthesizer.Method.values()) {
      Synthesizer s = Synthesizer.builder().method(m).epsilon(1).delta(1e-9).rounds(5)
          .randomSource(new SeededRandomSource(7)).build();
      SynthesisResult r = s.synthesize(empty);
      assertTrue(r.synthetic().rows() >= 1, m + " writes at least one row");
      assertEquals(DOMAIN, r.synthetic().domain());
    }
  }
}
