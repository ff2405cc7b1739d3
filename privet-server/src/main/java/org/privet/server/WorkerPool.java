package org.privet.server;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * The bounded pool that computes releases: a fixed number of workers, each with its own in-memory
 * DuckDB backend, and a bounded queue. A request that finds the queue full is answered 429 before
 * anything is parsed or charged, so load can never make the server run out of memory or threads.
 * A request waits at most the query timeout; the work itself is not abandoned (a release that was
 * charged completes and stores its answer, which a retry with the same Idempotency-Key receives).
 */
final class WorkerPool implements AutoCloseable {
  private final ThreadPoolExecutor executor;
  private final Duration timeout;
  private final ThreadLocal<DuckDbBackend> backends = new ThreadLocal<>();
  private final List<DuckDbBackend> opened = new CopyOnWriteArrayList<>();

  WorkerPool(int workers, int queue, Duration timeout) {
    AtomicInteger n = new AtomicInteger();
    this.executor = new ThreadPoolExecutor(workers, workers, 0, TimeUnit.MILLISECONDS,
        queue == 0 ? new java.util.concurrent.SynchronousQueue<>() : new ArrayBlockingQueue<>(queue),
        r -> {
          Thread t = new Thread(r, "privet-worker-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        },
        new ThreadPoolExecutor.AbortPolicy());
    this.timeout = timeout;
  }

  /** Runs {@code work} on a worker with that worker's backend; 429 when the queue is full. */
  <T> T call(Function<DuckDbBackend, T> work) {
    Future<T> f;
    try {
      f = executor.submit(() -> work.apply(backend()));
    } catch (RejectedExecutionException e) {
      throw ApiException.rateLimited("the server is busy (all workers and the queue are full); retry later", 1);
    }
    try {
      return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new ApiException(500, "internal", "the request did not finish within the query timeout; any"
          + " charge stands, and a retry with the same Idempotency-Key receives the stored answer");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ErrorMapper.internal();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw ErrorMapper.internal();
    }
  }

  private DuckDbBackend backend() {
    DuckDbBackend b = backends.get();
    if (b == null) {
      b = DuckDbBackend.inMemory();
      backends.set(b);
      opened.add(b);
    }
    return b;
  }

  /** Stops taking work and waits (bounded) for the releases in flight to finish. */
  @Override
  public void close() {
    executor.shutdown();
    try {
      executor.awaitTermination(Math.max(5, timeout.toSeconds()), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (DuckDbBackend b : opened) {
      try {
        b.close();
      } catch (RuntimeException e) {
        // closing at shutdown; nothing to report to a client
      }
    }
  }
}
