package org.privet.sql;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * First parsing stage: a small recursive-descent parser over {@link SqlTokenizer} tokens for the
 * parts of GoogleSQL that JSqlParser does not know: the leading {@code EXPLAIN}, the
 * {@code WITH DIFFERENTIAL_PRIVACY OPTIONS (...)} clause and {@code name => (lo, hi)} named
 * arguments. Each recognised span is parsed into values and then blanked out with spaces (line
 * breaks kept), so the remaining text parses as ordinary SQL and every position JSqlParser reports
 * is still a position in the user's text. It also refuses, with exact positions, constructs that
 * are easiest to see at token level (subqueries, set operations, joins, window functions, several
 * statements).
 */
final class DpClauseParser {
  /** Queries longer than this are refused outright (the parser is not meant for bulk text). */
  static final int MAX_QUERY_LENGTH = 100_000;
  /** Deeper parenthesis nesting is refused (it only serves to exhaust parser stacks). */
  static final int MAX_NESTING = 64;

  private final SourceText source;
  private final List<SqlToken> tokens;
  private final char[] plain;
  private int pos;
  private final List<PreparedQuery.Derived> derived = new java.util.ArrayList<>();

  private DpClauseParser(SourceText source) {
    this.source = source;
    this.tokens = SqlTokenizer.tokenize(source);
    this.plain = source.text().toCharArray();
  }

  static PreparedQuery prepare(String sql) {
    if (sql == null) {
      throw new IllegalArgumentException("sql must not be null");
    }
    SourceText source = new SourceText(sql);
    if (sql.length() > MAX_QUERY_LENGTH) {
      throw source.error(0, "query is longer than " + MAX_QUERY_LENGTH + " characters");
    }
    return new DpClauseParser(source).run();
  }

  private PreparedQuery run() {
    if (tokens.isEmpty()) {
      throw source.error(0, "empty query: expected SELECT WITH DIFFERENTIAL_PRIVACY ...");
    }
    refuseDeepNesting();
    boolean explain = false;
    if (peek().isWord("EXPLAIN")) {
      explain = true;
      blank(next());
    }
    if (peek().isWord("WITH")) {
      commonTableExpressions();
    }
    SqlToken select = peek();
    if (select == null || !select.isWord("SELECT")) {
      SqlToken at = select == null ? tokens.get(tokens.size() - 1) : select;
      throw source.error(at.start(), "expected SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (...):"
          + " only differentially private aggregate queries are accepted");
    }
    pos++;
    SqlToken with = peek();
    if (with != null && with.isWord("WITH") && peekAt(1) != null
        && peekAt(1).isWord("ANONYMIZATION")) {
      throw source.error(peekAt(1).start(), "the deprecated ANONYMIZATION clause (and its ANON_*"
          + " functions) is not supported; use WITH DIFFERENTIAL_PRIVACY");
    }
    if (with != null && with.isWord("WITH") && peekAt(1) != null
        && peekAt(1).isWord("AGGREGATION_THRESHOLD")) {
      throw source.error(peekAt(1).start(), "BigQuery's AGGREGATION_THRESHOLD clause is not"
          + " supported: a fixed threshold on the privacy units of a group is not differentially"
          + " private; use WITH DIFFERENTIAL_PRIVACY (min_privacy_units_per_group sets a threshold)");
    }
    if (with == null || !with.isWord("WITH") || peekAt(1) == null || !peekAt(1).isWord("DIFFERENTIAL_PRIVACY")) {
      int at = with == null ? select.end() : with.start();
      throw source.error(at, "missing WITH DIFFERENTIAL_PRIVACY after SELECT: only differentially"
          + " private aggregate queries are accepted");
    }
    pos += 2;
    Map<String, OptionValue> options = new LinkedHashMap<>();
    Map<String, Integer> keyOffsets = new LinkedHashMap<>();
    int clauseEnd = peekAt(-1).end();
    if (peek() != null && peek().isWord("OPTIONS")) {
      pos++;
      expectSymbol("(", "expected '(' after OPTIONS");
      if (peek() != null && peek().isSymbol(")")) {
        pos++;
      } else {
        while (true) {
          SqlToken key = peek();
          if (key == null || key.kind() != SqlToken.Kind.WORD) {
            throw errorAtCurrent("expected an option name");
          }
          pos++;
          String name = key.text().toLowerCase(Locale.ROOT);
          if (options.containsKey(name)) {
            throw source.error(key.start(), "option '" + name + "' is given twice");
          }
          expectSymbol("=", "expected '=' after option '" + name + "'");
          options.put(name, parseValue());
          keyOffsets.put(name, key.start());
          if (peek() != null && peek().isSymbol(".")) {
            throw errorAtCurrent("option '" + name + "': qualified names (path expressions such"
                + " as table.column) are not supported; name the column alone");
          }
          if (endOfListItem("expected ',' or ')' in OPTIONS")) {
            break;
          }
        }
      }
      clauseEnd = peekAt(-1).end();
    }
    blank(with.start(), clauseEnd);
    int bodyStart = pos;
    checkStatementEnd();
    Map<Integer, List<NamedArgument>> named = parseNamedArguments(bodyStart);
    refuseTokenLevelConstructs(bodyStart);
    int[] where = whereClause(bodyStart);
    blankTabsOutsideLiterals();
    return new PreparedQuery(source, explain, select.start(), options, keyOffsets, named,
        where[0], where[1], new String(plain), tokens, List.copyOf(derived));
  }

  /** After a list item: consumes ',' (false: more follow) or ')' (true: the list ended). */
  private boolean endOfListItem(String message) {
    SqlToken sep = peek();
    if (sep != null && (sep.isSymbol(",") || sep.isSymbol(")"))) {
      pos++;
      return sep.isSymbol(")");
    }
    throw errorAtCurrent(message);
  }

  /** Bounds the recursion of every later stage (ours and JSqlParser's). */
  private void refuseDeepNesting() {
    int depth = 0;
    for (SqlToken t : tokens) {
      if (t.isSymbol("(")) {
        if (++depth > MAX_NESTING) {
          throw source.error(t.start(), "parentheses are nested more than " + MAX_NESTING + " deep");
        }
      } else if (t.isSymbol(")")) {
        depth--;
      }
    }
  }

  // --- OPTIONS values -----------------------------------------------------------------------

  private OptionValue parseValue() {
    SqlToken t = peek();
    if (t == null) {
      throw errorAtCurrent("expected an option value");
    }
    if (t.isSymbol("(")) {
      pos++;
      List<OptionValue> items = new ArrayList<>();
      if (peek() != null && peek().isSymbol(")")) {
        pos++;
        return new OptionValue(OptionValue.Kind.TUPLE, "()", Double.NaN, items, t.start());
      }
      do {
        SqlToken name = peek();
        if (name != null && name.kind() == SqlToken.Kind.WORD && peekAt(1) != null
            && peekAt(1).isSymbol("=>")) {
          // name => value, e.g. max_error = (n => 50, mean_hours => 0.5)
          pos += 2;
          items.add(new OptionValue(OptionValue.Kind.NAMED, name.text(), Double.NaN,
              List.of(parseValue()), name.start()));
        } else {
          items.add(parseValue());
        }
      } while (!endOfListItem("expected ',' or ')' in a value list"));
      return new OptionValue(OptionValue.Kind.TUPLE, "(...)", Double.NaN, items, t.start());
    }
    if (t.isSymbol("-") || t.isSymbol("+") || t.kind() == SqlToken.Kind.NUMBER) {
      double v = parseSignedNumber("expected a number");
      return new OptionValue(OptionValue.Kind.NUMBER, source.text().substring(t.start(), peekAt(-1).end()),
          v, List.of(), t.start());
    }
    pos++;
    switch (t.kind()) {
      case STRING:
        return new OptionValue(OptionValue.Kind.STRING, t.stringValue(), Double.NaN, List.of(), t.start());
      case QUOTED_ID:
        return new OptionValue(OptionValue.Kind.IDENTIFIER, t.identifier(), Double.NaN, List.of(), t.start());
      case WORD:
        if (t.isWord("TRUE") || t.isWord("FALSE")) {
          return new OptionValue(OptionValue.Kind.BOOLEAN, t.text().toLowerCase(Locale.ROOT), Double.NaN,
              List.of(), t.start());
        }
        if (t.isWord("NULL")) {
          return new OptionValue(OptionValue.Kind.NULL, "NULL", Double.NaN, List.of(), t.start());
        }
        if (t.isWord("NaN") || t.isWord("Infinity") || t.isWord("inf")) {
          double v = t.isWord("NaN") ? Double.NaN : Double.POSITIVE_INFINITY;
          return new OptionValue(OptionValue.Kind.NUMBER, t.text(), v, List.of(), t.start());
        }
        return new OptionValue(OptionValue.Kind.IDENTIFIER, t.text(), Double.NaN, List.of(), t.start());
      default:
        throw source.error(t.start(), "expected an option value (a number, string, identifier or"
            + " parenthesised list), found '" + t.text() + "'");
    }
  }

  /** Parses {@code [+|-] NUMBER} (also NaN / Infinity words, so they can be refused by range). */
  private double parseSignedNumber(String expected) {
    SqlToken t = peek();
    double sign = 1;
    if (t != null && (t.isSymbol("-") || t.isSymbol("+"))) {
      sign = t.isSymbol("-") ? -1 : 1;
      pos++;
      t = peek();
    }
    if (t != null && (t.isWord("NaN") || t.isWord("Infinity") || t.isWord("inf"))) {
      pos++;
      return t.isWord("NaN") ? Double.NaN : sign * Double.POSITIVE_INFINITY;
    }
    if (t == null || t.kind() != SqlToken.Kind.NUMBER) {
      throw errorAtCurrent(expected);
    }
    pos++;
    return sign * Double.parseDouble(t.text());
  }

  // --- named arguments ----------------------------------------------------------------------

  /**
   * Finds every {@code name => (lo, hi)} in the body, checks it is a trailing argument of a function
   * call, records it under the offset of that function's name, and blanks it (with its leading
   * comma).
   */
  private Map<Integer, List<NamedArgument>> parseNamedArguments(int bodyStart) {
    Map<Integer, List<NamedArgument>> out = new LinkedHashMap<>();
    Deque<Integer> functionAt = new ArrayDeque<>();
    for (int i = bodyStart; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      if (t.isSymbol("(")) {
        SqlToken before = tokens.get(i - 1);
        boolean call = before.kind() == SqlToken.Kind.WORD || before.kind() == SqlToken.Kind.QUOTED_ID;
        functionAt.push(call ? before.start() : -1);
      } else if (t.isSymbol(")")) {
        if (!functionAt.isEmpty()) {
          functionAt.pop();
        }
      } else if (t.isSymbol("=>")) {
        SqlToken name = tokens.get(i - 1);
        if (name.kind() != SqlToken.Kind.WORD || i - 2 < bodyStart) {
          throw source.error(t.start(), "'=>' must follow an argument name");
        }
        Integer fn = functionAt.peek();
        if (fn == null || fn < 0 || DpFunctions.of(tokens.get(tokenIndexAt(fn)).text()) == null) {
          throw source.error(name.start(), "named argument '" + name.text()
              + "' is only allowed inside a DP aggregate call");
        }
        SqlToken comma = tokens.get(i - 2);
        if (!comma.isSymbol(",")) {
          throw source.error(name.start(), "named argument '" + name.text()
              + "' must come after the aggregated expression, e.g. AVG(x, " + name.text() + " => (0, 100))");
        }
        pos = i + 1;
        SqlToken open = peek();
        if (name.text().equalsIgnoreCase(AggregateCallParser.REPORT_FORMAT)) {
          // report_format => "JSON" (ZetaSQL writes the word as a string literal).
          if (open == null || !(open.kind() == SqlToken.Kind.WORD
              || open.kind() == SqlToken.Kind.QUOTED_ID || open.kind() == SqlToken.Kind.STRING)) {
            throw errorAtCurrent("expected a report format after '=>', e.g. \"JSON\"");
          }
          pos++;
          SqlToken after = peek();
          if (after == null || !(after.isSymbol(")") || after.isSymbol(","))) {
            throw errorAtCurrent("expected ')' or another named argument after the report format");
          }
          String word = open.kind() == SqlToken.Kind.WORD ? open.text()
              : open.text().substring(1, open.text().length() - 1);
          out.computeIfAbsent(fn, k -> new ArrayList<>()).add(new NamedArgument(
              name.text().toLowerCase(Locale.ROOT), Double.NaN, Double.NaN, name.start(), false,
              word));
          blank(comma.start(), peekAt(-1).end());
          i = pos - 1;
          continue;
        }
        if (name.text().equalsIgnoreCase(AggregateCallParser.EPSILON)) {
          // epsilon => number: ZetaSQL's per-aggregation budget.
          double value = parseSignedNumber("expected a number after 'epsilon =>'");
          SqlToken after = peek();
          if (after == null || !(after.isSymbol(")") || after.isSymbol(","))) {
            throw errorAtCurrent("expected ')' or another named argument after the epsilon");
          }
          out.computeIfAbsent(fn, k -> new ArrayList<>()).add(new NamedArgument(
              AggregateCallParser.EPSILON, value, Double.NaN, name.start()));
          blank(comma.start(), peekAt(-1).end());
          i = pos - 1;
          continue;
        }
        if (open != null && open.kind() == SqlToken.Kind.WORD
            && open.text().equalsIgnoreCase("AUTO")) {
          pos++;
          SqlToken after = peek();
          if (after == null || !(after.isSymbol(")") || after.isSymbol(","))) {
            throw errorAtCurrent("expected ')' or another named argument after AUTO");
          }
          out.computeIfAbsent(fn, k -> new ArrayList<>()).add(new NamedArgument(
              name.text().toLowerCase(Locale.ROOT), Double.NaN, Double.NaN, name.start(), true));
          blank(comma.start(), peekAt(-1).end());
          i = pos - 1;
          continue;
        }
        if (open == null || !open.isSymbol("(")) {
          throw errorAtCurrent("expected '(lower, upper)' after '=>'");
        }
        pos++;
        double lower = parseSignedNumber("contribution bounds must be numeric literals: (lower, upper)");
        expectSymbol(",", "expected ',' between the lower and upper bound");
        double upper = parseSignedNumber("contribution bounds must be numeric literals: (lower, upper)");
        expectSymbol(")", "expected ')' after the upper bound");
        SqlToken after = peek();
        if (after == null || !(after.isSymbol(")") || after.isSymbol(","))) {
          throw errorAtCurrent("expected ')' or another named argument after the bounds");
        }
        String key = name.text().toLowerCase(Locale.ROOT);
        out.computeIfAbsent(fn, k -> new ArrayList<>()).add(new NamedArgument(key, lower, upper, name.start()));
        blank(comma.start(), peekAt(-1).end());
        i = pos - 1;
      }
    }
    return out;
  }

  private int tokenIndexAt(int offset) {
    for (int i = 0; i < tokens.size(); i++) {
      if (tokens.get(i).start() == offset) {
        return i;
      }
    }
    throw new IllegalStateException("no token at " + offset);
  }

  // --- token-level refusals -----------------------------------------------------------------

  private void checkStatementEnd() {
    for (int i = pos; i < tokens.size(); i++) {
      if (tokens.get(i).isSymbol(";")) {
        if (i != tokens.size() - 1) {
          throw source.error(tokens.get(i + 1).start(), "only one statement is allowed");
        }
        blank(tokens.get(i));
      }
    }
  }

  /**
   * {@code WITH name AS (body) [, name AS (body)]...} before the SELECT: each body is a derived
   * table (validated by {@link DerivedTableParser} when bound); the whole prefix is blanked for
   * JSqlParser, which then sees each name as a table name in FROM.
   */
  private void commonTableExpressions() {
    SqlToken with = next();
    while (true) {
      SqlToken name = peek();
      if (name == null || (name.kind() != SqlToken.Kind.WORD && name.kind() != SqlToken.Kind.QUOTED_ID)
          || name.isWord("SELECT") || name.isWord("RECURSIVE")) {
        throw errorAtCurrent("expected a name after WITH (WITH name AS (SELECT ...) SELECT WITH"
            + " DIFFERENTIAL_PRIVACY ...)");
      }
      pos++;
      if (peek() == null || !peek().isWord("AS")) {
        throw errorAtCurrent("expected AS after the WITH item's name (column lists are not supported)");
      }
      pos++;
      if (peek() == null || !peek().isSymbol("(")) {
        throw errorAtCurrent("expected '(' after AS");
      }
      int open = pos;
      int close = matchingParen(open);
      for (PreparedQuery.Derived d : derived) {
        if (d.name().equalsIgnoreCase(name.identifier())) {
          throw source.error(name.start(), "WITH item '" + name.identifier() + "' is defined twice");
        }
      }
      derived.add(new PreparedQuery.Derived(name.identifier(), name.start(), open, close, true));
      pos = close + 1;
      if (peek() != null && peek().isSymbol(",")) {
        pos++;
        continue;
      }
      break;
    }
    blank(with.start(), tokens.get(pos - 1).end());
  }

  /** The index of the ')' matching the '(' at {@code open}; refuses an unclosed one. */
  private int matchingParen(int open) {
    int depth = 0;
    for (int i = open; i < tokens.size(); i++) {
      if (tokens.get(i).isSymbol("(")) {
        depth++;
      } else if (tokens.get(i).isSymbol(")") && --depth == 0) {
        return i;
      }
    }
    throw source.error(tokens.get(open).start(), "unclosed '('");
  }

  /**
   * A subquery directly in FROM ({@code FROM (SELECT ...) alias}, also after JOIN or a comma): a
   * derived table. Its text is replaced by a placeholder name of at most its length, so that
   * JSqlParser sees a table and every position stays the user's.
   */
  private int derivedInFrom(int open) {
    int close = matchingParen(open);
    String name = "__d" + derived.size();
    SqlToken o = tokens.get(open);
    SqlToken c = tokens.get(close);
    blank(o.start(), c.end());
    name.getChars(0, name.length(), plain, o.start());
    derived.add(new PreparedQuery.Derived(name, o.start(), open, close, false));
    return close;
  }

  private void refuseTokenLevelConstructs(int bodyStart) {
    Deque<Integer> parens = new ArrayDeque<>();
    boolean inFrom = false;
    for (int i = bodyStart; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      if (parens.isEmpty() && t.kind() == SqlToken.Kind.WORD) {
        if (t.isWord("FROM")) {
          inFrom = true;
        } else if (t.isWord("WHERE") || t.isWord("GROUP") || t.isWord("ORDER") || t.isWord("LIMIT")
            || t.isWord("HAVING")) {
          inFrom = false;
        }
      }
      if (inFrom && parens.isEmpty() && t.isSymbol("(") && i + 1 < tokens.size()
          && tokens.get(i + 1).isWord("SELECT") && i > 0 && (tokens.get(i - 1).isWord("FROM")
              || tokens.get(i - 1).isWord("JOIN") || tokens.get(i - 1).isSymbol(","))) {
        i = derivedInFrom(i);
        continue;
      }
      if (t.isSymbol("(")) {
        parens.push(i);
      } else if (t.isSymbol(")") && !parens.isEmpty()) {
        parens.pop();
      } else if (t.kind() != SqlToken.Kind.WORD) {
        continue;
      } else if (t.isWord("SELECT") || t.isWord("VALUES")) {
        if (!parens.isEmpty() && containsLimit(i)) {
          throw source.error(t.start(), "LIMIT/OFFSET before aggregation is not allowed: it keeps"
              + " rows by position, which breaks the contribution bounds (subqueries are refused)");
        }
        throw source.error(t.start(), "subqueries are not allowed: a DP query reads one dataset"
            + " directly so its contribution bounds hold");
      } else if (t.isWord("UNION") || t.isWord("INTERSECT") || t.isWord("EXCEPT") || t.isWord("MINUS")) {
        throw source.error(t.start(), "set operations (" + t.text().toUpperCase(Locale.ROOT)
            + ") are not allowed: they can combine rows of one privacy unit beyond its bounds");
      } else if (t.isWord("OVER") || t.isWord("WINDOW") || t.isWord("QUALIFY")) {
        throw source.error(t.start(), "window functions are not allowed in a DP query");
      }
    }
  }

  /**
   * Finds the WHERE clause (at parenthesis depth 0) and blanks it for JSqlParser: FilterParser
   * parses it from the tokens instead. Returns {first condition token, end token}, or {-1, -1}.
   */
  private int[] whereClause(int bodyStart) {
    int depth = 0;
    int keyword = -1;
    boolean fromSeen = false;
    SqlToken laterClause = null;
    int i = bodyStart;
    for (; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && keyword < 0 && t.isWord("FROM")) {
        fromSeen = true;
      } else if (depth == 0 && keyword < 0 && (t.isWord("GROUP") || t.isWord("ORDER")
          || t.isWord("LIMIT") || t.isWord("HAVING") || t.isWord("OFFSET"))) {
        laterClause = laterClause == null ? t : laterClause;
      } else if (depth == 0 && keyword < 0 && t.isWord("WHERE")) {
        if (!fromSeen || laterClause != null) {
          throw source.error(t.start(), "WHERE must come after FROM and before "
              + (laterClause == null ? "GROUP BY" : laterClause.text().toUpperCase(Locale.ROOT)));
        }
        keyword = i;
      } else if (depth == 0 && keyword >= 0 && (t.isWord("GROUP") || t.isWord("ORDER")
          || t.isWord("LIMIT") || t.isWord("OFFSET") || t.isWord("HAVING") || t.isWord("FETCH")
          || t.isWord("WHERE") || t.isSymbol(";"))) {
        break;
      }
    }
    if (keyword < 0) {
      return new int[] {-1, -1};
    }
    int endOffset = i < tokens.size() ? tokens.get(i).start() : plain.length;
    blank(tokens.get(keyword).start(), endOffset);
    return new int[] {keyword + 1, i};
  }

  /** Whether a LIMIT/OFFSET/FETCH/TOP appears between token i and the end of its parenthesis. */
  private boolean containsLimit(int i) {
    int depth = 0;
    for (int j = i; j < tokens.size(); j++) {
      SqlToken t = tokens.get(j);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        if (depth-- == 0) {
          return false;
        }
      } else if (t.isWord("LIMIT") || t.isWord("OFFSET") || t.isWord("FETCH") || t.isWord("TOP")
          || t.isWord("SAMPLE") || t.isWord("TABLESAMPLE")) {
        return true;
      }
    }
    return false;
  }

  // --- helpers ------------------------------------------------------------------------------

  private SqlToken peek() {
    return peekAt(0);
  }

  private SqlToken peekAt(int delta) {
    int i = pos + delta;
    return i >= 0 && i < tokens.size() ? tokens.get(i) : null;
  }

  private SqlToken next() {
    return tokens.get(pos++);
  }

  private void expectSymbol(String symbol, String message) {
    SqlToken t = peek();
    if (t == null || !t.isSymbol(symbol)) {
      throw errorAtCurrent(message);
    }
    pos++;
  }

  private DpSqlException errorAtCurrent(String message) {
    SqlToken t = peek();
    if (t == null) {
      return source.error(source.text().length(), message + " (the query ended)");
    }
    return source.error(t.start(), message);
  }

  private void blank(SqlToken t) {
    blank(t.start(), t.end());
  }

  private void blank(int start, int end) {
    for (int i = start; i < end; i++) {
      if (plain[i] != '\n' && plain[i] != '\r') {
        plain[i] = ' ';
      }
    }
  }

  /** JavaCC may expand tabs when counting columns; tabs outside literals become spaces. */
  private void blankTabsOutsideLiterals() {
    int k = 0;
    for (int i = 0; i < plain.length; i++) {
      while (k < tokens.size() && tokens.get(k).end() <= i) {
        k++;
      }
      boolean inLiteral = k < tokens.size() && tokens.get(k).start() <= i
          && tokens.get(k).kind() != SqlToken.Kind.WORD && tokens.get(k).kind() != SqlToken.Kind.SYMBOL;
      if (plain[i] == '\t' && !inLiteral) {
        plain[i] = ' ';
      }
    }
  }
}
