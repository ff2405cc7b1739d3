package org.privet.synth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fits a graphical model to noisy marginals: the Private-PGM estimator (McKenna, Sheldon &amp;
 * Miklau 2019, ICML, Algorithm 1 "mirror descent" with the entropic mirror map and Armijo line
 * search), minimizing Σ_i ‖μ_{C_i} − y_i‖² / (2σ_i²) over the marginals μ of a distribution
 * (scaled to the estimated total). The exponential-family parameters live on the measured attribute
 * sets, so an estimate can be warm-started after a new measurement. Post-processing only.
 */
final class MarginalEstimator {
  private final int[] card;
  /** θ per distinct measured attribute set (key: Arrays.toString of the set). */
  private final Map<String, double[]> theta = new LinkedHashMap<>();
  private double stepSize = Double.NaN;

  MarginalEstimator(int[] card) {
    this.card = card.clone();
  }

  /**
   * The total record count implied by the measurements: their totals averaged with
   * inverse-variance weights (a cell-count c with per-cell σ has variance c·σ²). At least 1.
   */
  static double estimateTotal(List<Measurement> ms) {
    double num = 0;
    double den = 0;
    for (Measurement m : ms) {
      double s = 0;
      double var = 0;
      for (int i = 0; i < m.y().length; i++) {
        s += m.y()[i];
        var += m.variance(i);
      }
      num += s / var;
      den += 1 / var;
    }
    return Math.max(1, num / den);
  }

  /** Runs {@code iters} mirror-descent iterations and returns the fitted, calibrated model. */
  GraphicalModel estimate(List<Measurement> ms, int iters) {
    double total = estimateTotal(ms);
    var sets = new ArrayList<int[]>();
    for (Measurement m : ms) {
      theta.computeIfAbsent(Arrays.toString(m.attrs()), key -> {
        sets.add(m.attrs());
        return new double[IndexMap.cells(card, m.attrs())];
      });
    }
    var cover = new ArrayList<int[]>();
    for (String key : theta.keySet()) {
      cover.add(parse(key));
    }
    for (int a = 0; a < card.length; a++) {
      cover.add(new int[] {a});
    }
    JunctionTree jt = JunctionTree.build(card, cover);
    int[][] parentToSep = GraphicalModel.separatorMaps(jt);
    int[][] selfToSep = GraphicalModel.childMaps(jt);
    // Assign every parameter set to a clique, with its index map.
    String[] keys = theta.keySet().toArray(String[]::new);
    int[] home = new int[keys.length];
    int[][] homeMap = new int[keys.length][];
    int[][] setAttrs = new int[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      setAttrs[i] = parse(keys[i]);
      home[i] = jt.cliqueContaining(setAttrs[i]);
      homeMap[i] = IndexMap.of(card, jt.cliques[home[i]], setAttrs[i]);
    }
    int[] measIndex = new int[ms.size()];
    for (int j = 0; j < ms.size(); j++) {
      measIndex[j] = Arrays.asList(keys).indexOf(Arrays.toString(ms.get(j).attrs()));
    }
    if (Double.isNaN(stepSize)) {
      double minVar = Double.POSITIVE_INFINITY;
      for (Measurement m : ms) {
        minVar = Math.min(minVar, m.sigma() * m.sigma());
      }
      stepSize = minVar / total;
    }

    double[][] th = new double[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      th[i] = theta.get(keys[i]);
    }
    GraphicalModel model = build(jt, th, home, homeMap, total, parentToSep, selfToSep);
    double[][] mu = marginals(model, home, homeMap, setAttrs);
    double[][] grad = new double[keys.length][];
    double loss = lossAndGrad(ms, measIndex, mu, grad, keys.length, setAttrs);
    double alpha = stepSize;
    for (int t = 0; t < iters; t++) {
      alpha *= 2;
      boolean accepted = false;
      for (int ls = 0; ls < 30; ls++) {
        double[][] cand = new double[keys.length][];
        for (int i = 0; i < keys.length; i++) {
          cand[i] = th[i].clone();
          for (int x = 0; x < cand[i].length; x++) {
            cand[i][x] -= alpha * grad[i][x];
          }
        }
        GraphicalModel m2 = build(jt, cand, home, homeMap, total, parentToSep, selfToSep);
        double[][] mu2 = marginals(m2, home, homeMap, setAttrs);
        double[][] grad2 = new double[keys.length][];
        double loss2 = lossAndGrad(ms, measIndex, mu2, grad2, keys.length, setAttrs);
        double predicted = 0;
        for (int i = 0; i < keys.length; i++) {
          for (int x = 0; x < mu[i].length; x++) {
            predicted += grad[i][x] * (mu[i][x] - mu2[i][x]);
          }
        }
        if (loss - loss2 >= 0.5 * predicted && loss2 <= loss) {
          th = cand;
          model = m2;
          mu = mu2;
          grad = grad2;
          loss = loss2;
          accepted = true;
          break;
        }
        alpha /= 2;
      }
      if (!accepted) {
        break;
      }
    }
    stepSize = alpha;
    for (int i = 0; i < keys.length; i++) {
      theta.put(keys[i], th[i]);
    }
    return model;
  }

  private GraphicalModel build(JunctionTree jt, double[][] th, int[] home, int[][] homeMap, double total,
      int[][] parentToSep, int[][] selfToSep) {
    double[][] pot = new double[jt.cliques.length][];
    for (int c = 0; c < pot.length; c++) {
      pot[c] = new double[IndexMap.cells(card, jt.cliques[c])];
    }
    for (int i = 0; i < th.length; i++) {
      double[] p = pot[home[i]];
      int[] map = homeMap[i];
      double[] t = th[i];
      for (int x = 0; x < p.length; x++) {
        p[x] += t[map[x]];
      }
    }
    return GraphicalModel.calibrate(jt, pot, total, parentToSep, selfToSep);
  }

  private double[][] marginals(GraphicalModel model, int[] home, int[][] homeMap, int[][] setAttrs) {
    double[][] mu = new double[home.length][];
    for (int i = 0; i < home.length; i++) {
      mu[i] = IndexMap.sum(model.prob[home[i]], homeMap[i], IndexMap.cells(card, setAttrs[i]));
      for (int x = 0; x < mu[i].length; x++) {
        mu[i][x] *= model.total;
      }
    }
    return mu;
  }

  private static double lossAndGrad(List<Measurement> ms, int[] measIndex, double[][] mu, double[][] grad, int sets,
      int[][] setAttrs) {
    for (int i = 0; i < sets; i++) {
      grad[i] = new double[mu[i].length];
    }
    double loss = 0;
    for (int j = 0; j < ms.size(); j++) {
      Measurement m = ms.get(j);
      int i = measIndex[j];
      double[] y = m.y();
      for (int x = 0; x < y.length; x++) {
        double w = 1 / m.variance(x);
        double diff = mu[i][x] - y[x];
        loss += 0.5 * w * diff * diff;
        grad[i][x] += w * diff;
      }
    }
    return loss;
  }

  private static int[] parse(String key) {
    String body = key.substring(1, key.length() - 1).strip();
    if (body.isEmpty()) {
      return new int[0];
    }
    return Arrays.stream(body.split(",")).map(String::strip).mapToInt(Integer::parseInt).toArray();
  }
}
