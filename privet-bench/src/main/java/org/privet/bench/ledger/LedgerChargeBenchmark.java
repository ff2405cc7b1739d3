package org.privet.bench.ledger;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PureDp;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.Charge;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PostgresLedger;
import org.privet.ledger.PrivacyUnit;
import org.privet.random.RandomSource;

/**
 * What the durable ledger adds to a query: one committed charge (SQLite WAL, fsync on commit; or a
 * PostgreSQL ledger on a local server, {@code store = postgres}: advisory lock, synchronous commit,
 * the server's fsync on; composing a history of {@code history} earlier charges) against the
 * baseline of running one DP count by education over UCI Adult (32,561 rows, DuckDB) with no
 * ledger.
 *
 * <p>Run: {@code java -jar privet-bench/target/benchmarks.jar LedgerChargeBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LedgerChargeBenchmark {
  @Param({"10", "1000"})
  int history;

  @Param({"sqlite", "postgres"})
  String store;

  EmbeddedPostgres postgres;

  Path workspace;
  Ledger ledger;
  DuckDbBackend backend;
  Session session;
  Query query;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    workspace = Files.createTempDirectory("privet-bench-ledger-");
    if (store.equals("postgres")) {
      // zonky starts its server with fsync off; a ledger server keeps it on.
      postgres = EmbeddedPostgres.builder().setServerConfig("fsync", "on").start();
      ledger = Ledger.open(new PostgresLedger(postgres.getJdbcUrl("postgres", "postgres"),
          Optional.empty(), Optional.empty()));
    } else {
      ledger = Ledger.open(workspace);
    }
    ledger.register(DatasetSpec.builder().name("bench").source("/unused.csv")
        .privacyUnit(PrivacyUnit.row()).budget(new ApproxDp(1e12, 1e-6)).build());
    for (int i = 0; i < history; i++) {
      ledger.charge("bench", "a", "q", List.of(new PureDp(0.01), new PureDp(0.01)));
    }
    Path adult = locate("data/adult-raw/adult.data");
    backend = DuckDbBackend.inMemory();
    session = Session.builder().backend(backend).budgetCharger(BudgetCharger.unlimited())
        .randomSource(RandomSource.secure()).build();
    query = Query.from(new Source.CsvFile(adult, false, ", ", List.of("age", "workclass", "fnlwgt",
            "education", "education_num", "marital_status", "occupation", "relationship", "race",
            "sex", "capital_gain", "capital_loss", "hours_per_week", "native_country", "income"), "?"))
        .eachRowIsAUnit().groupBy("education").count("n").epsilonDelta(1.0, 1e-6).build();
  }

  private static Path locate(String relative) {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(relative))) {
        return p.resolve(relative);
      }
    }
    throw new IllegalStateException("run from inside the repository: " + relative + " not found");
  }

  /** Baseline: one DP query over Adult without the ledger. */
  @Benchmark
  public Result queryWithoutLedger() {
    return session.run(query);
  }

  /** One durable ledger charge (two mechanisms), composed with the whole history. */
  @Benchmark
  public Charge durableCharge() {
    return ledger.charge("bench", "a", "q", List.of(new PureDp(0.01), new PureDp(0.01)));
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    backend.close();
    ledger.close();
    if (postgres != null) {
      postgres.close();
    }
    try (Stream<Path> files = Files.walk(workspace)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
