package org.privet.synth;

import java.util.ArrayList;
import java.util.List;

/**
 * The utility measure of the synthetic-data literature: for each marginal of a workload, the L1
 * distance between the normalized marginals of the real and the synthetic table, and their average
 * ("workload error", McKenna et al. 2022, AIM, Section 2; values in [0, 2]).
 *
 * <p>Non-private: it reads the real table, so it is an evaluation tool for the data owner.
 *
 * @param perMarginal the error of each workload marginal, in workload order
 * @param average the mean of {@link #perMarginal()}
 */
public record WorkloadError(List<MarginalError> perMarginal, double average) {

  /**
   * One marginal's error.
   *
   * @param attrs the attribute indices
   * @param name the attribute names joined by commas
   * @param l1 the L1 distance between normalized marginals
   */
  public record MarginalError(int[] attrs, String name, double l1) {}

  /**
   * Evaluates a synthetic table against the real one on a workload.
   *
   * @throws IllegalArgumentException if the domains differ or a table is empty
   */
  public static WorkloadError evaluate(Table real, Table synthetic, Workload workload) {
    if (!real.domain().equals(synthetic.domain())) {
      throw new IllegalArgumentException("synthetic: domain differs from the real table's domain");
    }
    if (real.rows() == 0 || synthetic.rows() == 0) {
      throw new IllegalArgumentException("table is empty");
    }
    var list = new ArrayList<MarginalError>();
    double sum = 0;
    for (int[] m : workload.marginals()) {
      double e = l1(real.marginal(m), real.rows(), synthetic.marginal(m), synthetic.rows());
      list.add(new MarginalError(m.clone(), real.domain().names(m), e));
      sum += e;
    }
    return new WorkloadError(list, sum / workload.size());
  }

  /** L1 distance between x/nx and y/ny. */
  static double l1(double[] x, double nx, double[] y, double ny) {
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      s += Math.abs(x[i] / nx - y[i] / ny);
    }
    return s;
  }
}
