package org.privet.cli.mech;

import java.util.Locale;
import java.util.Map;
import org.privet.mechanisms.ReportNoisyMax;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privet mech noisy-max}: report noisy max with Laplace or Gumbel noise. */
@Command(name = "noisy-max", mixinStandardHelpOptions = true,
    description = "Report noisy max over the counts (exact discrete Laplace, or Gumbel = the "
        + "exponential mechanism); prints the 0-based index.")
final class NoisyMaxCommand implements Runnable {
  @Mixin MechanismOptions options;
  @Mixin SelectionOptions selection;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--counts", required = true, split = ",",
      description = "Comma-separated count (or utility) of each candidate.")
  double[] counts;

  @Option(names = "--noise", defaultValue = "laplace",
      description = "laplace or gumbel (default: ${DEFAULT-VALUE}).")
  String noise;

  @Override
  public void run() {
    ReportNoisyMax.Noise kind = switch (noise.toLowerCase(Locale.ROOT)) {
      case "laplace" -> ReportNoisyMax.Noise.LAPLACE;
      case "gumbel" -> ReportNoisyMax.Noise.GUMBEL;
      default -> throw new IllegalArgumentException(
          "--noise must be laplace or gumbel, was " + noise);
    };
    ReportNoisyMax m = ReportNoisyMax.builder()
        .epsilon(options.epsilon())
        .sensitivity(selection.sensitivity)
        .monotone(selection.monotone)
        .noise(kind)
        .build();
    Map<String, Object> p = selection.parameters(options, counts, "counts");
    p.put("noise", kind.name().toLowerCase(Locale.ROOT));
    SelectionOptions.release(spec, options, "noisy-max", p, counts.length,
        () -> m.select(counts), m.privacyLoss(),
        m.utilityErrorBound(counts.length, options.beta()),
        kind == ReportNoisyMax.Noise.LAPLACE
            ? "union bound over the discrete Laplace tails"
            : "Gumbel noise is the exponential mechanism: Dwork-Roth Thm 3.11");
  }
}
