package org.privet.server.playground;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.javalin.router.JavalinDefaultRoutingApi;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.privet.ledger.LedgerJson;

/**
 * The DP playground's API: the lecture material, computed by privet-core on synthetic inputs. No
 * sign-in and no data: nothing here reads a dataset, the ledger or a key.
 *
 * <pre>
 * GET /v1/playground/randomized-response?protocol=epsilon|two-coin&amp;epsilon=&amp;truth=&amp;beta=&amp;maxN=
 * GET /v1/playground/neighbours?mechanism=laplace|gaussian|geometric&amp;epsilon=&amp;delta=&amp;sensitivity=
 * GET /v1/playground/composition?mechanism=laplace|gaussian&amp;param=&amp;samplingRate=&amp;delta=&amp;maxK=
 * GET /v1/playground/selection?mechanism=exponential|noisy-max&amp;epsilon=&amp;sensitivity=&amp;utilities=1,2,3&amp;trials=
 * </pre>
 *
 * Parameters are validated here and by the library's builders; a bad one is a 400 naming it. The
 * work per request is bounded (sizes capped), at most {@link #CONCURRENT} requests compute at
 * once and at most {@link #WAITING} wait for them; the rest get 429 at once, so an anonymous caller
 * cannot tie up the server's threads.
 */
public final class Playground {
  static final int CONCURRENT = 1;
  /** Requests that may wait for a permit (a page loads four views at once); more get 429 at once. */
  static final int WAITING = 8;
  static final int WAIT_SECONDS = 20;
  static final int MAX_N = 100_000;
  static final int MAX_K = 500;
  static final int MAX_TRIALS = 20_000;
  static final int MAX_CANDIDATES = 20;

  /** Writes the server's one error shape (the server's error mapper supplies it). */
  @FunctionalInterface
  public interface ErrorWriter {
    void write(Context ctx, int status, String code, String message);
  }

  private final Semaphore permits = new Semaphore(CONCURRENT);
  private final AtomicInteger waiting = new AtomicInteger();
  private final ErrorWriter errors;

  private Playground(ErrorWriter errors) {
    this.errors = errors;
  }

  /** Registers the playground's routes. */
  public static void declare(JavalinDefaultRoutingApi r, ErrorWriter errors) {
    Playground p = new Playground(errors);
    r.get("/v1/playground/randomized-response", ctx -> p.answer(ctx, Playground::randomizedResponse));
    r.get("/v1/playground/neighbours", ctx -> p.answer(ctx, Playground::neighbours));
    r.get("/v1/playground/composition", ctx -> p.answer(ctx, Playground::composition));
    r.get("/v1/playground/selection", ctx -> p.answer(ctx, Playground::selection));
  }

  private void answer(Context ctx, Function<Params, ObjectNode> compute) throws InterruptedException {
    boolean admitted = false;
    if (waiting.incrementAndGet() <= WAITING) {
      admitted = permits.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS);
    }
    waiting.decrementAndGet();
    if (!admitted) {
      errors.write(ctx, 429, "rate_limited", "the playground is busy; try again in a moment");
      return;
    }
    try {
      ObjectNode body = compute.apply(new Params(ctx.queryParamMap()));
      ctx.status(200).contentType("application/json").result(LedgerJson.write(body));
    } catch (IllegalArgumentException e) {
      errors.write(ctx, 400, "bad_request", e.getMessage());
    } finally {
      permits.release();
    }
  }

  // ---- the four views

  static ObjectNode randomizedResponse(Params p) {
    String protocol = p.text("protocol", "epsilon");
    double epsilon = p.number("epsilon", 1.0);
    double truth = p.number("truth", 0.3);
    if (!(truth >= 0 && truth <= 1)) {
      throw new IllegalArgumentException("truth must be in [0, 1], was " + truth);
    }
    double beta = p.number("beta", 0.05);
    int maxN = p.integer("maxN", 10_000, 10, MAX_N);
    RandomizedResponseSimulation sim = new RandomizedResponseSimulation(protocol, epsilon, truth, beta, maxN);
    var rr = sim.mechanism();
    ObjectNode out = node();
    out.put("protocol", protocol).put("epsilon", rr.epsilon()).put("truth", truth).put("beta", beta)
        .put("truthProbability", rr.truthProbability());
    ArrayNode points = out.putArray("points");
    for (RandomizedResponseSimulation.Point pt : sim.run()) {
      points.addObject().put("n", pt.n()).put("yes", pt.yes()).put("estimate", pt.estimate().estimate())
          .put("lower", pt.estimate().interval().lower()).put("upper", pt.estimate().interval().upper())
          .put("level", pt.estimate().interval().level());
    }
    return out;
  }

  static ObjectNode neighbours(Params p) {
    NeighbouringDensities d = new NeighbouringDensities(p.text("mechanism", "laplace"),
        p.number("epsilon", 1.0), p.number("delta", 1e-5), p.number("sensitivity", 1.0));
    double scale = d.scale();
    ObjectNode out = node();
    out.put("mechanism", d.mechanism()).put("epsilon", d.epsilon()).put("delta", d.guaranteeDelta())
        .put("sensitivity", d.sensitivity()).put("scale", scale).put("discrete", d.discrete());
    ArrayNode xs = out.putArray("x");
    ArrayNode pd = out.putArray("densityD");
    ArrayNode pd2 = out.putArray("densityDPrime");
    ArrayNode loss = out.putArray("loss");
    for (double x : d.grid(scale)) {
      xs.add(x);
      pd.add(NeighbouringDensities.density(d.mechanism(), scale, 0, x));
      pd2.add(NeighbouringDensities.density(d.mechanism(), scale, d.sensitivity(), x));
      loss.add(NeighbouringDensities.loss(d.mechanism(), scale, d.sensitivity(), x));
    }
    double[] tvMass = d.totalVariationAndDeltaMass(scale);
    out.put("deltaRegionMass", tvMass[1]);
    out.put("profileDelta", d.profileDelta(scale));
    ObjectNode test = out.putObject("hypothesisTest");
    double tv = NeighbouringDensities.totalVariation(d.mechanism(), scale, d.sensitivity());
    test.put("totalVariation", tv);
    test.put("bestAccuracy", (1 + tv) / 2);
    test.put("bound", NeighbouringDensities.accuracyBound(d.epsilon(), d.guaranteeDelta()));
    ArrayNode sweep = test.putArray("sweep");
    for (int i = 1; i <= 30; i++) {
      double eps = 0.1 * i;
      NeighbouringDensities e = new NeighbouringDensities(d.mechanism(), eps, d.delta(), d.sensitivity());
      double s = e.scale();
      double tvE = NeighbouringDensities.totalVariation(e.mechanism(), s, e.sensitivity());
      sweep.addObject().put("epsilon", eps).put("bestAccuracy", (1 + tvE) / 2)
          .put("bound", NeighbouringDensities.accuracyBound(eps, e.guaranteeDelta()));
    }
    return out;
  }

  static ObjectNode composition(Params p) {
    String mechanism = p.text("mechanism", "laplace");
    double param = p.number("param", mechanism.equals("gaussian") ? 2.0 : 0.1);
    double q = p.number("samplingRate", 1.0);
    if (!(q > 0 && q <= 1)) {
      throw new IllegalArgumentException("samplingRate must be in (0, 1], was " + q);
    }
    double delta = p.number("delta", 1e-5);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1), was " + delta);
    }
    int maxK = p.integer("maxK", 100, 1, MAX_K);
    CompositionCurves c = new CompositionCurves(mechanism, param, q, delta, maxK);
    c.base(); // validates param
    ObjectNode out = node();
    out.put("mechanism", mechanism).put("param", param).put("samplingRate", q).put("delta", delta)
        .put("pldInterval", CompositionCurves.PLD_INTERVAL);
    ArrayNode ks = out.putArray("k");
    CompositionCurves.ks(maxK).forEach(ks::add);
    ObjectNode curves = out.putObject("curves");
    for (Map.Entry<String, CompositionCurves.Curve> e : c.curves().entrySet()) {
      ObjectNode cn = curves.putObject(e.getKey());
      ArrayNode eps = cn.putArray("epsilon");
      for (Double v : e.getValue().epsilons()) {
        if (v == null || !Double.isFinite(v)) {
          eps.addNull();
        } else {
          eps.add(v);
        }
      }
      if (e.getValue().refusal() != null) {
        cn.put("refusal", e.getValue().refusal());
      }
    }
    return out;
  }

  static ObjectNode selection(Params p) {
    double[] utilities = p.numbers("utilities", new double[] {3, 5, 6, 9});
    if (utilities.length < 1 || utilities.length > MAX_CANDIDATES) {
      throw new IllegalArgumentException("utilities must list 1 to " + MAX_CANDIDATES + " numbers");
    }
    SelectionProbabilities s = new SelectionProbabilities(p.text("mechanism", "exponential"),
        p.number("epsilon", 1.0), p.number("sensitivity", 1.0), utilities,
        p.integer("trials", 2000, 1, MAX_TRIALS));
    double[] observed = s.observed();
    double[] ideal = s.ideal();
    ObjectNode out = node();
    out.put("mechanism", s.mechanism()).put("epsilon", s.epsilon()).put("sensitivity", s.sensitivity())
        .put("trials", s.trials());
    ArrayNode candidates = out.putArray("candidates");
    for (int i = 0; i < utilities.length; i++) {
      ObjectNode c = candidates.addObject().put("utility", utilities[i]).put("observed", observed[i]);
      if (ideal != null) {
        c.put("ideal", ideal[i]);
      } else {
        c.putNull("ideal");
      }
    }
    return out;
  }

  private static ObjectNode node() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** Query parameters with defaults; malformed values are an IllegalArgumentException naming them. */
  record Params(Map<String, List<String>> map) {
    String raw(String name) {
      List<String> v = map.get(name);
      return v == null || v.isEmpty() || v.get(0).isBlank() ? null : v.get(0).trim();
    }

    String text(String name, String fallback) {
      String v = raw(name);
      return v == null ? fallback : v;
    }

    double number(String name, double fallback) {
      String v = raw(name);
      if (v == null) {
        return fallback;
      }
      double d;
      try {
        d = Double.parseDouble(v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " must be a number");
      }
      if (!Double.isFinite(d)) {
        throw new IllegalArgumentException(name + " must be finite");
      }
      return d;
    }

    int integer(String name, int fallback, int min, int max) {
      double d = number(name, fallback);
      if (d != Math.rint(d) || d < min || d > max) {
        throw new IllegalArgumentException(name + " must be an integer in [" + min + ", " + max + "]");
      }
      return (int) d;
    }

    double[] numbers(String name, double[] fallback) {
      String v = raw(name);
      if (v == null) {
        return fallback;
      }
      String[] parts = v.split(",", -1);
      if (parts.length > MAX_CANDIDATES) {
        throw new IllegalArgumentException(name + " must list 1 to " + MAX_CANDIDATES + " numbers");
      }
      double[] out = new double[parts.length];
      for (int i = 0; i < parts.length; i++) {
        try {
          out[i] = Double.parseDouble(parts[i].trim());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(name + " must be a comma-separated list of numbers");
        }
        if (!Double.isFinite(out[i])) {
          throw new IllegalArgumentException(name + " must hold finite numbers");
        }
      }
      return out;
    }
  }
}
