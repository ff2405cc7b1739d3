package org.privet.sql;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privet.engine.Filter;
import org.privet.engine.spi.ColumnLiterals;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

/**
 * A recursive-descent parser for WHERE clauses over {@link SqlTokenizer} tokens, producing an
 * engine {@link Filter}. It accepts exactly what a filter can express: comparisons of a column with
 * a literal, {@code [NOT] IN (literals)}, {@code [NOT] BETWEEN literal AND literal}, {@code IS [NOT]
 * NULL}, a bare boolean column, combined with AND, OR, NOT and parentheses. Everything else
 * (functions, arithmetic, subqueries, parameters) is refused with its position.
 *
 * <p>It is our own rather than JSqlParser's because JSqlParser 5.3 mis-parses {@code a IN (...) AND
 * b = 1} as {@code a IN ((...) AND b = 1)} (JSqlParser issue #2244), and because a whitelist grammar
 * gives an exact position for every refusal.
 *
 * <pre>
 * or        := and (OR and)*
 * and       := not (AND not)*
 * not       := NOT not | '(' or ')' | predicate
 * predicate := operand [cmp operand | [NOT] IN '(' literal, ... ')'
 *                       | [NOT] BETWEEN literal AND literal | IS [NOT] NULL]
 * operand   := column | literal
 * literal   := ['-'|'+'] number | 'string' | TRUE | FALSE | NULL | DATE 'yyyy-mm-dd'
 * </pre>
 */
final class FilterParser {
  private final SourceText source;
  private final List<SqlToken> tokens;
  private final int end;
  private final ColumnResolver columns;
  private final String privacyUnit;
  private int pos;

  /** Resolves a written column name to the dataset's column, refusing unknown ones. */
  interface ColumnResolver {
    ResolvedColumn resolve(String written, int offset);

    /** A qualified name {@code qualifier.written}, or null when qualified names are not supported. */
    default ResolvedColumn resolveQualified(String qualifier, String written, int offset) {
      return null;
    }
  }

  /** A dataset column: its exact name, type and schema entry. */
  record ResolvedColumn(String name, ColumnType type, TableSchema.Column column) {}

  /** An operand: exactly one of column or literal is set. */
  private record Operand(ResolvedColumn column, Object literal, boolean isNull, int offset) {
    boolean isColumn() {
      return column != null;
    }
  }

  private FilterParser(SourceText source, List<SqlToken> tokens, int start, int end,
      ColumnResolver columns, String privacyUnit) {
    this.source = source;
    this.tokens = tokens;
    this.pos = start;
    this.end = end;
    this.columns = columns;
    this.privacyUnit = privacyUnit;
  }

  /**
   * Parses tokens {@code [start, end)} as one condition.
   *
   * @param privacyUnit the privacy unit column's exact name, or null if each row is a unit
   */
  static Filter parse(SourceText source, List<SqlToken> tokens, int start, int end,
      ColumnResolver columns, String privacyUnit) {
    FilterParser p = new FilterParser(source, tokens, start, end, columns, privacyUnit);
    if (start >= end) {
      throw p.errorHere("expected a condition after WHERE");
    }
    Filter f = p.parseOr();
    if (p.pos < end) {
      throw p.errorHere("unexpected '" + tokens.get(p.pos).text() + "' in the WHERE clause");
    }
    return f;
  }

  private Filter parseOr() {
    List<Filter> terms = new ArrayList<>();
    terms.add(parseAnd());
    while (acceptWord("OR")) {
      terms.add(parseAnd());
    }
    return terms.size() == 1 ? terms.get(0) : new Filter.Or(terms);
  }

  private Filter parseAnd() {
    List<Filter> terms = new ArrayList<>();
    terms.add(parseNot());
    while (acceptWord("AND")) {
      terms.add(parseNot());
    }
    return terms.size() == 1 ? terms.get(0) : new Filter.And(terms);
  }

  private Filter parseNot() {
    if (acceptWord("NOT")) {
      return new Filter.Not(parseNot());
    }
    if (atSymbol("(")) {
      pos++;
      if (atWord("SELECT") || atWord("VALUES")) {
        throw errorHere("subqueries are not allowed");
      }
      Filter inner = parseOr();
      expect(")", "expected ')'");
      return inner;
    }
    return parsePredicate();
  }

  private Filter parsePredicate() {
    Operand left = parseOperand();
    SqlToken t = peek();
    Filter.Op op = t == null ? null : comparison(t);
    if (op != null) {
      pos++;
      if (atWord("ANY") || atWord("ALL") || atWord("SOME")) {
        throw errorHere("quantified comparisons (ANY/ALL/SOME) are not allowed");
      }
      Operand right = parseOperand();
      if (left.isColumn() && right.isColumn()) {
        throw source.error(t.start(), "comparing two columns is not supported; compare a column"
            + " with a literal");
      }
      if (!left.isColumn() && !right.isColumn()) {
        throw source.error(left.offset(), "a condition must compare a column with a literal");
      }
      Operand column = left.isColumn() ? left : right;
      Operand literal = left.isColumn() ? right : left;
      if (literal.isNull()) {
        throw source.error(literal.offset(), "comparison with NULL is never true; use IS NULL or"
            + " IS NOT NULL");
      }
      checkType(column, literal);
      Filter.Op effective = left.isColumn() ? op : flip(op);
      checkConverts(column, effective, literal);
      return new Filter.Compare(column.column().name(), effective, literal.literal());
    }
    if (!left.isColumn()) {
      throw source.error(left.offset(), "a condition must compare a column with a literal");
    }
    if (t == null || t.isWord("AND") || t.isWord("OR") || t.isSymbol(")")) {
      if (left.column().type() != ColumnType.BOOLEAN) {
        throw source.error(left.offset(), "column '" + left.column().name()
            + "' is not boolean: compare it with a literal");
      }
      return new Filter.Compare(left.column().name(), Filter.Op.EQ, Boolean.TRUE);
    }
    if (t.isWord("IS")) {
      pos++;
      boolean negated = acceptWord("NOT");
      if (!acceptWord("NULL")) {
        throw errorHere("expected NULL after IS" + (negated ? " NOT" : ""));
      }
      Filter f = new Filter.IsNull(left.column().name());
      return negated ? new Filter.Not(f) : f;
    }
    boolean negated = false;
    if (t.isWord("NOT")) {
      pos++;
      negated = true;
      t = peek();
      if (t == null) {
        throw errorHere("expected IN or BETWEEN after NOT");
      }
    }
    if (t.isWord("IN")) {
      pos++;
      expect("(", "expected '(' after IN");
      if (atWord("SELECT") || atWord("VALUES")) {
        throw errorHere("subqueries are not allowed: IN takes a list of literals");
      }
      List<Object> values = new ArrayList<>();
      do {
        Operand v = parseOperand();
        if (v.isColumn()) {
          throw source.error(v.offset(), "IN takes a list of literal values");
        }
        if (v.isNull()) {
          throw source.error(v.offset(), "NULL in an IN list never matches; use IS NULL");
        }
        checkType(left, v);
        checkConverts(left, Filter.Op.EQ, v);
        values.add(v.literal());
      } while (accept(","));
      expect(")", "expected ',' or ')' in the IN list");
      Filter f = new Filter.In(left.column().name(), values);
      return negated ? new Filter.Not(f) : f;
    }
    if (t.isWord("BETWEEN")) {
      pos++;
      Operand low = parseLiteralOperand("BETWEEN takes literal bounds");
      if (!acceptWord("AND")) {
        throw errorHere("expected AND in BETWEEN ... AND ...");
      }
      Operand high = parseLiteralOperand("BETWEEN takes literal bounds");
      checkType(left, low);
      checkType(left, high);
      checkConverts(left, Filter.Op.GE, low);
      checkConverts(left, Filter.Op.LE, high);
      String c = left.column().name();
      Filter f = new Filter.And(List.of(new Filter.Compare(c, Filter.Op.GE, low.literal()),
          new Filter.Compare(c, Filter.Op.LE, high.literal())));
      return negated ? new Filter.Not(f) : f;
    }
    if (t.isWord("LIKE") || t.isWord("ILIKE") || t.isWord("SIMILAR") || t.isWord("REGEXP")
        || t.isWord("GLOB")) {
      throw source.error(t.start(), t.text().toUpperCase(Locale.ROOT) + " is not supported in WHERE;"
          + " use =, <>, <, <=, >, >=, IN, BETWEEN or IS NULL");
    }
    if (isArithmetic(t)) {
      throw source.error(t.start(), "arithmetic is not supported in WHERE; compare a column with a"
          + " literal");
    }
    throw source.error(t.start(), "unexpected '" + t.text() + "' in the WHERE clause");
  }

  private Operand parseLiteralOperand(String message) {
    Operand o = parseOperand();
    if (o.isColumn() || o.isNull()) {
      throw source.error(o.offset(), message);
    }
    return o;
  }

  private Operand parseOperand() {
    SqlToken t = peek();
    if (t == null) {
      throw errorHere("expected a column or a literal");
    }
    int start = t.start();
    if (t.isSymbol("-") || t.isSymbol("+")) {
      pos++;
      SqlToken n = peek();
      if (n == null || n.kind() != SqlToken.Kind.NUMBER) {
        throw source.error(t.start(), "arithmetic is not supported in WHERE; compare a column with"
            + " a literal");
      }
      pos++;
      Object v = number(n);
      if (t.isSymbol("-")) {
        v = v instanceof Long l ? (Object) (-l) : (Object) (-(Double) v);
      }
      return new Operand(null, v, false, start);
    }
    switch (t.kind()) {
      case NUMBER -> {
        pos++;
        return new Operand(null, number(t), false, start);
      }
      case STRING -> {
        pos++;
        return new Operand(null, t.stringValue(), false, start);
      }
      case QUOTED_ID -> {
        pos++;
        return column(t);
      }
      case SYMBOL -> {
        if (t.isSymbol("?") || t.isSymbol(":") || t.isSymbol("@") || t.isSymbol("$")) {
          throw source.error(start, "query parameters and variables are not allowed");
        }
        if (t.isSymbol("(")) {
          throw source.error(start, "parenthesised values are not supported; compare a column"
              + " with a literal");
        }
        throw source.error(start, "unexpected '" + t.text() + "' in the WHERE clause");
      }
      default -> {
        // a WORD: keyword literal, function call or column
      }
    }
    String upper = t.text().toUpperCase(Locale.ROOT);
    pos++;
    switch (upper) {
      case "TRUE", "FALSE":
        return new Operand(null, Boolean.valueOf(upper.equals("TRUE")), false, start);
      case "NULL":
        return new Operand(null, null, true, start);
      case "DATE":
        if (atString()) {
          SqlToken d = tokens.get(pos++);
          try {
            return new Operand(null, LocalDate.parse(d.stringValue()), false, start);
          } catch (DateTimeParseException e) {
            throw source.error(d.start(), "DATE literal must be 'yyyy-mm-dd'");
          }
        }
        break;
      case "EXISTS":
        throw source.error(start, "subqueries (EXISTS) are not allowed");
      case "CASE":
        throw source.error(start, "CASE expressions are not supported in WHERE");
      case "SELECT":
        throw source.error(start, "subqueries are not allowed");
      default:
        break;
    }
    if (atSymbol("(")) {
      refuseFunction(t);
    }
    return column(t);
  }

  /** Refuses a function call, naming the privacy unit column when it is an argument. */
  private void refuseFunction(SqlToken name) {
    String upper = name.text().toUpperCase(Locale.ROOT);
    int depth = 0;
    for (int i = pos; i < end; i++) {
      SqlToken a = tokens.get(i);
      if (a.isSymbol("(")) {
        depth++;
      } else if (a.isSymbol(")") && --depth == 0) {
        break;
      } else if (privacyUnit != null && (a.kind() == SqlToken.Kind.WORD || a.kind() == SqlToken.Kind.QUOTED_ID)
          && a.identifier().equalsIgnoreCase(privacyUnit)) {
        throw source.error(name.start(), "functions on the privacy unit column '" + privacyUnit
            + "' are not allowed");
      }
    }
    if (DpFunctions.isAggregate(upper)) {
      throw source.error(name.start(), "aggregate function " + upper + " is not allowed in WHERE");
    }
    throw source.error(name.start(), "function " + upper + " is not supported in WHERE; compare a"
        + " column with a literal");
  }

  private Operand column(SqlToken t) {
    ResolvedColumn resolved = null;
    if (atSymbol(".")) {
      SqlToken name = pos + 1 < end ? tokens.get(pos + 1) : null;
      if (name != null && (name.kind() == SqlToken.Kind.WORD || name.kind() == SqlToken.Kind.QUOTED_ID)) {
        resolved = columns.resolveQualified(t.identifier(), name.identifier(), t.start());
      }
      if (resolved == null) {
        throw source.error(t.start(), "qualified column names are not supported; write the column"
            + " name only");
      }
      pos += 2;
    }
    Operand o = new Operand(resolved != null ? resolved : columns.resolve(t.identifier(), t.start()),
        null, false, t.start());
    SqlToken next = peek();
    if (next != null && isArithmetic(next) && privacyUnit != null
        && o.column().name().equals(privacyUnit)) {
      throw source.error(t.start(), "arithmetic on the privacy unit column '" + privacyUnit
          + "' is not allowed");
    }
    return o;
  }

  private void checkType(Operand column, Operand literal) {
    ColumnType type = column.column().type();
    Object v = literal.literal();
    boolean ok = switch (type) {
      case INTEGER, FLOATING, DECIMAL -> v instanceof Long || v instanceof Double;
      case STRING -> v instanceof String;
      case BOOLEAN -> v instanceof Boolean;
      case DATE, TIMESTAMP -> v instanceof LocalDate || v instanceof String;
      case OTHER -> v instanceof String;
    };
    if (!ok) {
      throw source.error(literal.offset(), "column '" + column.column().name() + "' has type "
          + type.name().toLowerCase(Locale.ROOT) + " but the literal is a "
          + kindOf(v));
    }
  }

  /**
   * Refuses, with the literal's position, a literal that does not convert to its column's type
   * (a date that is no date, a timestamp outside years 1..9999, a column type that takes no
   * literal): the engine types every literal in Java before the charge ({@link ColumnLiterals}),
   * so that no conversion is left for the database to fail on when a row matches.
   */
  private void checkConverts(Operand column, Filter.Op op, Operand literal) {
    try {
      ColumnLiterals.compare(column.column().column(), op, literal.literal());
    } catch (IllegalArgumentException e) {
      throw source.error(literal.offset(), e.getMessage());
    }
  }

  private static String kindOf(Object v) {
    if (v instanceof String) {
      return "string";
    } else if (v instanceof Boolean) {
      return "boolean";
    } else if (v instanceof LocalDate) {
      return "date";
    }
    return "number";
  }

  private Object number(SqlToken t) {
    String s = t.text();
    if (!s.contains(".") && !s.contains("e") && !s.contains("E")) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException tooLong) {
        // fall through to double
      }
    }
    double d = Double.parseDouble(s);
    if (!Double.isFinite(d)) {
      throw source.error(t.start(), "numeric literal out of range");
    }
    return d;
  }

  private static Filter.Op comparison(SqlToken t) {
    if (t.kind() != SqlToken.Kind.SYMBOL) {
      return null;
    }
    return switch (t.text()) {
      case "=" -> Filter.Op.EQ;
      case "<>", "!=" -> Filter.Op.NE;
      case "<" -> Filter.Op.LT;
      case "<=" -> Filter.Op.LE;
      case ">" -> Filter.Op.GT;
      case ">=" -> Filter.Op.GE;
      default -> null;
    };
  }

  private static Filter.Op flip(Filter.Op op) {
    return switch (op) {
      case LT -> Filter.Op.GT;
      case LE -> Filter.Op.GE;
      case GT -> Filter.Op.LT;
      case GE -> Filter.Op.LE;
      default -> op;
    };
  }

  private static boolean isArithmetic(SqlToken t) {
    return t.kind() == SqlToken.Kind.SYMBOL && (t.text().equals("+") || t.text().equals("-")
        || t.text().equals("*") || t.text().equals("/") || t.text().equals("%") || t.text().equals("||"));
  }

  // --- token helpers ------------------------------------------------------------------------

  private SqlToken peek() {
    return pos < end ? tokens.get(pos) : null;
  }

  private boolean atWord(String w) {
    SqlToken t = peek();
    return t != null && t.isWord(w);
  }

  private boolean atSymbol(String s) {
    SqlToken t = peek();
    return t != null && t.isSymbol(s);
  }

  private boolean atString() {
    SqlToken t = peek();
    return t != null && t.kind() == SqlToken.Kind.STRING;
  }

  private boolean acceptWord(String w) {
    if (atWord(w)) {
      pos++;
      return true;
    }
    return false;
  }

  private boolean accept(String symbol) {
    if (atSymbol(symbol)) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(String symbol, String message) {
    if (!accept(symbol)) {
      throw errorHere(message);
    }
  }

  private DpSqlException errorHere(String message) {
    SqlToken t = peek();
    if (t == null) {
      int at = end < tokens.size() ? tokens.get(end).start() : source.text().length();
      return source.error(at, message);
    }
    return source.error(t.start(), message);
  }
}
