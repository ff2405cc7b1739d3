package org.privet.cli.mech;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.mechanisms.ConfidenceInterval;
import picocli.CommandLine.Option;

/**
 * The options every {@code privet mech} subcommand shares ({@code --epsilon}, {@code --samples},
 * {@code --json}, {@code --confidence}), and the one output format: plain output is one released
 * value per line; JSON is
 *
 * <pre>{"mechanism": ..., "parameters": {...}, "releases": [{"value": ..., "confidenceInterval":
 * {"lower": ..., "upper": ..., "level": ...}}, ...], "privacyLoss": {"perRelease": {...}, "total":
 * {...}}}</pre>
 *
 * <p>where {@code total} composes the {@code --samples} releases by basic composition (rounded
 * up). Subcommands add this class as a picocli {@code @Mixin}.
 */
public final class MechanismOptions {

  @Option(names = "--epsilon", description = "Privacy parameter epsilon (> 0).")
  Double epsilon;

  @Option(names = "--samples", defaultValue = "1",
      description = "Number of independent releases (default: ${DEFAULT-VALUE}).")
  int samples;

  @Option(names = "--json", description = "Print JSON with the privacy cost and confidence intervals.")
  boolean json;

  @Option(names = "--confidence", defaultValue = "0.95",
      description = "Confidence level 1 - beta of the intervals in --json (default: ${DEFAULT-VALUE}).")
  double confidence;

  /** The value of {@code --epsilon}; an {@link IllegalArgumentException} if it is missing. */
  public double epsilon() {
    if (epsilon == null) {
      throw new IllegalArgumentException("--epsilon is required");
    }
    return epsilon;
  }

  /** Whether {@code --epsilon} was given. */
  public boolean hasEpsilon() {
    return epsilon != null;
  }

  /** The number of releases, at least 1. */
  public int samples() {
    if (samples < 1) {
      throw new IllegalArgumentException("--samples must be at least 1, was " + samples);
    }
    return samples;
  }

  public boolean json() {
    return json;
  }

  /** β = 1 − confidence, validated. */
  public double beta() {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("--confidence must be in (0, 1), was " + confidence);
    }
    return 1 - confidence;
  }

  /**
   * Releases {@link #samples()} values with {@code release} (each a fresh use of the mechanism),
   * computes their confidence intervals when {@code --json} asks for them, and prints them.
   */
  public <T> void releaseAndPrint(PrintWriter out, String mechanism, Map<String, Object> parameters,
      Supplier<T> release, Function<T, ConfidenceInterval> interval, PrivacyLoss perRelease) {
    int n = samples();
    List<T> values = new ArrayList<>(n);
    List<ConfidenceInterval> intervals = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      T value = release.get();
      values.add(value);
      if (json) {
        intervals.add(interval.apply(value));
      }
    }
    print(out, mechanism, parameters, values, intervals, perRelease);
  }

  /**
   * Prints the releases: one per line, or the JSON document.
   *
   * @param values the released values (numbers, booleans or strings), one per release
   * @param intervals a confidence interval per release, or {@code null} if the mechanism has none
   * @param perRelease the privacy loss of one release
   */
  public void print(PrintWriter out, String mechanism, Map<String, Object> parameters,
      List<?> values, List<ConfidenceInterval> intervals, PrivacyLoss perRelease) {
    if (!json) {
      for (Object v : values) {
        out.println(v);
      }
      out.flush();
      return;
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("mechanism", mechanism);
    doc.put("parameters", parameters);
    List<Map<String, Object>> releases = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("value", values.get(i));
      if (intervals != null) {
        ConfidenceInterval ci = intervals.get(i);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("lower", ci.lower());
        c.put("upper", ci.upper());
        c.put("level", ci.level());
        r.put("confidenceInterval", c);
      }
      releases.add(r);
    }
    doc.put("releases", releases);
    Map<String, Object> loss = new LinkedHashMap<>();
    loss.put("perRelease", lossJson(perRelease, 1));
    loss.put("total", lossJson(perRelease, values.size()));
    loss.put("composition", "basic");
    doc.put("privacyLoss", loss);
    try {
      out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
    out.flush();
  }

  private static Map<String, Object> lossJson(PrivacyLoss loss, int k) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (loss instanceof PureDp p) {
      m.put("measure", "pure");
      m.put("epsilon", times(p.epsilon(), k));
    } else if (loss instanceof ApproxDp a) {
      m.put("measure", "approximate");
      m.put("epsilon", times(a.epsilon(), k));
      m.put("delta", times(a.delta(), k));
    } else if (loss instanceof Zcdp z) {
      m.put("measure", "zCDP");
      m.put("rho", times(z.rho(), k));
    } else if (loss instanceof ApproxZcdp z) {
      m.put("measure", "approximate zCDP");
      m.put("rho", times(z.rho(), k));
      m.put("delta", times(z.delta(), k));
    } else {
      m.put("measure", loss.toString());
    }
    return m;
  }

  /** k·x rounded up. */
  private static double times(double x, int k) {
    double p = x * k;
    return k == 1 || Math.fma(x, k, -p) <= 0 ? p : Math.nextUp(p);
  }
}
