package org.privet.sql;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import org.privet.engine.Estimate;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.ResultRow;

/**
 * A parsed and validated DP SQL statement: the engine {@link Query} it compiles to, plus what
 * happens to the engine's released result afterwards (column order and names, ORDER BY, LIMIT,
 * OFFSET). Everything after the engine is post-processing of released values, which costs no
 * privacy (Dwork &amp; Roth 2014, Prop. 2.1).
 *
 * <p>Immutable. Obtain one from {@link DpSql#parse}; run {@link #query()} with the engine and pass
 * the engine's result to {@link #present}.
 */
public final class DpStatement {
  /** One ORDER BY key: an output column index, its direction and null placement. */
  record SortKey(int column, boolean descending, boolean nullsFirst) {}

  private final String sql;
  private final boolean explain;
  private final String dataset;
  private final Query query;
  private final List<OutputColumn> columns;
  private final List<SortKey> orderBy;
  private final long limit;
  private final long offset;
  private final List<String> differences;
  private final java.util.Set<Integer> jsonReportColumns;

  DpStatement(String sql, boolean explain, String dataset, Query query, List<OutputColumn> columns,
      List<SortKey> orderBy, long limit, long offset) {
    this(sql, explain, dataset, query, columns, orderBy, limit, offset, List.of(),
        java.util.Set.of());
  }

  DpStatement(String sql, boolean explain, String dataset, Query query, List<OutputColumn> columns,
      List<SortKey> orderBy, long limit, long offset, List<String> differences,
      java.util.Set<Integer> jsonReportColumns) {
    this.sql = Objects.requireNonNull(sql);
    this.explain = explain;
    this.dataset = Objects.requireNonNull(dataset);
    this.query = Objects.requireNonNull(query);
    this.columns = List.copyOf(columns);
    this.orderBy = List.copyOf(orderBy);
    this.limit = limit;
    this.offset = offset;
    this.differences = List.copyOf(differences);
    this.jsonReportColumns = java.util.Set.copyOf(jsonReportColumns);
  }

  /** This statement marked as EXPLAIN (plan only: run nothing, charge nothing). */
  /**
   * The same statement (columns, ORDER BY, LIMIT) over another engine query with the same
   * outputs, e.g. one whose budget a planner chose ({@code privet plan --run}).
   */
  public DpStatement withQuery(Query other) {
    if (!other.aggregations().equals(query.aggregations())) {
      throw new IllegalArgumentException("withQuery: the query must have the same aggregations");
    }
    return new DpStatement(sql, explain, dataset, other, columns, orderBy, limit, offset,
        differences, jsonReportColumns);
  }

  public DpStatement asExplain() {
    return explain ? this : new DpStatement(sql, true, dataset, query, columns, orderBy, limit,
        offset, differences, jsonReportColumns);
  }

  /** The SQL text as the user wrote it. */
  public String sql() {
    return sql;
  }

  /** True when the text began with {@code EXPLAIN}: show the plan, run nothing, charge nothing. */
  public boolean explain() {
    return explain;
  }

  /** The dataset name from FROM, as the catalog knows it. */
  public String dataset() {
    return dataset;
  }

  /** The engine query (its budget is the query's OPTIONS budget). */
  public Query query() {
    return query;
  }

  /** The answer's columns in SELECT order. */
  public List<OutputColumn> columns() {
    return columns;
  }

  /** The answer's column names in SELECT order. */
  public List<String> columnNames() {
    return columns.stream().map(OutputColumn::name).toList();
  }

  /** LIMIT, if given. */
  public OptionalLong limit() {
    return limit < 0 ? OptionalLong.empty() : OptionalLong.of(limit);
  }

  /** OFFSET (0 if not given). */
  public long offset() {
    return offset;
  }

  /**
   * The defaults of this statement that make its answer differ from BigQuery's/ZetaSQL's for the
   * same text (docs/sql.md, "Differences from BigQuery"), one line each, for EXPLAIN; empty when
   * none apply. Public information only.
   */
  public List<String> differences() {
    return differences;
  }

  /** A one-line description of the post-processing, for plans (no data values). */
  public String postProcessing() {
    StringBuilder s = new StringBuilder("columns ").append(columnNames());
    if (!orderBy.isEmpty()) {
      s.append(", ORDER BY ");
      for (int i = 0; i < orderBy.size(); i++) {
        SortKey k = orderBy.get(i);
        s.append(i == 0 ? "" : ", ").append(columns.get(k.column()).name())
            .append(k.descending() ? " DESC" : " ASC");
      }
    }
    if (limit >= 0) {
      s.append(", LIMIT ").append(limit);
    }
    if (offset > 0) {
      s.append(", OFFSET ").append(offset);
    }
    return s.toString();
  }

  /**
   * Post-processes the engine's released result of {@link #query()}: picks and orders the columns,
   * sorts the rows (noisy aggregates sort by their released value), applies OFFSET and LIMIT.
   */
  public SqlResult present(Result result) {
    Objects.requireNonNull(result, "result");
    List<List<Object>> rows = new ArrayList<>(result.rows().size());
    for (ResultRow r : result.rows()) {
      List<Object> cells = new ArrayList<>(columns.size());
      for (OutputColumn c : columns) {
        if (c.isArray()) {
          cells.add(c.engineOutputs().stream().map(r::get).toList()); // APPROX_QUANTILES
        } else {
          cells.add(c.isAggregate() ? r.get(c.engineOutput()) : r.key().get(c.groupKeyIndex()));
        }
      }
      rows.add(cells);
    }
    if (!orderBy.isEmpty()) {
      rows.sort(comparator());
    }
    int from = (int) Math.min(offset, rows.size());
    int to = limit < 0 ? rows.size() : (int) Math.min(rows.size(), from + limit);
    // AUTO bounds, named by the output columns that read them (post-processing of the release).
    List<org.privet.engine.AutoBounds.Estimated> bounds = new ArrayList<>();
    for (OutputColumn c : columns) {
      for (org.privet.engine.AutoBounds.Estimated e : result.bounds()) {
        if (c.isAggregate() && (e.output().equals(c.engineOutput())
            || c.engineOutput().startsWith(e.output() + "["))) { // a rank of a quantile tree
          bounds.add(new org.privet.engine.AutoBounds.Estimated(c.name(), e.column(), e.lower(),
              e.upper(), e.lowerRank(), e.upperRank()));
        }
      }
    }
    List<List<Object>> kept = rows.subList(from, to);
    if (!jsonReportColumns.isEmpty()) {
      kept = JsonReport.apply(kept, columns, jsonReportColumns, bounds);
    }
    return new SqlResult(columns, kept, result.receipt(), bounds,
        result.estimatedMaxRowsPerGroup());
  }

  private Comparator<List<Object>> comparator() {
    Comparator<List<Object>> cmp = null;
    for (SortKey k : orderBy) {
      Comparator<List<Object>> one = (a, b) -> compareCells(a.get(k.column()), b.get(k.column()), k);
      cmp = cmp == null ? one : cmp.thenComparing(one);
    }
    return cmp;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareCells(Object a, Object b, SortKey k) {
    Object x = a instanceof Estimate e ? (Object) e.value() : a;
    Object y = b instanceof Estimate e ? (Object) e.value() : b;
    if (x == null || y == null) {
      if (x == y) {
        return 0;
      }
      return (x == null) == k.nullsFirst() ? -1 : 1;
    }
    int c;
    if (x instanceof Number n && y instanceof Number m) {
      c = Double.compare(n.doubleValue(), m.doubleValue());
    } else if (x.getClass() == y.getClass() && x instanceof Comparable) {
      c = ((Comparable) x).compareTo(y);
    } else {
      c = x.toString().compareTo(y.toString());
    }
    return k.descending() ? -c : c;
  }

  @Override
  public String toString() {
    return (explain ? "EXPLAIN " : "") + query + " then " + postProcessing();
  }
}
