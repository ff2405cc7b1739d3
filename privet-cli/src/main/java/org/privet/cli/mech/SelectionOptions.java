package org.privet.cli.mech;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.privet.accounting.PureDp;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * Options shared by the selection subcommands ({@code exponential}, {@code noisy-max},
 * {@code permute-and-flip}): the sensitivity and the monotone flag, and the common output (one
 * 0-based index per line; {@code --json} adds the privacy cost and the utility guarantee).
 */
final class SelectionOptions {

  @Option(names = "--sensitivity", defaultValue = "1",
      description = "Sensitivity of every utility (> 0, default: ${DEFAULT-VALUE}).")
  double sensitivity;

  @Option(names = "--monotone",
      description = "Utilities are monotone (all move the same way between neighbours): "
          + "use exp(eps*u/sensitivity) instead of exp(eps*u/(2*sensitivity)).")
  boolean monotone;

  /**
   * Runs {@code samples} selections and prints them with the shared {@link MechanismOptions}
   * format; the JSON parameters state the utility guarantee at the requested confidence.
   */
  static void release(CommandSpec spec, MechanismOptions options, String mechanism,
      Map<String, Object> parameters, int candidates, IntSupplier select, PureDp loss,
      double errorBound, String boundSource) {
    int n = options.samples();
    List<Integer> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(select.getAsInt());
    }
    if (options.json()) {
      Map<String, Object> accuracy = new LinkedHashMap<>();
      accuracy.put("candidates", candidates);
      accuracy.put("confidence", 1 - options.beta());
      accuracy.put("utilityErrorBound", errorBound);
      accuracy.put("statement", "with probability at least " + (1 - options.beta())
          + ", the chosen candidate's utility is at least max utility - " + errorBound
          + " (" + boundSource + ")");
      parameters.put("accuracy", accuracy);
    }
    options.print(spec.commandLine().getOut(), mechanism, parameters, values, null, loss);
  }

  /** Common JSON parameters. */
  Map<String, Object> parameters(MechanismOptions options, double[] utilities, String name) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("epsilon", options.epsilon());
    p.put("sensitivity", sensitivity);
    p.put("monotone", monotone);
    p.put(name, utilities);
    return p;
  }
}
