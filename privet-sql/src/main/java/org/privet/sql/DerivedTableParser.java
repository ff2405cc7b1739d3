package org.privet.sql;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.privet.engine.Filter;
import org.privet.engine.plan.Expr;
import org.privet.engine.spi.TableSchema;
import org.privet.sql.DatasetDescriptor.TableDescriptor;

/**
 * A derived table before the DP aggregate (a {@code WITH} item or a subquery in FROM), parsed from
 * the user's tokens by a whitelist grammar: it may only filter rows and keep, rename or compute
 * per-row columns of one table, which is stability 1 ({@code docs/proofs/engine-joins.md}):
 *
 * <pre>
 * derived := SELECT item [, item]... FROM table [[AS] alias] [WHERE condition]
 * item    := * | column [[AS] name] | expr [AS] name
 * expr    := term (('+' | '-') term)* ;  term := unary ('*' unary)* ;
 * unary   := '-' unary | number | column | '(' expr ')'
 * </pre>
 *
 * Everything that aggregates, deduplicates, orders, limits or combines rows before the DP aggregate
 * (aggregates, DISTINCT, GROUP BY, HAVING, ORDER BY, LIMIT, window functions, joins, set
 * operations, nested subqueries) is refused by name at its position; so are division (it can fail
 * on a zero) and functions.
 */
final class DerivedTableParser {
  private final SourceText src;
  private final List<SqlToken> tk;
  private final int end;
  private int pos;
  private TableDescriptor table;
  private String innerAlias;

  /** One output column: a kept column ({@code column}) or a computed one ({@code expr}). */
  record Item(String name, String column, Expr expr, int at) {}

  /**
   * The parsed derived table.
   *
   * @param table the table it reads
   * @param tableAt where the table is named
   * @param items its output columns, in order (a {@code *} expanded)
   * @param filter its WHERE, over the table's column names, or null
   */
  record Parsed(TableDescriptor table, int tableAt, List<Item> items, Filter filter) {}

  /** Resolves the table a derived table reads. */
  interface Tables {
    TableDescriptor resolve(String qualifier, String name, int at);
  }

  private DerivedTableParser(SourceText src, List<SqlToken> tokens, int start, int end) {
    this.src = src;
    this.tk = tokens;
    this.pos = start;
    this.end = end;
  }

  /**
   * @param unit the privacy unit column when {@code d} reads the unit table (arithmetic and
   *     functions on it are refused in its WHERE), else null; decided by {@code tables}' answer
   */
  static Parsed parse(PreparedQuery pq, PreparedQuery.Derived d, Tables tables,
      java.util.function.Function<TableDescriptor, String> unit) {
    return new DerivedTableParser(pq.source(), pq.tokens(), d.open() + 1, d.close()).run(tables, unit);
  }

  private static void requireNumeric(Expr e, TableDescriptor t, SourceText src, int at) {
    if (e instanceof Expr.Column c && !t.column(c.name()).orElseThrow().type().isNumeric()) {
      throw src.error(at, "column '" + c.name() + "' is not numeric: derived columns compute with"
          + " + - * on numbers");
    } else if (e instanceof Expr.Arith a) {
      requireNumeric(a.left(), t, src, at);
      requireNumeric(a.right(), t, src, at);
    } else if (e instanceof Expr.Negate n) {
      requireNumeric(n.operand(), t, src, at);
    }
  }

  private Parsed run(Tables tables, java.util.function.Function<TableDescriptor, String> unitOf) {
    if (pos >= end || !tk.get(pos).isWord("SELECT")) {
      throw src.error(pos < end ? tk.get(pos).start() : tk.get(end).start(),
          "a derived table must be SELECT ... FROM table [WHERE ...]");
    }
    pos++;
    refuseEverywhere();
    if (pos < end && (tk.get(pos).isWord("DISTINCT") || tk.get(pos).isWord("ALL"))) {
      throw src.error(tk.get(pos).start(), "DISTINCT before the DP aggregate is not allowed: it"
          + " deduplicates rows, which the contribution bounds do not cover");
    }
    int from = depth0("FROM", pos);
    if (from < 0) {
      throw src.error(tk.get(pos < end ? pos : end).start(), "a derived table needs FROM table");
    }
    // FROM table [[AS] alias] [WHERE ...]
    int i = from + 1;
    if (i >= end || !isId(tk.get(i))) {
      throw src.error(tk.get(Math.min(i, end)).start(), "a derived table reads one table of the"
          + " dataset (subqueries and table functions are not allowed)");
    }
    String qualifier = null;
    String name = tk.get(i).identifier();
    int tableAt = tk.get(i).start();
    i++;
    if (i < end && tk.get(i).isSymbol(".")) {
      if (i + 1 >= end || !isId(tk.get(i + 1))) {
        throw src.error(tk.get(i).start(), "expected a table name after '.'");
      }
      qualifier = name;
      name = tk.get(i + 1).identifier();
      i += 2;
    }
    table = tables.resolve(qualifier, name, tableAt);
    String unit = unitOf.apply(table);
    innerAlias = table.name();
    if (i < end && tk.get(i).isWord("AS")) {
      i++;
    }
    if (i < end && isId(tk.get(i)) && !tk.get(i).isWord("WHERE")) {
      innerAlias = tk.get(i).identifier();
      i++;
    }
    Filter filter = null;
    if (i < end) {
      SqlToken t = tk.get(i);
      if (t.isWord("WHERE")) {
        filter = FilterParser.parse(src, tk, i + 1, end, new FilterParser.ColumnResolver() {
          @Override
          public FilterParser.ResolvedColumn resolve(String written, int at) {
            return column(written, at);
          }

          @Override
          public FilterParser.ResolvedColumn resolveQualified(String qualifier, String written, int at) {
            if (!qualifier.equalsIgnoreCase(innerAlias) && !qualifier.equalsIgnoreCase(table.name())) {
              throw src.error(at, "'" + qualifier + "' is not the derived table's table");
            }
            return column(written, at);
          }
        }, unit);
      } else {
        throw refuseClause(t);
      }
    }
    List<Item> items = new ArrayList<>();
    int stop = from;
    while (pos < stop) {
      items.addAll(item(stop));
      if (pos < stop) {
        if (!tk.get(pos).isSymbol(",")) {
          throw src.error(tk.get(pos).start(), "expected ',' or FROM in the derived table's SELECT list");
        }
        pos++;
      }
    }
    Set<String> seen = new LinkedHashSet<>();
    for (Item it : items) {
      if (!seen.add(it.name().toLowerCase(Locale.ROOT))) {
        throw src.error(it.at(), "column '" + it.name() + "' is named twice in the derived table");
      }
      if (it.name().startsWith("__")) {
        throw src.error(it.at(), "column names starting with '__' are reserved");
      }
    }
    if (items.isEmpty()) {
      throw src.error(tk.get(from).start(), "a derived table selects at least one column");
    }
    return new Parsed(table, tableAt, items, filter);
  }

  /** Refuses constructs that aggregate, deduplicate, order, limit or combine rows, anywhere. */
  private void refuseEverywhere() {
    for (int i = pos; i < end; i++) {
      SqlToken t = tk.get(i);
      if (t.kind() != SqlToken.Kind.WORD) {
        if (t.isSymbol("/") || t.isSymbol("%")) {
          throw src.error(t.start(), "division is not allowed in a derived column (it can fail on a"
              + " zero, which a value would decide)");
        }
        continue;
      }
      String w = t.text().toUpperCase(Locale.ROOT);
      if (DpFunctions.isAggregate(w) && i + 1 < end && tk.get(i + 1).isSymbol("(")) {
        throw src.error(t.start(), "aggregate " + w + " before the DP aggregate is not allowed: a"
            + " derived table may only filter rows and derive per-row columns");
      }
      switch (w) {
        case "SELECT" -> {
          if (i != pos - 1) {
            throw src.error(t.start(), "nested subqueries are not allowed in a derived table");
          }
        }
        case "GROUP", "HAVING" -> throw src.error(t.start(), w + " before the DP aggregate is not"
            + " allowed: a derived table may only filter rows and derive per-row columns");
        case "ORDER", "LIMIT", "OFFSET", "FETCH", "TOP" -> throw src.error(t.start(), w + " in a"
            + " derived table is not allowed: it keeps rows by position, which breaks the"
            + " contribution bounds");
        case "JOIN", "UNION", "INTERSECT", "EXCEPT" -> throw src.error(t.start(), w + " in a derived"
            + " table is not allowed: join the tables in the DP query itself");
        case "OVER", "WINDOW", "QUALIFY" -> throw src.error(t.start(), "window functions are not"
            + " allowed before the DP aggregate");
        default -> { }
      }
    }
  }

  private DpSqlException refuseClause(SqlToken t) {
    if (t.isSymbol(",")) {
      return src.error(t.start(), "a derived table reads one table; join tables in the DP query");
    }
    return src.error(t.start(), "unexpected '" + t.text() + "' in the derived table: only WHERE"
        + " may follow its FROM");
  }

  private int depth0(String word, int from) {
    int depth = 0;
    for (int i = from; i < end; i++) {
      SqlToken t = tk.get(i);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && t.isWord(word)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isId(SqlToken t) {
    return t.kind() == SqlToken.Kind.WORD || t.kind() == SqlToken.Kind.QUOTED_ID;
  }

  private FilterParser.ResolvedColumn column(String written, int at) {
    TableSchema.Column c = table.column(written).orElseThrow(() -> src.error(at, "unknown column '"
        + written + "' in table '" + table.name() + "'"));
    return new FilterParser.ResolvedColumn(c.name(), c.type(), c);
  }

  /** One SELECT item of the derived table, up to {@code stop}. */
  private List<Item> item(int stop) {
    SqlToken t = tk.get(pos);
    if (t.isSymbol("*")) {
      pos++;
      List<Item> all = new ArrayList<>();
      table.schema().columns().forEach(c -> all.add(new Item(c.name(), c.name(), null, t.start())));
      return all;
    }
    int start = pos;
    Expr e = expr(stop);
    String name = null;
    if (pos < stop && tk.get(pos).isWord("AS")) {
      pos++;
      if (pos >= stop || !isId(tk.get(pos))) {
        throw src.error(tk.get(Math.min(pos, stop)).start(), "expected a column name after AS");
      }
    }
    if (pos < stop && isId(tk.get(pos))) {
      name = tk.get(pos).identifier();
      pos++;
    }
    if (e instanceof Expr.Column c) {
      return List.of(new Item(name != null ? name : c.name(), c.name(), null, tk.get(start).start()));
    }
    if (name == null) {
      throw src.error(tk.get(start).start(), "name the derived column: expression AS name");
    }
    requireNumeric(e, table, src, tk.get(start).start());
    return List.of(new Item(name, null, e, tk.get(start).start()));
  }

  private Expr expr(int stop) {
    Expr e = term(stop);
    while (pos < stop && (tk.get(pos).isSymbol("+") || tk.get(pos).isSymbol("-"))) {
      char op = tk.get(pos).text().charAt(0);
      pos++;
      e = new Expr.Arith(op, e, term(stop));
    }
    return e;
  }

  private Expr term(int stop) {
    Expr e = unary(stop);
    while (pos < stop && tk.get(pos).isSymbol("*")) {
      pos++;
      e = new Expr.Arith('*', e, unary(stop));
    }
    return e;
  }

  private Expr unary(int stop) {
    if (pos >= stop) {
      throw src.error(tk.get(Math.min(pos, end)).start(), "expected a column, a number or '('");
    }
    SqlToken t = tk.get(pos);
    if (t.isSymbol("-")) {
      pos++;
      return new Expr.Negate(unary(stop));
    }
    if (t.isSymbol("(")) {
      pos++;
      Expr e = expr(stop);
      if (pos >= stop || !tk.get(pos).isSymbol(")")) {
        throw src.error(tk.get(Math.min(pos, end)).start(), "expected ')'");
      }
      pos++;
      return e;
    }
    if (t.kind() == SqlToken.Kind.NUMBER) {
      pos++;
      double v;
      try {
        v = Double.parseDouble(t.text());
      } catch (NumberFormatException ex) {
        throw src.error(t.start(), "malformed number");
      }
      if (!Double.isFinite(v)) {
        throw src.error(t.start(), "number out of range");
      }
      return new Expr.Number(v);
    }
    if (isId(t)) {
      if (pos + 1 < stop && tk.get(pos + 1).isSymbol("(")) {
        throw src.error(t.start(), "functions are not supported in a derived table (only + - * on"
            + " numeric columns)");
      }
      String written = t.identifier();
      int at = t.start();
      pos++;
      if (pos < stop && tk.get(pos).isSymbol(".")) {
        if (!t.identifier().equalsIgnoreCase(innerAlias) && !t.identifier().equalsIgnoreCase(table.name())) {
          throw src.error(at, "'" + t.identifier() + "' is not the derived table's table");
        }
        if (pos + 1 >= stop || !isId(tk.get(pos + 1))) {
          throw src.error(tk.get(pos).start(), "expected a column name after '.'");
        }
        written = tk.get(pos + 1).identifier();
        at = tk.get(pos + 1).start();
        pos += 2;
      }
      String col = column(written, at).name();
      return new Expr.Column(col);
    }
    throw src.error(t.start(), "unexpected '" + t.text() + "' in a derived column");
  }
}
