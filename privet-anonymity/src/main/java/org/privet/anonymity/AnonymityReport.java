package org.privet.anonymity;

import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.SortedMap;

/**
 * What {@link AnonymityCheck} measured on a (generalized) table. Immutable.
 *
 * @param rows released rows
 * @param suppressed suppressed rows (not released)
 * @param k the table's k: the size of its smallest equivalence class (0 when no row is released)
 * @param classSizes equivalence-class size → number of classes of that size
 * @param classes number of equivalence classes
 * @param distinctL the least number of distinct sensitive values in a class (empty without a
 *     sensitive column)
 * @param t the largest Earth Mover's Distance between a class's sensitive distribution and the
 *     table's (empty without a sensitive column)
 * @param tDistance "ordered" (numeric sensitive column) or "equal" (categorical)
 * @param gil the generalized information loss, in [0, 1] (suppressed cells count 1)
 * @param discernibility the discernibility metric: Σ |E|² over classes + suppressed × input rows
 * @param marginalError the mean total-variation error of the 1- and 2-way marginal workload on
 *     the quasi-identifiers (and sensitive column) against the original (empty without it)
 * @param worstMarginalError the largest of those errors
 * @param marginals how many marginals the workload holds
 */
public record AnonymityReport(int rows, int suppressed, int k, SortedMap<Integer, Integer> classSizes,
    int classes, OptionalInt distinctL, OptionalDouble t, String tDistance, double gil,
    double discernibility, OptionalDouble marginalError, OptionalDouble worstMarginalError, int marginals) {

  public AnonymityReport {
    classSizes = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(classSizes));
  }
}
