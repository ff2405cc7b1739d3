package org.privet.ledger;

import java.util.Objects;
import java.util.Optional;

/**
 * An asynchronous release (a synthetic-data job; later, other kinds) and where it stands, kept in
 * the ledger so that every process sharing the ledger sees one state: a charge buys at most one
 * run, whichever replica is asked, and after any restart.
 *
 * <p>States and the only transitions the ledger allows (its triggers refuse the rest):
 * <pre>
 *   CLAIMED --start (one runner wins)--> RUNNING --finish--> DONE (output and its digest stored)
 *                                           \----fail / lease lapsed--> FAILED
 * </pre>
 * The row is written with its charge, in the charge's transaction, so a committed charge of a job
 * always has its job. A {@code CLAIMED} job has drawn nothing yet: any process may start it, and
 * the conditional update lets exactly one do so. A {@code RUNNING} job belongs to its runner, which
 * renews a lease ({@link Ledger#heartbeatJob}); if the runner's process dies, the lease lapses and
 * the job is reported {@code FAILED} ({@link Ledger#expireJob}), never run again under the same
 * charge: its draw may have been half made, and a second one would be a second release. {@code
 * DONE} and {@code FAILED} are final; the output of a done job is stored in the ledger itself, so
 * every replica serves the same bytes.
 *
 * @param chargeId the charge that paid for the job (also the job's id)
 * @param kind what kind of job (e.g. {@code synth}), so other job kinds share the table and rules
 * @param request the job's request (its public parameters), as the server received it
 * @param state where the job stands
 * @param outputDigest {@code sha256:HEX} of the output, once done
 * @param failure why it failed (a fixed text, never a data value), once failed
 */
public record Job(long chargeId, String kind, String request, State state, Optional<String> outputDigest,
    Optional<String> failure) {
  public Job {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(outputDigest, "outputDigest");
    Objects.requireNonNull(failure, "failure");
  }

  /** Where a job stands. */
  public enum State {
    /** Charged; not started by anyone yet (nothing drawn). */
    CLAIMED,
    /** Started by one runner, whose lease is renewed while it runs. */
    RUNNING,
    /** Finished; its output is stored. Final. */
    DONE,
    /** Failed, or its runner stopped before it finished. Final: never run again. */
    FAILED
  }

  /**
   * What a charge orders when it pays for a job.
   *
   * @param kind the job's kind
   * @param request the job's request, kept so any process can run it
   */
  public record Order(String kind, String request) {
    public Order {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(request, "request");
      if (kind.isBlank()) {
        throw new IllegalArgumentException("kind must not be blank");
      }
    }
  }
}
