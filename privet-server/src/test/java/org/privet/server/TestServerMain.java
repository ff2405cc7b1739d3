package org.privet.server;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A server child process for crash tests: {@code TestServerMain WORKSPACE [pause-after-compute |
 * pause-after-store | pause-in-job | none] [WORKERS QUEUE]}; with {@code PRIVET_LEDGER_URL} set, its
 * ledger is that PostgreSQL database ({@link Fixture#openLedger}); with {@code PRIVET_TEST_JOB_LEASE_MS}
 * set, its synthesis jobs' lease ({@link ServerOptions#jobLease()}). It prints {@code privet: serving on URL} once ready;
 * with a pause it prints {@code privet-test: paused #CHARGE} at that point of the first release and
 * blocks there, so the test can SIGKILL it at a known moment.
 */
public final class TestServerMain {
  private TestServerMain() {}

  public static void main(String[] args) throws InterruptedException {
    Path workspace = Path.of(args[0]);
    String pause = args.length > 1 ? args[1] : "none";
    ServerOptions.Builder b = ServerOptions.builder(workspace).port(0);
    if (args.length > 3) {
      b.workers(Integer.parseInt(args[2])).queue(Integer.parseInt(args[3]));
    }
    String lease = System.getenv("PRIVET_TEST_JOB_LEASE_MS");
    if (lease != null) {
      b.jobLease(java.time.Duration.ofMillis(Long.parseLong(lease)));
    }
    ReleaseHooks hooks = new ReleaseHooks() {
      @Override
      public void computed(long chargeId) {
        if (pause.equals("pause-after-compute")) {
          block(chargeId);
        }
      }

      @Override
      public void jobComputed(long chargeId) {
        if (pause.equals("pause-in-job")) {
          block(chargeId);
        }
      }

      @Override
      public void stored(long chargeId) {
        if (pause.equals("pause-after-store")) {
          block(chargeId);
        }
      }
    };
    PrivetServer server = PrivetServer.start(b.build(),
        Fixture.openLedger(workspace, System.getenv("PRIVET_LEDGER_URL")), hooks);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    System.err.println("privet: serving on " + server.url());
    System.err.flush();
    new CountDownLatch(1).await();
  }

  private static void block(long chargeId) {
    System.err.println("privet-test: paused #" + chargeId);
    System.err.flush();
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
