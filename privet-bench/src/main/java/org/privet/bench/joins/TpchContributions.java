package org.privet.bench.joins;

import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.time.LocalDate;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-customer contributions to R2T's TPC-H queries with customer as the privacy unit, streamed
 * from the Java TPC-H generator ({@code io.trino.tpch:tpch}): orders and line items are generated
 * in the same order-key order, so they are joined in lock step and only one long per customer and
 * query is kept (SF 1's 6M line items are never held).
 *
 * <p>All four queries are foreign-key SJA queries without self-join: every join result references
 * exactly one customer (lineitem → orders → customer), so a customer's contribution is the sum over
 * its join results.
 */
final class TpchContributions {
  /** 1995-03-15, the date of TPC-H Q3's predicates. */
  static final int Q3_DATE = (int) LocalDate.of(1995, 3, 15).toEpochDay();

  private TpchContributions() {}

  /** Query name → one contribution per customer (customers without join results count 0). */
  static Map<String, long[]> generate(double scaleFactor) {
    int customers = 0;
    for (Customer ignored : new CustomerGenerator(scaleFactor, 1, 1)) {
      customers++;
    }
    boolean[] building = new boolean[customers + 1];
    for (Customer c : new CustomerGenerator(scaleFactor, 1, 1)) {
      building[(int) c.getCustomerKey()] = "BUILDING".equals(c.getMarketSegment());
    }
    long[] q10 = new long[customers];
    long[] q18 = new long[customers];
    long[] q12 = new long[customers];
    long[] q3 = new long[customers];
    long[] q3full = new long[customers];
    Iterator<LineItem> items = new LineItemGenerator(scaleFactor, 1, 1).iterator();
    LineItem pending = items.hasNext() ? items.next() : null;
    for (Order o : new OrderGenerator(scaleFactor, 1, 1)) {
      int c = (int) o.getCustomerKey() - 1;
      q10[c]++;
      while (pending != null && pending.getOrderKey() == o.getOrderKey()) {
        q18[c] += pending.getQuantity();
        q12[c]++;
        if (o.getOrderDate() < Q3_DATE) {
          q3[c]++;
          if (pending.getShipDate() > Q3_DATE && building[c + 1]) {
            q3full[c]++;
          }
        }
        pending = items.hasNext() ? items.next() : null;
      }
      if (pending != null && pending.getOrderKey() < o.getOrderKey()) {
        throw new IllegalStateException("line items are not in order-key order");
      }
    }
    if (pending != null) {
      throw new IllegalStateException("line items left after the last order");
    }
    Map<String, long[]> out = new LinkedHashMap<>();
    out.put("Q3", q3);
    out.put("Q3-full", q3full);
    out.put("Q10", q10);
    out.put("Q12c", q12);
    out.put("Q18", q18);
    return out;
  }
}
