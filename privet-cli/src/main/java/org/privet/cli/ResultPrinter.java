package org.privet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import org.privet.curator.QueryExecution;
import org.privet.curator.ReleaseJson;
import org.privet.engine.Estimate;
import org.privet.ledger.LedgerJson;
import org.privet.sql.SqlResult;

/** Prints a released DP SQL answer (values with their confidence intervals) on stdout. */
public final class ResultPrinter {
  private ResultPrinter() {}

  static void print(PrintWriter out, QueryExecution.Outcome outcome, OutputFormat format) {
    SqlResult r = outcome.result();
    if (format == OutputFormat.JSON) {
      out.println(LedgerJson.writePretty(ReleaseJson.of(outcome)));
      out.flush();
      return;
    }
    printTable(out, r, format);
  }

  /**
   * A released answer as a table (TABLE or CSV), as {@code privet query} prints it; also for
   * {@code privet plan --run}.
   */
  public static void printTable(PrintWriter out, SqlResult r, OutputFormat format) {
    List<Boolean> estimates = new ArrayList<>();
    r.columns().forEach(c -> estimates.add(c.engineOutput() != null));
    print(out, r.columnNames(), estimates, r.rows(), format);
    for (org.privet.engine.AutoBounds.Estimated e : format == OutputFormat.CSV ? List.<org.privet
        .engine.AutoBounds.Estimated>of() : r.bounds()) {
      printBounds(out, e.output(), e.column(), e.lower(), e.upper(), e.lowerRank(), e.upperRank());
    }
    if (format != OutputFormat.CSV && r.estimatedMaxRowsPerGroup() > 0) {
      out.println("# L∞ estimated privately: at most " + r.estimatedMaxRowsPerGroup()
          + " rows per privacy unit per group (DP estimate, issue 24)");
      out.flush();
    }
  }

  /**
   * One AUTO bounds line after the table (the bounds are part of the release; CSV output leaves
   * them out to stay one table, JSON has them under {@code auto_bounds}).
   */
  private static void printBounds(PrintWriter out, String output, String column, double lower,
      double upper, double lowerRank, double upperRank) {
    out.println("# AUTO bounds of " + output + " (" + column + ", DP estimate of its " + lowerRank
        + "/" + upperRank + " quantiles): [" + lower + ", " + upper + "]");
    out.flush();
  }

  /**
   * Prints an answer of {@code privet serve} (the JSON of {@link ReleaseJson}) exactly as a local
   * run prints it; the server's {@code replay} flag is not part of the answer.
   */
  static void printRemote(PrintWriter out, JsonNode answer, OutputFormat format) {
    ObjectNode copy = answer.deepCopy();
    copy.remove("replay");
    if (format == OutputFormat.JSON) {
      out.println(LedgerJson.writePretty(copy));
      out.flush();
      return;
    }
    List<String> names = new ArrayList<>();
    copy.path("columns").forEach(c -> names.add(c.asText()));
    List<Boolean> estimates = new ArrayList<>();
    names.forEach(n -> estimates.add(false));
    List<List<Object>> rows = new ArrayList<>();
    for (JsonNode row : copy.path("rows")) {
      List<Object> cells = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        JsonNode v = row.get(names.get(i));
        if (v != null && v.isObject() && v.has("value")) {
          estimates.set(i, true);
          cells.add(v.path("level").isNumber()
              ? new Estimate(v.get("value").asDouble(), v.get("lower").asDouble(), v.get("upper").asDouble(),
                  v.get("level").asDouble())
              : new Estimate(v.get("value").asDouble(), Double.NaN, Double.NaN, 0.0));
        } else if (v == null || v.isNull()) {
          cells.add(null);
        } else if (v.isIntegralNumber()) {
          cells.add(v.asLong());
        } else if (v.isNumber()) {
          cells.add(v.asDouble());
        } else {
          cells.add(v.asText());
        }
      }
      rows.add(cells);
    }
    print(out, names, estimates, rows, format);
    if (format == OutputFormat.CSV) {
      return; // CSV stays one table; the JSON format carries the AUTO bounds
    }
    copy.path("auto_bounds").fields().forEachRemaining(e -> printBounds(out, e.getKey(),
        e.getValue().path("column").asText(), e.getValue().path("lower").asDouble(),
        e.getValue().path("upper").asDouble(), e.getValue().path("lower_rank").asDouble(),
        e.getValue().path("upper_rank").asDouble()));
    if (copy.path("max_rows_per_group_estimate").isNumber()) {
      out.println("# L∞ estimated privately: at most "
          + copy.get("max_rows_per_group_estimate").asInt()
          + " rows per privacy unit per group (DP estimate, issue 24)");
      out.flush();
    }
  }

  private static void print(PrintWriter out, List<String> names, List<Boolean> estimates,
      List<? extends List<Object>> rows, OutputFormat format) {
    List<String> header = new ArrayList<>();
    for (int c = 0; c < names.size(); c++) {
      String name = names.get(c);
      header.add(name);
      if (estimates.get(c)) {
        if (format == OutputFormat.CSV) {
          header.addAll(List.of(name + "_lower", name + "_upper", name + "_level"));
        } else {
          header.add(name + " " + intervalLabel(rows, c));
        }
      }
    }
    TextTable t = new TextTable(header);
    for (List<Object> row : rows) {
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
        } else if (v instanceof List<?> list) { // APPROX_QUANTILES: the released values
          cells.add("[" + String.join(", ", list.stream()
              .map(x -> number(((Estimate) x).value())).toList()) + "]");
        } else {
          cells.add(v == null ? (format == OutputFormat.CSV ? "" : "NULL") : v.toString());
        }
      }
      t.add(cells);
    }
    t.print(out, format);
  }

  private static String intervalLabel(List<? extends List<Object>> rows, int index) {
    for (List<Object> row : rows) {
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
