package org.privet.server;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Rate limit on failed authentications per client address: after {@code limit} failures within a
 * minute the address gets 429 on every authenticated route for a minute (even with a valid key,
 * or guessing could go on). Successful requests are not counted and not slowed. The table is
 * bounded: the oldest addresses are forgotten first.
 */
final class AuthFailureLimiter {
  private static final long WINDOW_NANOS = 60_000_000_000L;
  private static final int MAX_ADDRESSES = 100_000;

  private final int limit;
  private final LongSupplier clock;
  private final Map<String, Entry> byAddress = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
      return size() > MAX_ADDRESSES;
    }
  };

  private static final class Entry {
    final Deque<Long> failures = new ArrayDeque<>();
    boolean blocking;
    long blockedUntil;
  }

  AuthFailureLimiter(int limit, LongSupplier nanoClock) {
    this.limit = limit;
    this.clock = nanoClock;
  }

  /** Whether the address is blocked now. */
  synchronized boolean blocked(String address) {
    Entry e = byAddress.get(address);
    return e != null && e.blocking && clock.getAsLong() - e.blockedUntil < 0;
  }

  /** Records a failure; true when this failure blocks the address. */
  synchronized boolean fail(String address) {
    long now = clock.getAsLong();
    Entry e = byAddress.computeIfAbsent(address, a -> new Entry());
    while (!e.failures.isEmpty() && now - e.failures.peekFirst() >= WINDOW_NANOS) {
      e.failures.pollFirst();
    }
    e.failures.addLast(now);
    if (e.failures.size() > limit) {
      e.blocking = true;
      e.blockedUntil = now + WINDOW_NANOS;
      e.failures.clear();
      return true;
    }
    return false;
  }
}
