package org.privet.server;

import io.javalin.http.Context;
import java.util.Optional;
import org.privet.ledger.Analyst;
import org.privet.ledger.Ledger;
import org.privet.ledger.Role;

/**
 * {@code Authorization: Bearer KEY} on every route but the health check. The account is looked up
 * in the ledger on every request, so a revoked key fails from the next request on. The caller's
 * identity everywhere (charges, grants, history) is the authenticated name, never a request field.
 */
final class Authenticator {
  static final String ACCOUNT = "privet.account";
  /** The request attribute holding the authenticated account's role (what error texts it may read). */
  static final String ROLE = "privet.role";

  private final Ledger ledger;
  private final AuthFailureLimiter limiter;

  Authenticator(Ledger ledger, AuthFailureLimiter limiter) {
    this.ledger = ledger;
    this.limiter = limiter;
  }

  /** The authenticated account, or 401 (429 once the address has failed too often). */
  Analyst require(Context ctx) {
    String address = ctx.ip();
    if (limiter.blocked(address)) {
      throw tooMany();
    }
    Optional<Analyst> who = Optional.empty();
    String header = ctx.header("Authorization");
    if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      who = ledger.authenticate(header.substring(7).trim());
    }
    if (who.isEmpty()) {
      if (limiter.fail(address)) {
        throw tooMany();
      }
      throw ApiException.unauthorized();
    }
    ctx.attribute(ACCOUNT, who.get().name());
    ctx.attribute(ROLE, who.get().role());
    return who.get();
  }

  /** The authenticated curator, or 401/403. */
  Analyst requireCurator(Context ctx) {
    Analyst who = require(ctx);
    if (who.role() != Role.CURATOR) {
      throw ApiException.forbidden();
    }
    return who;
  }

  private static ApiException tooMany() {
    return ApiException.rateLimited("too many failed authentications from this address; retry in a minute", 60);
  }
}
