package org.privet.bench.synth;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import org.privet.synth.Domain;
import org.privet.synth.QueryWorkload;
import org.privet.synth.Synthesizer;
import org.privet.synth.Table;
import org.privet.synth.Workload;
import org.privet.synth.WorkloadError;

/**
 * Synthetic-data benchmark harness: all-3-way workload error and CPU time of AIM, MST and MWEM on the
 * discretized Adult table at ε ∈ {0.1, 1, 10} (δ = 1e-9), next to two non-private references
 * computed in the same run: independent exact 1-way marginals, and a bootstrap resample of the
 * real table (the floor for any sampled table of the same size).
 *
 * <p>Run from the repository root after {@code mvn -B -q -ntp -DskipTests package}:
 * {@code java -cp privet-bench/target/benchmarks.jar org.privet.bench.synth.SynthBenchmark [runs] [eps,...] [methods]}
 * (defaults: 1 run, 0.1,1,10, aim,mst,rap,mwem); an optional fourth argument names a query-workload
 * file ({@link QueryWorkload}, e.g. {@code data/adult-pgm/conditional-workload.txt}) whose
 * per-class max and mean errors are printed for every run; a fifth argument {@code fit} makes the
 * generators fit that file ({@link Synthesizer.Builder#queries}) instead of the all-3-way workload.
 * System properties {@code synth.iters}, {@code rap.rounds}, {@code rap.k}, {@code rap.rows},
 * {@code rap.steps}, {@code mwem.rounds} override the defaults. Method {@code rap-laplace} is RAP with discrete Laplace noise (pure ε-DP). The generators use the secure random source, so figures
 * vary between runs; the harness prints each run. It reports the process's CPU time (meaningful on
 * a shared machine; RAP uses two worker threads, the others one, plus the JVM's own threads) and
 * the wall time.
 */
public final class SynthBenchmark {
  private SynthBenchmark() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    String[] eps = (args.length > 1 ? args[1] : "0.1,1,10").split(",");
    String[] methods = (args.length > 2 ? args[2] : "aim,mst,rap,mwem").split(",");
    Path root = Path.of("").toAbsolutePath();
    while (root != null && !Files.isDirectory(root.resolve("data/adult-pgm"))) {
      root = root.getParent();
    }
    if (root == null) {
      throw new IllegalStateException("run from inside the repository (data/adult-pgm not found)");
    }
    Domain dom = Domain.load(root.resolve("data/adult-pgm/adult-domain.json"));
    Table real = Table.read(root.resolve("data/adult-pgm/adult.csv"), dom);
    Workload w = Workload.allKWay(dom, 3);
    QueryWorkload queries = args.length > 3 ? QueryWorkload.read(root.resolve(args[3]), dom) : null;
    boolean fit = args.length > 4 && args[4].equals("fit");
    var rng = new SplittableRandom(20260101L);
    Table independent = independent(real, rng);
    Table bootstrap = bootstrap(real, rng);
    System.out.printf(Locale.ROOT, "reference independent-1way error %.4f%n",
        WorkloadError.evaluate(real, independent, w).average());
    if (queries != null) {
      printClasses(queries, real, independent);
    }
    System.out.printf(Locale.ROOT, "reference bootstrap error %.4f%n",
        WorkloadError.evaluate(real, bootstrap, w).average());
    if (queries != null) {
      printClasses(queries, real, bootstrap);
    }
    System.out.println("method,epsilon,run,error,cpu_seconds,wall_seconds");
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean();
    for (String m : methods) {
      for (String e : eps) {
        double epsilon = Double.parseDouble(e);
        for (int run = 1; run <= runs; run++) {
          boolean laplace = m.equalsIgnoreCase("rap-laplace");
          Synthesizer.Method method = laplace ? Synthesizer.Method.RAP
              : Synthesizer.Method.valueOf(m.toUpperCase(Locale.ROOT));
          var b = Synthesizer.builder().epsilon(epsilon).method(method);
          if (laplace) {
            b.noise(Synthesizer.Noise.LAPLACE);
          } else if (method != Synthesizer.Method.MWEM) {
            b.delta(1e-9);
          }
          if (fit) {
            b.queries(queries);
          }
          if (Integer.getInteger("synth.iters") != null) {
            // Optional override of the estimation iterations (AIM, MST: per fit, 5x final; RAP: Adam steps).
            b.estimationIterations(Integer.getInteger("synth.iters"));
          }
          if (method == Synthesizer.Method.MWEM && Integer.getInteger("mwem.rounds") != null) {
            b.rounds(Integer.getInteger("mwem.rounds"));
          }
          if (method == Synthesizer.Method.RAP) {
            // Optional overrides of RAP's settings: -Drap.rounds, -Drap.k, -Drap.rows, -Drap.steps.
            if (Integer.getInteger("rap.rounds") != null) {
              b.rounds(Integer.getInteger("rap.rounds"));
            }
            if (Integer.getInteger("rap.k") != null) {
              b.roundSelections(Integer.getInteger("rap.k"));
            }
            if (Integer.getInteger("rap.rows") != null) {
              b.syntheticRows(Integer.getInteger("rap.rows"));
            }
            if (Integer.getInteger("rap.steps") != null) {
              b.estimationIterations(Integer.getInteger("rap.steps"));
            }
          }
          long t0 = System.nanoTime();
          long c0 = os.getProcessCpuTime();
          Table syn = b.build().synthesize(real).synthetic();
          double cpu = (os.getProcessCpuTime() - c0) / 1e9;
          double secs = (System.nanoTime() - t0) / 1e9;
          double err = WorkloadError.evaluate(real, syn, w).average();
          System.out.printf(Locale.ROOT, "%s,%s,%d,%.4f,%.1f,%.1f%n", m, e, run, err, cpu, secs);
          if (queries != null) {
            printClasses(queries, real, syn);
          }
          System.out.flush();
        }
      }
    }
  }

  private static void printClasses(QueryWorkload queries, Table real, Table syn) {
    queries.evaluate(real, syn).forEach((kind, c) -> System.out.printf(Locale.ROOT,
        "  %s: %d queries, max error %.4f, mean error %.4f, undefined %d%n", kind, c.queries(), c.max(), c.mean(),
        c.undefined()));
  }

  private static Table independent(Table real, SplittableRandom rng) {
    int d = real.domain().size();
    int n = real.rows();
    int[][] cols = new int[d][];
    for (int a = 0; a < d; a++) {
      int[] col = real.column(a);
      int[] out = new int[n];
      for (int i = 0; i < n; i++) {
        out[i] = col[rng.nextInt(n)];
      }
      cols[a] = out;
    }
    return Table.of(real.domain(), cols);
  }

  private static Table bootstrap(Table real, SplittableRandom rng) {
    int d = real.domain().size();
    int n = real.rows();
    int[] pick = new int[n];
    for (int i = 0; i < n; i++) {
      pick[i] = rng.nextInt(n);
    }
    int[][] cols = new int[d][];
    for (int a = 0; a < d; a++) {
      int[] col = real.column(a);
      int[] out = new int[n];
      for (int i = 0; i < n; i++) {
        out[i] = col[pick[i]];
      }
      cols[a] = out;
    }
    return Table.of(real.domain(), cols);
  }
}
