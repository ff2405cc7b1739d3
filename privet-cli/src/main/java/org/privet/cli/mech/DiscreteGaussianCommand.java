package org.privet.cli.mech;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privet.mechanisms.DiscreteGaussianMechanism;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privet mech discrete-gaussian}: the discrete Gaussian mechanism (ρ-zCDP) on an integer. */
@Command(name = "discrete-gaussian", mixinStandardHelpOptions = true,
    description = "Integer value plus discrete Gaussian noise (rho-zCDP); give --rho or --sigma.")
final class DiscreteGaussianCommand implements Runnable {
  @Mixin MechanismOptions options;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--rho", description = "zCDP parameter rho (> 0); sets sigma = sensitivity / sqrt(2 rho).")
  Double rho;

  @Option(names = "--sigma", description = "Noise parameter sigma (> 0).")
  Double sigma;

  @Option(names = "--sensitivity", defaultValue = "1", description = "L2 sensitivity (integer, default 1).")
  long sensitivity;

  @Option(names = "--value", required = true, description = "The true integer value.")
  long value;

  @Override
  public void run() {
    if (options.hasEpsilon()) {
      throw new IllegalArgumentException("discrete-gaussian takes --rho or --sigma, not --epsilon");
    }
    if ((rho == null) == (sigma == null)) {
      throw new IllegalArgumentException("give exactly one of --rho and --sigma");
    }
    DiscreteGaussianMechanism.Builder b = DiscreteGaussianMechanism.builder().sensitivity(sensitivity);
    DiscreteGaussianMechanism m = (rho != null ? b.rho(rho) : b.sigma(sigma)).build();
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("rho", m.privacyLoss().rho());
    p.put("sigma", m.sigma());
    p.put("sensitivity", sensitivity);
    options.releaseAndPrint(spec.commandLine().getOut(), "discrete-gaussian", p,
        () -> m.release(value), r -> m.confidenceInterval(r, options.beta()), m.privacyLoss());
  }
}
