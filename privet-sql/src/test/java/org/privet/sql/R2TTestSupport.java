package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.privet.random.RandomSource;

/**
 * Shared by the {@code truncation = 'R2T'} tests: the two-sample Kolmogorov–Smirnov statistic of
 * the statistical tests (N releases each, critical value 1.949·√(2/N), α = 0.001), seeded sources
 * for the references, EXPLAIN text with the neighbours' table prefixes normalised, and the
 * refusal check on neighbours.
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
