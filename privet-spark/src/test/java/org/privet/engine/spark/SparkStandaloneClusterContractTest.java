package org.privet.engine.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.PublicSchema;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BackendContractTest;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;

/**
 * The backend contract kit on a real Spark standalone cluster ({@link StandaloneSparkCluster}: a
 * master, two workers and their two executors, five JVMs besides this driver, on loopback), with
 * Spark's default adaptive execution and code generation. Every case of the kit must give the same
 * exact aggregates as on a local session, so nothing may depend on driver-local state, {@code
 * local[*]} or one JVM. The class also checks that the executors are the workers' JVMs and did
 * the work: a job's tasks ran in both executor processes and never in this one, and every
 * executor ran tasks of the kit's statements.
 *
 * <p>Skipped (every test reported skipped, with the reason) when the cluster cannot start, except
 * under {@code CI=true}, where it fails.
 */
@ExtendWith(StandaloneSparkCluster.Required.class)
class SparkStandaloneClusterContractTest extends BackendContractTest {
  @TempDir Path dir;
  private StandaloneSparkCluster cluster;

  @Override
  protected Backend openBackend() {
    cluster = StandaloneSparkCluster.started();
    return SparkBackend.on(cluster.session());
  }

  @Override
  protected void register(Backend backend, String name, List<String> columns, List<ColumnType> types,
      List<List<?>> rows) {
    ((SparkBackend) backend).registerTable(name, columns, types, rows);
  }

  @AfterAll
  void everyExecutorRanTasks_thenStopTheCluster() {
    if (cluster == null) {
      return;
    }
    Map<String, Long> tasks = cluster.tasksPerExecutor();
    cluster.close();
    // Tasks of the kit's statements (and this class's jobs) ran on both executors, none on the driver.
    assertFalse(tasks.containsKey("driver"), "tasks ran on the driver: " + tasks);
    assertEquals(StandaloneSparkCluster.WORKERS, tasks.size(), "executors that ran tasks: " + tasks);
  }

  @Test
  void cluster_eachWorkerStartedOneExecutorJvm() {
    List<ProcessHandle> executors = cluster.executorProcesses();
    assertEquals(StandaloneSparkCluster.WORKERS, executors.size(), "executor JVMs");
    Set<Long> parents = executors.stream().map(p -> p.parent().orElseThrow().pid())
        .collect(Collectors.toSet());
    assertEquals(StandaloneSparkCluster.pids(cluster.workers()), parents,
        "each executor is a child of its own worker");
    assertFalse(StandaloneSparkCluster.pids(executors).contains(ProcessHandle.current().pid()));
    // The driver's scheduler sees the same two executors (the status tracker lists the driver too).
    assertEquals(StandaloneSparkCluster.WORKERS + 1,
        cluster.session().sparkContext().statusTracker().getExecutorInfos().length);
    assertTrue(cluster.masterUrl().startsWith("spark://127.0.0.1:"), cluster.masterUrl());
  }

  @Test
  void tasks_runInBothExecutorJvms_neverInTheDriver() {
    // Eight tasks of a class of this module (shipped by spark.executor.extraClassPath), each long
    // enough that the second single-core executor takes tasks while the first is busy.
    MapPartitionsFunction<Long, Long> pid = rows -> {
      Thread.sleep(200);
      return List.of(ProcessHandle.current().pid()).iterator();
    };
    List<Long> pids = cluster.session().range(0, 8, 1, 8).mapPartitions(pid, Encoders.LONG())
        .collectAsList();
    assertEquals(8, pids.size());
    assertEquals(StandaloneSparkCluster.pids(cluster.executorProcesses()), new HashSet<>(pids),
        "the tasks ran in the two executor JVMs");
    assertFalse(pids.contains(ProcessHandle.current().pid()), "a task ran in the driver");
  }

  @Test
  void typedCsvFile_readByTheExecutors_sameAggregatesAsDuckDb() throws Exception {
    // A file source: the executors read the driver's path (one machine; on several, a shared one).
    StringBuilder csv = new StringBuilder("uid,g,x\n");
    for (int i = 0; i < 400; i++) {
      csv.append(i % 37).append(',').append("g").append(i % 5).append(',')
          .append(i % 11 == 0 ? "oops" : Double.toString((i % 23) / 4.0)).append('\n');
    }
    Path file = dir.resolve("rows.csv");
    Files.writeString(file, csv);
    Source source = Source.typed(Source.csv(file), PublicSchema.parse("uid:integer,g:string,x:double"));
    // L0 = 5 (every group) does not bind, so no result depends on the backend's salted hash;
    // L∞ = 3 binds, which scales pair sums deterministically.
    BoundedAggregation spec = new BoundedAggregation(source, Optional.empty(), Optional.of("uid"),
        List.of("g"), Optional.empty(), 5, 3, 17,
        List.of(new Measure.FixedPointSum("x", 0, 5, 2, 0, true)));
    SparkBackend spark = SparkBackend.on(cluster.session());
    try (DuckDbBackend duck = DuckDbBackend.inMemory()) {
      Map<String, GroupAggregate> want = groups(duck, spec);
      Map<String, GroupAggregate> got = groups(spark, spec);
      assertEquals(want.keySet(), got.keySet());
      assertFalse(want.isEmpty());
      for (String g : want.keySet()) {
        assertEquals(want.get(g).units(), got.get(g).units(), g + " units");
        assertEquals(want.get(g).rows(), got.get(g).rows(), g + " rows");
        assertArrayEquals(want.get(g).sums(), got.get(g).sums(), g + " sums");
        assertArrayEquals(want.get(g).squares(), got.get(g).squares(), g + " squares");
        assertArrayEquals(want.get(g).counts(), got.get(g).counts(), g + " counts");
      }
    } finally {
      spark.close();
    }
  }

  private static Map<String, GroupAggregate> groups(Backend b, BoundedAggregation spec) {
    List<GroupAggregate> out = new ArrayList<>();
    b.aggregate(spec, out::add);
    return out.stream().collect(Collectors.toMap(g -> g.key().toString(), g -> g));
  }
}
