package org.privet.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.util.OptionalInt;
import org.privet.accounting.BudgetExceededException;
import org.privet.curator.QueryRefusedException;
import org.privet.ledger.DatasetNameClashException;
import org.privet.ledger.UnknownDatasetException;
import org.privet.sql.DpSqlException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where exceptions become HTTP answers, always
 * {@code {"error": {"code": "...", "message": "..."}}} (plus {@code line} and {@code column} for
 * refusals that carry a SQL position).
 *
 * <p>Threat model (docs/proofs/threat-model.md): a refusal's message is computed before any charge
 * from the query text and the public schema only, so it may be shown. An unexpected failure is
 * answered as {@code internal} with a fixed message: its exception text may come from a driver and
 * quote data, so it is neither answered nor logged (only its type is logged).
 */
final class ErrorMapper {
  private static final Logger LOG = LoggerFactory.getLogger(ErrorMapper.class);

  private ErrorMapper() {}

  /** The answer to an exception thrown by a route. */
  static void handle(Exception e, Context ctx) {
    ApiException api = e instanceof DatasetNameClashException clash
        ? clash(clash, ctx.attribute(Authenticator.ROLE) == org.privet.ledger.Role.CURATOR)
        : map(e);
    if (api.status() == 500) {
      LOG.warn("internal error on {} {}: {}", ctx.method(), RequestLog.route(ctx), e.getClass().getName());
    }
    write(ctx, api);
  }

  static ApiException map(Throwable e) {
    if (e instanceof ApiException a) {
      return a;
    }
    if (e instanceof QueryRefusedException r) {
      return refused(r);
    }
    if (e instanceof BudgetExceededException b) {
      return new ApiException(409, "budget_exceeded", "privacy budget exceeded, nothing charged: " + b.getMessage());
    }
    if (e instanceof UnknownDatasetException || e instanceof DatasetNameClashException) {
      return notFoundDataset();
    }
    if (e instanceof HttpResponseException h) {
      return switch (h.getStatus()) {
        case 413 -> new ApiException(413, "too_large", "the request body is too large");
        case 404 -> ApiException.notFound("no such route");
        case 405 -> new ApiException(405, "method_not_allowed", "method not allowed on this route");
        default -> h.getStatus() < 500
            ? new ApiException(400, "bad_request", "malformed request")
            : internal();
      };
    }
    return internal();
  }

  /**
   * A name that two datasets of an older ledger share ignoring case (issue 23): refused, charging
   * nothing. The curator reads which datasets clash and how to rename one; anyone else gets the
   * answer for an unknown dataset, which tells nothing about datasets they cannot see.
   */
  static ApiException clash(DatasetNameClashException e, boolean curator) {
    return curator ? new ApiException(409, "dataset_name_clash", e.getMessage()) : notFoundDataset();
  }

  /** The one answer for an unknown dataset and for a dataset the caller holds no grant on. */
  static ApiException notFoundDataset() {
    return ApiException.notFound("no such dataset");
  }

  /** A refusal (422), with the SQL position when the SQL front end gave one. */
  static ApiException refused(QueryRefusedException r) {
    for (Throwable t = r; t != null; t = t.getCause()) {
      if (t instanceof DpSqlException sql) {
        return new ApiException(422, "refused", r.getMessage(), OptionalInt.of(sql.line()),
            OptionalInt.of(sql.column()));
      }
    }
    return new ApiException(422, "refused", r.getMessage());
  }

  static ApiException internal() {
    return new ApiException(500, "internal", "internal error; any charge already committed stands");
  }

  static void write(Context ctx, ApiException e) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    ObjectNode err = root.putObject("error");
    err.put("code", e.code());
    err.put("message", e.getMessage());
    e.line().ifPresent(l -> err.put("line", l));
    e.column().ifPresent(c -> err.put("column", c));
    e.retryAfterSeconds().ifPresent(s -> ctx.header("Retry-After", Integer.toString(s)));
    Responses.json(ctx, e.status(), root);
  }
}
