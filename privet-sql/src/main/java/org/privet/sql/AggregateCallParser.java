package org.privet.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import org.privet.sql.AggregateCall.BoundsKind;

/**
 * Parses the DP aggregate calls of the SELECT list (COUNT, SUM, AVG, VARIANCE, STDDEV,
 * PERCENTILE_CONT) with their named contribution-bound arguments into {@link AggregateCall}s,
 * refusing anything else with the position of the offending text.
 */
final class AggregateCallParser {
  static final String BOUNDS_PER_GROUP = "contribution_bounds_per_group";
  static final String BOUNDS_PER_ROW = "contribution_bounds_per_row";
  static final String REPORT_FORMAT = "report_format";
  static final String EPSILON = "epsilon";
  /** Most intervals of APPROX_QUANTILES (its n + 1 quantiles share one tree of 1 024 cells). */
  static final int MAX_QUANTILE_INTERVALS = 100;

  private final SelectBinder b;
  private final PreparedQuery pq;
  private final SourceText src;
  private final DatasetDescriptor dataset;
  private final String unit;
  private final Set<Integer> consumedNamedArguments = new HashSet<>();
  private final Set<Integer> jsonReports = new HashSet<>();
  private final java.util.Map<Integer, Double> epsilons = new java.util.HashMap<>();

  /** A parser for the calls of a query whose dataset and privacy unit {@code binder} resolved. */
  AggregateCallParser(SelectBinder binder) {
    this.b = binder;
    this.pq = binder.pq;
    this.src = binder.src;
    this.dataset = binder.dataset();
    this.unit = binder.unit();
  }

  /** Parses one DP aggregate call of the SELECT list at offset {@code at}. */
  AggregateCall parse(Function f, int at) {
    String upper = f.getName() == null ? "" : f.getName().toUpperCase(Locale.ROOT);
    if (unit != null && !upper.equals("COUNT") && pq.callMentions(at, unit)) {
      throw src.error(at, "functions on the privacy unit column '" + unit + "' are not allowed"
          + " (only COUNT(DISTINCT " + unit + ") may use it)");
    }
    DpFunctions fn = DpFunctions.of(upper);
    if (fn == null) {
      throw src.error(at, DpFunctions.isAggregate(upper)
          ? upper + " is not a DP aggregate; use COUNT, SUM, AVG, VARIANCE, STDDEV, PERCENTILE_CONT"
              + " or APPROX_QUANTILES"
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
      if (a.name().equals(REPORT_FORMAT)) {
        if (jsonReports.contains(at)) {
          throw src.error(a.nameOffset(), "named argument '" + REPORT_FORMAT + "' is given twice");
        }
        if (!a.text().equalsIgnoreCase("JSON")) {
          throw src.error(a.nameOffset(), REPORT_FORMAT + " must be \"JSON\" (a JSON string with"
              + " the value and its confidence interval); difference from BigQuery: the PROTO"
              + " report is not supported");
        }
        jsonReports.add(at);
        continue;
      }
      if (a.name().equals(EPSILON)) {
        if (epsilons.containsKey(at)) {
          throw src.error(a.nameOffset(), "named argument '" + EPSILON + "' is given twice");
        }
        if (!(a.lower() > 0) || Double.isInfinite(a.lower())) {
          throw src.error(a.nameOffset(), EPSILON + " must be a finite number > 0");
        }
        epsilons.put(at, a.lower());
        continue;
      }
      if (a.name().equals(BOUNDS_PER_ROW) && perRow == null) {
        perRow = a;
      } else if (a.name().equals(BOUNDS_PER_GROUP) && perGroup == null) {
        perGroup = a;
      } else if (a.name().equals(BOUNDS_PER_ROW) || a.name().equals(BOUNDS_PER_GROUP)) {
        throw src.error(a.nameOffset(), "named argument '" + a.name() + "' is given twice");
      } else {
        throw src.error(a.nameOffset(), "unknown named argument '" + a.name() + "'; use "
            + BOUNDS_PER_GROUP + ", " + BOUNDS_PER_ROW + ", " + EPSILON + " or " + REPORT_FORMAT);
      }
    }
    if (perGroup != null && perGroup.auto()) {
      throw src.error(perGroup.nameOffset(), "AUTO applies only to " + BOUNDS_PER_ROW + " of SUM, "
          + "AVG, VARIANCE, STDDEV or PERCENTILE_CONT (the per-row clamping bounds are estimated"
          + " privately)");
    }
    boolean quantiles = fn == DpFunctions.PERCENTILE_CONT || fn == DpFunctions.APPROX_QUANTILES;
    if (perRow != null && perRow.auto() && fn != DpFunctions.SUM && fn != DpFunctions.AVG
        && fn != DpFunctions.VARIANCE && fn != DpFunctions.STDDEV && !quantiles) {
      throw src.error(perRow.nameOffset(), "AUTO applies only to " + BOUNDS_PER_ROW + " of SUM, "
          + "AVG, VARIANCE, STDDEV or PERCENTILE_CONT, not " + upper);
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
    int expected = quantiles ? 2 : 1;
    if (args.size() != expected) {
      throw src.error(at, upper + " takes " + (fn == DpFunctions.APPROX_QUANTILES
          ? "a column and a number of intervals" : expected == 2 ? "a column and a percentile"
          : "one column") + ", then optional contribution bounds");
    }
    Expression arg = args.get(0);
    if (!(arg instanceof Column) && b.mentionsUnit(arg)) {
      throw src.error(b.at(arg, at), "functions on the privacy unit column '" + unit + "' are not allowed");
    }
    if (!(arg instanceof Column c)) {
      throw src.error(b.at(arg, at), "the argument of " + upper + " must be a column name");
    }
    FilterParser.ResolvedColumn column = b.resolveColumnRef(c, at);
    if (column.name().equals(unit)) {
      throw src.error(b.at(arg, at), "aggregating the privacy unit column '" + unit + "' is not allowed");
    }
    if (!column.type().isNumeric()) {
      throw src.error(b.at(arg, at), upper + " needs a numeric column; '" + column.name() + "' has type "
          + column.type().name().toLowerCase(Locale.ROOT));
    }
    double percentile = Double.NaN;
    if (fn == DpFunctions.PERCENTILE_CONT) {
      percentile = numericLiteral(args.get(1));
      if (!(percentile >= 0 && percentile <= 1)) {
        throw src.error(b.at(args.get(1), at), "the percentile must be a literal in [0, 1]");
      }
    }
    if (fn == DpFunctions.APPROX_QUANTILES) {
      percentile = numericLiteral(args.get(1));
      if (!(percentile >= 1 && percentile <= MAX_QUANTILE_INTERVALS)
          || percentile != Math.rint(percentile)) {
        throw src.error(b.at(args.get(1), at), "the number of intervals must be an integer literal"
            + " in [1, " + MAX_QUANTILE_INTERVALS + "]");
      }
    }
    boolean perRowOnly = fn == DpFunctions.VARIANCE || fn == DpFunctions.STDDEV || quantiles;
    if (perRowOnly && perGroup != null) {
      throw src.error(perGroup.nameOffset(), upper + " takes " + BOUNDS_PER_ROW + " (it clamps each"
          + " value), not " + BOUNDS_PER_GROUP);
    }
    NamedArgument given = perRow != null ? perRow : perGroup;
    BoundsKind kind;
    double lo;
    double hi;
    if (perRow != null && perRow.auto()) {
      // Estimated privately: on the registered public bounds if any, else on a log grid.
      DatasetDescriptor.ColumnBounds pb = dataset.publicBounds().get(column.name());
      kind = BoundsKind.AUTO;
      lo = pb == null ? Double.NaN : pb.lower();
      hi = pb == null ? Double.NaN : pb.upper();
    } else if (given != null) {
      checkBounds(given);
      kind = perRow != null ? BoundsKind.PER_ROW : BoundsKind.PER_GROUP;
      lo = given.lower();
      hi = given.upper();
    } else {
      DatasetDescriptor.ColumnBounds pb = dataset.publicBounds().get(column.name());
      if (pb == null) {
        // ZetaSQL's implicit bounding: the bounds are computed privately (AUTO on a log grid).
        kind = BoundsKind.IMPLICIT;
        lo = Double.NaN;
        hi = Double.NaN;
      } else {
        kind = BoundsKind.PUBLIC;
        lo = pb.lower();
        hi = pb.upper();
      }
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
    String name = b.resolveColumnRef(c, at).name();
    if (f.isDistinct()) {
      if (!name.equals(unit)) {
        java.util.Optional<String> preserved = b.joins() == null ? java.util.Optional.empty()
            : b.joins().unitReadFromPreservedSide();
        throw src.error(at, "COUNT(DISTINCT ...) is only supported on the privacy unit column"
            + (unit == null ? ", and this dataset has one row per unit: use COUNT(*)" : " '" + unit + "'")
            + preserved.map(p -> "; in this query the unit is read from the preserved side of the"
                + " LEFT join toward the unit table" + (p.isEmpty() ? "" : " (write COUNT(DISTINCT "
                + p + "))") + ", and '" + unit + "' names the padded table's column").orElse(""));
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

  /** Whether the call at {@code offset} asked for {@code report_format => "JSON"}. */
  boolean jsonReport(int offset) {
    return jsonReports.contains(offset);
  }

  /** The {@code epsilon => e} of the call at {@code offset}, or NaN when not given. */
  double epsilon(int offset) {
    return epsilons.getOrDefault(offset, Double.NaN);
  }

  /** Whether any call has an {@code epsilon} argument. */
  boolean anyEpsilon() {
    return !epsilons.isEmpty();
  }

  /** Refuses named arguments outside the DP aggregate calls of the SELECT list. */
  void refuseUnusedNamedArguments() {
    for (Map.Entry<Integer, List<NamedArgument>> e : pq.namedArguments().entrySet()) {
      if (!consumedNamedArguments.contains(e.getKey())) {
        NamedArgument a = e.getValue().get(0);
        throw src.error(a.nameOffset(), "named argument '" + a.name() + "' is only allowed in a DP"
            + " aggregate call of the SELECT list");
      }
    }
  }
}
