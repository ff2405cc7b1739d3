package org.privet.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One released group.
 *
 * @param key the group-by values (empty without GROUP BY)
 * @param values output name → estimate, in output order
 */
public record ResultRow(List<Object> key, Map<String, Estimate> values) {
  public ResultRow {
    key = Collections.unmodifiableList(new java.util.ArrayList<>(key));
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** The estimate of output {@code name}. */
  public Estimate get(String name) {
    Estimate e = values.get(name);
    if (e == null) {
      throw new IllegalArgumentException("no output named '" + name + "'");
    }
    return e;
  }
}
