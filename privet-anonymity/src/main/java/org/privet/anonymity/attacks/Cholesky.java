package org.privet.anonymity.attacks;

/** Solves A x = b for a symmetric positive-definite A by Cholesky factorization (A = L Lᵀ). */
final class Cholesky {
  private Cholesky() {}

  static double[] solve(double[][] a, double[] b) {
    int n = b.length;
    double[][] l = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double s = a[i][j];
        for (int k = 0; k < j; k++) {
          s -= l[i][k] * l[j][k];
        }
        if (i == j) {
          if (!(s > 0)) {
            throw new IllegalArgumentException("matrix is not positive definite");
          }
          l[i][i] = Math.sqrt(s);
        } else {
          l[i][j] = s / l[j][j];
        }
      }
    }
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      double s = b[i];
      for (int k = 0; k < i; k++) {
        s -= l[i][k] * y[k];
      }
      y[i] = s / l[i][i];
    }
    double[] x = new double[n];
    for (int i = n - 1; i >= 0; i--) {
      double s = y[i];
      for (int k = i + 1; k < n; k++) {
        s -= l[k][i] * x[k];
      }
      x[i] = s / l[i][i];
    }
    return x;
  }
}
