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
import org.privet.synth.EvaluationReport;
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
      "errors, and optionally an HTML report with real-vs-synthetic plots. Not a DP release: it reads the real data."
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

  @Option(names = "--workload", defaultValue = "all-3way", description = "all-<k>way (default: ${DEFAULT-VALUE})")
  String workload;

  @Option(names = "--report", paramLabel = "FILE.html", description = "write an HTML report with plots")
  Path report;

  @Option(names = "--per-marginal", description = "print every marginal's error")
  boolean perMarginal;

  @Override
  public Integer call() throws IOException {
    Domain dom = domain != null ? Domain.load(domain) : Domain.inferForEvaluation(List.of(real, synthetic));
    Table r = Table.read(real, dom);
    Table s = Table.read(synthetic, dom);
    Workload w = Workload.parse(workload, dom);
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
    if (report != null) {
      Files.writeString(report, EvaluationReport.html(r, s, workload, e), StandardCharsets.UTF_8);
      o.println("report written to " + report);
    }
    o.flush();
    return 0;
  }
}
