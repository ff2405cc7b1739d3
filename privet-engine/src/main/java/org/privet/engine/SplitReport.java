package org.privet.engine;

import java.util.List;

/**
 * How a query's budget is split across partition selection and its outputs, and what each output's
 * noise is relative to its public scale ({@code DefaultSplit}; {@code
 * docs/proofs/engine-budget-split.md}, "Default split"). Every figure is computed from the query,
 * the schema and the budget (public), with the mechanisms' exact noise standard deviations.
 *
 * @param rule how the split was made: {@link #DEFAULT} (minimising {@link #objective}),
 *     {@link #EQUAL} (the default kept the equal split, which did better once the fixed-point grid
 *     was fixed), {@link #EXPLICIT} (the query's budget weights) or {@link #SOLVED} (solved for
 *     target errors, each release at its tightest output's requirement)
 * @param selectionShare partition selection's share of the budget (0 without private selection)
 * @param groupSize a public group size N₀ at which to read the relative errors: the distinct units
 *     at which private selection releases a group with probability ½ (NaN without selection)
 * @param outputs each output with additive noise
 */
public record SplitReport(String rule, double selectionShare, double groupSize,
    List<OutputError> outputs) {
  /** The default split minimising the objective. */
  public static final String DEFAULT = "default";
  /** The default fell back to the equal split. */
  public static final String EQUAL = "equal";
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
   */
  public record OutputError(String output, double relativeStddev,
      double equalSplitRelativeStddev, double share) {}

  /** The objective J·N² = Σ relativeStddev² (the sum of squared relative errors at N = 1). */
  public double objective() {
    return outputs.stream().mapToDouble(o -> o.relativeStddev() * o.relativeStddev()).sum();
  }

  /** J·N² under the equal split. */
  public double equalSplitObjective() {
    return outputs.stream()
        .mapToDouble(o -> o.equalSplitRelativeStddev() * o.equalSplitRelativeStddev()).sum();
  }

  /** A rendering for EXPLAIN. */
  public String render() {
    StringBuilder s = new StringBuilder("budget split: ");
    s.append(switch (rule) {
      case DEFAULT -> "default, minimising J = Σ over outputs of (noise s.d. / (N·m))², m a"
          + " public magnitude per row (count 1, sum/mean (|lower|+|upper|)/2, variance "
          + "range²/12)";
      case EQUAL -> "default, kept equal (one weight per release): the weights minimising J "
          + "would force a coarser fixed-point grid and a larger J";
      case SOLVED -> "solved for the target errors (each release at the share its tightest "
          + "output needs)";
      default -> "explicit budget weights";
    });
    if (selectionShare > 0) {
      s.append(String.format("; partition selection %.4g%% (not in J: J falls as selection's "
          + "threshold rises, so selection keeps its weight)",
          100 * selectionShare));
    }
    s.append(String.format("%n  J·N² = %.6g (equal split: %.6g)%n", objective(),
        equalSplitObjective()));
    for (OutputError o : outputs) {
      s.append(String.format("  %-14s share %.4g%%, relative s.d. %.6g/N (equal split %.6g/N)",
          o.output(), 100 * o.share(), o.relativeStddev(), o.equalSplitRelativeStddev()));
      if (Double.isFinite(groupSize) && groupSize > 0) {
        s.append(String.format(" = %.4g at N = %.0f", o.relativeStddev() / groupSize,
            groupSize));
      }
      s.append('\n');
    }
    return s.toString();
  }
}
