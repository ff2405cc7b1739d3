package org.privet.ledger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Where a dataset kept in a PostgreSQL database is, as the ledger stores it: the JDBC URL, the
 * user, and where the password is <em>read at query time</em> (an environment variable's name or a
 * file's path), never the password itself. The URL must not carry a password.
 *
 * @param jdbcUrl {@code jdbc:postgresql://HOST:PORT/DB}, optionally with driver options such as
 *     {@code sslmode}
 * @param user the database user, if not the driver's default
 * @param passwordEnv the environment variable holding the password, if named at registration
 * @param passwordFile the file whose first line is the password, if named at registration
 */
public record DatabaseSource(String jdbcUrl, Optional<String> user, Optional<String> passwordEnv,
    Optional<String> passwordFile) {
  /** The URL prefix accepted. */
  public static final String URL_PREFIX = "jdbc:postgresql://";
  /** The environment variable read for the password when none was named at registration. */
  public static final String DEFAULT_PASSWORD_VARIABLE = "PRIVET_DB_PASSWORD";

  private static final Pattern TABLE =
      Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

  public DatabaseSource {
    if (jdbcUrl == null || !jdbcUrl.startsWith(URL_PREFIX)) {
      throw new IllegalArgumentException("jdbc-url must start with " + URL_PREFIX);
    }
    requireNoPassword("jdbc-url", jdbcUrl, "--db-password-env or --db-password-file");
    if (user == null || passwordEnv == null || passwordFile == null) {
      throw new IllegalArgumentException("user, passwordEnv and passwordFile must not be null");
    }
    if (user.isPresent() && user.get().isBlank()) {
      throw new IllegalArgumentException("db-user must not be blank");
    }
    if (passwordEnv.isPresent() && passwordFile.isPresent()) {
      throw new IllegalArgumentException("give --db-password-env or --db-password-file, not both");
    }
    passwordEnv.ifPresent(v -> DatasetSpec.requireIdentifier("db-password-env", v));
    if (passwordFile.isPresent() && !Path.of(passwordFile.get()).isAbsolute()) {
      throw new IllegalArgumentException("db-password-file must be an absolute path");
    }
  }

  /**
   * Refuses a JDBC URL that carries a password ({@code password=} or {@code user:pass@host}).
   *
   * @param parameter the parameter named in the message
   * @param how the options to use instead, for the message
   */
  public static void requireNoPassword(String parameter, String url, String how) {
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.contains("password=") || lower.matches("jdbc:postgresql://[^/?]*:[^/?]*@.*")) {
      throw new IllegalArgumentException(parameter + " must not contain a password; pass it with " + how);
    }
  }

  /**
   * Checks a table or view name, {@code table} or {@code schema.table} (unquoted identifiers).
   *
   * @return the name
   */
  public static String requireTable(String table) {
    if (table == null || !TABLE.matcher(table).matches()) {
      throw new IllegalArgumentException("table must be NAME or SCHEMA.NAME (letters, digits, _),"
          + " was " + table);
    }
    return table;
  }

  /**
   * The connection properties, with the password read now: from the file named at registration,
   * else the environment variable named there, else {@value #DEFAULT_PASSWORD_VARIABLE} if set.
   *
   * @throws IllegalArgumentException if the named variable is not set
   * @throws UncheckedIOException if the named file cannot be read
   */
  public Properties login(Map<String, String> environment) {
    Properties p = new Properties();
    user.ifPresent(u -> p.setProperty("user", u));
    password(passwordEnv.orElse(null), passwordFile.map(Path::of).orElse(null),
        DEFAULT_PASSWORD_VARIABLE, "db-password", environment)
        .ifPresent(pw -> p.setProperty("password", new String(pw)));
    return p;
  }

  /**
   * A password from a file (its first line), a named environment variable, or else a default
   * variable if set. Shared by the ledger's and the data's connections.
   *
   * @param option the option prefix named in messages ({@code ledger-password}, {@code db-password})
   */
  public static Optional<char[]> password(String env, Path file, String defaultVariable,
      String option, Map<String, String> environment) {
    if (file != null) {
      try {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int end = text.indexOf('\n');
        return Optional.of((end < 0 ? text : text.substring(0, end)).strip().toCharArray());
      } catch (IOException e) {
        throw new UncheckedIOException("--" + option + "-file: cannot read " + file, e);
      }
    }
    if (env != null) {
      String value = environment.get(env);
      if (value == null) {
        throw new IllegalArgumentException("--" + option + "-env: environment variable " + env
            + " is not set");
      }
      return Optional.of(value.toCharArray());
    }
    return Optional.ofNullable(environment.get(defaultVariable)).map(String::toCharArray);
  }
}
