package org.privet.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.parser.ASTNodeAccess;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.SimpleNode;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SetOperationList;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

/**
 * Binds the plain SELECT (parsed with JSqlParser after {@link DpClauseParser}) to the dataset:
 * refuses unsupported clauses, resolves the dataset, the privacy unit, columns, GROUP BY and the
 * public groups, and maps JSqlParser nodes to positions in the user's text. Every refusal is
 * decided from the query text and the dataset's public descriptor only
 * ({@code docs/proofs/sql-rewrites.md}, sections 1 and 2).
 */
final class SelectBinder {
  /** JSqlParser's lexical errors carry their position only in the message. */
  private static final Pattern LEXICAL_POSITION = Pattern.compile("line (\\d{1,9}), column (\\d{1,9})");

  final PreparedQuery pq;
  final SourceText src;
  private final DatasetCatalog catalog;
  private DatasetDescriptor dataset;
  private String unit;
  /** The FROM of a query over several tables of a multi-table dataset, or null. */
  private JoinBinder joins;

  SelectBinder(PreparedQuery pq, DatasetCatalog catalog) {
    this.pq = pq;
    this.src = pq.source();
    this.catalog = catalog;
  }

  /** The resolved dataset (after {@link #resolveDataset}). */
  DatasetDescriptor dataset() {
    return dataset;
  }

  /** The joins of a query over several tables (issue 25), or null for one table. */
  JoinBinder joins() {
    return joins;
  }

  /** The registered privacy unit column, or null for one row per unit. */
  String unit() {
    return unit;
  }

  PlainSelect parse() {
    Statement st;
    try {
      st = CCJSqlParserUtil.parse(pq.plainSql());
    } catch (JSQLParserException e) {
      throw syntaxError(e);
    }
    if (st instanceof SetOperationList) {
      throw src.error(pq.selectOffset(), "set operations (UNION, INTERSECT, EXCEPT) are not allowed");
    }
    if (st instanceof ParenthesedSelect) {
      throw src.error(pq.selectOffset(), "subqueries are not allowed");
    }
    if (!(st instanceof PlainSelect ps)) {
      throw src.error(pq.selectOffset(), "only SELECT WITH DIFFERENTIAL_PRIVACY queries are accepted");
    }
    return ps;
  }

  private DpSqlException syntaxError(Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ParseException pe && pe.currentToken != null) {
        Token next = pe.currentToken.next != null ? pe.currentToken.next : pe.currentToken;
        int offset = src.offset(next.beginLine, next.beginColumn);
        String image = next.image == null || next.image.isBlank() ? null : next.image;
        if (next.kind == 0) {
          return src.error(src.text().length(), "syntax error: the query ended unexpectedly");
        }
        return src.error(offset, "syntax error" + (image == null ? "" : " near '" + image + "'"));
      }
      java.util.regex.Matcher m = t.getMessage() == null ? null : LEXICAL_POSITION.matcher(t.getMessage());
      if (m != null && m.find()) {
        return src.error(src.offset(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))),
            "syntax error: unexpected character");
      }
    }
    return src.error(pq.selectOffset(), "syntax error");
  }

  void refuseUnsupportedClauses(PlainSelect ps) {
    int s = pq.selectOffset();
    if (ps.getDistinct() != null) {
      throw src.error(pq.offsetOfWord("DISTINCT", s), "SELECT DISTINCT is not allowed: it releases raw"
          + " values; use GROUP BY with a DP aggregate");
    }
    if (ps.getHaving() != null) {
      throw src.error(pq.offsetOfWord("HAVING", s), "HAVING is not supported: filter rows with WHERE"
          + " (before aggregation) or filter the released result yourself");
    }
    if (ps.getWhere() != null) {
      throw src.error(pq.offsetOfWord("WHERE", s), "only one WHERE clause is allowed");
    }
    if (ps.getTop() != null || ps.getFirst() != null || ps.getSkip() != null) {
      throw src.error(s, "TOP/FIRST/SKIP are not allowed: use LIMIT after aggregation");
    }
    if (ps.getFetch() != null) {
      throw src.error(pq.offsetOfWord("FETCH", s), "FETCH is not supported: use LIMIT");
    }
    if (ps.getIntoTables() != null || ps.getIntoTempTable() != null) {
      throw src.error(pq.offsetOfWord("INTO", s), "SELECT INTO is not allowed");
    }
    if (ps.getSampleClause() != null) {
      throw src.error(s, "sampling clauses are not allowed");
    }
    if (ps.getGroupBy() != null && ps.getGroupBy().getGroupingSets() != null
        && !ps.getGroupBy().getGroupingSets().isEmpty()) {
      throw src.error(pq.offsetOfWord("GROUP", s), "GROUPING SETS / ROLLUP / CUBE are not supported");
    }
    if (ps.getQualify() != null || (ps.getWindowDefinitions() != null && !ps.getWindowDefinitions().isEmpty())) {
      throw src.error(s, "window functions are not allowed in a DP query");
    }
    if (ps.getLateralViews() != null || ps.getOracleHierarchical() != null || ps.getKsqlWindow() != null
        || ps.getPreferringClause() != null || ps.getForMode() != null || ps.getForClause() != null
        || ps.getLimitBy() != null || ps.getIsolation() != null || ps.getForXmlPath() != null) {
      throw src.error(s, "unsupported clause in a DP query");
    }
  }

  void resolveDataset(PlainSelect ps) {
    FromItem from = ps.getFromItem();
    if (from == null) {
      throw src.error(pq.selectOffset(), "FROM is required: name the dataset");
    }
    if (!(from instanceof Table t)) {
      int at = at(from, pq.offsetOfWord("FROM", pq.selectOffset()));
      throw src.error(at, from instanceof ParenthesedSelect ? "subqueries are not allowed"
          : "FROM must name one dataset (table functions, subqueries and joins are not allowed)");
    }
    int at = at(t, pq.offsetOfWord("FROM", pq.selectOffset()));
    if (t.getSampleClause() != null) {
      throw src.error(at, "sampling clauses are not allowed");
    }
    if (t.getIndexHint() != null || t.getPivot() != null || t.getUnPivot() != null) {
      throw src.error(at, "unsupported clause after the dataset name");
    }
    FromResolver resolver = new FromResolver(catalog);
    boolean joined = ps.getJoins() != null && !ps.getJoins().isEmpty();
    if (t.getSchemaName() == null && pq.derived(unquote(t.getName())) != null) {
      this.joins = JoinBinder.bind(this, ps, new FromResolver(catalog), at);
      this.dataset = joins.view();
      return;
    }
    FromResolver.Resolved r = resolveTable(resolver, t, at);
    if (!r.dataset().isMultiTable() && joined) {
      FromItem right = ps.getJoins().get(0).getFromItem();
      int joinAt = ps.getJoins().get(0).isSimple() ? at(right, at) : pq.offsetOfWord("JOIN", at);
      throw src.error(joinAt, "joins are not allowed"
          + " on dataset '" + r.dataset().name() + "', which has one table: a join can multiply one"
          + " privacy unit's rows beyond its contribution bounds (register the other tables with"
          + " their references to the privacy unit)");
    }
    if (!joined && !r.dataset().isMultiTable()) {
      this.dataset = r.dataset();
      return;
    }
    this.joins = JoinBinder.bind(this, ps, new FromResolver(catalog), at);
    this.dataset = joins.view();
  }

  /** A self-join's plan rebuilt with its public cap m ({@link JoinBinder#capSelfJoins}). */
  void capSelfJoins(long m) {
    joins.capSelfJoins(m);
    this.dataset = joins.view();
  }

  /** The column resolver for WHERE: qualified names too when the query joins tables. */
  FilterParser.ColumnResolver filterColumns() {
    return new FilterParser.ColumnResolver() {
      @Override
      public FilterParser.ResolvedColumn resolve(String written, int offset) {
        return resolveColumn(written, offset);
      }

      @Override
      public FilterParser.ResolvedColumn resolveQualified(String qualifier, String written, int offset) {
        return joins == null ? null : joins.resolve(qualifier, written, offset);
      }
    };
  }

  /** Resolves one FROM table by {@link FromResolver}'s rules, refusing at {@code at}. */
  FromResolver.Resolved resolveTable(FromResolver resolver, Table t, int at) {
    if (t.getDatabase() != null && t.getDatabase().getDatabaseName() != null) {
      throw src.error(at, "write a table as dataset.table or table; '" + t.getFullyQualifiedName()
          + "' has too many parts");
    }
    String qualifier = t.getSchemaName() == null ? null : unquote(t.getSchemaName());
    String name = unquote(t.getName());
    try {
      return resolver.resolve(qualifier, name);
    } catch (FromResolver.Refusal e) {
      throw src.error(at, e.getMessage());
    }
  }

  void resolvePrivacyUnit(DpOptions options) {
    String registered = dataset.privacyUnit().orElse(null);
    String written = options.privacyUnitColumn();
    int at = options.offsets().getOrDefault("privacy_unit_column", pq.selectOffset());
    if (written != null) {
      if (registered == null) {
        throw src.error(at, "dataset '" + dataset.name() + "' is registered with one row per privacy"
            + " unit; remove privacy_unit_column");
      }
      if (!written.equalsIgnoreCase(registered)) {
        throw src.error(at, "privacy_unit_column '" + written + "' is not the privacy unit registered"
            + " for dataset '" + dataset.name() + "' ('" + registered + "')");
      }
    }
    this.unit = registered;
    if (registered == null) {
      refuseAbove1(options.maxGroupsContributed(), "max_groups_contributed", options);
      refuseAbove1(options.maxRowsPerGroup(), "max_rows_per_group", options);
    }
  }

  private void refuseAbove1(int value, String option, DpOptions options) {
    if (value > 1) {
      throw src.error(options.offsets().get(option), option + " must be 1 for dataset '"
          + dataset.name() + "', which has one row per privacy unit");
    }
  }

  FilterParser.ResolvedColumn resolveColumn(String written, int offset) {
    if (joins != null) {
      return joins.resolve(null, written, offset);
    }
    TableSchema.Column c = dataset.column(written).orElseThrow(() ->
        src.error(offset, "unknown column '" + written + "' in dataset '" + dataset.name() + "'"));
    return new FilterParser.ResolvedColumn(c.name(), c.type(), c);
  }

  FilterParser.ResolvedColumn resolveColumnRef(Column c, int fallback) {
    int at = at(c, fallback);
    if (joins != null) {
      String q = c.getTable() == null || c.getTable().getName() == null ? null
          : unquote(c.getTable().getName());
      if (c.getTable() != null && c.getTable().getSchemaName() != null) {
        throw src.error(at, "write a column as table.column or column");
      }
      return joins.resolve(q, unquote(c.getColumnName()), at);
    }
    if (c.getTable() != null && c.getTable().getName() != null) {
      throw src.error(at, "qualified column names are not supported; write the column name only");
    }
    return resolveColumn(unquote(c.getColumnName()), at);
  }

  List<String> groupBy(PlainSelect ps) {
    GroupByElement g = ps.getGroupBy();
    List<String> out = new ArrayList<>();
    if (g == null || g.getGroupByExpressionList() == null) {
      return out;
    }
    for (Object o : g.getGroupByExpressionList()) {
      Expression e = (Expression) o;
      int at = at(e, pq.offsetOfWord("GROUP", pq.selectOffset()));
      if (e instanceof LongValue ordinal) {
        long n = integer(ordinal, at, "GROUP BY position");
        if (n < 1 || n > ps.getSelectItems().size()
            || !(ps.getSelectItems().get((int) n - 1).getExpression() instanceof Column)) {
          throw src.error(at, "GROUP BY " + n + " must name a selected column by position");
        }
        e = ps.getSelectItems().get((int) n - 1).getExpression();
      }
      if (!(e instanceof Column) && mentionsUnit(e)) {
        throw src.error(at, "functions on the privacy unit column '" + unit + "' are not allowed");
      }
      if (!(e instanceof Column c)) {
        throw src.error(at, "GROUP BY supports column names only");
      }
      String name = resolveColumnRef(c, at).name();
      if (name.equals(unit)) {
        throw src.error(at, "grouping by the privacy unit column '" + unit + "' is not allowed");
      }
      if (out.contains(name)) {
        throw src.error(at, "GROUP BY lists column '" + name + "' twice");
      }
      out.add(name);
    }
    return out;
  }

  List<List<Object>> publicGroups(DpOptions options, List<String> groupBy) {
    int optionAt = options.offsets().getOrDefault("public_groups",
        options.offsets().getOrDefault("group_selection_strategy", pq.selectOffset()));
    if (!options.publicGroupsRequested() && joins != null && !groupBy.isEmpty()
        && groupBy.stream().allMatch(joins::isPublicColumn)) {
      List<List<Object>> keys = publicTableGroups(groupBy);
      if (keys != null) {
        return keys;
      }
    }
    if (!options.publicGroupsRequested()) {
      if (!groupBy.isEmpty() && !options.hasDelta()) {
        throw src.error(pq.offsetOfWord("GROUP", pq.selectOffset()), "GROUP BY with private group"
            + " selection needs delta > 0 (e.g. delta = 1e-6 in OPTIONS, also with rho), or public"
            + " groups (public_groups = (...))");
      }
      return null;
    }
    if (groupBy.isEmpty()) {
      throw src.error(optionAt, "public groups need a GROUP BY");
    }
    if (options.publicGroups() != null) {
      for (List<Object> key : options.publicGroups()) {
        if (key.size() != groupBy.size()) {
          throw src.error(optionAt, "each public_groups key needs " + groupBy.size()
              + " value(s), one per GROUP BY column");
        }
        for (int i = 0; i < key.size(); i++) {
          checkKeyType(key.get(i), groupBy.get(i), optionAt);
        }
      }
      return options.publicGroups();
    }
    List<List<Object>> keys = new ArrayList<>();
    keys.add(List.of());
    for (String g : groupBy) {
      List<Object> values = dataset.publicKeys().get(g);
      if (values == null) {
        throw src.error(optionAt, "no public key set is registered for column '" + g + "' of dataset '"
            + dataset.name() + "'; list the keys with public_groups = (...)");
      }
      keys = times(keys, values, optionAt, "the public key sets");
    }
    return keys;
  }

  /**
   * Group keys that all come from public tables are public groups: the cross product of each
   * column's distinct values in its public table (read through the catalog: public data), or null
   * when the catalog cannot list them (then groups are selected privately, as for private keys).
   */
  private List<List<Object>> publicTableGroups(List<String> groupBy) {
    List<List<Object>> keys = new ArrayList<>();
    keys.add(List.of());
    for (String g : groupBy) {
      var source = joins.publicSource(g);
      if (source.isEmpty()) {
        return null; // a computed column of a public table: its values are not listed
      }
      java.util.Optional<List<Object>> values = catalog.publicValues(dataset.name(),
          source.get().getKey().name(), source.get().getValue());
      if (values.isEmpty() || values.get().isEmpty()) {
        return null;
      }
      keys = times(keys, values.get(), pq.offsetOfWord("GROUP", pq.selectOffset()),
          "the public tables' values");
    }
    return keys;
  }

  /** Each key of {@code keys} extended by each of {@code values}, at most MAX_PUBLIC_GROUPS. */
  private List<List<Object>> times(List<List<Object>> keys, List<Object> values, int at, String what) {
    List<List<Object>> next = new ArrayList<>();
    for (List<Object> prefix : keys) {
      for (Object v : values) {
        List<Object> k = new ArrayList<>(prefix);
        k.add(v);
        next.add(k);
      }
    }
    if (next.size() > DpOptions.MAX_PUBLIC_GROUPS) {
      throw src.error(at, what + " give more than " + DpOptions.MAX_PUBLIC_GROUPS + " groups");
    }
    return next;
  }

  private void checkKeyType(Object v, String column, int at) {
    if (v == null) {
      return;
    }
    ColumnType type = dataset.column(column).orElseThrow().type();
    boolean ok = switch (type) {
      case INTEGER -> v instanceof Long;
      case FLOATING, DECIMAL -> v instanceof Long || v instanceof Double;
      case STRING -> v instanceof String;
      case BOOLEAN -> v instanceof Boolean;
      default -> true;
    };
    if (!ok) {
      throw src.error(at, "public_groups values for column '" + column + "' must match its type ("
          + type.name().toLowerCase(Locale.ROOT) + ")");
    }
  }

  /** The value of an integer literal in [0, 2^62), refusing larger ones (no overflow). */
  long integer(LongValue v, int at, String what) {
    java.math.BigInteger b = v.getBigIntegerValue();
    if (b.signum() < 0 || b.bitLength() > 62) {
      throw src.error(at(v, at), what + " is out of range");
    }
    return b.longValue();
  }

  /** Whether a JSqlParser expression refers to the privacy unit column anywhere inside. */
  boolean mentionsUnit(Expression e) {
    if (unit == null || e == null) {
      return false;
    }
    boolean[] found = {false};
    e.accept(new ExpressionVisitorAdapter<Void>() {
      @Override
      public <S> Void visit(Column column, S context) {
        if (unquote(column.getColumnName()).equalsIgnoreCase(unit)) {
          found[0] = true;
        }
        return null;
      }
    }, null);
    return found[0];
  }

  /** The user-text offset of a JSqlParser node, or {@code fallback} when it carries none. */
  int at(Object node, int fallback) {
    if (node instanceof ASTNodeAccess a) {
      SimpleNode n = a.getASTNode();
      if (n != null && n.jjtGetFirstToken() != null) {
        Token t = n.jjtGetFirstToken();
        return src.offset(t.beginLine, t.beginColumn);
      }
    }
    if (node instanceof BinaryExpression b) {
      return at(b.getLeftExpression(), fallback);
    }
    return fallback;
  }

  static String unquote(String name) {
    if (name != null && name.length() >= 2) {
      char q = name.charAt(0);
      if ((q == '"' || q == '`') && name.charAt(name.length() - 1) == q) {
        return name.substring(1, name.length() - 1).replace(String.valueOf(q) + q, String.valueOf(q));
      }
    }
    return name;
  }
}
