package org.privet.cli.synth;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.privet.synth.Domain;
import org.privet.random.RandomSource;
import org.privet.synth.EvaluationReport;
import org.privet.synth.QueryWorkload;
import org.privet.synth.Table;
import org.privet.synth.Workload;
import org.privet.synth.WorkloadError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code privet synth evaluate}: workload error of a synthetic table against the real one. */
@Command(
    name = "evaluate",
    mixinStandardHelpOptions = true,
    description = {
      "Workload error (average L1 distance between normalized marginals) of a synthetic table, per-marginal",
      "errors, per-class errors of a workload file (marginals, counting queries, conditional averages),",
      "non-private baselines, and optionally an HTML report with real-vs-synthetic plots.",
      "Not a DP release: it reads the real data."
    })
public final class SynthEvaluateCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--real", required = true, paramLabel = "FILE", description = "the real CSV table")
  Path real;

  @Option(names = "--synthetic", required = true, paramLabel = "FILE", description = "the synthetic CSV table")
  Path synthetic;

  @Option(names = "--domain", paramLabel = "DOMAIN.json",
      description = "the domain (default: the values present in both files)")
  Path domain;

  @Option(names = "--workload", defaultValue = "all-3way", paramLabel = "all-<k>way|FILE",
      description = "all-<k>way marginals, or a query file (as for privet synth --workload: its marginals' error"
          + " is the headline, and every class is reported as with --workload-file) (default: ${DEFAULT-VALUE})")
  String workload;

  @Option(names = "--report", paramLabel = "FILE.html", description = "write an HTML report with plots")
  Path report;

  @Option(names = "--per-marginal", description = "print every marginal's error")
  boolean perMarginal;

  @Option(names = "--workload-file", paramLabel = "FILE",
      description = "queries to evaluate per class, one a line: 'marginal A,B', 'count A=x B=y',"
          + " 'mean C | A=x B=y' (max and mean error per class)")
  Path workloadFile;

  @Option(names = "--baselines", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "report, on the same workloads, a non-private independent baseline (each column drawn"
          + " from its exact 1-way marginal) and a bootstrap resample of the real table (the floor);"
          + " on by default, --no-baselines to skip")
  boolean baselines;

  @Override
  public Integer call() throws IOException {
    Domain dom = domain != null ? Domain.load(domain) : Domain.inferForEvaluation(List.of(real, synthetic));
    Table r = Table.read(real, dom);
    Table s = Table.read(synthetic, dom);
    if (SynthCommand.isFile(workload)) {
      if (workloadFile != null) {
        throw new IllegalArgumentException("give the query file once: --workload FILE or --workload-file FILE");
      }
      workloadFile = Path.of(workload);
    }
    Workload w = workloadFile != null && !workload.matches("all-[1-9]way")
        ? QueryWorkload.read(workloadFile, dom).marginalWorkload() : Workload.parse(workload, dom);
    WorkloadError e = WorkloadError.evaluate(r, s, w);
    PrintWriter o = spec.commandLine().getOut();
    o.printf(Locale.ROOT, "workload %s (%d marginals): error %.4f%n", workload, w.size(), e.average());
    var sorted = new java.util.ArrayList<>(e.perMarginal());
    sorted.sort(java.util.Comparator.comparingDouble(WorkloadError.MarginalError::l1).reversed());
    int shown = perMarginal ? sorted.size() : Math.min(10, sorted.size());
    o.println(perMarginal ? "per-marginal errors (worst first):" : "worst " + shown + " marginals:");
    for (int i = 0; i < shown; i++) {
      o.printf(Locale.ROOT, "  %-50s %.4f%n", sorted.get(i).name(), sorted.get(i).l1());
    }
    Table independent = baselines ? QueryWorkload.independentBaseline(r, RandomSource.secure()) : null;
    Table bootstrap = baselines ? QueryWorkload.bootstrap(r, RandomSource.secure()) : null;
    double max = e.perMarginal().stream().mapToDouble(WorkloadError.MarginalError::l1).max().orElse(0);
    o.printf(Locale.ROOT, "  max marginal error %.4f%n", max);
    if (baselines) {
      o.printf(Locale.ROOT, "baselines on %s: independent 1-ways %.4f, bootstrap floor %.4f%n", workload,
          WorkloadError.evaluate(r, independent, w).average(), WorkloadError.evaluate(r, bootstrap, w).average());
    }
    if (workloadFile != null) {
      QueryWorkload qw = QueryWorkload.read(workloadFile, dom);
      var synth = qw.evaluate(r, s);
      var ind = baselines ? qw.evaluate(r, independent) : null;
      var boot = baselines ? qw.evaluate(r, bootstrap) : null;
      o.printf(Locale.ROOT, "workload file %s (%d queries):%n", workloadFile.getFileName(), qw.queries().size());
      o.printf(Locale.ROOT, "  %-9s %7s %10s %10s%s%n", "class", "queries", "max err", "mean err",
          baselines ? "   independent max/mean   bootstrap max/mean" : "");
      synth.forEach((kind, c) -> {
        o.printf(Locale.ROOT, "  %-9s %7d %10.4f %10.4f", kind.name().toLowerCase(Locale.ROOT), c.queries(), c.max(),
            c.mean());
        if (baselines) {
          o.printf(Locale.ROOT, "   %8.4f / %-8.4f   %8.4f / %-8.4f", ind.get(kind).max(), ind.get(kind).mean(),
              boot.get(kind).max(), boot.get(kind).mean());
        }
        o.println(c.undefined() > 0 ? "  (" + c.undefined() + " undefined: no matching row)" : "");
      });
    }
    if (report != null) {
      Files.writeString(report, EvaluationReport.html(r, s, workload, e), StandardCharsets.UTF_8);
      o.println("report written to " + report);
    }
    o.flush();
    return 0;
  }
}
