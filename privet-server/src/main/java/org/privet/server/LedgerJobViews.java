package org.privet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.privet.accounting.PrivacyLoss;
import org.privet.ledger.Analyst;
import org.privet.ledger.Charge;
import org.privet.ledger.Job;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.ledger.Release;
import org.privet.ledger.Role;

/**
 * What the paid jobs of one {@link Job#kind()} ({@link SynthJobs}, {@link TrainJobs}) share: the
 * start under an Idempotency-Key (a replay resumes the one job, a different request under the key
 * is refused, nothing charged), the job record stored as the release's answer, the ids a caller
 * knows a job by, the one 404 for a job the caller may not see, its status, and its output served
 * from the ledger. {@link LedgerJobs} runs each job once across the replicas sharing the ledger.
 *
 * <p>An analyst's jobs are numbered 1, 2, ... as their own (job ids that were charge ids would
 * count everyone's releases: issue 23 item 3); the curator, who sees the ledger's records, knows
 * every job by its charge id. A job is visible to its owner and the curator only; others get the
 * same 404 as for a job that does not exist.
 *
 * <p>Synthesis jobs charged before job state was kept in the ledger (no job row) kept their CSV
 * under a legacy directory: where one is given, such a job is served from its file where it exists
 * and reported failed elsewhere; it is never run again, and only the curator reaches it.
 */
final class LedgerJobViews implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A new request, checked against public information only: what it is charged as. */
  record Charged(String dataset, String text, List<? extends PrivacyLoss> cost) {}

  private final Ledger ledger;
  private final CuratorService service;
  private final String kind;
  private final String route;
  private final String noOutput;
  private final Path legacyDir;
  /** Runs each job once across the replicas sharing the ledger. */
  private final LedgerJobs jobs;

  /**
   * @param kind the jobs' {@link Job#kind()}
   * @param route the request line the Idempotency-Key's digest binds, e.g. {@code POST /v1/synth}
   * @param work computes a started job's output, totally, from what the ledger holds for it
   * @param failure the fixed text recorded when {@code work} fails (never a data value)
   * @param noOutput the 404's text for a job without an output
   * @param legacyDir where jobs charged before job rows kept their output, or null if none did
   */
  LedgerJobViews(Ledger ledger, CuratorService service, ReleaseHooks hooks, Duration lease, String kind,
      String route, LedgerJobs.Work work, String failure, String noOutput, Path legacyDir) {
    this.ledger = ledger;
    this.service = service;
    this.kind = kind;
    this.route = route;
    this.noOutput = noOutput;
    this.legacyDir = legacyDir;
    this.jobs = new LedgerJobs(ledger, kind, lease, id -> {
      String output = work.output(id);
      hooks.jobComputed(id);
      return output;
    }, failure);
  }

  /**
   * Starts a job: 202 with its id, after the charge, its job and the job record are committed. A
   * prior release under the key is resumed before {@code check} runs; {@code check} validates the
   * request against public information only (its refusals charge nothing).
   */
  ObjectNode start(Analyst who, JsonNode body, Optional<String> idempotencyKey, Supplier<Charged> check) {
    String digest = CuratorService.digest(route + "\n" + body.toString());
    if (idempotencyKey.isPresent()) {
      Optional<Release> prior = ledger.release(who.name(), idempotencyKey.get());
      if (prior.isPresent()) {
        return resume(who, prior.get(), digest, body);
      }
    }
    Charged c = check.get();
    Charge charge;
    try {
      charge = ledger.chargeRelease(c.dataset(), who.name(), c.text(), c.cost(),
          new Release.Claim(idempotencyKey, digest, Optional.of(new Job.Order(kind, body.toString()))));
    } catch (Release.DuplicateKeyException raced) {
      return resume(who, ledger.release(who.name(), idempotencyKey.orElseThrow()).orElseThrow(), digest, body);
    }
    ObjectNode stored = storeRecord(who, charge, body);
    jobs.kick(charge.id());
    return answer(stored, false);
  }

  private ObjectNode resume(Analyst who, Release prior, String digest, JsonNode body) {
    if (!prior.request().equals(digest)) {
      throw new org.privet.curator.QueryRefusedException(
          "refused, nothing charged: this Idempotency-Key was already used with a different request");
    }
    ObjectNode stored = prior.answer().isPresent() ? (ObjectNode) read(prior.answer().get())
        // Charged, but the job record was never stored (a crash): store it now.
        : storeRecord(who, ledger.charge(prior.dataset(), prior.chargeId()), body);
    jobs.kick(prior.chargeId());
    return answer(stored, true);
  }

  /**
   * Stores the job record (the answer of its release, with the charge as its owner sees it),
   * unless one is stored; the stored one.
   */
  private ObjectNode storeRecord(Analyst who, Charge charge, JsonNode body) {
    ObjectNode record = JSON.createObjectNode();
    record.put("job", jobId(who, charge.id()));
    record.set("charge", service.chargeView(who, charge));
    record.set("request", body);
    return (ObjectNode) read(ledger.storeAnswer(charge.id(), LedgerJson.write(record)));
  }

  private static ObjectNode answer(ObjectNode stored, boolean replay) {
    ObjectNode out = JSON.createObjectNode();
    out.put("job", stored.get("job").asText());
    out.set("charge", stored.get("charge"));
    out.put("replay", replay);
    return out;
  }

  /** The id a caller knows a job by: the analyst's own number for it, the curator's charge id. */
  private String jobId(Analyst who, long chargeId) {
    if (who.role() == Role.CURATOR) {
      return Long.toString(chargeId);
    }
    return Long.toString(ledger.jobsOf(who.name(), kind).indexOf(chargeId) + 1);
  }

  /**
   * The job's release record, if the caller may see it; else the one 404. An analyst names a job
   * by their own number for it, the curator by its charge id ({@link #jobId}); a legacy job (no job
   * row) has no number, and only the curator reaches it.
   */
  Release visibleJob(Analyst who, String id) {
    long chargeId;
    try {
      chargeId = Long.parseLong(id);
    } catch (NumberFormatException e) {
      throw ApiException.notFound("no such job");
    }
    if (who.role() != Role.CURATOR) {
      List<Long> own = ledger.jobsOf(who.name(), kind);
      if (chargeId < 1 || chargeId > own.size()) {
        throw ApiException.notFound("no such job");
      }
      chargeId = own.get((int) chargeId - 1);
    }
    Release r = ledger.releaseOfCharge(chargeId).orElseThrow(() -> ApiException.notFound("no such job"));
    boolean isJob = ledger.job(chargeId).map(j -> j.kind().equals(kind))
        .orElseGet(() -> legacyDir != null && r.answer().map(a -> read(a).has("request")).orElse(false));
    if (!isJob || !(who.role() == Role.CURATOR || r.analyst().equals(who.name()))) {
      throw ApiException.notFound("no such job");
    }
    return r;
  }

  /** A job charged before job state was kept in the ledger: its output, where this replica has it. */
  private Path legacyOutput(long id) {
    return legacyDir.resolve("job-" + id + ".csv");
  }

  /**
   * The job's state as the ledger holds it, after starting it if it is claimed and failing it if its
   * runner's lease lapsed.
   */
  private Job.State settle(long chargeId) {
    Optional<Job> job = ledger.job(chargeId);
    if (job.isEmpty() && legacyDir != null) {
      return Files.exists(legacyOutput(chargeId)) ? Job.State.DONE : Job.State.FAILED;
    }
    return jobs.settle(job.orElseThrow());
  }

  ObjectNode status(Analyst who, String id) {
    Release r = visibleJob(who, id);
    ObjectNode out = JSON.createObjectNode();
    out.put("job", id);
    out.put("status", switch (settle(r.chargeId())) {
      case CLAIMED, RUNNING -> "running";
      case DONE -> "done";
      case FAILED -> "failed";
    });
    return out;
  }

  /** The output of a done job the caller may see, as stored in the ledger (the same bytes on every replica). */
  String output(Analyst who, String id) {
    return output(visibleJob(who, id).chargeId());
  }

  /** The output of a done job, as stored in the ledger (or, for a legacy job, in its file here). */
  String output(long chargeId) {
    if (legacyDir != null && ledger.job(chargeId).isEmpty()) {
      try {
        Path legacy = legacyOutput(chargeId);
        if (Files.exists(legacy)) {
          return Files.readString(legacy, StandardCharsets.UTF_8);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return ledger.jobOutput(chargeId).orElseThrow(() -> ApiException.notFound(noOutput));
  }

  static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops: see {@link LedgerJobs#close()}. */
  @Override
  public void close() {
    jobs.close();
  }
}
