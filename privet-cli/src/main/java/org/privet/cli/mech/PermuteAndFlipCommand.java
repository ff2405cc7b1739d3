package org.privet.cli.mech;

import org.privet.mechanisms.PermuteAndFlip;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privet mech permute-and-flip}: McKenna and Sheldon's permute-and-flip selection. */
@Command(name = "permute-and-flip", mixinStandardHelpOptions = true,
    description = "Permute-and-flip selection (McKenna & Sheldon 2020, exact); prints the 0-based "
        + "index.")
final class PermuteAndFlipCommand implements Runnable {
  @Mixin MechanismOptions options;
  @Mixin SelectionOptions selection;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--utilities", required = true, split = ",",
      description = "Comma-separated utility of each candidate (higher is better).")
  double[] utilities;

  @Override
  public void run() {
    PermuteAndFlip m = PermuteAndFlip.builder()
        .epsilon(options.epsilon())
        .sensitivity(selection.sensitivity)
        .monotone(selection.monotone)
        .build();
    SelectionOptions.release(spec, options, "permute-and-flip",
        selection.parameters(options, utilities, "utilities"), utilities.length,
        () -> m.select(utilities), m.privacyLoss(),
        m.utilityErrorBound(utilities.length, options.beta()),
        "union bound, as for the exponential mechanism");
  }
}
