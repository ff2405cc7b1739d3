package org.privet.engine.compile;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** Canonical forms of group keys, so that a public key {@code 3} matches a backend's {@code 3L}. */
public final class GroupKeys {
  private GroupKeys() {}

  public static List<Object> canonical(List<Object> key) {
    List<Object> out = new ArrayList<>(key.size());
    for (Object v : key) {
      out.add(canonical(v));
    }
    return out;
  }

  private static Object canonical(Object v) {
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte
        || v instanceof BigInteger) {
      return new BigDecimal(v.toString()).stripTrailingZeros();
    }
    if (v instanceof Double d) {
      return Double.isFinite(d) ? new BigDecimal(d).stripTrailingZeros() : d;
    }
    if (v instanceof Float f) {
      return Float.isFinite(f) ? new BigDecimal(f).stripTrailingZeros() : f;
    }
    if (v instanceof BigDecimal b) {
      return b.stripTrailingZeros();
    }
    if (v instanceof java.sql.Date d) {
      return d.toLocalDate();
    }
    if (v instanceof java.sql.Timestamp t) {
      return t.toLocalDateTime();
    }
    return v;
  }
}
