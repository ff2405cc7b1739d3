package org.privet.cli.mech;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privet.mechanisms.GeometricMechanism;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privet mech geometric}: the geometric (discrete Laplace) mechanism on an integer. */
@Command(name = "geometric", mixinStandardHelpOptions = true,
    description = "Integer value plus discrete Laplace noise (epsilon-DP).")
final class GeometricCommand implements Runnable {
  @Mixin MechanismOptions options;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--sensitivity", defaultValue = "1", description = "L1 sensitivity (integer, default 1).")
  long sensitivity;

  @Option(names = "--value", required = true, description = "The true integer value.")
  long value;

  @Override
  public void run() {
    GeometricMechanism m =
        GeometricMechanism.builder().epsilon(options.epsilon()).sensitivity(sensitivity).build();
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("epsilon", options.epsilon());
    p.put("sensitivity", sensitivity);
    p.put("scale", m.scale());
    options.releaseAndPrint(spec.commandLine().getOut(), "geometric", p,
        () -> m.release(value), r -> m.confidenceInterval(r, options.beta()), m.privacyLoss());
  }
}
