package org.privet.cli.mech;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privet.mechanisms.GaussianCalibration;
import org.privet.mechanisms.GaussianMechanism;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privet mech gaussian}: the (grid-safe) Gaussian mechanism on a real value. */
@Command(name = "gaussian", mixinStandardHelpOptions = true,
    description = "Real value plus Gaussian noise on a power-of-two grid ((epsilon, delta)-DP).")
final class GaussianCommand implements Runnable {
  @Mixin MechanismOptions options;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--delta", required = true, description = "Privacy parameter delta in (0, 1).")
  double delta;

  @Option(names = "--sensitivity", defaultValue = "1", description = "L2 sensitivity (default 1).")
  double sensitivity;

  @Option(names = "--calibration", defaultValue = "ANALYTIC",
      description = "ANALYTIC (Balle & Wang 2018) or CLASSIC (epsilon < 1 only); default ${DEFAULT-VALUE}.")
  GaussianCalibration calibration;

  @Option(names = "--value", required = true, description = "The true value.")
  double value;

  @Override
  public void run() {
    GaussianMechanism m =
        GaussianMechanism.builder()
            .epsilon(options.epsilon())
            .delta(delta)
            .sensitivity(sensitivity)
            .calibration(calibration)
            .build();
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("epsilon", options.epsilon());
    p.put("delta", delta);
    p.put("sensitivity", sensitivity);
    p.put("calibration", calibration.name());
    p.put("sigma", m.sigma());
    p.put("granularity", m.granularity());
    options.releaseAndPrint(spec.commandLine().getOut(), "gaussian", p,
        () -> m.release(value), r -> m.confidenceInterval(r, options.beta()), m.privacyLoss());
  }
}
