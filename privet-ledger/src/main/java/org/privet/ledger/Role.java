package org.privet.ledger;

import java.util.Locale;

/** What an authenticated account may do on the server. */
public enum Role {
  /** Queries, explains and synthesizes on the datasets granted to it; sees its own budget and history. */
  ANALYST,
  /** Registers datasets, grants budgets, adds and revokes analysts, sees all history. */
  CURATOR;

  /** The role's name on the command line and in JSON: {@code analyst} or {@code curator}. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code analyst} or {@code curator} (case-insensitive). */
  public static Role parse(String text) {
    for (Role r : values()) {
      if (r.cliName().equalsIgnoreCase(text == null ? "" : text.trim())) {
        return r;
      }
    }
    throw new IllegalArgumentException("role must be analyst or curator");
  }
}
