package org.privet.engine.release;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.LongUnaryOperator;

/**
 * A hierarchical (b-ary tree) histogram over the B grid cells of a quantile aggregation, and the
 * post-processing that turns its noisy node counts into quantiles with value confidence intervals.
 *
 * <p>Structure: level 0 is the root (all cells), level ℓ has nodes covering b<sup>h−ℓ</sup>
 * consecutive cells, level h the cells themselves, h = ⌈log<sub>b</sub> B⌉; nodes lying entirely
 * beyond cell B−1 do not exist (they would always be empty). Every bounded row therefore counts in
 * exactly one node per level, H = h + 1 nodes in all. This is the quantile tree of Google's
 * differential-privacy library ({@code BoundedQuantiles}/{@code QuantileTree}, branching factor 16)
 * and of PipelineDP, with exact integer noise on every node (Hay, Rastogi, Miklau, Suciu 2010,
 * "Boosting the accuracy of differentially private histograms through consistency", VLDB;
 * Qardaji, Yang, Li 2013, "Understanding hierarchical methods for differentially private
 * histograms", VLDB).
 *
 * <p>Post-processing (no privacy cost): for every grid edge j the prefix count P<sub>j</sub>
 * (rows in cells below j) is estimated as a fixed ±1 combination of m<sub>j</sub> distinct noisy
 * nodes (at each level either the left siblings, or the parent minus the right siblings, whichever
 * needs fewer nodes); the root estimates P<sub>B</sub> = n. With a<sub>m</sub> a bound that a sum of
 * m independent noises exceeds with probability ≤ β/B, all B estimates are within their
 * a<sub>m<sub>j</sub></sub> of the truth simultaneously with probability ≥ 1 − β (union bound).
 * Inverting that band gives, for every rank at once, an interval of grid edges that contains the
 * cell of the true quantile. The point estimates read the CDF from the least-squares consistent
 * node counts ({@link #consistent}; Hay et al. 2010), which lowers their error; the intervals
 * keep the band of the raw estimates. Argument: {@code docs/proofs/engine-quantiles.md}.
 */
public final class QuantileTree {
  /** Branching factor b (Google's and PipelineDP's default). */
  public static final int BRANCHING = 16;

  private final int cells;
  private final int b;
  private final int h;
  private final long[] span; // span[ℓ] = cells covered by a node at level ℓ (capped)
  private final int[] nodes; // nodes[ℓ] = nodes at level ℓ
  private final int[] offset; // offset[ℓ] = index of level ℓ's first node in the flat array
  private final int size;

  public QuantileTree(int cells, int branching) {
    if (cells < 1) {
      throw new IllegalArgumentException("cells must be positive");
    }
    if (branching < 2) {
      throw new IllegalArgumentException("branching must be at least 2");
    }
    this.cells = cells;
    this.b = branching;
    int levels = 0;
    long cover = 1;
    while (cover < cells) {
      cover *= branching;
      levels++;
    }
    this.h = levels;
    this.span = new long[h + 1];
    this.nodes = new int[h + 1];
    this.offset = new int[h + 1];
    int at = 0;
    for (int l = 0; l <= h; l++) {
      long s = 1;
      for (int i = l; i < h; i++) {
        s *= branching;
      }
      span[l] = s;
      nodes[l] = (int) ((cells + s - 1) / s);
      offset[l] = at;
      at += nodes[l];
    }
    this.size = at;
  }

  /** H: the number of levels, root and cells included (the nodes one row counts in). */
  public int levels() {
    return h + 1;
  }

  /** The number of nodes (the length of {@link #counts}). */
  public int size() {
    return size;
  }

  int cells() {
    return cells;
  }

  /** Exact node counts from cell counts, level by level from the root. */
  public long[] counts(long[] cellCounts) {
    if (cellCounts.length != cells) {
      throw new IllegalArgumentException("expected " + cells + " cells");
    }
    long[] c = new long[size];
    for (int i = 0; i < cells; i++) {
      for (int l = 0; l <= h; l++) {
        c[offset[l] + (int) (i / span[l])] += cellCounts[i];
      }
    }
    return c;
  }

  /**
   * The estimate of the prefix count P<sub>j</sub> (0 ≤ j ≤ B) from node counts, and into
   * {@code terms[0]} the number m<sub>j</sub> of nodes it combines (each with sign ±1). With exact
   * counts the estimate is exact.
   */
  long prefix(long[] nodeCounts, int j, int[] terms) {
    if (j <= 0) {
      terms[0] = 0;
      return 0;
    }
    if (j >= cells) {
      terms[0] = 1;
      return nodeCounts[0];
    }
    // Digits of j: at level ℓ the path node p(ℓ−1) = ⌊j / span(ℓ−1)⌋, digit d = ⌊(j mod
    // span(ℓ−1)) / span(ℓ)⌋. Per level choose "direct" (the d left children) or "complement"
    // (the parent minus the right children); a complement after a complement cancels the parent.
    boolean[] fromCompD = new boolean[h + 1];
    boolean[] fromCompC = new boolean[h + 1];
    int prevD = 0; // best cost so far ending in "direct"
    int prevC = Integer.MAX_VALUE / 4; // ... ending in "complement" (none before level 1)
    for (int l = 1; l <= h; l++) {
      long parent = j / span[l - 1];
      int d = (int) ((j % span[l - 1]) / span[l]);
      int children = childCount(l, parent);
      int compTerms = children - d;
      int dd = Math.min(prevD, prevC) + d;
      fromCompD[l] = prevC < prevD;
      int viaD = prevD + compTerms + 1; // parent added
      int viaC = prevC + compTerms - 1; // parent cancels the previous complement's −parent
      int cc = Math.min(viaD, viaC);
      fromCompC[l] = viaC < viaD;
      prevD = dd;
      prevC = cc;
    }
    boolean comp = prevC < prevD;
    terms[0] = Math.min(prevD, prevC);
    long sum = 0;
    for (int l = h; l >= 1; l--) {
      long parent = j / span[l - 1];
      int d = (int) ((j % span[l - 1]) / span[l]);
      int children = childCount(l, parent);
      int first = offset[l] + (int) (parent * b);
      if (comp) {
        sum += nodeCounts[offset[l - 1] + (int) parent];
        for (int i = d; i < children; i++) {
          sum -= nodeCounts[first + i];
        }
        comp = fromCompC[l];
      } else {
        for (int i = 0; i < d; i++) {
          sum += nodeCounts[first + i];
        }
        comp = fromCompD[l];
      }
    }
    return sum;
  }

  private int childCount(int level, long parent) {
    long first = parent * b;
    return (int) Math.min(b, nodes[level] - first);
  }

  /** The largest m<sub>j</sub> over all prefixes (the band's widest term count). */
  int maxTerms() {
    int[] t = new int[1];
    int max = 1;
    long[] zero = new long[size];
    for (int j = 1; j < cells; j++) {
      prefix(zero, j, t);
      max = Math.max(max, t[0]);
    }
    return max;
  }

  /**
   * The simultaneous band: halfWidth[m] bounds |error| of a sum of m independent noises with
   * probability ≥ 1 − β/B each, so that all B prefix estimates hold together with ≥ 1 − β.
   *
   * @param sumHalfWidth (m, γ) ↦ the smallest a with P[|Z₁ + … + Z<sub>m</sub>| &gt; a] ≤ γ (a
   *     rigorous bound)
   */
  public long[] band(java.util.function.ToLongBiFunction<Integer, Double> sumHalfWidth, double beta) {
    int maxM = maxTerms();
    long[] a = new long[maxM + 1];
    double gamma = beta / cells;
    for (int m = 1; m <= maxM; m++) {
      a[m] = sumHalfWidth.applyAsLong(m, gamma);
    }
    return a;
  }

  /**
   * Least-squares consistent node counts (Hay, Rastogi, Miklau, Suciu 2010, Sec. 4, Theorem 3):
   * the estimates closest in squared error to the noisy counts among those where every node equals
   * the sum of its children. All nodes carry noise of one variance, so with the children's
   * estimates' variances the two passes of the paper become, for a tree whose last nodes per level
   * may have fewer than b children: bottom up, z<sub>v</sub> = the inverse-variance weighted mean
   * of the node's own count and the sum of its children's z (leaves: their count), with variance
   * V<sub>v</sub> = 1/(1 + 1/ΣV<sub>c</sub>) in units of the node noise variance; top down, the
   * root keeps z, and each child gets z<sub>c</sub> + (V<sub>c</sub>/ΣV)·(parent − Σz), which
   * for a complete b-ary tree is the paper's 1/b split. Post-processing of the released counts:
   * no privacy cost ({@code docs/proofs/engine-quantiles.md}).
   */
  double[] consistent(long[] noisy) {
    if (noisy.length != size) {
      throw new IllegalArgumentException("expected " + size + " node counts");
    }
    double[] z = new double[size];
    double[] v = new double[size];
    for (int i = 0; i < nodes[h]; i++) {
      z[offset[h] + i] = noisy[offset[h] + i];
      v[offset[h] + i] = 1;
    }
    for (int l = h - 1; l >= 0; l--) {
      for (int p = 0; p < nodes[l]; p++) {
        double sum = 0;
        double var = 0;
        int first = offset[l + 1] + p * b;
        int children = childCount(l + 1, p);
        for (int c = 0; c < children; c++) {
          sum += z[first + c];
          var += v[first + c];
        }
        int at = offset[l] + p;
        // Weights 1 (own count, variance 1) and 1/var (children's sum).
        z[at] = (noisy[at] + sum / var) / (1 + 1 / var);
        v[at] = 1 / (1 + 1 / var);
      }
    }
    double[] out = z.clone();
    for (int l = 0; l < h; l++) {
      for (int p = 0; p < nodes[l]; p++) {
        int first = offset[l + 1] + p * b;
        int children = childCount(l + 1, p);
        double sum = 0;
        double var = 0;
        for (int c = 0; c < children; c++) {
          sum += z[first + c];
          var += v[first + c];
        }
        double gap = out[offset[l] + p] - sum;
        for (int c = 0; c < children; c++) {
          out[first + c] = z[first + c] + v[first + c] / var * gap;
        }
      }
    }
    return out;
  }

  /**
   * Quantiles at several ranks, in grid-edge units: edge j is the value lower + j·(upper − lower)/B;
   * {@code total} is the monotone point estimate of the number of bounded rows (the CDF at B).
   */
  public record Answer(double[] edge, int[] lowerEdge, int[] upperEdge, double total) {}

  /**
   * Post-processes noisy node counts into quantiles and value intervals (in edge units).
   *
   * <p>Target: for n ≥ 1 bounded rows and rank r, the k-th smallest bounded value, k = max(1,
   * ⌈r·n⌉) with r taken as its shortest decimal ({@link BigDecimal#valueOf(double)}); it lies in
   * cell c* with P<sub>c*</sub> &lt; k ≤ P<sub>c*+1</sub>. When the band holds, lowerEdge ≤ c* and
   * c* + 1 ≤ upperEdge for every rank. The point value is monotone in the rank and lies in its
   * interval.
   */
  public Answer quantiles(long[] noisy, double[] ranks, long[] band) {
    return quantiles(noisy, ranks, band, true);
  }

  /**
   * As {@link #quantiles(long[], double[], long[])}; with {@code consistent} the point estimates
   * read the CDF from the least-squares consistent counts ({@link #consistent}), else from the
   * raw prefix estimates (the unprocessed tree, kept for comparison). The intervals are the same
   * either way: they come from the raw prefix estimates and the band.
   */
  public Answer quantiles(long[] noisy, double[] ranks, long[] band, boolean consistent) {
    int bb = cells;
    double[] point = new double[bb + 1]; // the CDF the point estimates read
    if (consistent) {
      double[] c = consistent(noisy);
      for (int j = 1; j <= bb; j++) {
        point[j] = point[j - 1] + c[offset[h] + j - 1];
      }
    }
    long[] est = new long[bb + 1];
    long[] width = new long[bb + 1];
    int[] t = new int[1];
    for (int j = 0; j <= bb; j++) {
      est[j] = prefix(noisy, j, t);
      width[j] = t[0] == 0 ? 0 : band[t[0]];
      if (!consistent) {
        point[j] = est[j];
      }
    }
    // Monotone certified bounds: lo_j ≤ P_j ≤ up_j whenever the band holds (P is nondecreasing).
    double[] lo = new double[bb + 1];
    double[] up = new double[bb + 1];
    double run = Double.NEGATIVE_INFINITY;
    for (int j = 0; j <= bb; j++) {
      run = Math.max(run, (double) est[j] - width[j]);
      lo[j] = Math.max(0, run);
    }
    run = Double.POSITIVE_INFINITY;
    for (int j = bb; j >= 0; j--) {
      run = Math.min(run, (double) est[j] + width[j]);
      up[j] = run;
    }
    for (int j = 0; j <= bb; j++) {
      lo[j] = Math.min(lo[j], up[j]); // only changes anything outside the band
    }
    // Monotone point estimate of the CDF: mean of the running max and the reverse running min,
    // kept within the certified bounds.
    double[] g = new double[bb + 1];
    double[] fwd = new double[bb + 1];
    run = Double.NEGATIVE_INFINITY;
    for (int j = 0; j <= bb; j++) {
      run = Math.max(run, point[j]);
      fwd[j] = run;
    }
    run = Double.POSITIVE_INFINITY;
    for (int j = bb; j >= 0; j--) {
      run = Math.min(run, point[j]);
      g[j] = Math.max(lo[j], Math.min(up[j], (fwd[j] + run) / 2));
    }
    double nLo = Math.max(0, lo[bb]);
    double nHi = Math.max(0, up[bb]);
    double total = g[bb];
    int r = ranks.length;
    double[] edge = new double[r];
    int[] lowerEdge = new int[r];
    int[] upperEdge = new int[r];
    for (int i = 0; i < r; i++) {
      long kLo = targetRank(ranks[i], (long) Math.floor(nLo));
      long kHi = targetRank(ranks[i], (long) Math.ceil(nHi));
      int lEdge = 0; // largest j ≤ B − 1 with up_j < kLo
      for (int j = bb - 1; j >= 0; j--) {
        if (up[j] < kLo) {
          lEdge = j;
          break;
        }
      }
      int uEdge = bb; // smallest j ≥ 1 with lo_j ≥ kHi
      for (int j = 1; j <= bb; j++) {
        if (lo[j] >= kHi) {
          uEdge = j;
          break;
        }
      }
      lowerEdge[i] = lEdge;
      upperEdge[i] = uEdge;
      double target = Math.max(ranks[i] * total, 1);
      double value;
      int j = 1;
      while (j <= bb && g[j] < target) {
        j++;
      }
      if (j > bb) {
        value = (lEdge + uEdge) / 2.0;
      } else {
        double below = g[j - 1];
        double frac = g[j] > below ? (target - below) / (g[j] - below) : 1;
        value = j - 1 + Math.max(0, Math.min(1, frac));
      }
      edge[i] = Math.max(lEdge, Math.min(uEdge, value));
    }
    return new Answer(edge, lowerEdge, upperEdge, total);
  }

  /** k = max(1, ⌈r·n⌉) with r as its shortest decimal (so 0.1·30 = 3, not 4). */
  public static long targetRank(double rank, long n) {
    long k = BigDecimal.valueOf(rank).multiply(BigDecimal.valueOf(n))
        .setScale(0, RoundingMode.CEILING).longValueExact();
    return Math.max(1, k);
  }

  /** True when every prefix estimate is within the band (the event of probability ≥ 1 − β). */
  public boolean bandHolds(long[] exactNodes, long[] noisyNodes, long[] band) {
    int[] t = new int[1];
    for (int j = 1; j <= cells; j++) {
      long e = prefix(exactNodes, j, t);
      long n = prefix(noisyNodes, j, t);
      if (Math.abs(n - e) > band[t[0]]) {
        return false;
      }
    }
    return true;
  }

  /** Adds noise to every node (in node order). */
  public static long[] release(long[] nodeCounts, LongUnaryOperator noise) {
    long[] out = new long[nodeCounts.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = noise.applyAsLong(nodeCounts[i]);
    }
    return out;
  }
}
