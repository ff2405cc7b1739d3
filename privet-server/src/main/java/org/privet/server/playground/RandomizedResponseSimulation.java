package org.privet.server.playground;

import java.util.ArrayList;
import java.util.List;
import org.privet.mechanisms.FrequencyEstimate;
import org.privet.mechanisms.RandomizedResponse;

/**
 * A simulated survey for the playground: n synthetic respondents, a fraction {@code truth} of whom
 * hold the sensitive attribute, each answering through privet-core's {@link RandomizedResponse}
 * (ε-RR or the two-coin protocol); the library's debiased estimate and its Hoeffding interval are
 * reported for every n of a growing grid. No real data is involved: the population is synthetic.
 *
 * @param protocol {@code "epsilon"} or {@code "two-coin"}
 * @param epsilon ε for ε-RR (ignored for two coins, which is ln 3)
 * @param truth the true fraction π ∈ [0, 1]
 * @param beta the interval's failure probability
 * @param maxN the largest survey size
 */
record RandomizedResponseSimulation(String protocol, double epsilon, double truth, double beta, int maxN) {

  /** One survey of size n: its "yes" count and the library's estimate of π. */
  record Point(int n, long yes, FrequencyEstimate estimate) {}

  RandomizedResponse mechanism() {
    return switch (protocol) {
      case "two-coin" -> RandomizedResponse.builder().twoCoin().build();
      case "epsilon" -> RandomizedResponse.builder().epsilon(epsilon).build();
      default -> throw new IllegalArgumentException("protocol must be epsilon or two-coin, was " + protocol);
    };
  }

  /** The survey sizes: 10, 20, 50, 100, ... up to maxN (and maxN itself). */
  static List<Integer> sizes(int maxN) {
    List<Integer> sizes = new ArrayList<>();
    for (long decade = 10; decade <= maxN; decade *= 10) {
      for (int m : new int[] {1, 2, 5}) {
        if (decade * m <= maxN) {
          sizes.add((int) (decade * m));
        }
      }
    }
    if (sizes.isEmpty() || sizes.get(sizes.size() - 1) != maxN) {
      sizes.add(maxN);
    }
    return sizes;
  }

  List<Point> run() {
    RandomizedResponse rr = mechanism();
    List<Point> points = new ArrayList<>();
    for (int n : sizes(maxN)) {
      long holders = Math.round(truth * n); // respondents 0 .. holders-1 hold the attribute
      long yes = 0;
      for (int i = 0; i < n; i++) {
        if (rr.respond(i < holders)) {
          yes++;
        }
      }
      points.add(new Point(n, yes, rr.estimateFrequency(yes, n, beta)));
    }
    return points;
  }
}
