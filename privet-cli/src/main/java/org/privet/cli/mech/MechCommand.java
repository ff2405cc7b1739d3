package org.privet.cli.mech;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code privet mech}: try one mechanism from the shell. Each subcommand releases
 * {@code --samples} independent values (each a fresh use of the mechanism, paying its full
 * privacy cost), one per line; {@code --json} adds the privacy cost and confidence intervals.
 * Names, flags and formats are stable: scripts depend on them.
 */
@Command(
    name = "mech",
    mixinStandardHelpOptions = true,
    description = "Release values with a single DP mechanism (for experiments and teaching).",
    subcommands = {
      LaplaceCommand.class,
      GaussianCommand.class,
      GeometricCommand.class,
      DiscreteGaussianCommand.class,
      RandomizedResponseCommand.class,
      ExponentialCommand.class,
      NoisyMaxCommand.class,
      PermuteAndFlipCommand.class,
      SparseVectorCommand.class,
    })
public final class MechCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
