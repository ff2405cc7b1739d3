package org.privet.ledger;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An account that reaches the curator through the server. Its name is its identity in the ledger:
 * charges and grants are recorded under it. The API key is never part of this value (the ledger
 * keeps only a salted hash of it).
 *
 * @param name the account's name
 * @param role what it may do
 * @param created when it was added
 * @param revoked when it was revoked, if it was
 */
public record Analyst(String name, Role role, Instant created, Optional<Instant> revoked) {
  public Analyst {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(created, "created");
    Objects.requireNonNull(revoked, "revoked");
  }

  /** Whether the account's key is still accepted. */
  public boolean active() {
    return revoked.isEmpty();
  }
}
