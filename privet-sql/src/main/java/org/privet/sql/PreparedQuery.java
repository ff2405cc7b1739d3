package org.privet.sql;

import java.util.List;
import java.util.Map;

/**
 * The result of the first parsing stage: the DP clause and named arguments taken out of the user's
 * text, and the remaining plain SQL for JSqlParser, of the same length and line structure as the
 * original (removed text is blanked with spaces), so every JSqlParser position is a user position.
 *
 * @param source the user's text with its line index
 * @param explain whether the query began with {@code EXPLAIN}
 * @param selectOffset offset of the {@code SELECT} keyword
 * @param options the {@code OPTIONS} entries, keyed by lower-case name, in written order
 * @param optionKeyOffsets where each option's name was written
 * @param namedArguments the named arguments, keyed by the offset of their function's name
 * @param whereStart index of the first token of the WHERE condition, or -1 without WHERE
 * @param whereEnd index just past the WHERE condition's last token
 * @param plainSql the text handed to JSqlParser (the WHERE clause blanked: we parse it ourselves)
 * @param tokens the tokens of the user's text
 * @param derived the derived tables (WITH items, subqueries in FROM), blanked in {@code plainSql}
 *     (a subquery is replaced by its placeholder name), in written order
 */
record PreparedQuery(
    SourceText source,
    boolean explain,
    int selectOffset,
    Map<String, OptionValue> options,
    Map<String, Integer> optionKeyOffsets,
    Map<Integer, List<NamedArgument>> namedArguments,
    int whereStart,
    int whereEnd,
    String plainSql,
    List<SqlToken> tokens,
    List<Derived> derived) {

  /**
   * A derived table: {@code name} (the WITH item's name, or a subquery's placeholder that JSqlParser
   * sees as a table name), and its body: the tokens strictly between {@code open} and {@code close}
   * (the parentheses' token indexes).
   */
  record Derived(String name, int at, int open, int close, boolean cte) {}

  /** The derived table named {@code name} (CTE names ignoring case), or null. */
  Derived derived(String name) {
    for (Derived d : derived) {
      if (d.cte() ? d.name().equalsIgnoreCase(name) : d.name().equals(name)) {
        return d;
      }
    }
    return null;
  }

  /** The index of the token starting at {@code offset}, or -1. */
  int tokenAt(int offset) {
    int lo = 0;
    int hi = tokens.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int s = tokens.get(mid).start();
      if (s == offset) {
        return mid;
      } else if (s < offset) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return -1;
  }

  /** The offset of the first depth-0 word {@code keyword} after SELECT, or {@code fallback}. */
  int offsetOfWord(String keyword, int fallback) {
    int depth = 0;
    for (SqlToken t : tokens) {
      if (t.start() <= selectOffset) {
        continue;
      }
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && t.isWord(keyword)) {
        return t.start();
      }
    }
    return fallback;
  }

  /**
   * Whether the call whose name token starts at {@code nameOffset} mentions {@code column} as an
   * identifier anywhere inside its parentheses.
   */
  boolean callMentions(int nameOffset, String column) {
    int i = tokenAt(nameOffset);
    if (i < 0 || column == null) {
      return false;
    }
    int depth = 0;
    for (int j = i + 1; j < tokens.size(); j++) {
      SqlToken t = tokens.get(j);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        if (--depth <= 0) {
          return false;
        }
      } else if ((t.kind() == SqlToken.Kind.WORD || t.kind() == SqlToken.Kind.QUOTED_ID)
          && t.identifier().equalsIgnoreCase(column)) {
        return true;
      }
    }
    return false;
  }
}
