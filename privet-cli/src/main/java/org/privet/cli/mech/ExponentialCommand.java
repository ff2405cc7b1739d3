package org.privet.cli.mech;

import org.privet.mechanisms.ExponentialMechanism;
import org.privet.mechanisms.SelectionMechanism;
import picocli.CommandLine.Command;

/** {@code privet mech exponential}: the exponential mechanism over the given utilities. */
@Command(name = "exponential", mixinStandardHelpOptions = true,
    description = "Choose a candidate with probability proportional to exp(eps*u/(2*sensitivity)) "
        + "(exact sampling); prints the 0-based index.")
final class ExponentialCommand extends UtilitySelectionCommand {

  @Override
  String mechanism() {
    return "exponential";
  }

  @Override
  String boundSource() {
    return "McSherry-Talwar; Dwork-Roth Thm 3.11, plus one grid step";
  }

  @Override
  SelectionMechanism build(double epsilon, double sensitivity, boolean monotone) {
    return ExponentialMechanism.builder()
        .epsilon(epsilon).sensitivity(sensitivity).monotone(monotone).build();
  }
}
