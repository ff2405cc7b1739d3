package org.privet.ledger;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Public facts about a dataset that queries may use without spending budget: numeric column
 * bounds and public key sets for GROUP BY (so that group keys need no private partition
 * selection). They are supplied by the data owner and must not be derived from the data.
 *
 * @param bounds public bounds by column name
 * @param publicKeys the public set of group keys by column name
 */
public record PublicMetadata(Map<String, ColumnBounds> bounds, Map<String, List<String>> publicKeys) {
  /** No public metadata. */
  public static final PublicMetadata NONE = new PublicMetadata(Map.of(), Map.of());

  public PublicMetadata {
    bounds = copy(bounds, "bounds");
    Map<String, List<String>> keys = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : copy(publicKeys, "publicKeys").entrySet()) {
      if (e.getValue().isEmpty()) {
        throw new IllegalArgumentException("publicKeys of column " + e.getKey() + " must not be empty");
      }
      keys.put(e.getKey(), List.copyOf(e.getValue()));
    }
    publicKeys = java.util.Collections.unmodifiableMap(keys);
  }

  private static <V> Map<String, V> copy(Map<String, V> map, String parameter) {
    if (map == null) {
      throw new IllegalArgumentException(parameter + " must not be null");
    }
    Map<String, V> out = new LinkedHashMap<>();
    for (Map.Entry<String, V> e : map.entrySet()) {
      DatasetSpec.requireIdentifier(parameter, e.getKey());
      if (e.getValue() == null) {
        throw new IllegalArgumentException(parameter + " of column " + e.getKey() + " must not be null");
      }
      out.put(e.getKey(), e.getValue());
    }
    return java.util.Collections.unmodifiableMap(out);
  }
}
