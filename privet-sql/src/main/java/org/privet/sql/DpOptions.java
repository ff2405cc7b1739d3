package org.privet.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.privet.accounting.Budget;
import org.privet.engine.NoiseKind;
import org.privet.engine.Thresholding;

/**
 * The validated {@code WITH DIFFERENTIAL_PRIVACY OPTIONS (...)} of one query. Names and meanings
 * follow BigQuery's differential privacy clause where it has them ({@code epsilon}, {@code delta},
 * {@code max_groups_contributed}, {@code privacy_unit_column}, {@code group_selection_strategy});
 * {@code rho}, {@code max_rows_per_group}, {@code public_groups} and {@code noise} are Privet's.
 *
 * @param budget the query's total budget
 * @param maxGroupsContributed L0, or 0 when not given
 * @param maxRowsPerGroup L∞, or 0 when not given
 * @param privacyUnitColumn the written privacy unit column, or null when not given
 * @param publicGroupsRequested whether {@code group_selection_strategy = PUBLIC_GROUPS} or
 *     {@code public_groups} was given
 * @param publicGroups the keys from {@code public_groups}, or null when not given
 * @param noise the noise family
 * @param thresholding the private group selection's thresholding ({@code LAPLACE_THRESHOLD},
 *     {@code GAUSSIAN_THRESHOLD}, {@code OPTIMAL}, {@code POST_AGGREGATION_THRESHOLD}, {@code
 *     SET_UNION}, or AUTO when no strategy is given)
 * @param offsets where each given option's value starts in the user's text
 * @param maxError target half-widths by output name ({@code max_error = (n => 50, ...)}), empty
 *     when the query gives a budget; then {@code budget} is null and the engine solves for it
 *     ({@link org.privet.engine.Query.Builder#targetError})
 * @param confidence the targets' confidence level ({@code confidence}, default 0.95)
 * @param minCount the public lower bound on each released group's rows ({@code min_count}, or its
 *     synonym {@code min_group_size}; 0 when not given)
 * @param delta the δ given with max_error (0 when not given)
 * @param autoBoundsShare {@code auto_bounds_share}: the fraction of the budget spent estimating
 *     {@code contribution_bounds_per_row => AUTO} bounds, or NaN when not given (default 0.1)
 * @param minPrivacyUnitsPerGroup ZetaSQL's {@code min_privacy_units_per_group}, or 0 when not given
 * @param maxRowsContributed ZetaSQL's {@code max_rows_contributed}, or 0 when not given
 * @param maxGroupsUnbounded whether {@code max_groups_contributed = NULL} was given
 * @param groupSelectionEpsilon ZetaSQL's {@code group_selection_epsilon}, or NaN when not given
 * @param planned the query gives neither a budget nor max_error and was parsed for a workload
 *     planner ({@link DpSql#parseForPlanning}), which supplies its targets; {@code confidence},
 *     {@code min_count} and {@code delta} then apply as with max_error
 */
record DpOptions(
    Budget budget,
    int maxGroupsContributed,
    int maxRowsPerGroup,
    String privacyUnitColumn,
    boolean publicGroupsRequested,
    List<List<Object>> publicGroups,
    NoiseKind noise,
    Thresholding thresholding,
    Map<String, Integer> offsets,
    Map<String, Double> maxError,
    double confidence,
    long minCount,
    double delta,
    double autoBoundsShare,
    int minPrivacyUnitsPerGroup,
    int maxRowsContributed,
    boolean maxGroupsUnbounded,
    double groupSelectionEpsilon,
    boolean planned) {

  static final Set<String> NAMES = Set.of("epsilon", "delta", "rho", "max_groups_contributed",
      "max_rows_per_group", "privacy_unit_column", "group_selection_strategy", "public_groups",
      "noise", "max_error", "confidence", "min_count", "min_group_size",
      "auto_bounds_share", "min_privacy_units_per_group", "max_rows_contributed",
      "group_selection_epsilon", "kappa", R2TOption.NAME, R2TOption.BOUND);
  static final int MAX_CONTRIBUTIONS = 1_000_000;
  static final int MAX_PUBLIC_GROUPS = 100_000;

  /** Validates the raw options (ranges, types, conflicts), refusing with positions. */
  static DpOptions from(PreparedQuery q) {
    return from(q, false);
  }

  /**
   * Like {@link #from(PreparedQuery)}; with {@code plannable}, a query with neither a budget nor
   * max_error is accepted as {@link #planned()}.
   */
  static DpOptions from(PreparedQuery q, boolean plannable) {
    SourceText src = q.source();
    Map<String, OptionValue> opts = q.options();
    for (Map.Entry<String, Integer> e : q.optionKeyOffsets().entrySet()) {
      if (!NAMES.contains(e.getKey())) {
        throw src.error(e.getValue(), "unknown option '" + e.getKey() + "'; known options: "
            + String.join(", ", NAMES.stream().sorted().toList()));
      }
    }
    if (opts.containsKey("kappa")) {
      // ZetaSQL's deprecated name of max_groups_contributed.
      if (opts.containsKey("max_groups_contributed")) {
        throw src.error(q.optionKeyOffsets().get("kappa"), "kappa is the deprecated name of"
            + " max_groups_contributed: give one of them");
      }
      opts = new java.util.LinkedHashMap<>(opts);
      opts.put("max_groups_contributed", opts.remove("kappa"));
    }
    Map<String, Integer> offsets = new java.util.LinkedHashMap<>();
    opts.forEach((k, v) -> offsets.put(k, v.offset()));

    OptionValue eps = opts.get("epsilon");
    OptionValue rho = opts.get("rho");
    OptionValue delta = opts.get("delta");
    Budget budget;
    OptionValue maxError = opts.get("max_error");
    Map<String, Double> targets = Map.of();
    double confidence = org.privet.engine.AccuracyTargets.DEFAULT_CONFIDENCE;
    long minCount = 0;
    double targetDelta = 0;
    boolean planned = plannable && maxError == null && eps == null && rho == null;
    if (maxError == null && !planned) {
      for (String only : List.of("confidence", "min_count", "min_group_size")) {
        if (opts.containsKey(only)) {
          throw src.error(opts.get(only).offset(), only + " applies only with max_error");
        }
      }
    } else {
      if (planned) {
        // targets come from the planner
      } else if (eps != null || rho != null) {
        throw src.error(maxError.offset(), "max_error solves for the budget: give max_error or "
            + (eps != null ? "epsilon" : "rho") + ", not both");
      }
      targets = planned ? Map.of() : maxError(src, maxError);
      OptionValue conf = opts.get("confidence");
      if (conf != null) {
        confidence = number(src, "confidence", conf);
        if (!(confidence > 0 && confidence < 1)) {
          throw src.error(conf.offset(), "confidence must be in (0, 1), was " + conf.text());
        }
      }
      OptionValue mc = opts.get("min_count");
      OptionValue mg = opts.get("min_group_size");
      if (mc != null && mg != null) {
        throw src.error(mg.offset(), "give min_count or min_group_size (synonyms), not both");
      }
      OptionValue m = mc != null ? mc : mg;
      if (m != null) {
        double v = number(src, m == mc ? "min_count" : "min_group_size", m);
        if (!m.isIntegral() || v < 1) {
          throw src.error(m.offset(), (m == mc ? "min_count" : "min_group_size")
              + " must be an integer >= 1, was " + m.text());
        }
        minCount = (long) v;
      }
      if (delta != null) {
        targetDelta = number(src, "delta", delta);
        if (!(targetDelta >= 0 && targetDelta < 1)) {
          throw src.error(delta.offset(), deltaRange(delta));
        }
      }
    }
    if (maxError != null || planned) {
      budget = null;
    } else if (rho != null) {
      if (eps != null) {
        throw src.error(rho.offset(), "give either epsilon (with optional delta) or rho (with"
            + " optional delta), not both");
      }
      double d = 0;
      if (delta != null) {
        d = number(src, "delta", delta);
        if (!(d >= 0 && d < 1)) {
          throw src.error(delta.offset(), deltaRange(delta));
        }
      }
      // ρ-zCDP, or with δ > 0 δ-approximate ρ-zCDP (δ pays for private group selection).
      budget = Budget.zcdp(positive(src, "rho", rho), d);
    } else {
      if (eps == null) {
        throw src.error(q.selectOffset(), "the epsilon option is required, e.g. OPTIONS (epsilon = 1,"
            + " delta = 1e-6)");
      }
      double e = positive(src, "epsilon", eps);
      double d = 0;
      if (delta != null) {
        d = number(src, "delta", delta);
        if (!(d >= 0 && d < 1)) {
          throw src.error(delta.offset(), deltaRange(delta));
        }
      }
      budget = Budget.approx(e, d);
    }
    OptionValue groupsOption = opts.get("max_groups_contributed");
    boolean groupsUnbounded = groupsOption != null && groupsOption.kind() == OptionValue.Kind.NULL;
    int l0 = groupsUnbounded ? 0 : integer(src, "max_groups_contributed", groupsOption);
    int linf = integer(src, "max_rows_per_group", opts.get("max_rows_per_group"));
    OptionValue rowsOption = opts.get("max_rows_contributed");
    int maxRows = integer(src, "max_rows_contributed", rowsOption);
    if (rowsOption != null && groupsOption != null && !groupsUnbounded) {
      throw src.error(rowsOption.offset(), "max_rows_contributed conflicts with"
          + " max_groups_contributed = " + groupsOption.text() + " (ZetaSQL: give one of them, or"
          + " max_groups_contributed = NULL)");
    }
    if (rowsOption != null && linf > 0) {
      throw src.error(rowsOption.offset(), "max_rows_contributed conflicts with max_rows_per_group");
    }
    if (groupsUnbounded && rowsOption == null) {
      throw src.error(groupsOption.offset(), "max_groups_contributed = NULL (no bound on the"
          + " groups of a unit) needs max_rows_contributed; difference from BigQuery: Privet never"
          + " runs without a contribution bound, which the noise needs");
    }
    OptionValue gse = opts.get("group_selection_epsilon");
    double groupSelectionEpsilon = Double.NaN;
    if (gse != null) {
      if (eps == null) {
        throw src.error(gse.offset(), "group_selection_epsilon needs an epsilon budget");
      }
      groupSelectionEpsilon = positive(src, "group_selection_epsilon", gse);
    }
    OptionValue minUnitsOption = opts.get("min_privacy_units_per_group");
    int minUnits = integer(src, "min_privacy_units_per_group", minUnitsOption);

    String unit = null;
    OptionValue u = opts.get("privacy_unit_column");
    if (u != null) {
      if (u.kind() != OptionValue.Kind.IDENTIFIER && u.kind() != OptionValue.Kind.STRING) {
        throw src.error(u.offset(), "privacy_unit_column must be a column name");
      }
      unit = u.text();
    }

    boolean publicRequested = false;
    Thresholding thresholding = Thresholding.AUTO;
    OptionValue strategy = opts.get("group_selection_strategy");
    if (strategy != null) {
      String s = word(src, "group_selection_strategy", strategy);
      if (s.equals("PUBLIC_GROUPS")) {
        publicRequested = true;
      } else if (s.equals("LAPLACE_THRESHOLD")) {
        thresholding = Thresholding.LAPLACE;
      } else if (s.equals("GAUSSIAN_THRESHOLD")) {
        thresholding = Thresholding.GAUSSIAN;
      } else if (s.equals("OPTIMAL")) {
        thresholding = Thresholding.OPTIMAL;
      } else if (s.equals("POST_AGGREGATION_THRESHOLD")) {
        thresholding = Thresholding.POST_AGGREGATION;
      } else if (s.equals("SET_UNION")) {
        thresholding = Thresholding.SET_UNION;
      } else {
        throw src.error(strategy.offset(), "group_selection_strategy must be LAPLACE_THRESHOLD,"
            + " GAUSSIAN_THRESHOLD, OPTIMAL, POST_AGGREGATION_THRESHOLD or SET_UNION (private"
            + " selection) or PUBLIC_GROUPS");
      }
    }
    List<List<Object>> groups = null;
    OptionValue pg = opts.get("public_groups");
    if (pg != null) {
      if (strategy != null && !publicRequested) {
        throw src.error(pg.offset(), "public_groups conflicts with group_selection_strategy ="
            + " " + strategy.text());
      }
      publicRequested = true;
      groups = publicGroups(src, pg);
    }
    if (minUnitsOption != null && publicRequested) {
      throw src.error(minUnitsOption.offset(), "min_privacy_units_per_group must not be given with"
          + " public groups (they are released whatever their size)");
    }
    if (minUnitsOption != null && thresholding == Thresholding.SET_UNION) {
      throw src.error(minUnitsOption.offset(), "min_privacy_units_per_group is not supported with"
          + " group_selection_strategy = SET_UNION");
    }

    NoiseKind noise = NoiseKind.AUTO;
    OptionValue n = opts.get("noise");
    if (n != null) {
      String s = word(src, "noise", n);
      try {
        noise = NoiseKind.valueOf(s);
      } catch (IllegalArgumentException e) {
        throw src.error(n.offset(), "noise must be AUTO, LAPLACE or GAUSSIAN");
      }
    }
    double autoShare = Double.NaN;
    OptionValue share = opts.get("auto_bounds_share");
    if (share != null) {
      autoShare = number(src, "auto_bounds_share", share);
      if (!(autoShare >= org.privet.engine.AutoBounds.MIN_SHARE
          && autoShare <= org.privet.engine.AutoBounds.MAX_SHARE)) {
        throw src.error(share.offset(), "auto_bounds_share must be in ["
            + org.privet.engine.AutoBounds.MIN_SHARE + ", " + org.privet.engine.AutoBounds.MAX_SHARE
            + "], was " + share.text());
      }
      if (maxError != null || planned) {
        throw src.error(share.offset(), "auto_bounds_share needs a budget (epsilon or rho), not "
            + "max_error");
      }
    }
    return new DpOptions(budget, l0, linf, unit, publicRequested, groups, noise, thresholding,
        Map.copyOf(offsets), targets, confidence, minCount, targetDelta, autoShare, minUnits,
        maxRows, groupsUnbounded, groupSelectionEpsilon, planned);
  }

  /** Whether the private group selection has a δ (from the budget, or given with max_error). */
  boolean hasDelta() {
    return budget == null ? delta > 0 : budget.delta() > 0;
  }

  /** {@code max_error = (output => half_width, ...)}: names and positive finite numbers. */
  private static Map<String, Double> maxError(SourceText src, OptionValue v) {
    if (v.kind() != OptionValue.Kind.TUPLE || v.items().isEmpty()) {
      throw src.error(v.offset(), "max_error must be a list of output => half_width, e.g."
          + " max_error = (n => 50, mean_hours => 0.5)");
    }
    Map<String, Double> out = new java.util.LinkedHashMap<>();
    for (OptionValue item : v.items()) {
      if (item.kind() != OptionValue.Kind.NAMED) {
        throw src.error(item.offset(), "max_error items must be output => half_width");
      }
      String name = item.text().toLowerCase(Locale.ROOT);
      OptionValue x = item.items().get(0);
      double h = number(src, "max_error for '" + name + "'", x);
      if (!(h > 0) || Double.isInfinite(h)) {
        throw src.error(x.offset(), "max_error for '" + name + "' must be a finite number > 0,"
            + " was " + x.text());
      }
      if (out.put(name, h) != null) {
        throw src.error(item.offset(), "max_error names '" + name + "' twice");
      }
    }
    return Map.copyOf(new java.util.LinkedHashMap<>(out));
  }

  /**
   * The refusal of a δ outside [0, 1); δ ≥ 1 names the difference from BigQuery/ZetaSQL, which
   * accept delta = 1 (every group kept: no privacy for group membership).
   */
  private static String deltaRange(OptionValue delta) {
    boolean one;
    try {
      one = Double.parseDouble(delta.text().trim()) == 1;
    } catch (NumberFormatException e) {
      one = false;
    }
    return "delta must be in [0, 1), was " + delta.text() + (one ? "; difference from BigQuery:"
        + " ZetaSQL accepts delta = 1, which gives no privacy guarantee; Privet refuses it" : "");
  }

  private static double number(SourceText src, String name, OptionValue v) {
    if (v.kind() != OptionValue.Kind.NUMBER) {
      throw src.error(v.offset(), name + " must be a number, was a " + v.describe());
    }
    return v.number();
  }

  private static double positive(SourceText src, String name, OptionValue v) {
    double x = number(src, name, v);
    if (!(x > 0) || Double.isInfinite(x)) {
      throw src.error(v.offset(), name + " must be a finite number > 0, was " + v.text());
    }
    if (x < Budget.MIN_EPSILON || x > Budget.MAX_EPSILON) {
      // Budget's range, checked here to give the position; EXPLAIN and the run share this check.
      throw src.error(v.offset(), name + " must be in [2^-50, 2^40], was " + v.text()
          + (x > Budget.MAX_EPSILON ? "; difference from BigQuery: ZetaSQL accepts a larger"
              + " epsilon (its docs remove noise with 1e20), Privet caps it at 2^40, where the"
              + " noise is already negligible" : ""));
    }
    return x;
  }

  private static int integer(SourceText src, String name, OptionValue v) {
    if (v == null) {
      return 0;
    }
    double x = number(src, name, v);
    if (!v.isIntegral() || x < 1 || x > MAX_CONTRIBUTIONS) {
      throw src.error(v.offset(), name + " must be an integer in [1, " + MAX_CONTRIBUTIONS
          + "], was " + v.text());
    }
    return (int) x;
  }

  private static String word(SourceText src, String name, OptionValue v) {
    if (v.kind() != OptionValue.Kind.IDENTIFIER && v.kind() != OptionValue.Kind.STRING) {
      throw src.error(v.offset(), name + " must be a name, was a " + v.describe());
    }
    return v.text().toUpperCase(Locale.ROOT);
  }

  /**
   * {@code public_groups = ('a', 'b')} (one GROUP BY column) or {@code (('a', 1), ('b', 2))}
   * (several). Each key is a list with one value per GROUP BY column.
   */
  private static List<List<Object>> publicGroups(SourceText src, OptionValue v) {
    if (v.kind() != OptionValue.Kind.TUPLE || v.items().isEmpty()) {
      throw src.error(v.offset(), "public_groups must be a non-empty list, e.g. ('a', 'b') or"
          + " (('a', 1), ('b', 2))");
    }
    if (v.items().size() > MAX_PUBLIC_GROUPS) {
      throw src.error(v.offset(), "public_groups may list at most " + MAX_PUBLIC_GROUPS + " keys");
    }
    List<List<Object>> keys = new ArrayList<>();
    Set<List<Object>> seen = new java.util.HashSet<>();
    for (OptionValue item : v.items()) {
      List<Object> key = new ArrayList<>();
      if (item.kind() == OptionValue.Kind.TUPLE) {
        for (OptionValue part : item.items()) {
          key.add(keyValue(src, part));
        }
      } else {
        key.add(keyValue(src, item));
      }
      if (!seen.add(key)) {
        throw src.error(item.offset(), "public_groups lists a key twice");
      }
      keys.add(java.util.Collections.unmodifiableList(key));
    }
    return List.copyOf(keys);
  }

  private static Object keyValue(SourceText src, OptionValue v) {
    if (v.kind() == OptionValue.Kind.TUPLE) {
      throw src.error(v.offset(), "public_groups keys cannot nest lists");
    }
    if (v.kind() == OptionValue.Kind.NUMBER && !Double.isFinite(v.number())) {
      throw src.error(v.offset(), "public_groups values must be finite");
    }
    return v.asKey();
  }
}
