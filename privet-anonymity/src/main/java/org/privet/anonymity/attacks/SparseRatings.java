package org.privet.anonymity.attacks;

import java.util.Arrays;
import org.privet.random.RandomSource;

/**
 * A sparse ratings table (user, item, stars, date): one record per user, holding the items the user
 * rated (ascending, distinct) with 1–5 stars and a day number in [0, {@link #DAYS}). Immutable.
 *
 * <p>{@link #generate} draws a <em>synthetic</em> table with the shape Narayanan &amp; Shmatikov
 * describe for the Netflix Prize data ("Robust de-anonymization of large sparse datasets", IEEE
 * S&amp;P 2008, the Netflix Prize case study: 480,189 subscribers, 17,770 movies, 100 million
 * ratings over six years; a few subscribers rated thousands of movies, and many movies were rated
 * rarely). The Netflix data cannot be shipped, so nothing here is real: the model is
 *
 * <ul>
 *   <li>item popularity Zipf-like, weight ∝ 1/(rank + 5)^1.3: a few blockbusters, a long tail of
 *       rarely rated items;
 *   <li>user activity Pareto with exponent 1.3 from 10 ratings, capped at a quarter of the items:
 *       the median user rates about 16 items, a few rate hundreds;
 *   <li>each item a release day (before or during the six years) and a typical number of stars;
 *       each user a leniency (−1, 0, 0, +1 star) and an active window; a rating's day falls in the
 *       window, not before the release, and a third of a user's ratings fall on the day they joined
 *       (the sign-up burst of rating films seen before);
 *   <li>stars = clamp(item's typical stars + leniency + {−1, 0, 0, +1}, 1, 5).
 * </ul>
 *
 * <p>Users are independent given the catalogue (popularity, release days, typical stars), which is
 * drawn once: a held-out user is exchangeable with one in the table. Randomness comes from the
 * caller's {@link RandomSource}: the CLI draws a fresh table from the CSPRNG on each run, tests
 * seed it (privet-testing). Uniforms for the model are built from its integers.
 */
public final class SparseRatings {
  /** Days covered: six years, as the Netflix Prize data (November 1999 to December 2005). */
  public static final int DAYS = 6 * 365;

  private final int itemCount;
  private final int[][] items;
  private final byte[][] stars;
  private final int[][] days;

  SparseRatings(int itemCount, int[][] items, byte[][] stars, int[][] days) {
    this.itemCount = itemCount;
    this.items = items;
    this.stars = stars;
    this.days = days;
  }

  /** Number of records (users). */
  public int users() {
    return items.length;
  }

  /** Size of the item catalogue: items are 0 … itemCount − 1. */
  public int itemCount() {
    return itemCount;
  }

  /** Number of ratings in the table. */
  public long ratings() {
    long n = 0;
    for (int[] r : items) {
      n += r.length;
    }
    return n;
  }

  /** Number of items record {@code user} rated. */
  public int size(int user) {
    return items[user].length;
  }

  int item(int user, int k) {
    return items[user][k];
  }

  int stars(int user, int k) {
    return stars[user][k];
  }

  int day(int user, int k) {
    return days[user][k];
  }

  /** The position of {@code item} in record {@code user}, or a negative number if not rated. */
  int find(int user, int item) {
    return Arrays.binarySearch(items[user], item);
  }

  /** Number of records that rated each item: |supp(i)| in the paper's notation. */
  public int[] supports() {
    int[] s = new int[itemCount];
    for (int[] r : items) {
      for (int i : r) {
        s[i]++;
      }
    }
    return s;
  }

  /** The records {@code from} … {@code to} − 1 as a table of their own. */
  SparseRatings slice(int from, int to) {
    return new SparseRatings(
        itemCount,
        Arrays.copyOfRange(items, from, to),
        Arrays.copyOfRange(stars, from, to),
        Arrays.copyOfRange(days, from, to));
  }

  /** Builds a table from per-record arrays; each record's entries are sorted by item here. */
  static SparseRatings of(int itemCount, int[][] items, byte[][] stars, int[][] days) {
    int n = items.length;
    int[][] it = new int[n][];
    byte[][] st = new byte[n][];
    int[][] dy = new int[n][];
    for (int u = 0; u < n; u++) {
      int m = items[u].length;
      Integer[] order = new Integer[m];
      for (int k = 0; k < m; k++) {
        order[k] = k;
      }
      int[] row = items[u];
      Arrays.sort(order, (a, b) -> Integer.compare(row[a], row[b]));
      it[u] = new int[m];
      st[u] = new byte[m];
      dy[u] = new int[m];
      for (int k = 0; k < m; k++) {
        it[u][k] = row[order[k]];
        st[u][k] = stars[u][order[k]];
        dy[u][k] = days[u][order[k]];
        if (it[u][k] < 0 || it[u][k] >= itemCount || (k > 0 && it[u][k] == it[u][k - 1])) {
          throw new IllegalArgumentException(
              "items: each record needs distinct items in [0, itemCount)");
        }
        if (st[u][k] < 1 || st[u][k] > 5 || dy[u][k] < 0 || dy[u][k] >= DAYS) {
          throw new IllegalArgumentException("stars must be in [1, 5] and days in [0, DAYS)");
        }
      }
    }
    return new SparseRatings(itemCount, it, st, dy);
  }

  /**
   * The item count {@link #generate} uses for {@code users} users: one item per five users, at
   * least 100.
   */
  public static int defaultItems(int users) {
    return Math.max(100, users / 5);
  }

  /**
   * Draws {@code users} synthetic records over {@link #defaultItems} items from the model above.
   *
   * @param extra further users drawn from the same catalogue, appended after the first {@code
   *     users} (held-out people, for measuring chance)
   */
  public static SparseRatings generate(int users, int extra, RandomSource random) {
    if (users < 1 || extra < 0) {
      throw new IllegalArgumentException("users must be positive and extra non-negative");
    }
    int itemCount = defaultItems(users);
    // The catalogue: popularity by a random rank, release days, typical stars.
    long[] cumulative = new long[itemCount];
    int[] rank = permutation(itemCount, random);
    long total = 0;
    for (int i = 0; i < itemCount; i++) {
      total += (long) Math.floor(0x1p40 / Math.pow(rank[i] + 5, 1.3));
      cumulative[i] = total;
    }
    int[] release = new int[itemCount];
    int[] typical = new int[itemCount];
    int[] typicalStars = {2, 3, 3, 4, 4, 4, 5};
    for (int i = 0; i < itemCount; i++) {
      release[i] = (int) random.nextLong(DAYS + 365) - 365;
      typical[i] = typicalStars[(int) random.nextLong(typicalStars.length)];
    }
    int n = users + extra;
    int[][] it = new int[n][];
    byte[][] st = new byte[n][];
    int[][] dy = new int[n][];
    int cap = Math.max(10, itemCount / 4);
    int[] leniencies = {-1, 0, 0, 1};
    for (int u = 0; u < n; u++) {
      int activity = (int) Math.min(cap, Math.floor(10 * Math.pow(uniform(random), -1 / 1.3)));
      int start = (int) random.nextLong(DAYS);
      int length = 30 + (int) random.nextLong(1500);
      int end = Math.min(DAYS - 1, start + length);
      int leniency = leniencies[(int) random.nextLong(4)];
      it[u] = new int[activity];
      st[u] = new byte[activity];
      dy[u] = new int[activity];
      java.util.Set<Integer> seen = new java.util.HashSet<>();
      for (int k = 0; k < activity; k++) {
        int item;
        do {
          item = pick(cumulative, random);
        } while (!seen.add(item));
        int from = Math.max(start, release[item]);
        int day;
        if (from > end) {
          day =
              Math.min(
                  DAYS - 1,
                  from + (int) random.nextLong(60)); // rated after the window: a late rating
        } else if (from == start && random.nextLong(3) == 0) {
          day = start; // the sign-up burst
        } else {
          day = from + (int) random.nextLong(end - from + 1);
        }
        int s = typical[item] + leniency + leniencies[(int) random.nextLong(4)];
        it[u][k] = item;
        st[u][k] = (byte) Math.max(1, Math.min(5, s));
        dy[u][k] = day;
      }
    }
    return of(itemCount, it, st, dy);
  }

  /** A uniform double in (0, 1] from 53 random bits. */
  static double uniform(RandomSource random) {
    return ((random.nextLong() >>> 11) + 1) * 0x1p-53;
  }

  /** An index drawn with probability proportional to the increments of {@code cumulative}. */
  static int pick(long[] cumulative, RandomSource random) {
    long x = random.nextLong(cumulative[cumulative.length - 1]);
    int lo = 0;
    int hi = cumulative.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cumulative[mid] > x) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** A uniformly random permutation of 0 … n − 1 (Fisher–Yates). */
  static int[] permutation(int n, RandomSource random) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = (int) random.nextLong(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }
}
