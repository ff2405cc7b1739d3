package org.privet.cli;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.random.RandomSource;

/**
 * Start-up overlap for a one-query process (issue 15, docs/benchmarks.md "Issue 15: start-up
 * overlap"): an in-memory DuckDB is opened, and the secure random source's JCE provider loaded, on
 * a background thread while the caller opens the ledger and parses the query. Neither step reads
 * data: what the process computes and prints is unchanged, only the wall time shrinks. The one
 * value drawn from the random source here is discarded (it warms the provider, not a generator the
 * release uses: each thread keys its own).
 */
final class BackgroundBackend implements AutoCloseable {
  private final FutureTask<DuckDbBackend> opening;

  private BackgroundBackend() {
    opening = new FutureTask<>(() -> {
      DuckDbBackend backend = DuckDbBackend.inMemory();
      RandomSource.secure().nextLong();
      return backend;
    });
    Thread t = new Thread(opening, "privet-duckdb-open");
    t.setDaemon(true);
    t.start();
  }

  /** Starts opening the backend. */
  static BackgroundBackend start() {
    return new BackgroundBackend();
  }

  /**
   * The opened backend (waits for it).
   *
   * @throws IllegalStateException if it could not be opened (the opening's own exception when it
   *     is one)
   */
  DuckDbBackend get() {
    try {
      return opening.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while opening DuckDB", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("cannot open DuckDB", e.getCause());
    }
  }

  /** Closes the backend once it is open (waits for the opening; nothing if it failed). */
  @Override
  public void close() {
    DuckDbBackend backend;
    try {
      backend = get();
    } catch (RuntimeException e) {
      return;
    }
    backend.close();
  }
}
