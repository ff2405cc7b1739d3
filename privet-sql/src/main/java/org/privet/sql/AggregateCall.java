package org.privet.sql;

/**
 * One DP aggregate call of the SELECT list, as parsed by {@link AggregateCallParser}.
 *
 * @param function the DP function
 * @param distinct COUNT(DISTINCT unit)
 * @param column its column (null for COUNT(*))
 * @param boundsKind how its value bounds were given
 * @param lower value bound (per row or per group)
 * @param upper value bound
 * @param percentile PERCENTILE_CONT's rank; APPROX_QUANTILES's number of intervals n (an
 *     integer); else NaN
 * @param countCap k of COUNT bounds (0, k), else 0
 * @param offset its position in the user's text
 */
record AggregateCall(DpFunctions function, boolean distinct, String column,
    AggregateCall.BoundsKind boundsKind, double lower, double upper, double percentile,
    int countCap, int offset) {
  /** How an aggregate's value bounds were given. */
  enum BoundsKind {
    NONE, PER_ROW, PER_GROUP, PUBLIC,
    /** {@code contribution_bounds_per_row => AUTO}: lower/upper are the public range or NaN. */
    AUTO,
    /**
     * No bounds given and no public bounds: ZetaSQL's implicit bounding, computed privately as
     * {@code AUTO} on the log grid (lower/upper are NaN).
     */
    IMPLICIT;

    /** AUTO or IMPLICIT: the bounds are estimated privately by the engine. */
    boolean estimated() {
      return this == AUTO || this == IMPLICIT;
    }
  }

  /** Identical calls have the same key (released once). */
  String key() {
    return function + "|" + distinct + "|" + column + "|" + lower + "|" + upper + "|" + percentile
        + "|" + countCap;
  }

  /** The quantile ranks this call reads: its rank, or 0, 1/n, …, 1 for APPROX_QUANTILES. */
  java.util.List<Double> ranks() {
    if (function != DpFunctions.APPROX_QUANTILES) {
      return java.util.List.of(percentile);
    }
    int n = (int) percentile;
    java.util.List<Double> out = new java.util.ArrayList<>();
    for (int k = 0; k <= n; k++) {
      out.add((double) k / n);
    }
    return out;
  }

  /** Percentile calls with the same key share one engine quantile aggregation. */
  String quantileKey() {
    return "quantiles|" + column + "|" + lower + "|" + upper;
  }
}
