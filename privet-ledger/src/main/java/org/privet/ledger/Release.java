package org.privet.ledger;

import java.util.Objects;
import java.util.Optional;

/**
 * A paid release and its stored answer: the record that makes server releases exactly-once.
 *
 * <p>It is written in the same transaction as its charge (so a committed charge always has its
 * release record), then the answer is stored once, before it is sent. A retry with the same
 * idempotency key gets the stored answer; a retry after a crash between the charge and the stored
 * answer computes the answer under the existing charge (nobody has seen a draw) and stores it.
 *
 * @param chargeId the charge that paid for it
 * @param dataset the dataset charged
 * @param analyst who asked (the authenticated name)
 * @param idempotencyKey the client's key, when it sent one
 * @param request a digest of the request, to refuse the same key with a different body
 * @param answer the answer as sent, once stored
 */
public record Release(
    long chargeId,
    String dataset,
    String analyst,
    Optional<String> idempotencyKey,
    String request,
    Optional<String> answer) {
  public Release {
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(analyst, "analyst");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(answer, "answer");
  }

  /**
   * What a charge claims when it pays for a server release.
   *
   * @param idempotencyKey the client's key, if any (unique per analyst)
   * @param request a digest of the request
   * @param job the asynchronous job the charge pays for, if it is one ({@link Job}); recorded in
   *     the charge's transaction, in state {@link Job.State#CLAIMED}
   */
  public record Claim(Optional<String> idempotencyKey, String request, Optional<Job.Order> job) {
    public Claim {
      Objects.requireNonNull(idempotencyKey, "idempotencyKey");
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(job, "job");
    }

    /** A claim for a release answered in the request (no job). */
    public Claim(Optional<String> idempotencyKey, String request) {
      this(idempotencyKey, request, Optional.empty());
    }
  }

  /** The analyst already holds a release under this idempotency key; nothing was charged. */
  public static final class DuplicateKeyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DuplicateKeyException() {
      super("this Idempotency-Key was already used", null, false, false);
    }
  }
}
