package org.privet.server;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.List;
import io.javalin.http.HttpResponseException;

/**
 * The whole HTTP API in one tree. Controllers only translate HTTP; the services behind them do
 * the work; {@link ErrorMapper} turns every exception into the one JSON error shape.
 *
 * <pre>
 * GET    /v1/health                 anyone         {"status":"ok"}
 * GET    /v1/openapi.json           anyone         the OpenAPI 3 document (docs/openapi.json)
 * GET    /v1/datasets               analyst|curator  datasets visible to the caller
 * POST   /v1/datasets               curator        register a dataset
 * POST   /v1/grants                 curator        grant an analyst a share
 * POST   /v1/analysts               curator        add an analyst (the key is answered once)
 * GET    /v1/analysts               curator        list analysts (never keys)
 * DELETE /v1/analysts/{name}        curator        revoke an analyst
 * POST   /v1/query                  analyst|curator  a DP SQL release (Idempotency-Key honoured)
 * POST   /v1/explain                analyst|curator  the plan and cost; charges nothing
 * GET    /v1/budget?dataset=NAME    analyst|curator  the caller's budget view
 * GET    /v1/history?dataset=NAME   analyst|curator  charges (the analyst's own; all for the curator)
 * POST   /v1/synth                  analyst|curator  start a synthetic-data job (202)
 * GET    /v1/synth/{id}             owner|curator  the job's status
 * GET    /v1/synth/{id}/data        owner|curator  the synthetic CSV
 * GET    /v1/synth/{id}/comparison  curator        synthetic vs real marginals (reads the private table)
 * POST   /v1/train                  analyst|curator  start a DP model-training job (202)
 * GET    /v1/train/{id}             owner|curator  the job's status
 * GET    /v1/train/{id}/model       owner|curator  the model JSON (as privet train writes it)
 * </pre>
 */
final class Routes {
  private Routes() {}

  /** One route: its method, its path template and what handles it. */
  record Route(String method, String path, Handler handler) {}

  /** The route table (handlers resolve {@code c} only when called). */
  static List<Route> table(Controllers c) {
    return List.of(
        new Route("GET", "/v1/health", ctx -> c.health(ctx)),
        new Route("GET", "/v1/openapi.json", OpenApi::serve),
        new Route("GET", "/v1/datasets", ctx -> c.datasets(ctx)),
        new Route("POST", "/v1/datasets", ctx -> c.registerDataset(ctx)),
        new Route("POST", "/v1/grants", ctx -> c.grant(ctx)),
        new Route("POST", "/v1/analysts", ctx -> c.addAnalyst(ctx)),
        new Route("GET", "/v1/analysts", ctx -> c.listAnalysts(ctx)),
        new Route("DELETE", "/v1/analysts/{name}", ctx -> c.revokeAnalyst(ctx)),
        new Route("POST", "/v1/query", ctx -> c.query(ctx)),
        new Route("POST", "/v1/explain", ctx -> c.explain(ctx)),
        new Route("GET", "/v1/budget", ctx -> c.budget(ctx)),
        new Route("GET", "/v1/history", ctx -> c.history(ctx)),
        new Route("POST", "/v1/synth", ctx -> c.synthStart(ctx)),
        new Route("GET", "/v1/synth/{id}", ctx -> c.synthStatus(ctx)),
        new Route("GET", "/v1/synth/{id}/data", ctx -> c.synthData(ctx)),
        new Route("GET", "/v1/synth/{id}/comparison", ctx -> c.synthComparison(ctx)),
        new Route("POST", "/v1/train", ctx -> c.trainStart(ctx)),
        new Route("GET", "/v1/train/{id}", ctx -> c.trainStatus(ctx)),
        new Route("GET", "/v1/train/{id}/model", ctx -> c.trainModel(ctx)));
  }

  static void declare(RoutesConfig r, Controllers c) {
    for (Route route : table(c)) {
      r.addHttpHandler(HandlerType.findOrCreate(route.method()), route.path(), route.handler());
    }
    r.exception(Exception.class, ErrorMapper::handle);
    r.exception(HttpResponseException.class, ErrorMapper::handle);
    for (int status : new int[] {404, 405, 413}) {
      r.error(status, ctx -> {
        if (!"application/json".equals(ctx.res().getContentType())) {
          ErrorMapper.write(ctx, ErrorMapper.map(new HttpResponseException(status)));
        }
      });
    }
    org.privet.server.console.Console.declare(r); // the web console at / (issue 12)
    org.privet.server.playground.Playground.declare(r, (ctx, s, code, m) -> ErrorMapper.write(ctx, new ApiException(s, code, m)));
  }

}
