package org.privet.ledger;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a shared ledger lives: a PostgreSQL server that several curators (e.g. {@code privet
 * serve} replicas on different hosts) charge through, so they share one budget. See {@link
 * LedgerDialect#POSTGRES} for how charges are serialized.
 *
 * <p>The URL names the server and database ({@code jdbc:postgresql://host:5432/privet}) and may
 * carry driver options such as {@code sslmode}; it must not carry a password, which comes from an
 * environment variable or a file (the CLI's {@code --ledger-password-env} and {@code
 * --ledger-password-file}) and is handed to the driver only: the ledger never stores it, and
 * {@link #toString()} never shows it.
 *
 * @param url the JDBC URL, {@code jdbc:postgresql://...}
 * @param user the database user, if not the driver's default
 * @param password the password, if the server asks for one
 */
public record PostgresLedger(String url, Optional<String> user, Optional<char[]> password) {
  /** The URL prefix this store accepts. */
  public static final String URL_PREFIX = "jdbc:postgresql:";

  public PostgresLedger {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (!url.startsWith(URL_PREFIX)) {
      throw new IllegalArgumentException("ledger url must start with " + URL_PREFIX);
    }
    DatabaseSource.requireNoPassword("ledger url", url,
        "--ledger-password-env or --ledger-password-file");
    if (user.isPresent() && user.get().isBlank()) {
      throw new IllegalArgumentException("ledger user must not be blank");
    }
    password = password.map(char[]::clone);
  }

  @Override
  public Optional<char[]> password() {
    return password.map(char[]::clone);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PostgresLedger p && url.equals(p.url) && user.equals(p.user)
        && password.isPresent() == p.password.isPresent()
        && (password.isEmpty() || Arrays.equals(password.get(), p.password.get()));
  }

  @Override
  public int hashCode() {
    return Objects.hash(url, user);
  }

  @Override
  public String toString() {
    return "PostgresLedger[" + url + user.map(u -> ", user=" + u).orElse("")
        + (password.isPresent() ? ", password=(hidden)" : "") + "]";
  }
}
