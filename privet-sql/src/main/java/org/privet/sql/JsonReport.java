package org.privet.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.privet.engine.AutoBounds;
import org.privet.engine.Estimate;

/**
 * ZetaSQL's {@code report_format => "JSON"}: the cell of such an aggregate becomes a JSON string
 * with the released value and its confidence interval, in the field names of ZetaSQL's report
 * ({@code DifferentialPrivacyOutputWithReport}):
 * <pre>{"value": {"float_value": v, "noise_confidence_interval": {"lower_bound": l,
 *   "upper_bound": u, "confidence_level": c}}, "bounding_report": {"lower_bound": {"float_value":
 *   lo}, "upper_bound": {"float_value": hi}}}</pre>
 * ({@code bounding_report} only when the bounds were estimated privately; a value without an
 * interval has no {@code noise_confidence_interval}). Post-processing of the released estimate;
 * non-finite numbers are written as null.
 */
final class JsonReport {
  private JsonReport() {}

  static List<List<Object>> apply(List<List<Object>> rows, List<OutputColumn> columns,
      Set<Integer> jsonColumns, List<AutoBounds.Estimated> bounds) {
    List<List<Object>> out = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      List<Object> cells = new ArrayList<>(row);
      for (int i : jsonColumns) {
        if (cells.get(i) instanceof Estimate e) {
          String name = columns.get(i).name();
          AutoBounds.Estimated b = bounds.stream().filter(x -> x.output().equals(name))
              .findFirst().orElse(null);
          cells.set(i, of(e, b));
        }
      }
      out.add(cells);
    }
    return out;
  }

  /** The JSON report of one released estimate. */
  static String of(Estimate e, AutoBounds.Estimated bounds) {
    StringBuilder s = new StringBuilder("{\"value\": {\"float_value\": ").append(num(e.value()));
    if (e.hasInterval()) {
      s.append(", \"noise_confidence_interval\": {\"lower_bound\": ").append(num(e.lower()))
          .append(", \"upper_bound\": ").append(num(e.upper()))
          .append(", \"confidence_level\": ").append(num(e.level())).append('}');
    }
    s.append('}');
    if (bounds != null) {
      s.append(", \"bounding_report\": {\"lower_bound\": {\"float_value\": ")
          .append(num(bounds.lower())).append("}, \"upper_bound\": {\"float_value\": ")
          .append(num(bounds.upper())).append("}}");
    }
    return s.append('}').toString();
  }

  private static String num(double v) {
    return Double.isFinite(v) ? Double.toString(v) : "null";
  }
}
