package org.privet.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import org.privet.curator.QueryExecution;
import org.privet.curator.ReleaseJson;
import org.privet.engine.Estimate;
import org.privet.ledger.LedgerJson;
import org.privet.sql.OutputColumn;
import org.privet.sql.SqlResult;

/** Prints a released DP SQL answer (values with their confidence intervals) on stdout. */
final class ResultPrinter {
  private ResultPrinter() {}

  static void print(PrintWriter out, QueryExecution.Outcome outcome, OutputFormat format) {
    SqlResult r = outcome.result();
    if (format == OutputFormat.JSON) {
      out.println(LedgerJson.writePretty(ReleaseJson.of(outcome)));
      out.flush();
      return;
    }
    List<String> header = new ArrayList<>();
    for (OutputColumn c : r.columns()) {
      header.add(c.name());
      if (c.engineOutput() != null) {
        if (format == OutputFormat.CSV) {
          header.addAll(List.of(c.name() + "_lower", c.name() + "_upper", c.name() + "_level"));
        } else {
          header.add(c.name() + " " + intervalLabel(r, c));
        }
      }
    }
    TextTable t = new TextTable(header);
    for (List<Object> row : r.rows()) {
      List<String> cells = new ArrayList<>();
      for (int i = 0; i < row.size(); i++) {
        Object v = row.get(i);
        if (v instanceof Estimate e) {
          cells.add(number(e.value()));
          if (format == OutputFormat.CSV) {
            cells.add(e.hasInterval() ? number(e.lower()) : "");
            cells.add(e.hasInterval() ? number(e.upper()) : "");
            cells.add(e.hasInterval() ? number(e.level()) : "");
          } else {
            cells.add(e.hasInterval() ? "[" + number(e.lower()) + ", " + number(e.upper()) + "]" : "(no interval)");
          }
        } else {
          cells.add(v == null ? (format == OutputFormat.CSV ? "" : "NULL") : v.toString());
        }
      }
      t.add(cells);
    }
    t.print(out, format);
  }

  private static String intervalLabel(SqlResult r, OutputColumn c) {
    int index = r.columns().indexOf(c);
    for (List<Object> row : r.rows()) {
      if (row.get(index) instanceof Estimate e && e.hasInterval()) {
        return number(100 * e.level()) + "% CI";
      }
    }
    return "CI";
  }

  /** A released number for people: integers as such, others with at most 4 decimals. */
  static String number(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Double.toString(v);
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return new BigDecimal(v).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
  }
}
