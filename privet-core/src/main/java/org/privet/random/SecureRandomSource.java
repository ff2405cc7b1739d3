package org.privet.random;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A cryptographically secure {@link RandomSource}: AES-256 in counter mode, keyed from the
 * operating system's {@link SecureRandom}.
 *
 * <p>This is the construction of NIST SP 800-90A's CTR_DRBG without derivation function: the
 * output is the AES keystream of a fresh random key and nonce. Keystream is produced in 8 KiB
 * blocks (the JDK uses AES-NI where the CPU has it), so one {@code nextLong()} costs a buffer read
 * rather than a {@code SecureRandom} call. Each thread has its own independently keyed generator
 * (no shared state, no locks), and each generator re-keys from {@code SecureRandom} after
 * {@value #RESEED_BYTES} bytes of output, well inside AES-CTR's safe limits.
 *
 * <p>Thread-safe: all state is per thread.
 */
public final class SecureRandomSource implements RandomSource {

  static final SecureRandomSource INSTANCE = new SecureRandomSource();

  private static final int BUFFER_BYTES = 8192;
  private static final long RESEED_BYTES = 1L << 32;
  private static final SecureRandom SEEDER = new SecureRandom();

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final ThreadLocal<Generator> generator = ThreadLocal.withInitial(Generator::new);

  private SecureRandomSource() {}

  @Override
  public long nextLong() {
    return generator.get().nextLong();
  }

  /** One thread's AES-CTR keystream generator. */
  private static final class Generator {
    private final byte[] zeros = new byte[BUFFER_BYTES];
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private int position = BUFFER_BYTES;
    private long producedSinceKey;
    private Cipher cipher;

    Generator() {
      rekey();
    }

    private void rekey() {
      byte[] key = new byte[32];
      byte[] iv = new byte[16];
      synchronized (SEEDER) {
        SEEDER.nextBytes(key);
        SEEDER.nextBytes(iv);
      }
      try {
        cipher = Cipher.getInstance("AES/CTR/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("AES/CTR is unavailable in this JVM", e);
      }
      producedSinceKey = 0;
    }

    long nextLong() {
      if (position > BUFFER_BYTES - 8) {
        refill();
      }
      long v = (long) LONGS.get(buffer, position);
      position += 8;
      return v;
    }

    private void refill() {
      if (producedSinceKey >= RESEED_BYTES) {
        rekey();
      }
      try {
        int n = cipher.update(zeros, 0, BUFFER_BYTES, buffer, 0);
        if (n != BUFFER_BYTES) {
          throw new IllegalStateException("AES/CTR produced " + n + " bytes, expected " + BUFFER_BYTES);
        }
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("AES/CTR failed", e);
      }
      producedSinceKey += BUFFER_BYTES;
      position = 0;
    }
  }
}
