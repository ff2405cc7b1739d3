package org.privet.models;

/** Small dense linear algebra for d×d symmetric systems (d up to a few hundred). */
final class Linalg {
  private Linalg() {}

  /**
   * Solves A·x = b for symmetric positive definite A by Cholesky; if A is not numerically positive
   * definite, a ridge of growing size is added until it is (total: never throws on values).
   */
  static double[] solveSpd(double[][] a, double[] b) {
    int d = b.length;
    double ridge = 0;
    for (int attempt = 0; attempt < 60; attempt++) {
      double[][] l = new double[d][d];
      boolean ok = true;
      for (int i = 0; i < d && ok; i++) {
        for (int j = 0; j <= i; j++) {
          double s = a[i][j] + (i == j ? ridge : 0);
          for (int k = 0; k < j; k++) {
            s -= l[i][k] * l[j][k];
          }
          if (i == j) {
            if (!(s > 0) || !Double.isFinite(s)) {
              ok = false;
              break;
            }
            l[i][i] = Math.sqrt(s);
          } else {
            l[i][j] = s / l[j][j];
          }
        }
      }
      if (ok) {
        double[] z = new double[d];
        for (int i = 0; i < d; i++) {
          double s = b[i];
          for (int k = 0; k < i; k++) {
            s -= l[i][k] * z[k];
          }
          z[i] = s / l[i][i];
        }
        double[] x = new double[d];
        for (int i = d - 1; i >= 0; i--) {
          double s = z[i];
          for (int k = i + 1; k < d; k++) {
            s -= l[k][i] * x[k];
          }
          x[i] = s / l[i][i];
        }
        return x;
      }
      ridge = ridge == 0 ? 1e-10 * (1 + trace(a) / d) : ridge * 10;
    }
    return new double[d];
  }

  static double trace(double[][] a) {
    double t = 0;
    for (int i = 0; i < a.length; i++) {
      t += Math.abs(a[i][i]);
    }
    return Double.isFinite(t) ? t : 1;
  }

  /** The smallest eigenvalue of a symmetric matrix (cyclic Jacobi; total). */
  static double minEigenvalue(double[][] m) {
    int d = m.length;
    double[][] a = new double[d][];
    for (int i = 0; i < d; i++) {
      a[i] = m[i].clone();
    }
    for (int sweep = 0; sweep < 100; sweep++) {
      double off = 0;
      for (int p = 0; p < d; p++) {
        for (int q = p + 1; q < d; q++) {
          off += a[p][q] * a[p][q];
        }
      }
      if (off < 1e-22 * (1 + trace(a) * trace(a))) {
        break;
      }
      for (int p = 0; p < d; p++) {
        for (int q = p + 1; q < d; q++) {
          if (Math.abs(a[p][q]) < 1e-300) {
            continue;
          }
          double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
          double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
          if (theta == 0) {
            t = 1;
          }
          double c = 1 / Math.sqrt(t * t + 1);
          double s = t * c;
          for (int k = 0; k < d; k++) {
            double akp = a[k][p];
            double akq = a[k][q];
            a[k][p] = c * akp - s * akq;
            a[k][q] = s * akp + c * akq;
          }
          for (int k = 0; k < d; k++) {
            double apk = a[p][k];
            double aqk = a[q][k];
            a[p][k] = c * apk - s * aqk;
            a[q][k] = s * apk + c * aqk;
          }
        }
      }
    }
    double min = Double.POSITIVE_INFINITY;
    for (int i = 0; i < d; i++) {
      min = Math.min(min, a[i][i]);
    }
    return Double.isFinite(min) ? min : 0;
  }
}
