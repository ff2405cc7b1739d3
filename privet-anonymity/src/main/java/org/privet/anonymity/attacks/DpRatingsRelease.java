package org.privet.anonymity.attacks;

import java.util.HashSet;
import java.util.Set;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.PrivacyFilter;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.random.RandomSource;

/**
 * A user-level ε-DP synthetic ratings table: three noisy histograms, then synthetic records drawn
 * from them alone. The privacy unit is the user (all of one person's ratings).
 *
 * <ol>
 *   <li><b>Bounding.</b> Each user keeps at most {@link #CAP} of their ratings, chosen at random (a
 *       transformation applied to each user separately).
 *   <li><b>Histograms</b>, each through the geometric mechanism (exact discrete Laplace, {@link
 *       GeometricMechanism}): item counts at ε/2 (adding or removing a user changes them by at most
 *       {@link #CAP} in ℓ1); (stars, 30-day bucket) counts at ε/4 (ℓ1 ≤ {@link #CAP}); the users'
 *       numbers of kept ratings, 1 … {@link #CAP}, at ε/4 (ℓ1 = 1). The three are admitted by
 *       privet-core's accountant ({@link PrivacyFilter}, basic composition) within ε.
 *   <li><b>Synthesis</b> (post-processing): negative counts become 0; as many synthetic records as
 *       the noisy activity histogram counts, each with an activity drawn from it (at most half the
 *       items with a positive count), distinct items drawn in proportion to the noisy item counts,
 *       and stars and a bucket from the noisy (stars, bucket) counts, the day uniform within the
 *       bucket.
 * </ol>
 *
 * <p>Every synthetic record is drawn independently from the noisy histograms: none is derived from
 * one person's ratings, so there is no record of the target to find, and the release as a whole is
 * ε-DP for adding or removing a user (the three histograms compose; synthesis uses nothing else).
 * The argument: docs/proofs/attack-bounds.md.
 */
final class DpRatingsRelease {
  /** The most ratings one user contributes. */
  static final int CAP = 64;

  /** Width of a date bucket, in days. */
  static final int BUCKET = 30;

  /** The most synthetic records released (a public constant). */
  static final int MAX_RECORDS = 1_000_000;

  private DpRatingsRelease() {}

  /** The synthetic table and the budget the accountant admitted. */
  record Release(SparseRatings synthetic, ApproxDp spent) {}

  static Release synthesize(SparseRatings data, double epsilon, RandomSource random) {
    int items = data.itemCount();
    int buckets = (SparseRatings.DAYS + BUCKET - 1) / BUCKET;
    long[] itemCounts = new long[items];
    long[] starBucket = new long[5 * buckets];
    long[] activity = new long[CAP + 1];
    for (int u = 0; u < data.users(); u++) {
      int m = data.size(u);
      int[] order = SparseRatings.permutation(m, random);
      int kept = Math.min(CAP, m);
      for (int k = 0; k < kept; k++) {
        int e = order[k];
        itemCounts[data.item(u, e)]++;
        starBucket[(data.stars(u, e) - 1) * buckets + data.day(u, e) / BUCKET]++;
      }
      activity[kept]++;
    }
    PrivacyFilter budget = new PrivacyFilter(BasicAccountant.INSTANCE, new ApproxDp(epsilon, 0));
    GeometricMechanism itemsMech =
        GeometricMechanism.builder()
            .epsilon(epsilon / 2)
            .sensitivity(CAP)
            .randomSource(random)
            .build();
    GeometricMechanism starsMech =
        GeometricMechanism.builder()
            .epsilon(epsilon / 4)
            .sensitivity(CAP)
            .randomSource(random)
            .build();
    GeometricMechanism activityMech =
        GeometricMechanism.builder()
            .epsilon(epsilon / 4)
            .sensitivity(1)
            .randomSource(random)
            .build();
    budget.admit(itemsMech.privacyLoss());
    budget.admit(starsMech.privacyLoss());
    budget.admit(activityMech.privacyLoss());
    long[] noisyItems = clampCumulative(itemsMech.release(itemCounts));
    long[] noisyStars = clampCumulative(starsMech.release(starBucket));
    long[] noisyActivity = activityMech.release(activity);
    noisyActivity[0] = 0; // a record with no rating is not a record
    long[] activityCdf = clampCumulative(noisyActivity);
    int positiveItems = 0;
    for (int i = 0; i < items; i++) {
      positiveItems += noisyItems[i] > (i == 0 ? 0 : noisyItems[i - 1]) ? 1 : 0;
    }
    long records = activityCdf[CAP];
    int n = (int) Math.min(records, MAX_RECORDS); // a public cap: noise cannot blow the table up
    int[][] it = new int[n][];
    byte[][] st = new byte[n][];
    int[][] dy = new int[n][];
    for (int r = 0; r < n; r++) {
      // At most half the items with a positive count, and a bounded number of draws, so that
      // drawing
      // distinct items in proportion to skewed counts stays fast.
      int a = Math.min(positiveItems / 2, SparseRatings.pick(activityCdf, random));
      it[r] = new int[a];
      st[r] = new byte[a];
      dy[r] = new int[a];
      Set<Integer> seen = new HashSet<>();
      int k = 0;
      for (int draws = 0; k < a && draws < 20 * a; draws++) {
        int item = SparseRatings.pick(noisyItems, random);
        if (!seen.add(item)) {
          continue;
        }
        int cell =
            noisyStars[noisyStars.length - 1] == 0
                ? (int) random.nextLong(noisyStars.length)
                : SparseRatings.pick(noisyStars, random);
        it[r][k] = item;
        st[r][k] = (byte) (cell / buckets + 1);
        dy[r][k] =
            Math.min(
                SparseRatings.DAYS - 1, (cell % buckets) * BUCKET + (int) random.nextLong(BUCKET));
        k++;
      }
      if (k < a) {
        it[r] = java.util.Arrays.copyOf(it[r], k);
        st[r] = java.util.Arrays.copyOf(st[r], k);
        dy[r] = java.util.Arrays.copyOf(dy[r], k);
      }
    }
    return new Release(SparseRatings.of(items, it, st, dy), budget.spent());
  }

  /** Negative counts to 0, then running sums (for drawing in proportion to the counts). */
  private static long[] clampCumulative(long[] counts) {
    long[] c = new long[counts.length];
    long total = 0;
    for (int i = 0; i < counts.length; i++) {
      long x = Math.max(0, counts[i]);
      total =
          total > Long.MAX_VALUE - x ? Long.MAX_VALUE : total + x; // saturating: computes totally
      c[i] = total;
    }
    return c;
  }
}
