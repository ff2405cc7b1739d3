package org.privet.synth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.random.RandomSource;

/**
 * Domain compression from noisy 1-way marginals (McKenna, Miklau &amp; Sheldon 2021, "Winning the
 * NIST Contest", JPC, Section 4.2 "compress_domain"; recommended for AIM by McKenna et al. 2022 on
 * large-cardinality attributes): an attribute's values whose noisy count is below
 * {@value #THRESHOLD}·σ are merged into one "other" value, the rest are kept. The 1-way
 * measurement is re-expressed on the compressed attribute (the merged cell is the sum of its noisy
 * cells, with variance k·σ²), later marginals are measured on the compressed table, and the output
 * is mapped back by drawing each "other" value among the values it merged: uniformly (MST), or in
 * proportion to their clipped noisy counts (AIM here). AIM also compresses an attribute only when
 * the values kept carry most of the estimated total ({@link AimGenerator#MIN_KEPT_SHARE}): merging
 * a flat attribute into one value would lose it, and AIM refines such attributes in later rounds.
 *
 * <p>Privacy: the compression is a function of DP outputs (the noisy 1-ways) only, and the map it
 * applies to the data is per-row and fixed before any later measurement, so later marginals of the
 * compressed table still have ℓ1 and ℓ2 sensitivity 1 and adaptive composition applies; mapping the
 * output back is post-processing. See docs/proofs/synthetic-data.md.
 */
final class DomainCompression {
  static final double THRESHOLD = 3.0;

  /** Compressed cardinalities. */
  final int[] card;
  private final int[][] toNew;
  private final int[][][] members;

  private final double[][] weights;

  private DomainCompression(int[] card, int[][] toNew, int[][][] members, double[][] weights) {
    this.weights = weights;
    this.card = card;
    this.toNew = toNew;
    this.members = members;
  }

  /**
   * The compression given by the noisy 1-way marginals {@code oneWays}, one per attribute in
   * attribute order (each over {@code {a}}), with the rule's two parameters.
   *
   * @param minKeptShare an attribute is compressed only if the values kept carry at least this share
   *     of the estimated total (0: always, as in MST)
   * @param proportional whether the output draws merged values in proportion to their (clipped)
   *     noisy counts, rather than uniformly (MST)
   */
  static DomainCompression of(int[] card, List<Measurement> oneWays, double minKeptShare, boolean proportional) {
    int d = card.length;
    int[] newCard = new int[d];
    int[][] toNew = new int[d][];
    int[][][] members = new int[d][][];
    double[][] weights = new double[d][];
    double total = MarginalEstimator.estimateTotal(oneWays);
    for (int a = 0; a < d; a++) {
      Measurement m = oneWays.get(a);
      if (m.attrs().length != 1 || m.attrs()[0] != a || m.y().length != card[a]) {
        throw new IllegalArgumentException("oneWays: expected the 1-way marginal of attribute " + a);
      }
      var kept = new ArrayList<Integer>();
      var merged = new ArrayList<Integer>();
      for (int v = 0; v < card[a]; v++) {
        (m.y()[v] >= THRESHOLD * Math.sqrt(m.variance(v)) ? kept : merged).add(v);
      }
      double keptMass = 0;
      for (int v = 0; v < card[a]; v++) {
        keptMass += kept.contains(v) ? m.y()[v] : 0;
      }
      if (!(keptMass >= minKeptShare * total)) {
        kept.addAll(merged);
        kept.sort(null);
        merged.clear();
      }
      int k = kept.size() + (merged.isEmpty() ? 0 : 1);
      newCard[a] = k;
      toNew[a] = new int[card[a]];
      members[a] = new int[k][];
      for (int j = 0; j < kept.size(); j++) {
        toNew[a][kept.get(j)] = j;
        members[a][j] = new int[] {kept.get(j)};
      }
      if (!merged.isEmpty()) {
        members[a][k - 1] = merged.stream().mapToInt(Integer::intValue).toArray();
        double[] wt = new double[merged.size()];
        double sum = 0;
        for (int j = 0; j < wt.length; j++) {
          wt[j] = proportional ? Math.max(0, m.y()[merged.get(j)]) : 1;
          sum += wt[j];
        }
        for (int j = 0; j < wt.length; j++) {
          wt[j] = sum > 0 ? wt[j] / sum : 1.0 / wt.length;
        }
        weights[a] = wt;
        for (int v : merged) {
          toNew[a][v] = k - 1;
        }
      }
    }
    return new DomainCompression(newCard, toNew, members, weights);
  }

  /** Total cells of all 1-way marginals, before or after. */
  static long oneWayCells(int[] card) {
    long s = 0;
    for (int c : card) {
      s += c;
    }
    return s;
  }

  /** The table on the compressed domain (attribute names kept). A per-row map. */
  Table compress(Table data) {
    Domain dom = data.domain();
    Map<String, Integer> sizes = new LinkedHashMap<>();
    for (int a = 0; a < card.length; a++) {
      sizes.put(dom.attribute(a).name(), card[a]);
    }
    int[][] cols = new int[card.length][];
    int[][] in = data.columnsShared();
    for (int a = 0; a < card.length; a++) {
      int[] col = new int[data.rows()];
      for (int i = 0; i < col.length; i++) {
        col[i] = toNew[a][in[a][i]];
      }
      cols[a] = col;
    }
    return Table.trusted(Domain.coded(sizes), cols);
  }

  /** A 1-way measurement re-expressed on the compressed attribute (merged cells summed). */
  Measurement compress(Measurement oneWay) {
    int a = oneWay.attrs()[0];
    double[] y = new double[card[a]];
    double[] var = new double[card[a]];
    for (int v = 0; v < oneWay.y().length; v++) {
      y[toNew[a][v]] += oneWay.y()[v];
      var[toNew[a][v]] += oneWay.variance(v);
    }
    double min = Arrays.stream(var).min().orElseThrow();
    return new Measurement(oneWay.attrs(), y, Math.sqrt(min), var);
  }

  /** Maps a compressed synthetic table back to {@code original}, drawing merged values uniformly. */
  Table decompress(int[][] cols, Domain original, RandomSource random) {
    int[][] out = new int[cols.length][];
    for (int a = 0; a < cols.length; a++) {
      out[a] = new int[cols[a].length];
      for (int i = 0; i < cols[a].length; i++) {
        int[] m = members[a][cols[a][i]];
        if (m.length == 1) {
          out[a][i] = m[0];
        } else {
          double u = GraphicalModel.uniform(random);
          int j = 0;
          double acc = weights[a][0];
          while (j < m.length - 1 && acc <= u) {
            acc += weights[a][++j];
          }
          out[a][i] = m[j];
        }
      }
    }
    return Table.trusted(original, out);
  }
}
