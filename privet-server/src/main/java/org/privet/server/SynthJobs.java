package org.privet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.privet.curator.RegisteredSynthesis;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.Analyst;
import org.privet.ledger.Charge;
import org.privet.ledger.Job;
import org.privet.ledger.Ledger;
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
 * charge, its release record and its {@link Job} (state {@code CLAIMED}, with the request) commit
 * in one transaction before the 202; the job record (the stored answer: the job id and its
 * request) is stored next.
 *
 * <p>Exactly once across replicas and restarts (issue 23 item 2; {@link LedgerJobs} runs them). Job
 * state lives in the ledger, never in a replica's memory or files, so every replica sharing the
 * ledger sees the same job:
 * <ul>
 *   <li>A {@code CLAIMED} job has drawn nothing; whichever replica is asked about it (or started it)
 *       tries to start it, and the ledger's conditional update lets exactly one runner win.
 *   <li>The runner renews its lease every quarter of {@link ServerOptions#jobLease()} while the
 *       synthesis runs, then stores the CSV in the ledger with its SHA-256 digest ({@code DONE}); a
 *       failure is stored as {@code FAILED}, which is final (a restart never re-runs it).
 *   <li>A {@code RUNNING} job whose lease lapsed (its replica died, or stopped mid-job) is reported
 *       {@code FAILED} by the next replica that looks: its draw may have been half made and seen by
 *       nobody, but a second draw under the same charge would be a second release, so it is never
 *       run again. The analyst may start (and pay for) a new job.
 *   <li>The output is served from the ledger, so it is the same bytes on every replica.
 * </ul>
 * A job charged by a version that kept its CSV under {@code WORKSPACE/synth/} (no job row) is
 * served from that file where it exists and reported failed elsewhere; it is never run again.
 *
 * <p>An analyst knows their jobs by their own numbers (1, 2, ...), the curator every job by its
 * charge id; a job is visible to its owner and the curator only (others get the same 404 as for a
 * job that does not exist).
 */
final class SynthJobs implements AutoCloseable {
  /** The {@link Job#kind()} of synthesis jobs. */
  static final String KIND = "synth";
  /** The failure recorded for a job whose runner failed; fixed text, never a data value. */
  static final String FAILED = "the synthesis failed after its charge";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Ledger ledger;
  private final CuratorService service;
  private final WorkerPool pool;
  /** Starts, runs (once across the replicas sharing the ledger) and shows the jobs. */
  private final LedgerJobViews views;

  SynthJobs(Ledger ledger, CuratorService service, WorkerPool pool, Path workspace, ReleaseHooks hooks,
      Duration lease) {
    this.ledger = ledger;
    this.service = service;
    this.pool = pool;
    this.views = new LedgerJobViews(ledger, service, hooks, lease, KIND, "POST /v1/synth", this::compute, FAILED,
        "the job has no data", workspace.resolve("synth"));
  }

  /** The validated public parts of a request. */
  private record Request(String dataset, Domain domain, Synthesizer synthesizer, String text) {}

  private Request parse(Analyst who, JsonNode body) {
    return parse(service.requireVisible(who, text(body, "dataset")), body);
  }

  /** The request's public parts, for a dataset already resolved (the registered name). */
  private Request parse(String dataset, JsonNode body) {
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
      // The default workload: all k-way marginals, k = min(3, attributes) (issue 23, item 6).
      int k = Math.min(3, domain.size());
      Synthesizer.Builder b = Synthesizer.builder().method(method).noise(noise)
          .epsilon(body.get("epsilon").asDouble()).workload(Workload.allKWay(domain, k));
      String workloadText = "all-" + k + "way";
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

  /** Starts a job: 202 with its id, after the charge, its job and the job record are committed. */
  ObjectNode start(Analyst who, JsonNode body, Optional<String> idempotencyKey) {
    return views.start(who, body, idempotencyKey, () -> {
      Request req = parse(who, body);
      RegisteredSynthesis synthesis;
      try {
        synthesis = pool.call(backend -> RegisteredSynthesis.prepare(ledger, backend, req.dataset(),
            req.domain(), "dataset"));
      } catch (IllegalArgumentException e) {
        // prepare reads public information only (registration, schema, domain): a refusal, not an
        // internal error (it was a 500 for e.g. a dataset with a privacy-unit column)
        throw ApiException.badRequest(e.getMessage());
      }
      return new LedgerJobViews.Charged(req.dataset(), req.text(), List.of(synthesis.cost(req.synthesizer())));
    });
  }

  /** The synthetic CSV of a started job, computed totally from its stored request and charge. */
  private String compute(long id) throws IOException {
    Job job = ledger.job(id).orElseThrow();
    Release r = ledger.releaseOfCharge(id).orElseThrow();
    // The dataset the charge was made on, as registered: the request was checked when it was
    // charged, and neither a revoked owner nor a renamed dataset may fail the paid job now.
    Request req = parse(r.dataset(), LedgerJobViews.read(job.request()));
    Charge charge = ledger.charge(r.dataset(), id);
    // The job's own backend, not the request pool's: a busy server must not fail a paid job.
    try (DuckDbBackend backend = DuckDbBackend.inMemory()) {
      RegisteredSynthesis synthesis = RegisteredSynthesis.prepare(ledger, backend, r.dataset(), req.domain(),
          "dataset");
      SynthesisResult result = synthesis.run(backend, req.synthesizer(), cost -> {
        if (!charge.cost().equals(cost)) {
          throw new IllegalStateException("the synthesis cost differs from charge #" + id);
        }
        return charge;
      });
      StringWriter out = new StringWriter();
      result.synthetic().write(out);
      return out.toString();
    }
  }

  ObjectNode status(Analyst who, String id) {
    return views.status(who, id);
  }

  /** The synthetic CSV of a done job, as stored in the ledger (the same bytes on every replica). */
  String data(Analyst who, String id) {
    return views.output(who, id);
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
    Release r = views.visibleJob(curator, id);
    String csv = views.output(r.chargeId());
    Request req = parse(curator, LedgerJobViews.read(r.answer().orElseThrow()).get("request"));
    Domain domain = req.domain();
    Table real = pool.call(backend -> RegisteredSynthesis.prepare(ledger, backend, req.dataset(), domain, "dataset")
        .readForCurator(backend));
    Table synthetic;
    try {
      Path file = Files.createTempFile("privet-synth-" + r.chargeId(), ".csv");
      try {
        Files.writeString(file, csv, StandardCharsets.UTF_8);
        synthetic = Table.read(file, domain);
      } finally {
        Files.deleteIfExists(file);
      }
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

  private static String text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw ApiException.badRequest(field + ": a non-empty string is required");
    }
    return v.asText();
  }

  /** Stops: see {@link LedgerJobs#close()}. */
  @Override
  public void close() {
    views.close();
  }
}
