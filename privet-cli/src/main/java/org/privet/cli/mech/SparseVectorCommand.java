package org.privet.cli.mech;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.mechanisms.SparseVector;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code privet mech sparse-vector}: the sparse vector technique (Lyu, Su, Li 2017) over a list
 * of query answers. Prints {@code true} (above the noisy threshold) or {@code false} per answer,
 * stopping after {@code --max-positives} {@code true}s; {@code --samples N} runs N independent
 * instances, one comma-separated line each.
 */
@Command(name = "sparse-vector", mixinStandardHelpOptions = true,
    description = "Sparse vector / AboveThreshold: true/false per answer until --max-positives "
        + "trues (each --samples run on its own line, comma-separated).")
final class SparseVectorCommand implements Runnable {
  @Mixin MechanismOptions options;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--answers", required = true, split = ",",
      description = "Comma-separated true answers of the queries, in order.")
  double[] answers;

  @Option(names = "--threshold", required = true, description = "The public threshold T.")
  double threshold;

  @Option(names = "--sensitivity", defaultValue = "1",
      description = "Sensitivity of every query (> 0, default: ${DEFAULT-VALUE}).")
  double sensitivity;

  @Option(names = "--max-positives", defaultValue = "1",
      description = "Halt after this many positive answers (default: ${DEFAULT-VALUE}).")
  int maxPositives;

  @Option(names = "--monotone", description = "Queries are monotone (less noise).")
  boolean monotone;

  @Override
  public void run() {
    int n = options.samples();
    List<String> runs = new ArrayList<>(n);
    SparseVector first = null;
    for (int s = 0; s < n; s++) {
      SparseVector sv = SparseVector.builder().epsilon(options.epsilon())
          .sensitivity(sensitivity).threshold(threshold).maxPositives(maxPositives)
          .monotone(monotone).build();
      first = first == null ? sv : first;
      List<String> bits = new ArrayList<>();
      for (double a : answers) {
        if (sv.halted()) {
          break;
        }
        bits.add(Boolean.toString(sv.test(a)));
      }
      runs.add(String.join(",", bits));
    }
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("epsilon", options.epsilon());
    p.put("sensitivity", sensitivity);
    p.put("threshold", threshold);
    p.put("maxPositives", maxPositives);
    p.put("monotone", monotone);
    options.print(spec.commandLine().getOut(), "sparse-vector", p, runs, null, first.privacyLoss());
  }
}
