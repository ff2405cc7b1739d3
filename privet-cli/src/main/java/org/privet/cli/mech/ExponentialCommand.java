package org.privet.cli.mech;

import org.privet.mechanisms.ExponentialMechanism;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privet mech exponential}: the exponential mechanism over the given utilities. */
@Command(name = "exponential", mixinStandardHelpOptions = true,
    description = "Choose a candidate with probability proportional to exp(eps*u/(2*sensitivity)) "
        + "(exact sampling); prints the 0-based index.")
final class ExponentialCommand implements Runnable {
  @Mixin MechanismOptions options;
  @Mixin SelectionOptions selection;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--utilities", required = true, split = ",",
      description = "Comma-separated utility of each candidate (higher is better).")
  double[] utilities;

  @Override
  public void run() {
    ExponentialMechanism m = ExponentialMechanism.builder()
        .epsilon(options.epsilon())
        .sensitivity(selection.sensitivity)
        .monotone(selection.monotone)
        .build();
    SelectionOptions.release(spec, options, "exponential",
        selection.parameters(options, utilities, "utilities"), utilities.length,
        () -> m.select(utilities), m.privacyLoss(),
        m.utilityErrorBound(utilities.length, options.beta()),
        "McSherry-Talwar; Dwork-Roth Thm 3.11, plus one grid step");
  }
}
