package org.privet.sql;

import java.util.Locale;

/** The DP aggregate functions of the dialect and the aggregate names that are refused. */
enum DpFunctions {
  COUNT,
  SUM,
  AVG,
  VARIANCE,
  STDDEV,
  PERCENTILE_CONT,
  /** APPROX_QUANTILES(x, n): the n + 1 quantiles at ranks 0, 1/n, …, 1 (one quantile tree). */
  APPROX_QUANTILES;

  /** The DP function a (case-insensitive) SQL name denotes, or null. */
  static DpFunctions of(String name) {
    return switch (name.toUpperCase(Locale.ROOT)) {
      case "COUNT" -> COUNT;
      case "SUM" -> SUM;
      case "AVG" -> AVG;
      case "VARIANCE", "VAR_POP" -> VARIANCE;
      case "STDDEV", "STDDEV_POP" -> STDDEV;
      case "PERCENTILE_CONT" -> PERCENTILE_CONT;
      case "APPROX_QUANTILES" -> APPROX_QUANTILES;
      default -> null;
    };
  }

  /** True for any aggregate name (DP or not), to name the problem when one is misused. */
  static boolean isAggregate(String upper) {
    return of(upper) != null || switch (upper) {
      case "MIN", "MAX", "VAR_SAMP", "STDDEV_SAMP", "PERCENTILE_DISC", "MEDIAN", "QUANTILES",
          "ARRAY_AGG", "STRING_AGG", "ANY_VALUE", "LIST", "FIRST", "LAST",
          "APPROX_COUNT_DISTINCT", "COUNTIF", "LOGICAL_AND", "LOGICAL_OR", "BIT_AND", "BIT_OR",
          "GROUP_CONCAT", "MODE", "ARG_MAX", "ARG_MIN" -> true;
      default -> false;
    };
  }
}
