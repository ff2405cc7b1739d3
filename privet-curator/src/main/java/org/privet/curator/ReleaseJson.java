package org.privet.curator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.List;
import org.privet.engine.Estimate;
import org.privet.ledger.LedgerJson;
import org.privet.sql.SqlResult;

/**
 * The JSON of a released DP SQL answer, shared by {@code privet query --format json} and the
 * server's {@code POST /v1/query}: {@code columns}, {@code rows} (each estimate with {@code value},
 * {@code lower}, {@code upper}, {@code level}; an APPROX_QUANTILES cell is an array of them), with {@code contribution_bounds_per_row => AUTO}
 * the estimated {@code auto_bounds} by output column (DP outputs), and the ledger {@code charge}.
 */
public final class ReleaseJson {
  private ReleaseJson() {}

  /** The answer and its charge as one JSON object. */
  public static ObjectNode of(QueryExecution.Outcome outcome) {
    SqlResult r = outcome.result();
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode root = f.objectNode();
    ArrayNode columns = root.putArray("columns");
    r.columnNames().forEach(columns::add);
    ArrayNode rows = root.putArray("rows");
    for (List<Object> row : r.rows()) {
      ObjectNode o = rows.addObject();
      for (int i = 0; i < row.size(); i++) {
        String name = r.columns().get(i).name();
        Object v = row.get(i);
        if (v instanceof Estimate e) {
          estimate(o.putObject(name), e);
        } else if (v instanceof List<?> list) { // APPROX_QUANTILES: one estimate per quantile
          ArrayNode a = o.putArray(name);
          list.forEach(x -> estimate(a.addObject(), (Estimate) x));
        } else if (v == null) {
          o.putNull(name);
        } else if (v instanceof Number num && !(v instanceof BigDecimal)) {
          if (v instanceof Double || v instanceof Float) {
            o.put(name, num.doubleValue());
          } else {
            o.put(name, num.longValue());
          }
        } else if (v instanceof Boolean b) {
          o.put(name, b);
        } else {
          o.put(name, v.toString());
        }
      }
    }
    if (!r.bounds().isEmpty()) {
      ObjectNode bounds = root.putObject("auto_bounds");
      for (org.privet.engine.AutoBounds.Estimated e : r.bounds()) {
        bounds.putObject(e.output()).put("column", e.column()).put("lower", e.lower())
            .put("upper", e.upper()).put("lower_rank", e.lowerRank())
            .put("upper_rank", e.upperRank());
      }
    }
    if (r.estimatedMaxRowsPerGroup() > 0) {
      root.put("max_rows_per_group_estimate", r.estimatedMaxRowsPerGroup()); // a DP output
    }
    root.set("charge", LedgerJson.charge(outcome.charge()));
    return root;
  }

  private static void estimate(ObjectNode n, Estimate e) {
    n.put("value", e.value());
    if (e.hasInterval()) {
      n.put("lower", e.lower()).put("upper", e.upper()).put("level", e.level());
    } else {
      n.putNull("lower").putNull("upper").putNull("level");
    }
  }
}
