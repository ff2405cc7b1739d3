package org.privet.testing;

import java.util.SplittableRandom;
import org.privet.random.RandomSource;

/**
 * A reproducible {@link RandomSource} for tests only. It lives in {@code privet-testing}, which
 * main code never depends on, so production mechanisms can never be handed a predictable source
 * by accident.
 *
 * <p>Thread-safe (synchronized): tests that share one across threads stay correct, though their
 * output order then depends on scheduling.
 */
public final class SeededRandomSource implements RandomSource {
  private final SplittableRandom random;

  public SeededRandomSource(long seed) {
    this.random = new SplittableRandom(seed);
  }

  @Override
  public synchronized long nextLong() {
    return random.nextLong();
  }
}
