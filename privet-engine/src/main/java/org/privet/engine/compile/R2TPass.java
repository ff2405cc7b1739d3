package org.privet.engine.compile;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.privet.accounting.PureDp;
import org.privet.engine.MechanismCost;
import org.privet.engine.Query;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.TableSchema;
import org.privet.mechanisms.truncation.R2TMechanism;
import org.privet.mechanisms.truncation.ThresholdAnswers;
import org.privet.mechanisms.truncation.TruncationResult;
import org.privet.random.RandomSource;

/**
 * R2T over the engine's bounding plan (issue 25): the truncation of a scalar COUNT(*) chosen
 * privately (Dong, Fang, Yi, Tao, Machanavajjhala, "R2T: Instance-optimal Truncation for
 * Differentially Private Query Evaluation with Foreign Keys", SIGMOD 2022). For each public
 * threshold τ<sub>j</sub> = 2<sup>j</sup>, j = 1..L = ⌈log₂ GS⌉, the backend runs the query's
 * bounding plan with L0 = 1 (one group: the query has none) and L∞ = τ<sub>j</sub>, whose exact row
 * count is Q(I, τ<sub>j</sub>) = Σ<sub>u</sub> min(c<sub>u</sub>, τ<sub>j</sub>), c<sub>u</sub>
 * being unit u's (joined) rows; {@link R2TMechanism} adds its noise and bias to those values and
 * releases the maximum. The backend only renders and counts; the thresholds, noise, bias and
 * choice are all here. One charge of ε covers the whole release.
 *
 * <p>Privacy: {@code docs/proofs/r2t-truncation.md} ("The engine's use"), with the neighbour
 * relation of {@code docs/proofs/engine-joins.md}.
 */
public final class R2TPass {
  private final Query query;
  private final CompiledQuery base;
  private final double epsilon;
  private final long globalSensitivity;
  private final List<BoundedAggregation> specs;
  private final long[] thresholds;

  private R2TPass(Query query, CompiledQuery base, List<BoundedAggregation> specs,
      long[] thresholds) {
    this.query = query;
    this.base = base;
    this.epsilon = ((PureDp) query.budget().loss()).epsilon();
    this.globalSensitivity = query.r2tTruncation().getAsLong();
    this.specs = List.copyOf(specs);
    this.thresholds = thresholds;
  }

  /**
   * Compiles the per-threshold bounding plans from public information only (before any charge).
   *
   * @throws IllegalArgumentException naming the parameter if the query does not fit the source
   */
  public static R2TPass compile(Query query, TableSchema schema, long salt) {
    if (query.r2tTruncation().isEmpty()) {
      throw new IllegalArgumentException("internal error: not an R2T query");
    }
    CompiledQuery base = Compiler.compile(query, schema, salt);
    BoundedAggregation s = base.spec();
    if (!s.groupBy().isEmpty() || s.unitColumn().isEmpty()) {
      throw new IllegalStateException("internal error: R2T needs a scalar unit-level spec");
    }
    // The mechanism's own levels and thresholds (public: GS only).
    R2TMechanism shape = mechanism(query, 0.05, null);
    long[] thresholds = new long[shape.levels()];
    List<BoundedAggregation> specs = new ArrayList<>();
    for (int j = 1; j <= shape.levels(); j++) {
      thresholds[j - 1] = shape.threshold(j);
      specs.add(new BoundedAggregation(s.source(), s.filter(), s.unitColumn(), List.of(),
          Optional.empty(), 1, Math.toIntExact(thresholds[j - 1]), salt, s.measures()));
    }
    return new R2TPass(query, base, specs, thresholds);
  }

  private static R2TMechanism mechanism(Query query, double beta, RandomSource random) {
    R2TMechanism.Builder b = R2TMechanism.builder()
        .epsilon(((PureDp) query.budget().loss()).epsilon())
        .globalSensitivity(query.r2tTruncation().getAsLong()).beta(beta);
    if (random != null) {
      b.randomSource(random);
    }
    return b.build();
  }

  /** The mechanism with its randomness, at failure probability β of the one-sided interval. */
  public R2TMechanism mechanism(double beta, RandomSource random) {
    return mechanism(query, beta, random);
  }

  /** One bounding plan per threshold, in increasing τ. */
  public List<BoundedAggregation> specs() {
    return specs;
  }

  /** The public thresholds τ<sub>1</sub>..τ<sub>L</sub>. */
  public long[] thresholds() {
    return thresholds.clone();
  }

  /** The only output's name. */
  public String output() {
    return query.aggregations().get(0).name();
  }

  /** What is charged: one mechanism, ε in total (L thresholds at ε/L each, rounded down). */
  public List<MechanismCost> costs() {
    return List.of(new MechanismCost(output(), "R2T truncated COUNT(*) at " + thresholds.length
        + " thresholds (the best chosen privately)", "R2T (discrete Laplace per threshold)",
        new PureDp(epsilon)));
  }

  public PureDp total() {
    return new PureDp(epsilon);
  }

  /**
   * The exact Q(I, τ<sub>j</sub>) from the backend's groups of the j-th spec (the row count,
   * summed over the groups handed back, saturating; no rows: 0). Total.
   */
  public static long truncatedCount(List<GroupAggregate> groups) {
    long sum = 0;
    for (GroupAggregate g : groups) {
      long r = Math.max(0, g.rows());
      sum = Long.MAX_VALUE - sum < r ? Long.MAX_VALUE : sum + r;
    }
    return sum;
  }

  /** Runs R2T's noise, bias and maximum on the exact values (post-charge, total). */
  public TruncationResult release(R2TMechanism m, long[] exact) {
    return m.release(ThresholdAnswers.of(thresholds, exact));
  }

  /** EXPLAIN's lines for the method, thresholds and cost. */
  public List<String> describe(R2TMechanism m) {
    List<String> lines = new ArrayList<>();
    StringBuilder t = new StringBuilder();
    for (int j = 1; j <= m.levels(); j++) {
      t.append(j > 1 ? ", " : "").append(m.threshold(j));
    }
    lines.add(output() + ": truncation chosen privately by R2T (Dong et al., SIGMOD 2022): each"
        + " unit's rows (over joins: its joined rows) are truncated at τ ∈ {" + t + "} (powers of"
        + " two up to the public bound GS = " + globalSensitivity + "); each truncated count gets"
        + " discrete Laplace noise at ε/" + m.levels() + " (sensitivity τ) minus a public bias,"
        + " and the largest is released; ε = " + epsilon + " in total");
    lines.add(output() + ": the answer is biased low: it is at most the true count with"
        + " probability ≥ 1 − β (β = " + m.beta() + "), a one-sided bound only; no interval is"
        + " reported with the value");
    return lines;
  }

  /** The base compilation at the stand-in L∞ = 1 (its noise kind for EXPLAIN). */
  public CompiledQuery base() {
    return base;
  }
}
