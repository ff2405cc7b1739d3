package org.privet.random;

import java.math.BigInteger;

/**
 * The only source of randomness that Privet's mechanisms use.
 *
 * <p>Production code obtains it from {@link #secure()}, which is backed by a cryptographically
 * secure generator ({@link SecureRandomSource}). A seedable implementation exists only in the
 * {@code privet-testing} module, which main code never depends on; mechanisms accept a
 * {@code RandomSource} in their builders so that tests can make runs reproducible.
 *
 * <p>Every method returns uniformly distributed values using integer arithmetic only: there is no
 * {@code nextDouble()} here on purpose, because floating-point uniforms are the root of the
 * attacks in Mironov (2012), "On significance of the least significant bits for differential
 * privacy". Samplers build exact distributions from these integers (see {@code org.privet.noise}).
 *
 * <p>Implementations must be safe to call from several threads at once.
 */
public interface RandomSource {

  /** Returns 64 uniformly random bits. */
  long nextLong();

  /** Returns 32 uniformly random bits. */
  default int nextInt() {
    return (int) (nextLong() >>> 32);
  }

  /** Returns a fair coin. */
  default boolean nextBoolean() {
    return nextLong() < 0;
  }

  /**
   * Returns a uniformly random long in {@code [0, bound)}, exactly (rejection sampling, Lemire
   * 2019, "Fast random integer generation in an interval").
   *
   * @throws IllegalArgumentException if {@code bound <= 0}
   */
  default long nextLong(long bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive, was " + bound);
    }
    long r = nextLong();
    long m = bound - 1;
    if ((bound & m) == 0L) { // power of two
      return r & m;
    }
    // Unbiased: reject the top partial copy of [0, bound).
    long u = r >>> 1;
    while (u + m - (r = u % bound) < 0L) {
      u = nextLong() >>> 1;
    }
    return r;
  }

  /**
   * Returns a uniformly random BigInteger in {@code [0, bound)}, exactly.
   *
   * @throws IllegalArgumentException if {@code bound <= 0}
   */
  default BigInteger nextBigInteger(BigInteger bound) {
    if (bound.signum() <= 0) {
      throw new IllegalArgumentException("bound must be positive, was " + bound);
    }
    if (bound.bitLength() < 63) {
      return BigInteger.valueOf(nextLong(bound.longValueExact()));
    }
    int bits = bound.bitLength();
    byte[] bytes = new byte[(bits + 7) / 8];
    while (true) {
      for (int i = 0; i < bytes.length; i += 8) {
        long r = nextLong();
        for (int j = 0; j < 8 && i + j < bytes.length; j++) {
          bytes[i + j] = (byte) (r >>> (8 * j));
        }
      }
      int excess = bytes.length * 8 - bits;
      bytes[0] &= (byte) (0xFF >>> excess);
      BigInteger candidate = new BigInteger(1, bytes);
      if (candidate.compareTo(bound) < 0) {
        return candidate;
      }
    }
  }

  /** The process-wide cryptographically secure source. */
  static RandomSource secure() {
    return SecureRandomSource.INSTANCE;
  }
}
