package org.privet.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.privet.engine.spi.Backend;
import org.privet.testing.SeededRandomSource;

/**
 * What an analyst observes of a run outside a successful release's noisy values: released or the
 * exception's type and message, and how many charges were made. Neighbouring tables must give equal
 * outcomes (issue 10).
 */
record Observed(String kind, String message, int charges) {

  /** Builds the query (the builder may refuse) and runs it on {@code backend}. */
  static Observed run(Backend backend, Supplier<Query> query) {
    AtomicInteger charges = new AtomicInteger();
    Session s = Session.builder().backend(backend).budgetCharger(c -> charges.incrementAndGet())
        .randomSource(new SeededRandomSource(7)).build();
    try {
      s.run(query.get());
      return new Observed("released", "", charges.get());
    } catch (RuntimeException e) {
      return new Observed(e.getClass().getName(), e.getMessage(), charges.get());
    }
  }
}
