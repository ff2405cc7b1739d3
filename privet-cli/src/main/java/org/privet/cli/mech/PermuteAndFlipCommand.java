package org.privet.cli.mech;

import org.privet.mechanisms.PermuteAndFlip;
import org.privet.mechanisms.SelectionMechanism;
import picocli.CommandLine.Command;

/** {@code privet mech permute-and-flip}: McKenna and Sheldon's permute-and-flip selection. */
@Command(name = "permute-and-flip", mixinStandardHelpOptions = true,
    description = "Permute-and-flip selection (McKenna & Sheldon 2020, exact); prints the 0-based "
        + "index.")
final class PermuteAndFlipCommand extends UtilitySelectionCommand {

  @Override
  String mechanism() {
    return "permute-and-flip";
  }

  @Override
  String boundSource() {
    return "union bound, as for the exponential mechanism";
  }

  @Override
  SelectionMechanism build(double epsilon, double sensitivity, boolean monotone) {
    return PermuteAndFlip.builder()
        .epsilon(epsilon).sensitivity(sensitivity).monotone(monotone).build();
  }
}
