package org.privet.sql;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.AllValue;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.parser.ASTNodeAccess;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.SimpleNode;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import org.privet.engine.Aggregation;
import org.privet.engine.Filter;
import org.privet.engine.Query;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

/**
 * Second parsing stage: parses the plain SQL left by {@link DpClauseParser} with JSqlParser,
 * validates it against the dialect and the dataset, and compiles it into an engine {@link Query}
 * plus post-processing. Every refusal carries the position of the offending text.
 *
 * <p>Why the rewrites (per-group bounds as one clamped row per unit and group, COUNT bounds as
 * L∞, COUNT(column) as a NOT NULL filter, shared identical calls) keep the engine's guarantee:
 * {@code docs/proofs/sql-rewrites.md}.
 */
final class SelectCompiler {
  private static final Pattern ENGINE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
  /** JSqlParser's lexical errors carry their position only in the message. */
  private static final Pattern LEXICAL_POSITION = Pattern.compile("line (\\d{1,9}), column (\\d{1,9})");
  private static final String BOUNDS_PER_GROUP = "contribution_bounds_per_group";
  private static final String BOUNDS_PER_ROW = "contribution_bounds_per_row";
  /** Row range of a per-group-bounded aggregate without public bounds, relative to its bounds. */
  private static final double PER_GROUP_ROW_FACTOR = 1024;

  private final PreparedQuery pq;
  private final SourceText src;
  private final DatasetCatalog catalog;
  private final Set<Integer> consumedNamedArguments = new HashSet<>();
  private DatasetDescriptor dataset;
  private String unit;

  /** How an aggregate's value bounds were given. */
  private enum BoundsKind { NONE, PER_ROW, PER_GROUP, PUBLIC }

  /** One DP aggregate call of the SELECT list. */
  private record AggregateCall(DpFunctions function, boolean distinct, String column,
      BoundsKind boundsKind, double lower, double upper, double percentile, int countCap,
      int offset) {
    String key() {
      return function + "|" + distinct + "|" + column + "|" + lower + "|" + upper + "|" + percentile
          + "|" + countCap;
    }

    /** Percentile calls with the same key share one engine quantile aggregation. */
    String quantileKey() {
      return "quantiles|" + column + "|" + lower + "|" + upper;
    }
  }

  private SelectCompiler(PreparedQuery pq, DatasetCatalog catalog) {
    this.pq = pq;
    this.src = pq.source();
    this.catalog = catalog;
  }

  static DpStatement compile(PreparedQuery pq, DatasetCatalog catalog) {
    return new SelectCompiler(pq, catalog).compile();
  }

  private DpStatement compile() {
    DpOptions options = DpOptions.from(pq);
    PlainSelect ps = parse();
    refuseUnsupportedClauses(ps);
    resolveDataset(ps);
    resolvePrivacyUnit(options);

    Filter filter = pq.whereStart() < 0 ? null
        : FilterParser.parse(src, pq.tokens(), pq.whereStart(), pq.whereEnd(), this::resolveColumn, unit);
    List<String> groupBy = groupBy(ps);

    // SELECT list: group keys and DP aggregate calls.
    List<String> names = new ArrayList<>();
    List<Integer> keyIndexes = new ArrayList<>();
    List<AggregateCall> calls = new ArrayList<>();
    List<String> callTexts = new ArrayList<>();
    for (SelectItem<?> item : ps.getSelectItems()) {
      int at = at(item, pq.selectOffset());
      Expression e = item.getExpression();
      String alias = item.getAlias() == null ? null : unquote(item.getAlias().getName());
      if (e instanceof AllColumns) {
        throw src.error(at, "SELECT * is not allowed: select GROUP BY columns and DP aggregates");
      }
      if (e instanceof Column c) {
        String name = resolveColumnRef(c, at).name();
        int k = groupBy.indexOf(name);
        if (name.equals(unit)) {
          throw src.error(at, "the privacy unit column '" + unit + "' cannot be selected");
        }
        if (k < 0) {
          throw src.error(at, "column '" + name + "' is neither in GROUP BY nor inside a DP aggregate;"
              + " raw values cannot be released");
        }
        names.add(alias != null ? alias : name);
        keyIndexes.add(k);
        calls.add(null);
        callTexts.add(null);
      } else if (e instanceof Function f) {
        AggregateCall call = aggregateCall(f, at(f, at));
        names.add(alias != null ? alias : f.toString());
        keyIndexes.add(-1);
        calls.add(call);
        callTexts.add(f.toString());
      } else if (e instanceof AnalyticExpression) {
        throw src.error(at, "window functions are not allowed in a DP query");
      } else if (mentionsUnit(e)) {
        throw src.error(at, "functions on the privacy unit column '" + unit + "' are not allowed");
      } else {
        throw src.error(at, "only GROUP BY columns and DP aggregate calls (COUNT, SUM, AVG, VARIANCE,"
            + " STDDEV, PERCENTILE_CONT) can be selected");
      }
    }
    refuseUnusedNamedArguments();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < names.size(); i++) {
      if (!seen.add(names.get(i).toLowerCase(Locale.ROOT))) {
        throw src.error(at(ps.getSelectItems().get(i), pq.selectOffset()),
            "output column name '" + names.get(i) + "' is used twice; give distinct aliases");
      }
    }
    if (calls.stream().allMatch(c -> c == null)) {
      throw src.error(pq.selectOffset(), "select at least one DP aggregate (COUNT, SUM, AVG,"
          + " VARIANCE, STDDEV, PERCENTILE_CONT)");
    }

    filter = addNonNullFilter(filter, calls);
    int[] contributions = contributions(options, calls);
    List<List<Object>> publicGroups = publicGroups(options, groupBy);

    // Engine aggregations (identical calls are computed once) and the output columns.
    Query.Builder b = Query.from(dataset.source());
    Map<String, String> engineNameByCall = new HashMap<>();
    Set<String> engineNames = new HashSet<>();
    groupBy.forEach(g -> engineNames.add(g.toLowerCase(Locale.ROOT)));
    // All percentiles of one column (same bounds) become one engine quantile tree: one noisy
    // release and one budget share for the whole rank list.
    Map<String, List<Double>> ranksByColumn = new LinkedHashMap<>();
    for (AggregateCall call : calls) {
      if (call != null && call.function() == DpFunctions.PERCENTILE_CONT) {
        List<Double> ranks = ranksByColumn.computeIfAbsent(call.quantileKey(), k -> new ArrayList<>());
        if (!ranks.contains(call.percentile())) {
          ranks.add(call.percentile());
        }
      }
    }
    List<OutputColumn> outputs = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      AggregateCall call = calls.get(i);
      if (call == null) {
        outputs.add(new OutputColumn(names.get(i), keyIndexes.get(i), null));
        continue;
      }
      if (call.function() == DpFunctions.PERCENTILE_CONT) {
        List<Double> ranks = ranksByColumn.get(call.quantileKey());
        String engineName = engineNameByCall.get(call.quantileKey());
        if (engineName == null) {
          engineName = engineName(names.get(i), engineNames);
          engineNameByCall.put(call.quantileKey(), engineName);
          try {
            b.aggregate(new Aggregation.Quantiles(engineName, call.column(), call.lower(),
                call.upper(), ranks, Aggregation.Quantiles.DEFAULT_BINS));
          } catch (IllegalArgumentException e) {
            throw src.error(call.offset(), e.getMessage());
          }
        }
        outputs.add(new OutputColumn(names.get(i), -1,
            ranks.size() > 1 ? engineName + "[" + call.percentile() + "]" : engineName));
        continue;
      }
      String engineName = engineNameByCall.get(call.key());
      if (engineName == null) {
        engineName = engineName(names.get(i), engineNames);
        engineNameByCall.put(call.key(), engineName);
        try {
          b.aggregate(toEngine(call, engineName));
        } catch (IllegalArgumentException e) {
          throw src.error(call.offset(), e.getMessage());
        }
      }
      outputs.add(new OutputColumn(names.get(i), -1, engineName));
    }
    List<DpStatement.SortKey> orderBy = orderBy(ps, names, callTexts, groupBy, outputs);
    long[] limitOffset = limitOffset(ps);

    if (unit != null) {
      b.privacyUnit(unit).maxGroupsContributed(contributions[0]).maxRowsPerGroup(contributions[1]);
    } else {
      b.eachRowIsAUnit();
    }
    if (!groupBy.isEmpty()) {
      b.groupBy(groupBy.toArray(String[]::new));
    }
    if (publicGroups != null) {
      b.publicGroups(publicGroups);
    }
    if (filter != null) {
      b.where(filter);
    }
    if (options.maxError().isEmpty()) {
      b.budget(options.budget());
    } else {
      AccuracyTargetOptions.apply(options, b, outputs, src); // issue 16 hook
    }
    b.noise(options.noise());
    if (options.thresholding() != org.privet.engine.Thresholding.AUTO && !groupBy.isEmpty()
        && !options.publicGroupsRequested()) {
      b.thresholding(options.thresholding());
    }
    Query query;
    try {
      query = b.build();
    } catch (IllegalArgumentException e) {
      throw src.error(pq.selectOffset(), "the engine refused the query: " + e.getMessage());
    }
    // Output columns that read group keys must point at released keys, which the engine returns.
    return new DpStatement(src.text(), pq.explain(), dataset.name(), query, outputs, orderBy,
        limitOffset[0], limitOffset[1]);
  }

  // --- parsing and clause checks ------------------------------------------------------------

  private PlainSelect parse() {
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

  private void refuseUnsupportedClauses(PlainSelect ps) {
    int s = pq.selectOffset();
    if (ps.getWithItemsList() != null && !ps.getWithItemsList().isEmpty()) {
      throw src.error(s, "common table expressions (WITH ... AS) are not allowed");
    }
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
    if (ps.getJoins() != null && !ps.getJoins().isEmpty()) {
      FromItem right = ps.getJoins().get(0).getFromItem();
      throw src.error(at(right, pq.offsetOfWord("JOIN", s)), "joins are not allowed: a join can"
          + " multiply one privacy unit's rows beyond its contribution bounds");
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

  private void resolveDataset(PlainSelect ps) {
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
    String name = unquote(t.getFullyQualifiedName());
    this.dataset = catalog.find(name).orElseThrow(() -> src.error(at, "unknown dataset '" + name + "'"));
  }

  private void resolvePrivacyUnit(DpOptions options) {
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

  // --- columns --------------------------------------------------------------------------------

  private FilterParser.ResolvedColumn resolveColumn(String written, int offset) {
    TableSchema.Column c = dataset.column(written).orElseThrow(() ->
        src.error(offset, "unknown column '" + written + "' in dataset '" + dataset.name() + "'"));
    return new FilterParser.ResolvedColumn(c.name(), c.type(), c);
  }

  private FilterParser.ResolvedColumn resolveColumnRef(Column c, int fallback) {
    int at = at(c, fallback);
    if (c.getTable() != null && c.getTable().getName() != null) {
      throw src.error(at, "qualified column names are not supported; write the column name only");
    }
    return resolveColumn(unquote(c.getColumnName()), at);
  }

  private List<String> groupBy(PlainSelect ps) {
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

  // --- aggregates -----------------------------------------------------------------------------

  private AggregateCall aggregateCall(Function f, int at) {
    String upper = f.getName() == null ? "" : f.getName().toUpperCase(Locale.ROOT);
    if (unit != null && !upper.equals("COUNT") && pq.callMentions(at, unit)) {
      throw src.error(at, "functions on the privacy unit column '" + unit + "' are not allowed"
          + " (only COUNT(DISTINCT " + unit + ") may use it)");
    }
    DpFunctions fn = DpFunctions.of(upper);
    if (fn == null) {
      throw src.error(at, DpFunctions.isAggregate(upper)
          ? upper + " is not a DP aggregate; use COUNT, SUM, AVG, VARIANCE, STDDEV or PERCENTILE_CONT"
          : "only GROUP BY columns and DP aggregate calls can be selected; " + upper
              + " is not a DP aggregate");
    }
    if (f.getKeep() != null || f.getOrderByElements() != null || f.getHavingClause() != null
        || f.getNamedParameters() != null || f.getAttribute() != null || f.getLimit() != null
        || f.isUnique() || f.getNullHandling() != null || f.getMultipartName().size() > 1) {
      throw src.error(at, "unsupported modifier in " + upper + "(...)");
    }
    ExpressionList<?> params = f.getParameters();
    List<Expression> args = new ArrayList<>();
    if (params != null) {
      for (Object o : params) {
        args.add((Expression) o);
      }
    }
    List<NamedArgument> named = pq.namedArguments().getOrDefault(at, List.of());
    consumedNamedArguments.add(at);
    NamedArgument perRow = null;
    NamedArgument perGroup = null;
    for (NamedArgument a : named) {
      if (a.name().equals(BOUNDS_PER_ROW) && perRow == null) {
        perRow = a;
      } else if (a.name().equals(BOUNDS_PER_GROUP) && perGroup == null) {
        perGroup = a;
      } else if (a.name().equals(BOUNDS_PER_ROW) || a.name().equals(BOUNDS_PER_GROUP)) {
        throw src.error(a.nameOffset(), "named argument '" + a.name() + "' is given twice");
      } else {
        throw src.error(a.nameOffset(), "unknown named argument '" + a.name() + "'; use "
            + BOUNDS_PER_GROUP + " or " + BOUNDS_PER_ROW);
      }
    }
    if (perRow != null && perGroup != null) {
      throw src.error(perGroup.nameOffset(), "give either " + BOUNDS_PER_GROUP + " or " + BOUNDS_PER_ROW
          + ", not both");
    }
    if (fn == DpFunctions.COUNT) {
      return countCall(f, args, perRow, perGroup, at);
    }
    if (f.isDistinct()) {
      throw src.error(at, "DISTINCT is only supported as COUNT(DISTINCT <privacy unit column>)");
    }
    int expected = fn == DpFunctions.PERCENTILE_CONT ? 2 : 1;
    if (args.size() != expected) {
      throw src.error(at, upper + " takes " + (expected == 2 ? "a column and a percentile" : "one column")
          + ", then optional contribution bounds");
    }
    Expression arg = args.get(0);
    if (!(arg instanceof Column) && mentionsUnit(arg)) {
      throw src.error(at(arg, at), "functions on the privacy unit column '" + unit + "' are not allowed");
    }
    if (!(arg instanceof Column c)) {
      throw src.error(at(arg, at), "the argument of " + upper + " must be a column name");
    }
    FilterParser.ResolvedColumn column = resolveColumnRef(c, at);
    if (column.name().equals(unit)) {
      throw src.error(at(arg, at), "aggregating the privacy unit column '" + unit + "' is not allowed");
    }
    if (!column.type().isNumeric()) {
      throw src.error(at(arg, at), upper + " needs a numeric column; '" + column.name() + "' has type "
          + column.type().name().toLowerCase(Locale.ROOT));
    }
    double percentile = Double.NaN;
    if (fn == DpFunctions.PERCENTILE_CONT) {
      percentile = numericLiteral(args.get(1));
      if (!(percentile >= 0 && percentile <= 1)) {
        throw src.error(at(args.get(1), at), "the percentile must be a literal in [0, 1]");
      }
    }
    boolean perRowOnly = fn == DpFunctions.VARIANCE || fn == DpFunctions.STDDEV
        || fn == DpFunctions.PERCENTILE_CONT;
    if (perRowOnly && perGroup != null) {
      throw src.error(perGroup.nameOffset(), upper + " takes " + BOUNDS_PER_ROW + " (it clamps each"
          + " value), not " + BOUNDS_PER_GROUP);
    }
    NamedArgument given = perRow != null ? perRow : perGroup;
    BoundsKind kind;
    double lo;
    double hi;
    if (given != null) {
      checkBounds(given);
      kind = perRow != null ? BoundsKind.PER_ROW : BoundsKind.PER_GROUP;
      lo = given.lower();
      hi = given.upper();
    } else {
      DatasetDescriptor.ColumnBounds pb = dataset.publicBounds().get(column.name());
      if (pb == null) {
        throw src.error(at, upper + "(" + column.name() + ") needs contribution bounds, e.g. " + upper
            + "(" + column.name() + ", " + (perRowOnly ? BOUNDS_PER_ROW : BOUNDS_PER_GROUP)
            + " => (lower, upper))");
      }
      kind = BoundsKind.PUBLIC;
      lo = pb.lower();
      hi = pb.upper();
    }
    return new AggregateCall(fn, false, column.name(), kind, lo, hi, percentile, 0, at);
  }

  private AggregateCall countCall(Function f, List<Expression> args, NamedArgument perRow,
      NamedArgument perGroup, int at) {
    if (perRow != null) {
      throw src.error(perRow.nameOffset(), "COUNT takes " + BOUNDS_PER_GROUP + " => (0, k): the most"
          + " rows one privacy unit adds to a group's count");
    }
    int cap = 0;
    if (perGroup != null) {
      checkBounds(perGroup);
      if (perGroup.lower() != 0 || perGroup.upper() != Math.rint(perGroup.upper())
          || perGroup.upper() < 1 || perGroup.upper() > DpOptions.MAX_CONTRIBUTIONS) {
        throw src.error(perGroup.nameOffset(), "COUNT bounds must be (0, k) with an integer k in [1, "
            + DpOptions.MAX_CONTRIBUTIONS + "]");
      }
      cap = (int) perGroup.upper();
    }
    boolean star = f.isAllColumns() || (args.size() == 1 && args.get(0) instanceof AllColumns);
    if (star) {
      if (f.isDistinct()) {
        throw src.error(at, "COUNT(DISTINCT *) is not supported");
      }
      return new AggregateCall(DpFunctions.COUNT, false, null, BoundsKind.NONE, 0, 0, Double.NaN, cap, at);
    }
    if (args.size() != 1 || !(args.get(0) instanceof Column c)) {
      if (unit != null && pq.callMentions(at, unit)) {
        throw src.error(at, "functions on the privacy unit column '" + unit + "' are not allowed");
      }
      throw src.error(at, "COUNT takes *, a column name, or DISTINCT <privacy unit column>");
    }
    String name = resolveColumnRef(c, at).name();
    if (f.isDistinct()) {
      if (!name.equals(unit)) {
        throw src.error(at, "COUNT(DISTINCT ...) is only supported on the privacy unit column"
            + (unit == null ? ", and this dataset has one row per unit: use COUNT(*)" : " '" + unit + "'"));
      }
      if (perGroup != null) {
        throw src.error(perGroup.nameOffset(), "COUNT(DISTINCT " + unit + ") takes no bounds: each unit"
            + " counts at most once per group");
      }
      return new AggregateCall(DpFunctions.COUNT, true, name, BoundsKind.NONE, 0, 0, Double.NaN, 0, at);
    }
    // COUNT(unit) equals COUNT(*): rows with a NULL unit are dropped by the engine.
    String counted = name.equals(unit) ? null : name;
    return new AggregateCall(DpFunctions.COUNT, false, counted, BoundsKind.NONE, 0, 0, Double.NaN, cap, at);
  }

  private void checkBounds(NamedArgument a) {
    if (!Double.isFinite(a.lower()) || !Double.isFinite(a.upper())) {
      throw src.error(a.nameOffset(), "contribution bounds must be finite numbers");
    }
    if (!(a.lower() < a.upper())) {
      throw src.error(a.nameOffset(), "contribution bounds need lower < upper");
    }
    if (Math.max(Math.abs(a.lower()), Math.abs(a.upper())) > 0x1p60) {
      throw src.error(a.nameOffset(), "contribution bounds must be within ±2^60");
    }
  }

  private double numericLiteral(Expression e) {
    double sign = 1;
    if (e instanceof SignedExpression s) {
      sign = s.getSign() == '-' ? -1 : 1;
      e = s.getExpression();
    }
    if (e instanceof LongValue l) {
      return sign * l.getBigIntegerValue().doubleValue();
    }
    if (e instanceof DoubleValue d) {
      return sign * d.getValue();
    }
    return Double.NaN;
  }

  private void refuseUnusedNamedArguments() {
    for (Map.Entry<Integer, List<NamedArgument>> e : pq.namedArguments().entrySet()) {
      if (!consumedNamedArguments.contains(e.getKey())) {
        NamedArgument a = e.getValue().get(0);
        throw src.error(a.nameOffset(), "named argument '" + a.name() + "' is only allowed in a DP"
            + " aggregate call of the SELECT list");
      }
    }
  }

  /**
   * COUNT(column) counts the rows where column is not NULL. The engine counts rows, so the query
   * gets the filter {@code column IS NOT NULL}; that is exact only when every aggregate is COUNT of
   * that column or a value aggregate of it (which ignore NULLs anyway).
   */
  private Filter addNonNullFilter(Filter filter, List<AggregateCall> calls) {
    String counted = null;
    AggregateCall first = null;
    for (AggregateCall c : calls) {
      if (c != null && c.function() == DpFunctions.COUNT && !c.distinct() && c.column() != null) {
        counted = c.column();
        first = c;
        break;
      }
    }
    if (counted == null) {
      return filter;
    }
    for (AggregateCall c : calls) {
      if (c != null && (c.column() == null || !c.column().equals(counted) || c.distinct())) {
        throw src.error(first.offset(), "COUNT(" + counted + ") can only be combined with aggregates of"
            + " the same column; use COUNT(*) with WHERE " + counted + " IS NOT NULL");
      }
    }
    Filter notNull = new Filter.Not(new Filter.IsNull(counted));
    return filter == null ? notNull : new Filter.And(List.of(filter, notNull));
  }

  /** {L0, L∞} from the options and the COUNT / per-group bounds. */
  private int[] contributions(DpOptions options, List<AggregateCall> calls) {
    int linf = options.maxRowsPerGroup();
    AggregateCall capCall = null;
    for (AggregateCall c : calls) {
      if (c == null || c.countCap() == 0) {
        continue;
      }
      if (capCall != null && capCall.countCap() != c.countCap()) {
        throw src.error(c.offset(), "all COUNT bounds of a query must agree (they set the most rows"
            + " one unit adds to a group)");
      }
      if (linf > 0 && linf != c.countCap()) {
        throw src.error(c.offset(), "COUNT bounds (0, " + c.countCap() + ") conflict with"
            + " max_rows_per_group = " + linf);
      }
      capCall = c;
    }
    if (linf == 0) {
      linf = capCall == null ? 1 : capCall.countCap();
    }
    if (unit == null && linf > 1) {
      throw src.error(capCall.offset(), "dataset '" + dataset.name() + "' has one row per privacy unit:"
          + " COUNT bounds must be (0, 1)");
    }
    for (AggregateCall c : calls) {
      if (c != null && c.boundsKind() == BoundsKind.PER_GROUP && c.function() == DpFunctions.AVG
          && linf != 1) {
        throw src.error(c.offset(), "AVG with " + BOUNDS_PER_GROUP + " needs max_rows_per_group = 1"
            + " (each unit then adds its own mean, clamped, once per group); use " + BOUNDS_PER_ROW
            + " with more rows per group");
      }
    }
    int l0 = options.maxGroupsContributed() == 0 ? 1 : options.maxGroupsContributed();
    return new int[] {l0, linf};
  }

  private List<List<Object>> publicGroups(DpOptions options, List<String> groupBy) {
    int optionAt = options.offsets().getOrDefault("public_groups",
        options.offsets().getOrDefault("group_selection_strategy", pq.selectOffset()));
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
      List<List<Object>> next = new ArrayList<>();
      for (List<Object> prefix : keys) {
        for (Object v : values) {
          List<Object> k = new ArrayList<>(prefix);
          k.add(v);
          next.add(k);
        }
      }
      if (next.size() > DpOptions.MAX_PUBLIC_GROUPS) {
        throw src.error(optionAt, "the public key sets give more than " + DpOptions.MAX_PUBLIC_GROUPS
            + " groups");
      }
      keys = next;
    }
    return keys;
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

  private String engineName(String preferred, Set<String> used) {
    String candidate = preferred;
    if (!ENGINE_NAME.matcher(candidate).matches() || used.contains(candidate.toLowerCase(Locale.ROOT))) {
      int i = used.size();
      do {
        candidate = "agg" + i++;
      } while (used.contains(candidate));
    }
    used.add(candidate.toLowerCase(Locale.ROOT));
    return candidate;
  }

  /**
   * Row clamp for an aggregate with only {@code contribution_bounds_per_group}: the column's
   * registered public bounds, else ±{@value #PER_GROUP_ROW_FACTOR}·max(|lower|, |upper|). The
   * fixed-point sum needs a row range; it does not enter the sensitivity (the group bound does),
   * only the grid's precision, so it is wide: rows beyond it are clamped before the unit's total is
   * formed (which changes a total only if other rows of the same unit cancel them).
   */
  private double[] perGroupRowRange(AggregateCall c) {
    DatasetDescriptor.ColumnBounds pb = dataset.publicBounds().get(c.column());
    if (pb != null) {
      return new double[] {pb.lower(), pb.upper()};
    }
    double m = Math.min(0x1p60, PER_GROUP_ROW_FACTOR
        * Math.max(1, Math.max(Math.abs(c.lower()), Math.abs(c.upper()))));
    return new double[] {-m, m};
  }

  private Aggregation toEngine(AggregateCall c, String name) {
    if (c.boundsKind() == BoundsKind.PER_GROUP) {
      // BigQuery: the bounds apply to each unit's aggregate in the group. SUM: the unit's total
      // over all its rows, clamped; AVG (with L∞ = 1): the unit's mean, clamped.
      double[] rows = perGroupRowRange(c);
      return c.function() == DpFunctions.SUM
          ? new Aggregation.Sum(name, c.column(), rows[0], rows[1],
              Aggregation.GroupBounds.ofAllRows(c.lower(), c.upper()))
          : new Aggregation.Mean(name, c.column(), rows[0], rows[1],
              Aggregation.GroupBounds.of(c.lower(), c.upper()));
    }
    return switch (c.function()) {
      case COUNT -> c.distinct() ? new Aggregation.CountDistinctUnits(name) : new Aggregation.Count(name);
      case SUM -> new Aggregation.Sum(name, c.column(), c.lower(), c.upper());
      case AVG -> new Aggregation.Mean(name, c.column(), c.lower(), c.upper());
      case VARIANCE -> new Aggregation.Variance(name, c.column(), c.lower(), c.upper());
      case STDDEV -> new Aggregation.StdDev(name, c.column(), c.lower(), c.upper());
      case PERCENTILE_CONT -> throw new IllegalStateException("percentiles are grouped per column");
    };
  }

  // --- post-processing ------------------------------------------------------------------------

  private List<DpStatement.SortKey> orderBy(PlainSelect ps, List<String> names, List<String> callTexts,
      List<String> groupBy, List<OutputColumn> outputs) {
    List<DpStatement.SortKey> keys = new ArrayList<>();
    if (ps.getOrderByElements() == null) {
      return keys;
    }
    for (OrderByElement o : ps.getOrderByElements()) {
      Expression e = o.getExpression();
      int at = at(e, pq.offsetOfWord("ORDER", pq.selectOffset()));
      int column = -1;
      if (e instanceof LongValue ordinal) {
        long n = integer(ordinal, at, "ORDER BY position");
        if (n < 1 || n > names.size()) {
          throw src.error(at, "ORDER BY " + n + " is not a selected column position (1 to "
              + names.size() + ")");
        }
        column = (int) n - 1;
      } else if (e instanceof Column c && c.getTable() == null) {
        String written = unquote(c.getColumnName());
        for (int i = 0; i < names.size() && column < 0; i++) {
          if (names.get(i).equalsIgnoreCase(written)) {
            column = i;
          }
        }
        for (int i = 0; i < outputs.size() && column < 0; i++) {
          OutputColumn out = outputs.get(i);
          if (!out.isAggregate() && groupBy.get(out.groupKeyIndex()).equalsIgnoreCase(written)) {
            column = i;
          }
        }
      } else if (e instanceof Function f) {
        column = callTexts.indexOf(f.toString());
      }
      if (column < 0) {
        throw src.error(at, "ORDER BY may only use released columns: a selected alias, GROUP BY column"
            + " or aggregate, or a position");
      }
      boolean nullsFirst = o.getNullOrdering() == OrderByElement.NullOrdering.NULLS_FIRST;
      keys.add(new DpStatement.SortKey(column, !o.isAsc(), nullsFirst));
    }
    return keys;
  }

  private long[] limitOffset(PlainSelect ps) {
    long limit = -1;
    long offset = 0;
    Limit l = ps.getLimit();
    if (l != null) {
      int at = at(l, pq.offsetOfWord("LIMIT", pq.selectOffset()));
      Expression rows = l.getRowCount();
      if (rows != null && !(rows instanceof AllValue) && !(rows instanceof NullValue)) {
        limit = nonNegative(l.getRowCount(), at, "LIMIT");
      }
      if (l.getOffset() != null) {
        offset = nonNegative(l.getOffset(), at, "OFFSET");
      }
    }
    if (ps.getOffset() != null) {
      offset = nonNegative(ps.getOffset().getOffset(), pq.offsetOfWord("OFFSET", pq.selectOffset()),
          "OFFSET");
    }
    return new long[] {limit, offset};
  }

  private long nonNegative(Expression e, int at, String what) {
    if (!(e instanceof LongValue v)) {
      throw src.error(at(e, at), what + " takes a non-negative integer literal");
    }
    return integer(v, at, what);
  }

  /** The value of an integer literal in [0, 2^62), refusing larger ones (no overflow). */
  private long integer(LongValue v, int at, String what) {
    java.math.BigInteger b = v.getBigIntegerValue();
    if (b.signum() < 0 || b.bitLength() > 62) {
      throw src.error(at(v, at), what + " is out of range");
    }
    return b.longValue();
  }

  /** Whether a JSqlParser expression refers to the privacy unit column anywhere inside. */
  private boolean mentionsUnit(Expression e) {
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

  // --- positions --------------------------------------------------------------------------------

  /** The user-text offset of a JSqlParser node, or {@code fallback} when it carries none. */
  private int at(Object node, int fallback) {
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

  private static String unquote(String name) {
    if (name != null && name.length() >= 2) {
      char q = name.charAt(0);
      if ((q == '"' || q == '`') && name.charAt(name.length() - 1) == q) {
        return name.substring(1, name.length() - 1).replace(String.valueOf(q) + q, String.valueOf(q));
      }
    }
    return name;
  }
}
