package org.privet.cli.account;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privet.accounting.Accountant;
import org.privet.accounting.AdvancedCompositionAccountant;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.NoiseCalibration;
import org.privet.accounting.OptimalCompositionAccountant;
import org.privet.accounting.pld.PldAccountant;
import org.privet.accounting.PoissonSubsampled;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.RdpAccountant;
import org.privet.accounting.ZcdpAccountant;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code privet account}: plans a privacy budget from the shell. Composes {@code --steps} runs of
 * one mechanism (optionally Poisson-subsampled) under the chosen accountant and prints the ε at the
 * given δ, or with {@code --target-epsilon} solves for the smallest noise multiplier that meets it.
 * Plain output ends with {@code epsilon=<value>} or {@code noise_multiplier=<value>}.
 */
@Command(
    name = "account",
    mixinStandardHelpOptions = true,
    description = {
      "Compute the privacy loss of repeated (optionally subsampled) mechanisms, or solve for the noise.",
      "Example: privet account --mechanism gaussian --noise-multiplier 1.1 --sampling-rate 0.004"
          + " --steps 15000 --delta 1e-5 --accountant pld"
    })
public final class AccountCommand implements Runnable {

  /** The mechanisms {@code --mechanism} accepts. */
  enum Mechanism {
    GAUSSIAN("gaussian"),
    LAPLACE("laplace"),
    PURE("pure"),
    RANDOMIZED_RESPONSE("randomized-response");

    final String label;

    Mechanism(String label) {
      this.label = label;
    }
  }

  /** The accountants {@code --accountant} accepts. */
  enum Method {
    PLD,
    RDP,
    ZCDP,
    ADVANCED,
    OPTIMAL,
    BASIC
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--mechanism", required = true, converter = MechanismConverter.class,
      description = "gaussian, laplace, pure or randomized-response.")
  Mechanism mechanism;

  @Option(names = "--noise-multiplier", description = "Gaussian: sigma / L2 sensitivity.")
  Double noiseMultiplier;

  @Option(names = "--scale", description = "Laplace: scale b / L1 sensitivity.")
  Double scale;

  @Option(names = "--epsilon", description = "pure / randomized-response: epsilon of one run.")
  Double epsilon;

  @Option(names = "--categories", defaultValue = "2",
      description = "randomized-response: number of categories (default ${DEFAULT-VALUE}).")
  int categories;

  @Option(names = "--sampling-rate", defaultValue = "1",
      description = "Poisson sampling rate q in (0, 1] under add/remove neighbours (default ${DEFAULT-VALUE}).")
  double samplingRate;

  @Option(names = "--steps", defaultValue = "1", description = "Number of runs composed (default ${DEFAULT-VALUE}).")
  int steps;

  @Option(names = "--delta", defaultValue = "1e-5", description = "Target total delta (default ${DEFAULT-VALUE}).")
  double delta;

  @Option(names = "--accountant", defaultValue = "pld", converter = MethodConverter.class,
      description = "pld, rdp, zcdp, advanced, optimal or basic (default ${DEFAULT-VALUE}).")
  Method method;

  @Option(names = "--target-epsilon",
      description = "Solve for the smallest noise multiplier (gaussian) or scale (laplace) meeting this epsilon.")
  Double targetEpsilon;

  @Option(names = "--value-discretization-interval",
      description = "A fixed PLD grid spacing of loss values (default: the adaptive grid, at most"
          + " 1e-4, exact for pure-epsilon events).")
  Double interval;

  @Option(names = "--json", description = "Print JSON instead of text.")
  boolean json;

  @Override
  public void run() {
    if (steps < 1) {
      throw new IllegalArgumentException("steps must be positive, was " + steps);
    }
    if (Double.isNaN(samplingRate) || samplingRate <= 0 || samplingRate > 1) {
      throw new IllegalArgumentException("sampling-rate must be in (0, 1], was " + samplingRate);
    }
    Accountant accountant = accountant();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("mechanism", mechanism.label);
    out.put("sampling_rate", samplingRate);
    out.put("steps", steps);
    out.put("delta", delta);
    out.put("accountant", method.name().toLowerCase(Locale.ROOT));
    String last;
    if (targetEpsilon != null) {
      if (mechanism != Mechanism.GAUSSIAN && mechanism != Mechanism.LAPLACE) {
        throw new IllegalArgumentException("target-epsilon needs --mechanism gaussian or laplace");
      }
      out.put("target_epsilon", targetEpsilon);
      double solved =
          NoiseCalibration.noiseMultiplier(accountant, this::events, targetEpsilon, delta, 1e-4);
      ApproxDp achieved = accountant.compose(events(solved), delta);
      out.put("noise_multiplier", solved);
      out.put("epsilon", achieved.epsilon());
      last = "noise_multiplier=" + solved;
    } else {
      double parameter = parameter();
      ApproxDp r = accountant.compose(events(parameter), delta);
      out.put(mechanism == Mechanism.GAUSSIAN || mechanism == Mechanism.LAPLACE ? "noise_multiplier" : "epsilon_per_step",
          parameter);
      out.put("epsilon", r.epsilon());
      out.put("delta_reported", r.delta());
      last = "epsilon=" + r.epsilon();
    }
    PrintWriter w = spec.commandLine().getOut();
    if (json) {
      try {
        w.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    } else {
      String lastKey = targetEpsilon != null ? "noise_multiplier" : "epsilon";
      for (Map.Entry<String, Object> e : out.entrySet()) {
        if (!e.getKey().equals(lastKey)) {
          w.println(e.getKey() + ": " + e.getValue());
        }
      }
      w.println(last);
    }
    w.flush();
  }

  private double parameter() {
    switch (mechanism) {
      case GAUSSIAN:
        return require(noiseMultiplier, "noise-multiplier");
      case LAPLACE:
        return require(scale, "scale");
      default:
        return require(epsilon, "epsilon");
    }
  }

  private static double require(Double v, String name) {
    if (v == null) {
      throw new IllegalArgumentException("--" + name + " is required for this mechanism");
    }
    if (Double.isNaN(v) || Double.isInfinite(v) || v <= 0) {
      throw new IllegalArgumentException(name + " must be finite and positive, was " + v);
    }
    return v;
  }

  private List<? extends PrivacyLoss> events(double parameter) {
    PrivacyLoss one;
    switch (mechanism) {
      case GAUSSIAN:
        one = new MechanismLoss.Gaussian(parameter);
        break;
      case LAPLACE:
        one = new MechanismLoss.Laplace(parameter);
        break;
      case PURE:
        one = new PureDp(parameter);
        break;
      default:
        one = new MechanismLoss.RandomizedResponse(parameter, categories);
        break;
    }
    if (samplingRate < 1) {
      one = new PoissonSubsampled(one, samplingRate);
    }
    return Collections.nCopies(steps, one);
  }

  private Accountant accountant() {
    switch (method) {
      case PLD:
        return interval == null ? new PldAccountant()
            : PldAccountant.builder().valueDiscretizationInterval(interval).build();
      case RDP:
        return new RdpAccountant();
      case ZCDP:
        return new ZcdpAccountant();
      case ADVANCED:
        return new AdvancedCompositionAccountant();
      case OPTIMAL:
        return new OptimalCompositionAccountant();
      default:
        return new BasicAccountant();
    }
  }

  static final class MechanismConverter implements CommandLine.ITypeConverter<Mechanism> {
    @Override
    public Mechanism convert(String value) {
      for (Mechanism m : Mechanism.values()) {
        if (m.label.equalsIgnoreCase(value)) {
          return m;
        }
      }
      throw new CommandLine.TypeConversionException(
          "mechanism must be gaussian, laplace, pure or randomized-response, was '" + value + "'");
    }
  }

  static final class MethodConverter implements CommandLine.ITypeConverter<Method> {
    @Override
    public Method convert(String value) {
      for (Method m : Method.values()) {
        if (m.name().equalsIgnoreCase(value)) {
          return m;
        }
      }
      throw new CommandLine.TypeConversionException(
          "accountant must be pld, rdp, zcdp, advanced, optimal or basic, was '" + value + "'");
    }
  }
}
