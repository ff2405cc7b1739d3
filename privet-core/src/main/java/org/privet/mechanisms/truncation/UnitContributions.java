package org.privet.mechanisms.truncation;

import java.util.Arrays;

/**
 * The per-unit contributions c<sub>u</sub> ≥ 0 of a self-join-free sum or count over a join with
 * foreign keys: each join result's value is attributed to the ONE privacy unit it references
 * (through its chain of references), and c<sub>u</sub> is the sum over that unit's join results, in
 * fixed-point units (an integer; the caller scales decimals, e.g. cents). The truncated query is
 * Q(I, τ) = Σ<sub>u</sub> min(c<sub>u</sub>, τ) (R2T, Dong et al. SIGMOD 2022, the truncation for
 * queries without self-joins), which satisfies every property {@link TruncatedQuery} requires:
 * removing unit u changes it by min(c<sub>u</sub>, τ) ≤ τ and no other term.
 *
 * <p>Units with no join result may be included with c<sub>u</sub> = 0; they change no truncated sum
 * but count in the distribution read by {@link QuantileThresholdMechanism}.
 *
 * <p>Immutable: the values are copied and sorted, with saturating prefix sums, so that each Q(I, τ)
 * costs one binary search.
 */
public final class UnitContributions implements TruncatedQuery {
  /**
   * Sums saturate here (as the engine's fixed-point sums do); every partial sum is at most this.
   */
  public static final long SUM_CAP = 1L << 62;

  private final long[] sorted;

  /** prefix[i] = Σ of the i smallest contributions, saturated at SUM_CAP. */
  private final long[] prefix;

  private UnitContributions(long[] sorted) {
    this.sorted = sorted;
    this.prefix = new long[sorted.length + 1];
    for (int i = 0; i < sorted.length; i++) {
      prefix[i + 1] = saturatingAdd(prefix[i], sorted[i]);
    }
  }

  /**
   * The contributions of the units, one value per unit, in any order.
   *
   * @throws IllegalArgumentException if {@code contributions} is null or holds a negative value
   *     (the message names the parameter, never a value)
   */
  public static UnitContributions of(long[] contributions) {
    if (contributions == null) {
      throw new IllegalArgumentException("contributions must be set");
    }
    long[] copy = contributions.clone();
    for (long c : copy) {
      if (c < 0) {
        throw new IllegalArgumentException("contributions must be non-negative");
      }
    }
    Arrays.sort(copy);
    return new UnitContributions(copy);
  }

  /** The number of units. */
  public int units() {
    return sorted.length;
  }

  /** Q(I) = Σ c<sub>u</sub>, saturated at {@link #SUM_CAP}. */
  public long total() {
    return prefix[sorted.length];
  }

  /** max<sub>u</sub> c<sub>u</sub> = DS<sub>Q</sub>(I), the downward sensitivity (0 if empty). */
  public long maxContribution() {
    return sorted.length == 0 ? 0 : sorted[sorted.length - 1];
  }

  @Override
  public long evaluate(long tau) {
    if (tau < 0) {
      throw new IllegalArgumentException("tau must be non-negative");
    }
    int above = sorted.length - countAtMost(tau);
    // The units with c ≤ τ keep c; the others contribute τ each.
    long clipped = above == 0 ? 0 : saturatingMultiply(tau, above);
    return saturatingAdd(prefix[sorted.length - above], clipped);
  }

  /** #{u : c<sub>u</sub> ≤ τ}. */
  int countAtMost(long tau) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] <= tau) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  static long saturatingAdd(long a, long b) {
    long r = a + b;
    return r < 0 || r > SUM_CAP ? SUM_CAP : r; // a, b ∈ [0, SUM_CAP], so a + b cannot wrap
  }

  static long saturatingMultiply(long a, long b) {
    return b != 0 && a > SUM_CAP / b ? SUM_CAP : a * b;
  }
}
