package org.privet.engine.release;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.LongUnaryOperator;

/**
 * A hierarchical (b-ary tree) histogram over the B grid cells of a quantile aggregation, and the
 * post-processing that turns its noisy node counts into quantiles with value confidence intervals.
 *
 * <p>Structure: level ℓ = 1..h has nodes covering b<sup>h−ℓ</sup> consecutive cells, level h the
 * cells themselves, h = ⌈log<sub>b</sub> B⌉; nodes lying entirely beyond cell B−1 do not exist
 * (they would always be empty). The root (all cells) is not released: the total is the sum of
 * level 1, and leaving it out saves one level of sensitivity, as in Google's tree. Every bounded
 * row counts in exactly one node per level, H = h nodes in all. This is the quantile tree of
 * Google's differential-privacy library ({@code BoundedQuantiles}/{@code QuantileTree}: branching
 * 16, height 4, no released root) and of PipelineDP, with exact integer noise on every node and
 * the branching chosen for the number of cells ({@link #forCells}: 11 for 1,024 cells, Google's 16
 * for 65,536), read through least-squares consistency (Hay, Rastogi, Miklau, Suciu 2010,
 * "Boosting the accuracy of differentially private histograms through consistency", VLDB; Qardaji,
 * Yang, Li 2013, "Understanding hierarchical methods for differentially private histograms",
 * VLDB).
 *
 * <p>Post-processing (no privacy cost): the point estimates read the CDF of the least-squares
 * consistent leaf counts ({@link #consistent}), made monotone, at r times its total. Each rank's
 * interval comes from two one-sided statements at the true quantile's two cell edges on the
 * linear statistic D̂<sub>j</sub> = Ĉ<sub>j</sub> − r·Ĉ<sub>B</sub>, whose error is a public
 * weighted sum of the node noises ({@link #quantiles(long[], double[], NodeNoise, double)}): no
 * union bound over the grid. Argument: {@code docs/proofs/engine-quantiles.md}.
 */
public final class QuantileTree {
  /**
   * Google's and PipelineDP's branching factor, the reference scale of a tree's error in the
   * default split ({@code DefaultSplit}); the engine's trees choose theirs ({@link #forCells}).
   */
  public static final int BRANCHING = 16;

  /**
   * The rows the point estimate's interpolation spans, at least, in units of its range count's
   * noise s.d. (4: a slope error of about 25% or less; measured on the accuracy suite against 0,
   * 2 and 10: 4 gave the lowest RMSE, ~0.93–0.99 of the first-order error EXPLAIN prints).
   */
  static final double SLOPE_NOISE = 4;

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
    this.h = Math.max(1, levels);
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
      offset[l] = l == 0 ? -1 : at; // the root is not a released node
      at += l == 0 ? 0 : nodes[l];
    }
    this.size = at;
  }

  /**
   * The tree for {@code cells} grid cells: h levels of released nodes below an unreleased root,
   * b the smallest with b<sup>h</sup> ≥ B, h minimising h<sup>2.5</sup>·(b − 1). A prefix needs
   * about h·b/4 nodes, each with noise variance ∝ h² under pure ε (L1 sensitivity ∝ h) and ∝ h
   * under ρ (L2² ∝ h): the exponent 2.5 sits between the two optima (h³ and h²). On the accuracy
   * suite's median (1,024 cells) h = 3 measured 5% above h = 2 under ε and 16% below it under ρ.
   * 11 for the default 1,024 cells (h = 3), 16 for 65,536 (h = 4, Google's tree).
   */
  public static QuantileTree forCells(int cells) {
    return new QuantileTree(cells, branchingFor(cells));
  }

  /** The branching factor {@link #forCells} uses for {@code cells} cells. */
  public static int branchingFor(int cells) {
    int best = 2;
    double bestCost = Double.POSITIVE_INFINITY;
    for (int h = 1; h <= 16; h++) {
      int b = Math.max(2, (int) Math.ceil(Math.pow(cells, 1.0 / h) - 1e-9));
      while (Math.pow(b, h) < cells) {
        b++;
      }
      while (b > 2 && Math.pow(b - 1, h) >= cells) {
        b--;
      }
      double cost = Math.pow(h, 2.5) * (b - 1);
      if (cost < bestCost - 1e-9) {
        bestCost = cost;
        best = b;
      }
    }
    return best;
  }

  /** The branching factor b. */
  public int branching() {
    return b;
  }

  /** H: the number of released levels, cells included (the nodes one row counts in). */
  public int levels() {
    return h;
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
      for (int l = 1; l <= h; l++) {
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
      terms[0] = nodes[1];
      long n = 0;
      for (int i = 0; i < nodes[1]; i++) {
        n += nodeCounts[offset[1] + i];
      }
      return n;
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
      // No complement at level 1: its parent would be the root, which is not released.
      int cc = l == 1 ? Integer.MAX_VALUE / 4 : Math.min(viaD, viaC);
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
    double[] y = new double[size];
    for (int i = 0; i < size; i++) {
      y[i] = noisy[i];
    }
    return project(y);
  }

  /**
   * The least-squares projection of {@link #consistent} on real node values. It is linear and,
   * all nodes having one noise variance, the orthogonal projection Π onto the consistent node
   * vectors (symmetric: Π = Πᵀ, idempotent).
   */
  double[] project(double[] noisy) {
    double[] z = new double[size];
    double[] v = new double[size];
    for (int i = 0; i < nodes[h]; i++) {
      z[offset[h] + i] = noisy[offset[h] + i];
      v[offset[h] + i] = 1;
    }
    for (int l = h - 1; l >= 1; l--) {
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
    for (int l = 1; l < h; l++) {
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
   * The noise of one released node: its variance and excess kurtosis (exact for the discrete
   * Laplace; for the discrete Gaussian summed over its support, or its continuous limit σ², 0 for
   * σ &gt; 40, where the two differ by less than e<sup>−2π²σ²</sup> relatively).
   */
  public record NodeNoise(double variance, double excessKurtosis) {
    /** Discrete Laplace with q = e<sup>−1/t</sup>: variance 2q/(1−q)², excess kurtosis 3 + (1−q)²/(2q). */
    public static NodeNoise laplace(double scale) {
      double q = Math.exp(-1 / scale);
      double p = -Math.expm1(-1 / scale);
      if (q == 0) { // below double resolution: no noise
        return new NodeNoise(0, 0);
      }
      return new NodeNoise(2 * q / (p * p), 3 + p * p / (2 * q));
    }

    /** Discrete Gaussian N<sub>ℤ</sub>(0, σ²). */
    public static NodeNoise gaussian(double sigma) {
      if (sigma > 40) {
        return new NodeNoise(sigma * sigma, 0);
      }
      int k = (int) Math.ceil(14 * sigma) + 2;
      double z = 0;
      double m2 = 0;
      double m4 = 0;
      for (int x = -k; x <= k; x++) {
        double w = Math.exp(-(double) x * x / (2 * sigma * sigma));
        z += w;
        m2 += w * x * x;
        m4 += w * x * x * (double) x * x;
      }
      m2 /= z;
      m4 /= z;
      return m2 == 0 ? new NodeNoise(0, 0) : new NodeNoise(m2, m4 / (m2 * m2) - 3);
    }

    public static NodeNoise of(Releases.Noise n) {
      return n.gaussian() ? gaussian(n.scale()) : laplace(n.scale());
    }
  }

  /**
   * Post-processes noisy node counts into quantiles and a per-rank value interval (in edge
   * units; {@code docs/proofs/engine-quantiles.md}, "Per-rank intervals").
   *
   * <p>Let Ĉ<sub>j</sub> be the least-squares consistent estimate of the prefix count P<sub>j</sub>
   * ({@link #project}), linear in the noisy nodes, and D̂<sub>j</sub> = Ĉ<sub>j</sub> − r·Ĉ<sub>B</sub>:
   * its error is Σ w<sub>i</sub>Z<sub>i</sub> with w = Π q<sub>j</sub>, q<sub>j</sub> the leaf
   * vector 1[i &lt; j] − r, a public vector. The true quantile's cell c* has D<sub>c*</sub> ≤ 0 ≤
   * D<sub>c*+1</sub> (D<sub>j</sub> = P<sub>j</sub> − r·n). With a<sub>j</sub> the (1 − β/2)
   * quantile of the error at edge j, the event "D̂<sub>c*</sub> ≤ a<sub>c*</sub> and
   * D̂<sub>c*+1</sub> ≥ −a<sub>c*+1</sub>" has probability ≥ 1 − β: two one-sided tails at two
   * fixed edges, no union over the grid. On it c* is in S = {c : D̂<sub>c</sub> ≤ a<sub>c</sub>,
   * D̂<sub>c+1</sub> ≥ −a<sub>c+1</sub>}, and the interval is [min S, max S + 1]. The quantile
   * a<sub>j</sub> is the Cornish–Fisher normal quantile with the exact variance and fourth
   * cumulant of the weighted sum (its kurtosis correction kept only when it widens). It is
   * computed only where it can matter: a<sub>j</sub> ≤ Ā<sub>j</sub> = √V·(√m<sub>j</sub> +
   * r·√n<sub>1</sub>)·(z + max(0, κ(z³ − 3z)/24)) (least squares is the best linear unbiased
   * estimate, so its variance is at most that of the raw ±1 prefix minus r times the level-1 sum).
   *
   * <p>The point value: where the monotone CDF g reaches r·total, located by linear
   * interpolation of the consistent CDF over a window of edges around the crossing, widened until
   * it holds {@link #SLOPE_NOISE} noise s.d. of rows. Finally values and intervals are made
   * monotone in the rank ({@link #monotone}: the intervals only widen).
   */
  public Answer quantiles(long[] noisy, double[] ranks, NodeNoise noise, double beta) {
    return quantiles(noisy, ranks, noise, beta, true);
  }

  /**
   * As {@link #quantiles(long[], double[], NodeNoise, double)}; without {@code consistent} the
   * point estimates read the raw ±1 prefix estimates ({@link #prefix}) instead of the
   * least-squares consistent CDF (the unprocessed tree, kept for comparison). The intervals are
   * the same either way.
   */
  public Answer quantiles(long[] noisy, double[] ranks, NodeNoise noise, double beta,
      boolean consistent) {
    int bb = cells;
    double[] c = consistent(noisy);
    double[] cdf = new double[bb + 1];
    for (int j = 1; j <= bb; j++) {
      cdf[j] = cdf[j - 1] + c[offset[h] + j - 1];
    }
    int[] terms = new int[1];
    double[] point = cdf;
    if (!consistent) {
      point = new double[bb + 1];
      for (int j = 0; j <= bb; j++) {
        point[j] = prefix(noisy, j, terms);
      }
    }
    // Monotone point estimate of the CDF: mean of the running max and the reverse running min.
    double[] g = new double[bb + 1];
    double[] fwd = new double[bb + 1];
    double run = Double.NEGATIVE_INFINITY;
    for (int j = 0; j <= bb; j++) {
      run = Math.max(run, point[j]);
      fwd[j] = run;
    }
    run = Double.POSITIVE_INFINITY;
    for (int j = bb; j >= 0; j--) {
      run = Math.min(run, point[j]);
      g[j] = Math.max(0, (fwd[j] + run) / 2);
    }
    double total = g[bb];
    double z = upperNormalQuantile(beta / 2);
    double kappa = noise.excessKurtosis();
    double cf = z + Math.max(0, kappa * (z * z * z - 3 * z) / 24);
    double sd = Math.sqrt(noise.variance());
    double[] rootM = new double[bb + 1];
    for (int j = 0; j <= bb; j++) {
      prefix(noisy, j, terms);
      rootM[j] = Math.sqrt(terms[0]);
    }
    double rootN1 = Math.sqrt(nodes[1]);
    int r = ranks.length;
    double[] edge = new double[r];
    int[] lowerEdge = new int[r];
    int[] upperEdge = new int[r];
    for (int i = 0; i < r; i++) {
      double rank = ranks[i];
      // D̂_j, shifted by a rounding tolerance (the least-squares sums carry relative errors of
      // about 1e-15: with exact counts and no noise D̂ must not fall on the wrong side of 0).
      double tol = 1e-9 * Math.max(1, Math.abs(cdf[bb]));
      double[] dBelow = new double[bb + 1];
      double[] dAbove = new double[bb + 1];
      for (int j = 0; j <= bb; j++) {
        dBelow[j] = cdf[j] - rank * cdf[bb] - tol;
        dAbove[j] = cdf[j] - rank * cdf[bb] + tol;
      }
      double[] a = new double[bb + 1];
      java.util.Arrays.fill(a, Double.NaN);
      int lo = -1;
      int hi = -1;
      for (int cell = 0; cell < bb; cell++) {
        if (below(dBelow, a, cell, rank, rootM, rootN1, sd, cf, z, kappa)
            && above(dAbove, a, cell + 1, rank, rootM, rootN1, sd, cf, z, kappa)) {
          lo = lo < 0 ? cell : lo;
          hi = cell;
        }
      }
      double target = Math.max(rank * total, 1);
      double value;
      int j = 1;
      while (j <= bb && g[j] < target) {
        j++;
      }
      if (j > bb) {
        value = lo >= 0 ? (lo + hi + 1) / 2.0 : bb / 2.0;
      } else {
        // Linear interpolation between edges from < to around the crossing (g[from] < target ≤
        // g[to]), widened symmetrically until the rows between them exceed SLOPE_NOISE times a
        // bound on the noise s.d. of that range count (node s.d. × √min(cells, 2h(b − 1)), the
        // raw estimate's): the interpolation's slope then errs by about 1/SLOPE_NOISE or less,
        // where within one cell of a sparse column it would be mostly noise.
        int from = j - 1;
        int to = j;
        while ((from > 0 || to < bb)
            && g[to] - g[from] < SLOPE_NOISE * sd
                * Math.sqrt(Math.min(to - from, 2 * h * (b - 1)))) {
          from = Math.max(0, from - 1);
          to = Math.min(bb, to + 1);
        }
        // The slope and offset from the linear (unbiased) CDF estimate, not the monotone one.
        double frac = point[to] > point[from]
            ? (rank * point[bb] - point[from]) / (point[to] - point[from]) : 1;
        value = from + (to - from) * Math.max(0, Math.min(1, frac));
      }
      if (lo < 0) { // S empty: outside the event; report the point's cell
        lo = (int) Math.min(bb - 1, Math.floor(value));
        hi = lo;
      }
      lowerEdge[i] = lo;
      upperEdge[i] = hi + 1;
      edge[i] = value;
    }
    monotone(ranks, edge, lowerEdge, upperEdge);
    return new Answer(edge, lowerEdge, upperEdge, total);
  }

  /**
   * Makes values and intervals monotone in the rank: each interval is widened to [min of the
   * lower ends at this rank and above, max of the upper ends at this rank and below] (wider, so
   * coverage is kept), the values are sorted into rank order and each is clamped into its
   * interval (clamping a sorted sequence to nondecreasing bounds keeps it sorted).
   */
  private static void monotone(double[] ranks, double[] edge, int[] lowerEdge, int[] upperEdge) {
    int r = ranks.length;
    Integer[] order = new Integer[r];
    for (int i = 0; i < r; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (x, y) -> Double.compare(ranks[x], ranks[y]));
    double[] sorted = edge.clone();
    java.util.Arrays.sort(sorted);
    int[] lo = new int[r];
    int[] up = new int[r];
    int run = Integer.MAX_VALUE;
    for (int k = r - 1; k >= 0; k--) {
      run = Math.min(run, lowerEdge[order[k]]);
      lo[k] = run;
    }
    run = Integer.MIN_VALUE;
    for (int k = 0; k < r; k++) {
      run = Math.max(run, upperEdge[order[k]]);
      up[k] = run;
    }
    for (int k = 0; k < r; k++) {
      int i = order[k];
      lowerEdge[i] = lo[k];
      upperEdge[i] = up[k];
      edge[i] = Math.max(lo[k], Math.min(up[k], sorted[k]));
    }
  }

  /** D̂<sub>j</sub> ≤ a<sub>j</sub> (the upper one-sided statement at edge j). */
  private boolean below(double[] d, double[] a, int j, double rank, double[] rootM,
      double rootN1, double sd, double cf, double z, double kappa) {
    if (d[j] <= 0) {
      return true;
    }
    if (d[j] > sd * (rootM[j] + rank * rootN1) * cf) {
      return false;
    }
    return d[j] <= halfWidth(a, j, rank, sd, z, kappa);
  }

  /** D̂<sub>j</sub> ≥ −a<sub>j</sub> (the lower one-sided statement at edge j). */
  private boolean above(double[] d, double[] a, int j, double rank, double[] rootM,
      double rootN1, double sd, double cf, double z, double kappa) {
    if (d[j] >= 0) {
      return true;
    }
    if (-d[j] > sd * (rootM[j] + rank * rootN1) * cf) {
      return false;
    }
    return -d[j] <= halfWidth(a, j, rank, sd, z, kappa);
  }

  /** a<sub>j</sub>, computed once per edge: the Cornish–Fisher quantile of Σ w<sub>i</sub>Z<sub>i</sub>. */
  private double halfWidth(double[] a, int j, double rank, double sd, double z, double kappa) {
    if (Double.isNaN(a[j])) {
      a[j] = edgeHalfWidth(j, rank, sd, z, kappa);
    }
    return a[j];
  }

  private double edgeHalfWidth(int j, double rank, double sd, double z, double kappa) {
    double s2 = 0;
    double s4 = 0;
    for (double x : rankWeights(j, rank)) {
      s2 += x * x;
      s4 += x * x * x * x;
    }
    return cornishFisher(sd, s2, s4, z, kappa);
  }

  /**
   * a<sub>j</sub>(γ): the one-sided (1 − γ) statement on the error of D̂<sub>j</sub> (either
   * side: the noises are symmetric), as the interval uses it with γ = β/2.
   */
  public double edgeHalfWidth(int j, double rank, NodeNoise noise, double gamma) {
    return edgeHalfWidth(j, rank, Math.sqrt(noise.variance()), upperNormalQuantile(gamma),
        noise.excessKurtosis());
  }

  /**
   * The one-sided (1 − γ) statement on the error of one cell's consistent count Ĉ of {@code
   * cell} (= D̂<sub>cell+1</sub> − D̂<sub>cell</sub> at any rank): the same Cornish–Fisher quantile
   * as {@link #edgeHalfWidth} for that cell's weights on the node noises. A function of the tree,
   * the cell and the noise only (public).
   */
  public double cellHalfWidth(int cell, NodeNoise noise, double gamma) {
    return rangeHalfWidth(cell, cell + 1, noise, gamma);
  }

  /**
   * The one-sided (1 − γ) statement on the error of the consistent count of cells [{@code from},
   * {@code to}) together (= D̂<sub>to</sub> − D̂<sub>from</sub> at any rank): the Cornish–Fisher
   * quantile of {@link #edgeHalfWidth} for those cells' weights on the node noises. Public: a
   * function of the tree, the cells and the noise only.
   */
  public double rangeHalfWidth(int from, int to, NodeNoise noise, double gamma) {
    double[] hi = rankWeights(to, 1.0);
    double[] lo = rankWeights(from, 1.0);
    double s2 = 0;
    double s4 = 0;
    for (int i = 0; i < hi.length; i++) {
      double x = hi[i] - lo[i];
      s2 += x * x;
      s4 += x * x * x * x;
    }
    return cornishFisher(Math.sqrt(noise.variance()), s2, s4, upperNormalQuantile(gamma),
        noise.excessKurtosis());
  }

  /** D̂<sub>j</sub> = Ĉ<sub>j</sub> − r·Ĉ<sub>B</sub> for every edge j, from the consistent counts. */
  public double[] rankStatistic(long[] noisy, double rank) {
    double[] c = consistent(noisy);
    double[] cdf = new double[cells + 1];
    for (int j = 1; j <= cells; j++) {
      cdf[j] = cdf[j - 1] + c[offset[h] + j - 1];
    }
    double[] d = new double[cells + 1];
    for (int j = 0; j <= cells; j++) {
      d[j] = cdf[j] - rank * cdf[cells];
    }
    return d;
  }

  /**
   * The (1 − γ) quantile, z = Φ⁻¹(1 − γ), of Σ w<sub>i</sub>Z<sub>i</sub> (Σw² = s2, Σw⁴ = s4)
   * for independent noises of s.d. {@code sd} and excess kurtosis κ: Cornish–Fisher to the
   * fourth cumulant, σ·(z + κ′(z³ − 3z)/24) with κ′ = κ·s4/s2², the correction kept only when it
   * widens.
   */
  static double cornishFisher(double sd, double s2, double s4, double z, double kappa) {
    if (sd == 0 || s2 == 0) {
      return 0;
    }
    double k = kappa * s4 / (s2 * s2);
    return sd * Math.sqrt(s2) * (z + Math.max(0, k * (z * z * z - 3 * z) / 24));
  }

  /**
   * The widest two-sided (1 − β) statement on a rank error, in rows: the largest
   * a<sub>j</sub>(β/2) over {@code ranks} and up to 65 evenly spaced edges j (public; what
   * EXPLAIN prints and what a target error for a tree quantile bounds).
   */
  public double rankHalfWidth(double[] ranks, NodeNoise noise, double beta) {
    double z = upperNormalQuantile(beta / 2);
    double sd = Math.sqrt(noise.variance());
    int step = Math.max(1, cells / 64);
    double max = 0;
    for (double rank : ranks) {
      for (int j = step / 2; j <= cells; j += step) {
        max = Math.max(max, edgeHalfWidth(j, rank, sd, z, noise.excessKurtosis()));
      }
    }
    return max;
  }

  /**
   * The weights w = Π q of the error of D̂<sub>j</sub> = Ĉ<sub>j</sub> − r·Ĉ<sub>B</sub> on the node
   * noises (q: 1 − r on leaves below j, −r on the others).
   */
  double[] rankWeights(int j, double rank) {
    double[] q = new double[size];
    for (int i = 0; i < cells; i++) {
      q[offset[h] + i] = (i < j ? 1 : 0) - rank;
    }
    return project(q);
  }

  /**
   * The s.d., in rows, of the rank error D̂<sub>j</sub> − D<sub>j</sub> under {@code noise},
   * root-mean-square over up to 65 evenly spaced edges j (public: the tree, the rank, the noise).
   */
  public double rankErrorStddev(double rank, NodeNoise noise) {
    int step = Math.max(1, cells / 64);
    double sum = 0;
    int k = 0;
    for (int j = step / 2; j <= cells; j += step) {
      for (double x : rankWeights(j, rank)) {
        sum += x * x;
      }
      k++;
    }
    return Math.sqrt(noise.variance() * sum / k);
  }

  /** z with P[N(0, 1) &gt; z] = γ (bisection on {@link org.privet.math.Normal#cdf}). */
  static double upperNormalQuantile(double gamma) {
    double lo = -40;
    double hi = 40;
    for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
      double mid = (lo + hi) / 2;
      if (org.privet.math.Normal.upperTail(mid) > gamma) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  /** k = max(1, ⌈r·n⌉) with r as its shortest decimal (so 0.1·30 = 3, not 4). */
  public static long targetRank(double rank, long n) {
    long k = BigDecimal.valueOf(rank).multiply(BigDecimal.valueOf(n))
        .setScale(0, RoundingMode.CEILING).longValueExact();
    return Math.max(1, k);
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
