package org.privet.engine;

import java.util.List;

/**
 * How a query's budget is split across partition selection and its outputs, and what each output's
 * noise is relative to its public scale ({@code DefaultSplit}; {@code
 * docs/proofs/engine-budget-split.md}, "Default split"). Every figure is computed from the query,
 * the schema and the budget (public), with the mechanisms' exact noise standard deviations.
 *
 * @param rule how the split was made: {@link #DEFAULT} (the textbook equal split per output,
 *     shared releases summed), {@link #EXPLICIT} (the query's budget weights) or {@link #SOLVED} (solved for
 *     target errors, each release at its tightest output's requirement)
 * @param selectionShare partition selection's share of the budget (0 without private selection)
 * @param groupSize a public group size N₀ at which to read the relative errors: the distinct units
 *     at which private selection releases a group with probability ½ (NaN without selection)
 * @param outputs each output with additive noise
 */
public record SplitReport(String rule, double selectionShare, double groupSize,
    List<OutputError> outputs) {
  /** The default split: the textbook equal split per output, shared releases summed. */
  public static final String DEFAULT = "default";
  /** The query's explicit budget weights. */
  public static final String EXPLICIT = "explicit";
  /** Weights solved for target errors ({@code max_error}). */
  public static final String SOLVED = "solved";

  public SplitReport {
    outputs = List.copyOf(outputs);
  }

  /** Whether the split minimises {@link #objective} (the default's optimised weights). */
  public boolean optimised() {
    return DEFAULT.equals(rule);
  }

  /**
   * One output's relative noise.
   *
   * @param output the output name
   * @param relativeStddev its noise s.d. over its public scale N·m, times N (so the relative s.d.
   *     of a group of N rows is this over N)
   * @param equalSplitRelativeStddev the same under the equal split (one weight per release)
   * @param share the budget share of the releases it reads
   * @param kind how the output reads its releases: {@link #ADDITIVE} (COUNT, SUM, a histogram
   *     bin: the release itself), {@link #MEAN}, {@link #VARIANCE}, {@link #STDDEV} or
   *     {@link #RANK} (a quantile tree: a rank error, in value units through the data's density)
   * @param stddevs the exact noise s.d. of each release it reads, in value units (a mean: sum,
   *     count; a variance: sum, squares, count); for {@link #RANK} the s.d. of each rank's error
   *     in rows (root-mean-square over the grid edges, {@code docs/proofs/engine-quantiles.md})
   * @param sumCenter a mean's or variance's sum centre c<sub>S</sub> (value units), else 0
   * @param squaresCenter a variance's squares centre c<sub>Q</sub> (value units), else 0
   */
  public record OutputError(String output, double relativeStddev,
      double equalSplitRelativeStddev, double share, String kind, List<Double> stddevs,
      double sumCenter, double squaresCenter) {
    public OutputError {
      stddevs = List.copyOf(stddevs);
    }

    /**
     * The expected noise s.d. of this output in value units (to first order in the noise, before
     * clamping to the output's range, which only lowers it), in a group of {@code groupSize}
     * rows whose exact mean and variance are {@code mean} and {@code variance} (ignored where
     * unused): {@link #ADDITIVE} s<sub>0</sub>; {@link #MEAN} √(s<sub>S</sub>² + (mean −
     * c<sub>S</sub>)²·s<sub>N</sub>²)/N; {@link #VARIANCE} √(s<sub>Q</sub>² + 4d²s<sub>S</sub>²
     * + (2de − v − d²)²s<sub>N</sub>²)/N with d = mean − c<sub>Q</sub>, e = mean − c<sub>S</sub>;
     * {@link #STDDEV} that over 2√v. NaN for {@link #RANK} (see {@link
     * #expectedQuantileStddev}).
     */
    public double expectedStddev(double groupSize, double mean, double variance) {
      switch (kind) {
        case ADDITIVE:
          return stddevs.get(0);
        case MEAN: {
          double e = mean - sumCenter;
          return Math.sqrt(Math.pow(stddevs.get(0), 2) + e * e * Math.pow(stddevs.get(1), 2))
              / groupSize;
        }
        case VARIANCE:
        case STDDEV: {
          double d = mean - squaresCenter;
          double e = mean - sumCenter;
          double v = Math.sqrt(Math.pow(stddevs.get(1), 2)
              + 4 * d * d * Math.pow(stddevs.get(0), 2)
              + Math.pow(2 * d * e - variance - d * d, 2) * Math.pow(stddevs.get(2), 2))
              / groupSize;
          return STDDEV.equals(kind) ? v / (2 * Math.sqrt(variance)) : v;
        }
        default:
          return Double.NaN;
      }
    }

    /**
     * The expected error s.d. of a quantile tree's {@code rank}-th rank (its index in the
     * aggregation's rank list) in value units, to first order in the noise: its rank error s.d.
     * (rows) over {@code density}, the rows per unit of value at the true quantile (N times the
     * probability density there). NaN for other kinds.
     */
    public double expectedQuantileStddev(int rank, double density) {
      return RANK.equals(kind) ? stddevs.get(rank) / density : Double.NaN;
    }

    /** The formula of {@link #expectedStddev} with this output's figures, for EXPLAIN. */
    public String expectedStddevFormula() {
      return switch (kind) {
        case ADDITIVE -> String.format("%.6g", stddevs.get(0));
        case MEAN -> String.format("√(%.6g² + (mean − %.6g)²·%.6g²)/N", stddevs.get(0),
            sumCenter, stddevs.get(1));
        case VARIANCE, STDDEV -> String.format("√(%.6g² + 4d²·%.6g² + (2de − var − d²)²·%.6g²)/N"
            + " with d = mean − %.6g, e = mean − %.6g%s", stddevs.get(1), stddevs.get(0),
            stddevs.get(2), squaresCenter, sumCenter, STDDEV.equals(kind)
                ? ", over 2·stddev" : "");
        default -> stddevs.size() == 1
            ? String.format("%.6g/f, f the rows per unit of value at the quantile (a rank error "
                + "of s.d. %.6g rows)", stddevs.get(0), stddevs.get(0))
            : String.format("%s/f by rank, f the rows per unit of value at each quantile (rank "
                + "errors of these s.d. in rows)", stddevs.stream()
                    .map(x -> String.format("%.6g", x)).toList());
      };
    }
  }

  /** {@link OutputError#kind}: the output is its release (COUNT, SUM, a histogram bin). */
  public static final String ADDITIVE = "additive";
  /** {@link OutputError#kind}: a mean, sum over count. */
  public static final String MEAN = "mean";
  /** {@link OutputError#kind}: a variance from sum, squares and count. */
  public static final String VARIANCE = "variance";
  /** {@link OutputError#kind}: a standard deviation from sum, squares and count. */
  public static final String STDDEV = "stddev";
  /** {@link OutputError#kind}: a quantile tree (a rank error). */
  public static final String RANK = "rank";

  /** The objective J·N² = Σ relativeStddev² (the sum of squared relative errors at N = 1). */
  public double objective() {
    return outputs.stream().mapToDouble(o -> o.relativeStddev() * o.relativeStddev())
        .filter(Double::isFinite).sum();
  }

  /** J·N² under the equal split. */
  public double equalSplitObjective() {
    return outputs.stream()
        .mapToDouble(o -> o.equalSplitRelativeStddev() * o.equalSplitRelativeStddev())
        .filter(Double::isFinite).sum();
  }

  /** A rendering for EXPLAIN. */
  public String render() {
    StringBuilder s = new StringBuilder("budget split: ");
    s.append(switch (rule) {
      case DEFAULT -> "default, the textbook equal split (each output an equal part, an AVG's or"
          + " VARIANCE's part equal over its releases), a shared release getting the parts of "
          + "every output reading it; J = Σ over outputs of (noise s.d. / (N·m))², m a public "
          + "magnitude per row (count 1, sum/mean (|lower|+|upper|)/2, variance range²/12)";
      case SOLVED -> "solved for the target errors (each release at the share its tightest "
          + "output needs)";
      default -> "explicit budget weights";
    });
    if (selectionShare > 0) {
      s.append(String.format("; partition selection %.4g%% (its weight 1 against one per "
          + "release)",
          100 * selectionShare));
    }
    s.append(String.format("%n  J·N² = %.6g (one weight per release: %.6g)%n", objective(),
        equalSplitObjective()));
    for (OutputError o : outputs) {
      if (!Double.isFinite(o.relativeStddev())) {
        s.append(String.format("  %-14s share %.4g%%, expected error s.d. %s (partition "
            + "selection's noisy count)%n", o.output(), 100 * o.share(),
            o.expectedStddevFormula()));
        continue;
      }
      s.append(String.format("  %-14s share %.4g%%, expected error s.d. %s; worst-case relative "
          + "s.d. %.6g/N (one weight per release %.6g/N)", o.output(), 100 * o.share(),
          o.expectedStddevFormula(), o.relativeStddev(), o.equalSplitRelativeStddev()));
      if (Double.isFinite(groupSize) && groupSize > 0) {
        s.append(String.format(" = %.4g at N = %.0f", o.relativeStddev() / groupSize,
            groupSize));
      }
      s.append('\n');
    }
    return s.toString();
  }
}
