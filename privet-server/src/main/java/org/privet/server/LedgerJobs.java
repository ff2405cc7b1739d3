package org.privet.server;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.privet.ledger.Job;
import org.privet.ledger.Ledger;

/**
 * Runs the paid jobs of one {@link Job#kind()} exactly once across every process sharing the
 * ledger (issue 23 item 2); {@link SynthJobs} is one user, and any later asynchronous release (a
 * model's training) is meant to be another. The job's state lives in the ledger only:
 * <ul>
 *   <li>{@link #kick}: queue a {@code CLAIMED} job here; when its turn comes, the ledger's
 *       conditional start ({@link Ledger#startJob}) lets exactly one runner, here or on another
 *       replica, run it. A claimed job has drawn nothing, so whoever wins may run it.
 *   <li>While it runs, this runner renews its lease every quarter of it ({@link
 *       Ledger#heartbeatJob}); then it stores the output and its digest ({@code DONE}) or a fixed
 *       failure text ({@code FAILED}), both final.
 *   <li>{@link #settle}: the state a caller is shown, after kicking a claimed job and failing a
 *       running one whose lease lapsed ({@link Ledger#expireJob}): its runner's process died, its
 *       draw may have been half made, and a second draw under the same charge would be a second
 *       release, so it is never run again.
 *   <li>{@link #close}: the jobs this runner holds are failed now rather than at their lease's end;
 *       a late result of theirs is dropped by the ledger (the runner no longer holds them).
 * </ul>
 * One job runs at a time per process, with up to 16 waiting (more stay claimed, and start when
 * their status is next asked for, here or elsewhere).
 */
final class LedgerJobs implements AutoCloseable {
  /** Computes a started job's output, totally, from what the ledger holds for it. */
  @FunctionalInterface
  interface Work {
    String output(long chargeId) throws IOException;
  }

  /** The failure recorded for a job whose runner stopped before it finished. */
  static final String STOPPED = "its replica stopped before the job finished";

  private static final AtomicLong INSTANCES = new AtomicLong();

  private final Ledger ledger;
  private final Duration lease;
  private final Work work;
  private final String failure;
  /** This instance's name as a job runner: unique across the processes sharing the ledger. */
  private final String runner;
  private final ThreadPoolExecutor jobs;
  private final ScheduledExecutorService heartbeats;
  /** Jobs handed to {@link #jobs} and not finished (so a poll does not queue one twice). */
  private final Set<Long> queued = ConcurrentHashMap.newKeySet();
  /** Jobs this runner started and holds the lease of. */
  private final Set<Long> mine = ConcurrentHashMap.newKeySet();

  /**
   * @param kind the jobs' kind (names the threads)
   * @param lease how long a started job stays this runner's without a renewal
   * @param work computes a job's output
   * @param failure the fixed text recorded when {@code work} fails (never a data value)
   */
  LedgerJobs(Ledger ledger, String kind, Duration lease, Work work, String failure) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.lease = Objects.requireNonNull(lease, "lease");
    this.work = Objects.requireNonNull(work, "work");
    this.failure = Objects.requireNonNull(failure, "failure");
    this.runner = ManagementFactory.getRuntimeMXBean().getName() + "/" + Instant.now() + "/"
        + INSTANCES.incrementAndGet();
    this.jobs = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(16), r -> {
      Thread t = new Thread(r, "privet-" + kind + "-job");
      t.setDaemon(true);
      return t;
    });
    this.heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "privet-" + kind + "-lease");
      t.setDaemon(true);
      return t;
    });
    long every = Math.max(25, lease.toMillis() / 4);
    heartbeats.scheduleWithFixedDelay(this::renewLeases, every, every, TimeUnit.MILLISECONDS);
  }

  private void renewLeases() {
    for (long id : mine) {
      try {
        ledger.heartbeatJob(id, runner);
      } catch (RuntimeException e) {
        // The ledger is unreachable for now: the next renewal may succeed before the lease lapses.
      }
    }
  }

  /**
   * Queues a claimed job here. Whether it runs here is decided when its turn comes, by the ledger's
   * conditional start: a job another replica started first is left alone.
   */
  void kick(long id) {
    if (!queued.add(id)) {
      return;
    }
    try {
      jobs.execute(() -> {
        try {
          runIfStarted(id);
        } finally {
          queued.remove(id);
        }
      });
    } catch (RejectedExecutionException e) {
      queued.remove(id);
      // The job stays claimed: it starts when its status is next asked for, here or elsewhere.
    }
  }

  /** Runs the job if this runner wins its start; stores its output or its failure. */
  private void runIfStarted(long id) {
    if (!ledger.startJob(id, runner, lease)) {
      return;
    }
    mine.add(id);
    try {
      ledger.finishJob(id, runner, work.output(id));
    } catch (IOException | RuntimeException e) {
      try {
        ledger.failJob(id, runner, failure);
      } catch (RuntimeException unreachable) {
        // The ledger is unreachable or closed: the lease lapses and the job is reported failed.
      }
    } finally {
      mine.remove(id);
    }
  }

  /**
   * The job's state as the ledger holds it, after queueing it here if it is claimed and failing it
   * if its runner's lease lapsed.
   */
  Job.State settle(Job job) {
    return switch (job.state()) {
      case CLAIMED -> {
        kick(job.chargeId());
        yield Job.State.CLAIMED;
      }
      case RUNNING -> ledger.expireJob(job.chargeId(), STOPPED).state();
      case DONE, FAILED -> job.state();
    };
  }

  @Override
  public void close() {
    heartbeats.shutdownNow();
    jobs.shutdownNow();
    for (long id : mine) {
      try {
        ledger.failJob(id, runner, STOPPED);
      } catch (RuntimeException e) {
        // The ledger is unreachable: the lease lapses and the job is reported failed then.
      }
    }
  }
}
