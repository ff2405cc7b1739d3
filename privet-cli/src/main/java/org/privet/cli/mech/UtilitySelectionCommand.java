package org.privet.cli.mech;

import org.privet.mechanisms.SelectionMechanism;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The shape of the subcommands that select among {@code --utilities} ({@code exponential},
 * {@code permute-and-flip}): each names its mechanism and builds it.
 */
abstract class UtilitySelectionCommand implements Runnable {
  @Mixin MechanismOptions options;
  @Mixin SelectionOptions selection;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--utilities", required = true, split = ",",
      description = "Comma-separated utility of each candidate (higher is better).")
  double[] utilities;

  abstract String mechanism();

  abstract SelectionMechanism build(double epsilon, double sensitivity, boolean monotone);

  abstract String boundSource();

  @Override
  public void run() {
    SelectionMechanism m = build(options.epsilon(), selection.sensitivity, selection.monotone);
    SelectionOptions.release(spec, options, mechanism(),
        selection.parameters(options, utilities, "utilities"), utilities.length,
        () -> m.select(utilities), m.privacyLoss(),
        m.utilityErrorBound(utilities.length, options.beta()), boundSource());
  }
}
