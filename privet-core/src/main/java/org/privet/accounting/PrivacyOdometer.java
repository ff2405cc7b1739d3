package org.privet.accounting;

import java.util.Objects;

/**
 * A thread-safe privacy odometer: records events as they happen, with no budget, and reports at any
 * time an upper bound on what has been spent so far. Valid when the events (and how many there
 * are) are chosen adaptively (Rogers, Roth, Ullman, Vadhan 2016, "Privacy odometers and filters":
 * the running sums of ε's and δ's are a valid odometer, whereas the advanced-composition bound is
 * not without extra cost). Hence only events with an (ε, δ) reading are accepted (pure and
 * approximate DP, pure-DP mechanisms, and their amplified subsampled versions); zCDP-type events
 * need a budget, use a {@link PrivacyFilter}.
 */
public final class PrivacyOdometer {
  private double epsilon;
  private double delta;
  private long events;

  /**
   * Records one event.
   *
   * @throws IllegalArgumentException if the event has no (ε, δ) reading, or δ would reach 1
   */
  public synchronized void record(PrivacyLoss event) {
    Objects.requireNonNull(event, "event");
    ApproxDp a = EventMeasures.asApproxDpIfDirect(event);
    if (a == null) {
      throw new IllegalArgumentException(
          "the odometer needs events with an (epsilon, delta) reading; got "
              + event.getClass().getSimpleName() + " (use a PrivacyFilter with the zCDP accountant)");
    }
    double nextDelta = UpwardRounding.add(delta, a.delta());
    if (!(nextDelta < 1)) {
      throw new IllegalArgumentException("odometer delta would reach 1");
    }
    epsilon = UpwardRounding.add(epsilon, a.epsilon());
    delta = nextDelta;
    events++;
  }

  /** The (Σε, Σδ) spent so far, rounded up. */
  public synchronized ApproxDp spent() {
    return new ApproxDp(epsilon, delta);
  }

  /** How many events have been recorded. */
  public synchronized long count() {
    return events;
  }
}
