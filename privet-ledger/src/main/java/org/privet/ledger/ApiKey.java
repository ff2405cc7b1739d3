package org.privet.ledger;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import org.privet.random.RandomSource;

/**
 * API keys: {@code pvk.<id>.<secret>}, where the id is 64 random bits (hex, public: it finds the
 * account) and the secret 256 random bits (base64url), both from the project's secure source
 * ({@link RandomSource#secure()}). The ledger stores the id, a 128-bit random salt and
 * SHA-256(salt ‖ secret), never the key. A presented key is checked by recomputing the hash and
 * comparing in constant time ({@link MessageDigest#isEqual}).
 *
 * <p>Why a plain salted hash and not a slow password hash (bcrypt, Argon2): the secret has 256 bits
 * of entropy, so brute force is hopeless whatever the hash costs; slowness would only make every
 * request slower. The salt makes stored hashes distinct even for equal secrets.
 *
 * <p>Key material never enters an exception message, a log line or {@link #toString()}.
 */
public final class ApiKey {
  static final String PREFIX = "pvk";
  private static final int ID_BYTES = 8;
  private static final int SECRET_BYTES = 32;
  private static final int SALT_BYTES = 16;
  private static final int MAX_PRESENTED_LENGTH = 256;

  private final String id;
  private final byte[] secret;

  private ApiKey(String id, byte[] secret) {
    this.id = id;
    this.secret = secret;
  }

  /** A fresh key from the secure source. */
  static ApiKey generate(RandomSource random) {
    return new ApiKey(HexFormat.of().formatHex(bytes(random, ID_BYTES)), bytes(random, SECRET_BYTES));
  }

  /** Parses a presented key; empty (never an exception quoting it) when it is not well formed. */
  static Optional<ApiKey> parse(String presented) {
    if (presented == null || presented.length() > MAX_PRESENTED_LENGTH) {
      return Optional.empty();
    }
    String[] parts = presented.trim().split("\\.", -1);
    if (parts.length != 3 || !parts[0].equals(PREFIX) || parts[1].length() != 2 * ID_BYTES
        || !parts[1].chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return Optional.empty();
    }
    try {
      byte[] secret = Base64.getUrlDecoder().decode(parts[2]);
      return secret.length == SECRET_BYTES ? Optional.of(new ApiKey(parts[1], secret)) : Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The public part that finds the account. */
  String id() {
    return id;
  }

  /** The key as handed to its holder, once. */
  String reveal() {
    return PREFIX + "." + id + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
  }

  static byte[] newSalt(RandomSource random) {
    return bytes(random, SALT_BYTES);
  }

  /** SHA-256(salt ‖ secret). */
  byte[] hash(byte[] salt) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(salt);
      sha.update(secret);
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  /** Whether this key's hash under {@code salt} equals {@code stored}, in constant time. */
  boolean matches(byte[] salt, byte[] stored) {
    return MessageDigest.isEqual(hash(salt), stored);
  }

  private static byte[] bytes(RandomSource random, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i += 8) {
      long r = random.nextLong();
      for (int j = 0; j < 8 && i + j < n; j++) {
        b[i + j] = (byte) (r >>> (8 * j));
      }
    }
    return b;
  }

  @Override
  public String toString() {
    return "ApiKey[" + PREFIX + "." + id + ".(secret)]";
  }

  static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  static byte[] unhex(String s) {
    return HexFormat.of().parseHex(s);
  }
}
