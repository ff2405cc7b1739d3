package org.privet.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How {@code privet serve} runs: where, on which address, with which limits. Immutable; built by
 * {@link #builder(Path)}, which rejects bad values immediately.
 *
 * @param workspace the workspace folder holding the ledger (and the server's state)
 * @param host the address to bind (loopback by default)
 * @param port the TCP port (0 picks a free one)
 * @param tls the TLS keystore, when serving HTTPS
 * @param workers the number of releases computed at once
 * @param queue how many more releases may wait for a worker before the server answers 429
 * @param maxBodyBytes the largest request body accepted (413 above)
 * @param queryTimeout how long a request waits for its release before it is answered 500 (the
 *     charge stands; the answer is stored when it completes and a retry with the same
 *     Idempotency-Key receives it)
 * @param authFailuresPerMinute failed authentications per client address per minute before 429
 * @param jobLease how long a running synthesis job stays its replica's without a renewal (renewed
 *     every quarter of it); a job whose lease lapsed (its replica stopped) is reported failed,
 *     never run again under its charge. Every replica sharing a ledger reads the lease each job
 *     was started with, so replicas may differ in it.
 */
public record ServerOptions(
    Path workspace,
    String host,
    int port,
    Optional<Tls> tls,
    int workers,
    int queue,
    long maxBodyBytes,
    Duration queryTimeout,
    int authFailuresPerMinute,
    Duration jobLease) {

  /** A Java keystore (PKCS12 or JKS) holding the server's certificate and private key. */
  public record Tls(Path keystore, char[] password) {
    public Tls {
      Objects.requireNonNull(keystore, "keystore");
      Objects.requireNonNull(password, "password");
    }
  }

  public ServerOptions {
    Objects.requireNonNull(workspace, "workspace");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(queryTimeout, "queryTimeout");
    Objects.requireNonNull(jobLease, "jobLease");
  }

  public static Builder builder(Path workspace) {
    return new Builder(workspace);
  }

  /** A validating builder of {@link ServerOptions}. */
  public static final class Builder {
    private final Path workspace;
    private String host = "127.0.0.1";
    private int port = 8080;
    private Tls tls;
    private int workers = Math.max(2, Runtime.getRuntime().availableProcessors());
    private int queue = 64;
    private long maxBodyBytes = 64 * 1024;
    private Duration queryTimeout = Duration.ofSeconds(60);
    private int authFailuresPerMinute = 10;
    private Duration jobLease = Duration.ofSeconds(60);

    private Builder(Path workspace) {
      this.workspace = Objects.requireNonNull(workspace, "workspace");
    }

    public Builder host(String host) {
      if (host == null || host.isBlank()) {
        throw new IllegalArgumentException("host must not be empty");
      }
      this.host = host;
      return this;
    }

    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be in [0, 65535], was " + port);
      }
      this.port = port;
      return this;
    }

    public Builder tls(Path keystore, char[] password) {
      this.tls = new Tls(keystore, password);
      return this;
    }

    public Builder workers(int workers) {
      this.workers = positive("workers", workers);
      return this;
    }

    public Builder queue(int queue) {
      if (queue < 0) {
        throw new IllegalArgumentException("queue must be >= 0, was " + queue);
      }
      this.queue = queue;
      return this;
    }

    public Builder maxBodyBytes(long maxBodyBytes) {
      if (maxBodyBytes < 1024) {
        throw new IllegalArgumentException("maxBodyBytes must be at least 1024, was " + maxBodyBytes);
      }
      this.maxBodyBytes = maxBodyBytes;
      return this;
    }

    public Builder queryTimeout(Duration queryTimeout) {
      if (queryTimeout == null || queryTimeout.isNegative() || queryTimeout.isZero()) {
        throw new IllegalArgumentException("queryTimeout must be positive");
      }
      this.queryTimeout = queryTimeout;
      return this;
    }

    public Builder authFailuresPerMinute(int n) {
      this.authFailuresPerMinute = positive("authFailuresPerMinute", n);
      return this;
    }

    public Builder jobLease(Duration jobLease) {
      if (jobLease == null || jobLease.toMillis() < 100) {
        throw new IllegalArgumentException("jobLease must be at least 100 ms");
      }
      this.jobLease = jobLease;
      return this;
    }

    private static int positive(String name, int v) {
      if (v <= 0) {
        throw new IllegalArgumentException(name + " must be positive, was " + v);
      }
      return v;
    }

    public ServerOptions build() {
      return new ServerOptions(workspace.toAbsolutePath(), host, port, Optional.ofNullable(tls), workers,
          queue, maxBodyBytes, queryTimeout, authFailuresPerMinute, jobLease);
    }
  }
}
