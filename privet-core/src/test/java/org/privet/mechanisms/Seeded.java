package org.privet.mechanisms;

import java.util.SplittableRandom;
import org.privet.random.RandomSource;

/** Reproducible randomness for core unit tests (privet-testing depends on core, not vice versa). */
final class Seeded {
  private Seeded() {}

  static RandomSource source(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    return r::nextLong;
  }
}
