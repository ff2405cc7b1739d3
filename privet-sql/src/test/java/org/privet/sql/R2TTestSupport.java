package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import java.util.function.ToLongFunction;
import org.privet.mechanisms.truncation.R2TMechanism;
import org.privet.mechanisms.truncation.UnitContributions;
import org.privet.random.RandomSource;

/**
 * Shared by the {@code truncation = 'R2T'} tests: the two-sample Kolmogorov–Smirnov statistic of
 * the statistical tests (N releases each, critical value 1.949·√(2/N), α = 0.001), seeded sources
 * for the references, the references' releases and the per-order (wrong-unit) contributions of
 * the power checks, EXPLAIN text with the neighbours' table prefixes normalised, and the refusal
 * check on neighbours.
 */
final class R2TTestSupport {
  static final int N = 300;
  static final double CRITICAL = 1.949 * Math.sqrt(2.0 / N);

  private R2TTestSupport() {}

  static RandomSource seeded(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    return r::nextLong;
  }

  /** The two-sample KS statistic D = max |F_a − F_b| (privet-testing's implementation). */
  static double ks(double[] a, double[] b) {
    return org.privet.testing.KolmogorovSmirnovTest.twoSample(a, b).statistic();
  }

  /** N releases of {@code m} on the per-unit contributions {@code c}, each times 2^-k. */
  static double[] releases(R2TMechanism m, long[] c, int k) {
    double[] out = new double[N];
    for (int i = 0; i < N; i++) {
      out[i] = Math.scalb((double) m.release(UnitContributions.of(c)).value(), -k);
    }
    return out;
  }

  /**
   * N releases of R2T (ε, GS, β = 0.05: the session's default 95%) on the per-unit contributions
   * {@code c}, with a seeded source.
   */
  static double[] r2tReleases(double epsilon, long gs, long seed, long[] c) {
    R2TMechanism m = R2TMechanism.builder().epsilon(epsilon).globalSensitivity(gs).beta(0.05)
        .randomSource(seeded(seed)).build();
    return releases(m, c, 0);
  }

  /**
   * The contributions R2T would see if it truncated per order instead of per customer: per order
   * (of an existing customer accepted by {@code customer}), the sum of {@code weight} over its
   * line items.
   */
  static long[] perOrder(JoinFixture f, LongPredicate customer, ToLongFunction<List<?>> weight) {
    Map<Object, Long> perOrder = new HashMap<>();
    for (List<?> row : f.lineitem) {
      if (row.get(0) != null && f.customerOf(row.get(0)) != null
          && customer.test(f.customerOf(row.get(0)))) {
        perOrder.merge(row.get(0), weight.applyAsLong(row), Long::sum);
      }
    }
    return perOrder.values().stream().mapToLong(Long::longValue).toArray();
  }

  /** The KS test does not tell {@code a} from {@code b}. */
  static void assertAlike(double[] a, double[] b) {
    double dStat = ks(a, b);
    assertTrue(dStat < CRITICAL, "KS D = " + dStat + " ≥ " + CRITICAL);
  }

  /** The KS test tells {@code a} from {@code b} (power). */
  static void assertRejected(double[] a, double[] b) {
    double dStat = ks(a, b);
    assertTrue(dStat >= CRITICAL, "KS D = " + dStat + " < " + CRITICAL);
  }

  /** EXPLAIN text with D's ("d_") and D′'s ("n_") table names and the salt made equal. */
  static String normalized(String explain) {
    return explain.replace("\"d_", "\"X_").replace("\"n_", "\"X_").replace("d_customer",
        "X_customer").replace("n_customer", "X_customer").replaceAll("salt=-?[0-9]+", "salt");
  }

  /**
   * Each {SQL, fragment} pair is refused at parse time (before any charge) on both neighbours
   * with the same message, which contains the fragment.
   */
  static void assertRefusedAlike(List<String[]> cases, JoinFixture d, JoinFixture dPrime) {
    for (String[] c : cases) {
      DpSqlException a = assertThrows(DpSqlException.class, () -> DpSql.parse(c[0], d.catalog),
          c[0]);
      DpSqlException b = assertThrows(DpSqlException.class,
          () -> DpSql.parse(c[0], dPrime.catalog));
      assertTrue(a.getMessage().contains(c[1]), c[0] + " -> " + a.getMessage());
      assertEquals(a.getMessage(), b.getMessage());
    }
  }
}
