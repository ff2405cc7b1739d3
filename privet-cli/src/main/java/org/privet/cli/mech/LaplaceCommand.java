package org.privet.cli.mech;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privet.mechanisms.LaplaceMechanism;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privet mech laplace}: the (grid-safe) Laplace mechanism on a real value. */
@Command(name = "laplace", mixinStandardHelpOptions = true,
    description = "Real value plus Laplace noise on a power-of-two grid (epsilon-DP).")
final class LaplaceCommand implements Runnable {
  @Mixin MechanismOptions options;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--sensitivity", defaultValue = "1", description = "L1 sensitivity (default 1).")
  double sensitivity;

  @Option(names = "--value", required = true, description = "The true value.")
  double value;

  @Override
  public void run() {
    LaplaceMechanism m =
        LaplaceMechanism.builder().epsilon(options.epsilon()).sensitivity(sensitivity).build();
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("epsilon", options.epsilon());
    p.put("sensitivity", sensitivity);
    p.put("scale", m.scale());
    p.put("granularity", m.granularity());
    options.releaseAndPrint(spec.commandLine().getOut(), "laplace", p,
        () -> m.release(value), r -> m.confidenceInterval(r, options.beta()), m.privacyLoss());
  }
}
