package org.privet.sql;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.AllValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * Post-processing of the engine's released result (sql-rewrites.md, section 7): which column
 * ORDER BY sorts on, and LIMIT / OFFSET. Functions of the released values and the query text only.
 */
final class PostProcessing {
  private final SelectBinder b;
  private final PreparedQuery pq;
  private final SourceText src;

  PostProcessing(SelectBinder binder) {
    this.b = binder;
    this.pq = binder.pq;
    this.src = binder.src;
  }

  /** The sort keys of ORDER BY, each on a released column (alias, GROUP BY column, call, position). */
  List<DpStatement.SortKey> orderBy(PlainSelect ps, List<SelectedColumn> selected,
      List<String> groupBy, List<OutputColumn> outputs) {
    List<String> names = selected.stream().map(SelectedColumn::name).toList();
    List<String> callTexts = selected.stream().map(SelectedColumn::callText).toList();
    List<DpStatement.SortKey> keys = new ArrayList<>();
    if (ps.getOrderByElements() == null) {
      return keys;
    }
    for (OrderByElement o : ps.getOrderByElements()) {
      Expression e = o.getExpression();
      int at = b.at(e, pq.offsetOfWord("ORDER", pq.selectOffset()));
      int column = -1;
      if (e instanceof LongValue ordinal) {
        long n = b.integer(ordinal, at, "ORDER BY position");
        if (n < 1 || n > names.size()) {
          throw src.error(at, "ORDER BY " + n + " is not a selected column position (1 to "
              + names.size() + ")");
        }
        column = (int) n - 1;
      } else if (e instanceof Column c && c.getTable() == null) {
        String written = SelectBinder.unquote(c.getColumnName());
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

  /** LIMIT (−1 for none) and OFFSET. */
  record LimitOffset(long limit, long offset) {}

  LimitOffset limitOffset(PlainSelect ps) {
    long limit = -1;
    long offset = 0;
    Limit l = ps.getLimit();
    if (l != null) {
      int at = b.at(l, pq.offsetOfWord("LIMIT", pq.selectOffset()));
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
    return new LimitOffset(limit, offset);
  }

  private long nonNegative(Expression e, int at, String what) {
    if (!(e instanceof LongValue v)) {
      throw src.error(b.at(e, at), what + " takes a non-negative integer literal");
    }
    return b.integer(v, at, what);
  }
}
