package org.privet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.privet.curator.RegisteredSynthesis;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.Analyst;
import org.privet.ledger.Charge;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.ledger.Release;
import org.privet.ledger.Role;
import org.privet.synth.Attribute;
import org.privet.synth.Domain;
import org.privet.synth.QueryWorkload;
import org.privet.synth.SynthesisResult;
import org.privet.synth.Synthesizer;
import org.privet.synth.Table;
import org.privet.synth.Workload;
import org.privet.synth.WorkloadError;

/**
 * Synthetic-data jobs ({@code POST /v1/synth}) over the curator's synthesis path
 * ({@link RegisteredSynthesis}). The request is checked against public information only; the
 * charge and the job record (the stored answer: the job id and its request) are committed before
 * the 202 and before the job starts; the job reads the rows totally and writes the CSV atomically
 * under {@code WORKSPACE/synth/}. A job whose process died before its CSV was written is run again
 * under its existing charge when it is next looked at (nobody has seen a draw of it). Jobs are
 * identified by their charge id and visible to their owner and the curator only (others get the
 * same 404 as for a job that does not exist).
 */
final class SynthJobs implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Ledger ledger;
  private final CuratorService service;
  private final WorkerPool pool;
  private final Path dir;
  private final ThreadPoolExecutor jobs;
  private final Set<Long> running = ConcurrentHashMap.newKeySet();
  private final Set<Long> failed = ConcurrentHashMap.newKeySet();

  private final ReleaseHooks hooks;

  SynthJobs(Ledger ledger, CuratorService service, WorkerPool pool, Path workspace, ReleaseHooks hooks) {
    this.hooks = hooks;
    this.ledger = ledger;
    this.service = service;
    this.pool = pool;
    this.dir = workspace.resolve("synth");
    this.jobs = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(16), r -> {
      Thread t = new Thread(r, "privet-synth-job");
      t.setDaemon(true);
      return t;
    });
  }

  /** The validated public parts of a request. */
  private record Request(String dataset, Domain domain, Synthesizer synthesizer, String text) {}

  private Request parse(Analyst who, JsonNode body) {
    String dataset = service.requireVisible(who, text(body, "dataset"));
    JsonNode domainJson = body.get("domain");
    if (domainJson == null || !domainJson.isObject()) {
      throw ApiException.badRequest("domain: a JSON object (the public domain) is required");
    }
    if (!body.hasNonNull("epsilon") || !body.get("epsilon").isNumber()) {
      throw ApiException.badRequest("epsilon: a number is required");
    }
    String methodName = body.hasNonNull("method") ? body.get("method").asText() : "aim";
    try {
      Domain domain = Domain.fromJson(domainJson);
      Synthesizer.Method method = switch (methodName.toLowerCase(Locale.ROOT)) {
        case "aim" -> Synthesizer.Method.AIM;
        case "mwem" -> Synthesizer.Method.MWEM;
        case "mst" -> Synthesizer.Method.MST;
        case "rap" -> Synthesizer.Method.RAP;
        default -> throw new IllegalArgumentException("method: aim, mst, rap or mwem");
      };
      String noiseName = body.hasNonNull("noise") ? body.get("noise").asText() : "gaussian";
      Synthesizer.Noise noise = switch (noiseName.toLowerCase(Locale.ROOT)) {
        case "gaussian" -> Synthesizer.Noise.GAUSSIAN;
        case "laplace" -> Synthesizer.Noise.LAPLACE;
        default -> throw new IllegalArgumentException("noise: gaussian or laplace");
      };
      boolean pure = method == Synthesizer.Method.MWEM
          || (method == Synthesizer.Method.RAP && noise == Synthesizer.Noise.LAPLACE);
      Synthesizer.Builder b = Synthesizer.builder().method(method).noise(noise)
          .epsilon(body.get("epsilon").asDouble()).workload(Workload.parse("all-3way", domain));
      String workloadText = "all-3way";
      if (body.has("queries")) {
        QueryWorkload queries = queries(body.get("queries"), domain);
        b.queries(queries);
        workloadText = "queries(" + queries.queries().size() + ")";
      }
      if (body.hasNonNull("delta")) {
        b.delta(body.get("delta").asDouble());
      } else if (!pure) {
        b.delta(1e-9);
      }
      Synthesizer synthesizer = b.build();
      String text = String.format(Locale.ROOT, "POST /v1/synth method=%s epsilon=%s delta=%s workload=%s",
          methodName.toLowerCase(Locale.ROOT), body.get("epsilon").asText(),
          body.hasNonNull("delta") ? body.get("delta").asText() : "default", workloadText);
      return new Request(dataset, domain, synthesizer, text);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(e.getMessage());
    }
  }

  /**
   * The request's {@code queries}: a JSON array of query strings in the CLI's query-file syntax
   * ({@code marginal A,B}, {@code count A=x B=y}, {@code mean C | A=x B=y}), parsed against the
   * request's public domain before anything is charged; errors name {@code queries[i]}.
   */
  private static QueryWorkload queries(JsonNode node, Domain domain) {
    if (!node.isArray()) {
      throw new IllegalArgumentException("queries: an array of query strings is required");
    }
    var lines = new ArrayList<String>();
    for (int i = 0; i < node.size(); i++) {
      if (!node.get(i).isTextual()) {
        throw new IllegalArgumentException("queries[" + i + "]: a string is required");
      }
      lines.add(node.get(i).asText());
    }
    return QueryWorkload.of(lines, domain, "queries");
  }

  /** Starts a job: 202 with its id, after the charge and the job record are committed. */
  ObjectNode start(Analyst who, JsonNode body, Optional<String> idempotencyKey) {
    String digest = CuratorService.digest("POST /v1/synth\n" + body.toString());
    if (idempotencyKey.isPresent()) {
      Optional<Release> prior = ledger.release(who.name(), idempotencyKey.get());
      if (prior.isPresent()) {
        return resume(who, prior.get(), digest, body);
      }
    }
    Request req = parse(who, body);
    RegisteredSynthesis synthesis = pool.call(backend -> RegisteredSynthesis.prepare(ledger,
        backend, req.dataset(), req.domain(), "dataset"));
    Charge charge;
    try {
      charge = ledger.chargeRelease(req.dataset(), who.name(), req.text(),
          List.of(synthesis.cost(req.synthesizer())), new Release.Claim(idempotencyKey, digest));
    } catch (Release.DuplicateKeyException raced) {
      return resume(who, ledger.release(who.name(), idempotencyKey.orElseThrow()).orElseThrow(), digest, body);
    }
    ObjectNode record = JSON.createObjectNode();
    record.put("job", Long.toString(charge.id()));
    record.set("charge", LedgerJson.charge(charge));
    record.set("request", body);
    ObjectNode stored = (ObjectNode) read(ledger.storeAnswer(charge.id(), LedgerJson.write(record)));
    submit(charge, synthesis, req.synthesizer());
    return answer(stored, false);
  }

  private ObjectNode resume(Analyst who, Release prior, String digest, JsonNode body) {
    if (!prior.request().equals(digest)) {
      throw new org.privet.curator.QueryRefusedException(
          "refused, nothing charged: this Idempotency-Key was already used with a different request");
    }
    if (prior.answer().isPresent()) {
      return answer((ObjectNode) read(prior.answer().get()), true);
    }
    // Charged, but the job record was never stored (a crash): store it now and run the job once.
    Charge charge = ledger.charge(prior.dataset(), prior.chargeId());
    ObjectNode record = JSON.createObjectNode();
    record.put("job", Long.toString(charge.id()));
    record.set("charge", LedgerJson.charge(charge));
    record.set("request", body);
    ObjectNode stored = (ObjectNode) read(ledger.storeAnswer(charge.id(), LedgerJson.write(record)));
    restartIfLost(who, charge.id());
    return answer(stored, true);
  }

  private static ObjectNode answer(ObjectNode stored, boolean replay) {
    ObjectNode out = JSON.createObjectNode();
    out.put("job", stored.get("job").asText());
    out.set("charge", stored.get("charge"));
    out.put("replay", replay);
    return out;
  }

  private void submit(Charge charge, RegisteredSynthesis synthesis, Synthesizer synthesizer) {
    long id = charge.id();
    if (!running.add(id)) {
      return;
    }
    failed.remove(id);
    try {
      jobs.execute(() -> {
        try (DuckDbBackend backend = DuckDbBackend.inMemory()) {
          SynthesisResult result = synthesis.run(backend, synthesizer, cost -> {
            if (!charge.cost().equals(cost)) {
              throw new IllegalStateException("the synthesis cost differs from charge #" + id);
            }
            return charge;
          });
          hooks.jobComputed(id);
          Files.createDirectories(dir);
          Path tmp = Files.createTempFile(dir, "job-" + id, ".tmp");
          result.synthetic().write(tmp);
          Files.move(tmp, csv(id), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
          failed.add(id);
        } finally {
          running.remove(id);
        }
      });
    } catch (RejectedExecutionException e) {
      running.remove(id);
      // The job stays pending: it starts when its status is next asked for.
    }
  }

  private Path csv(long id) {
    return dir.resolve("job-" + id + ".csv");
  }

  /** The job's release record, if the caller may see it; else the one 404. */
  private Release visibleJob(Analyst who, String id) {
    long chargeId;
    try {
      chargeId = Long.parseLong(id);
    } catch (NumberFormatException e) {
      throw ApiException.notFound("no such job");
    }
    Release r = ledger.releaseOfCharge(chargeId).orElseThrow(() -> ApiException.notFound("no such job"));
    boolean isJob = r.answer().map(a -> read(a).has("request")).orElse(false);
    if (!isJob || !(who.role() == Role.CURATOR || r.analyst().equals(who.name()))) {
      throw ApiException.notFound("no such job");
    }
    return r;
  }

  ObjectNode status(Analyst who, String id) {
    Release r = visibleJob(who, id);
    long chargeId = r.chargeId();
    restartIfLost(who, chargeId);
    ObjectNode out = JSON.createObjectNode();
    out.put("job", id);
    if (Files.exists(csv(chargeId))) {
      out.put("status", "done");
    } else if (failed.contains(chargeId)) {
      out.put("status", "failed");
    } else {
      out.put("status", "running");
    }
    return out;
  }

  Path data(Analyst who, String id) {
    Release r = visibleJob(who, id);
    Path p = csv(r.chargeId());
    if (!Files.exists(p)) {
      throw ApiException.notFound("the job has no data yet");
    }
    return p;
  }

  /**
   * The curator's comparison of a finished job's synthetic table with the real one: the L1 error of
   * every 1-way and 2-way marginal (normalized, in [0, 2]) and each attribute's 1-way fractions on
   * both tables. It reads the private table without a charge, so only the curator may call it
   * (the controller checks the role first; an analyst gets 403 whatever the job).
   */
  ObjectNode comparison(Analyst curator, String id) {
    if (curator.role() != Role.CURATOR) {
      throw ApiException.forbidden();
    }
    Release r = visibleJob(curator, id);
    Path file = csv(r.chargeId());
    if (!Files.exists(file)) {
      throw ApiException.notFound("the job has no data yet");
    }
    Request req = parse(curator, read(r.answer().orElseThrow()).get("request"));
    Domain domain = req.domain();
    Table real = pool.call(backend -> RegisteredSynthesis.prepare(ledger, backend, req.dataset(), domain, "dataset")
        .readForCurator(backend));
    Table synthetic;
    try {
      synthetic = Table.read(file, domain);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ObjectNode out = JSON.createObjectNode();
    out.put("job", id);
    out.put("realRows", real.rows());
    out.put("syntheticRows", synthetic.rows());
    if (real.rows() == 0 || synthetic.rows() == 0) {
      out.putArray("attributes");
      return out;
    }
    out.set("oneWay", errors(WorkloadError.evaluate(real, synthetic, Workload.allKWay(domain, 1))));
    if (domain.size() >= 2) {
      out.set("twoWay", errors(WorkloadError.evaluate(real, synthetic, Workload.allKWay(domain, 2))));
    }
    var attrs = out.putArray("attributes");
    for (int a = 0; a < domain.size(); a++) {
      Attribute attr = domain.attribute(a);
      double[] rm = real.marginal(new int[] {a});
      double[] sm = synthetic.marginal(new int[] {a});
      ObjectNode o = attrs.addObject();
      o.put("name", attr.name());
      var labels = o.putArray("labels");
      var rf = o.putArray("real");
      var sf = o.putArray("synthetic");
      for (int c = 0; c < attr.size(); c++) {
        labels.add(attr.label(c));
        rf.add(rm[c] / real.rows());
        sf.add(sm[c] / synthetic.rows());
      }
    }
    return out;
  }

  private static ObjectNode errors(WorkloadError e) {
    ObjectNode o = JSON.createObjectNode();
    o.put("average", e.average());
    var list = o.putArray("marginals");
    for (WorkloadError.MarginalError m : e.perMarginal()) {
      list.addObject().put("name", m.name()).put("l1", m.l1());
    }
    return o;
  }

  /** A charged job with no CSV that is not running here (its process died): run it once more. */
  private void restartIfLost(Analyst who, long chargeId) {
    if (Files.exists(csv(chargeId)) || running.contains(chargeId) || failed.contains(chargeId)) {
      return;
    }
    Release r = ledger.releaseOfCharge(chargeId).orElseThrow();
    JsonNode body = read(r.answer().orElseThrow()).get("request");
    Analyst owner = new Analyst(r.analyst(), Role.CURATOR, java.time.Instant.EPOCH, Optional.empty());
    Request req = parse(owner, body);
    RegisteredSynthesis synthesis = pool.call(backend -> RegisteredSynthesis.prepare(ledger,
        backend, req.dataset(), req.domain(), "dataset"));
    submit(ledger.charge(r.dataset(), chargeId), synthesis, req.synthesizer());
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw ApiException.badRequest(field + ": a non-empty string is required");
    }
    return v.asText();
  }

  @Override
  public void close() {
    jobs.shutdownNow();
  }
}
