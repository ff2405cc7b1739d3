package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DpClauseParserTest {

  @Test
  void prepare_dpClause_blankedKeepingLengthAndLineBreaks() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY\r\n OPTIONS (epsilon = 1,\n delta = 1e-6)\n COUNT(*) FROM t";
    PreparedQuery q = DpClauseParser.prepare(sql);
    assertEquals(sql.length(), q.plainSql().length());
    assertEquals(sql.chars().filter(c -> c == '\n' || c == '\r').count(),
        q.plainSql().chars().filter(c -> c == '\n' || c == '\r').count());
    assertFalse(q.plainSql().contains("DIFFERENTIAL_PRIVACY"));
    assertTrue(q.plainSql().startsWith("SELECT "));
    assertEquals(sql.indexOf("COUNT"), q.plainSql().indexOf("COUNT"));
    assertEquals(1.0, q.options().get("epsilon").number());
    assertEquals(1e-6, q.options().get("delta").number());
  }

  @Test
  void prepare_namedArgument_recordedUnderItsFunctionAndBlanked() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) "
        + "AVG(x, contribution_bounds_per_group => (-5, 1e2)) FROM t";
    PreparedQuery q = DpClauseParser.prepare(sql);
    List<NamedArgument> args = q.namedArguments().get(sql.indexOf("AVG"));
    assertEquals(1, args.size());
    assertEquals("contribution_bounds_per_group", args.get(0).name());
    assertEquals(-5.0, args.get(0).lower());
    assertEquals(100.0, args.get(0).upper());
    assertEquals(sql.indexOf("contribution"), args.get(0).nameOffset());
    assertTrue(q.plainSql().contains("AVG(x "), q.plainSql());
    assertFalse(q.plainSql().contains("=>"));
  }

  @Test
  void prepare_arrowAndClauseInsideLiteralsAndComments_untouched() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) /* a => (1, 2) */ "
        + "FROM t -- OPTIONS (epsilon = 9)\n";
    PreparedQuery q = DpClauseParser.prepare(sql);
    assertTrue(q.namedArguments().isEmpty());
    assertTrue(q.plainSql().contains("/* a => (1, 2) */"));
    assertEquals(1.0, q.options().get("epsilon").number());
  }

  @Test
  void prepare_whereClause_blankedAndDelimited() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM t "
        + "WHERE a IN (1, 2) AND b = 'x' GROUP BY c";
    PreparedQuery q = DpClauseParser.prepare(sql);
    assertEquals("a", q.tokens().get(q.whereStart()).text());
    assertTrue(q.tokens().get(q.whereEnd()).isWord("GROUP"));
    assertFalse(q.plainSql().contains("WHERE"));
    assertTrue(q.plainSql().contains("GROUP BY c"));
  }

  @Test
  void prepare_errorAfterCrlfAndTab_positionCountsUserText() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1)\r\n\tCOUNT(*)\r\n\tFROM t WHERE a = 'x";
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpClauseParser.prepare(sql));
    assertEquals(3, e.line());
    assertEquals(19, e.column());
    assertEquals("line 3, column 19: unterminated string literal", e.getMessage());
  }

  @Test
  void prepare_optionTuples_parsedAsNestedValues() {
    PreparedQuery q = DpClauseParser.prepare("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, "
        + "public_groups = (('a', 1), ('b''c', -2.5)), noise = LAPLACE) COUNT(*) FROM t");
    OptionValue groups = q.options().get("public_groups");
    assertEquals(OptionValue.Kind.TUPLE, groups.kind());
    assertEquals("b'c", groups.items().get(1).items().get(0).asKey());
    assertEquals(-2.5, groups.items().get(1).items().get(1).asKey());
    assertEquals(1L, groups.items().get(0).items().get(1).asKey());
    assertEquals("LAPLACE", q.options().get("noise").text());
  }

  @Test
  void prepare_missingClose_refusedAtEnd() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1";
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpClauseParser.prepare(sql));
    assertEquals(sql.length() + 1, e.column());
  }

  @Test
  void prepare_tooLongQuery_refused() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM t"
        + " ".repeat(DpClauseParser.MAX_QUERY_LENGTH);
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpClauseParser.prepare(sql));
    assertTrue(e.reason().contains("longer than"));
  }

  @Test
  void sourceText_offsetAndLineColumn_roundTrip() {
    SourceText t = new SourceText("ab\r\ncd\ref\ngh");
    for (int off = 0; off < t.text().length(); off++) {
      assertEquals(off, t.offset(t.line(off), t.column(off)), "offset " + off);
    }
    assertEquals(4, t.line(t.text().indexOf('g')));
    assertEquals(1, t.column(t.text().indexOf('g')));
  }
}
