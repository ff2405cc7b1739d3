package org.privet.cli.mech;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.mechanisms.FrequencyEstimate;
import org.privet.mechanisms.RandomizedResponse;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code privet mech randomized-response}: binary ({@code --value true|false}), two-coin
 * ({@code --two-coin}) or k-ary ({@code --categories a,b,c --value b}) randomized response.
 */
@Command(name = "randomized-response", mixinStandardHelpOptions = true,
    description = "Randomized response: prints true/false (binary) or the reported category "
        + "(with --categories) per line.")
final class RandomizedResponseCommand implements Runnable {
  @Mixin MechanismOptions options;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--value", required = true,
      description = "The true answer: true or false, or one of --categories.")
  String value;

  @Option(names = "--categories", split = ",",
      description = "Comma-separated categories for k-ary randomized response.")
  List<String> categories;

  @Option(names = "--two-coin",
      description = "The two-coin survey protocol (epsilon = ln 3; do not give --epsilon).")
  boolean twoCoin;

  @Override
  public void run() {
    List<String> labels = categories == null ? List.of("false", "true") : categories;
    if (labels.size() < 2 || labels.stream().distinct().count() != labels.size()) {
      throw new IllegalArgumentException("--categories must list at least 2 distinct categories");
    }
    int truth = labels.indexOf(value);
    if (truth < 0) {
      throw new IllegalArgumentException(categories == null
          ? "--value must be true or false, was " + value
          : "--value must be one of --categories");
    }
    RandomizedResponse.Builder b = RandomizedResponse.builder();
    if (twoCoin) {
      if (options.hasEpsilon()) {
        throw new IllegalArgumentException("--two-coin fixes epsilon = ln 3; do not give --epsilon");
      }
      if (categories != null) {
        throw new IllegalArgumentException("--two-coin is binary; do not give --categories");
      }
      b.twoCoin();
    } else {
      b.epsilon(options.epsilon()).categories(labels.size());
    }
    RandomizedResponse m = b.build();
    int n = options.samples();
    List<String> values = new ArrayList<>(n);
    long[] counts = new long[labels.size()];
    for (int i = 0; i < n; i++) {
      int r = m.respond(truth);
      counts[r]++;
      values.add(labels.get(r));
    }
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("epsilon", m.privacyLoss().epsilon());
    p.put("variant", twoCoin ? "two-coin" : (labels.size() == 2 ? "binary" : "k-ary"));
    p.put("categories", labels);
    p.put("truthProbability", m.truthProbability());
    if (options.json()) {
      FrequencyEstimate est = m.estimateFrequency(counts[truth], n, options.beta());
      Map<String, Object> accuracy = new LinkedHashMap<>();
      accuracy.put("category", labels.get(truth));
      accuracy.put("estimatedFrequency", est.estimate());
      accuracy.put("lower", est.interval().lower());
      accuracy.put("upper", est.interval().upper());
      accuracy.put("confidence", est.interval().level());
      accuracy.put("statement", "unbiased estimate, from these " + n + " responses, of the fraction"
          + " of respondents whose true answer is " + labels.get(truth)
          + "; the interval holds with the stated confidence (Hoeffding)");
      p.put("accuracy", accuracy);
    }
    options.print(spec.commandLine().getOut(), "randomized-response", p, values, null,
        m.privacyLoss());
  }
}
