package org.privet.synth;

import java.util.List;
import org.privet.accounting.PrivacyLoss;

/**
 * The output of one synthesis.
 *
 * @param synthetic the synthetic table D′ (same domain as the input)
 * @param events every privacy event of the run, in order (measurements and selections)
 * @param privacyLoss the total cost, equal to {@link Synthesizer#privacyLoss()} and not below the
 *     composition of {@code events}
 * @param selected the marginals the generator chose to measure, in order (attribute indices; for a
 *     RAP query file, a conjunction's attributes)
 * @param receipt one line per privacy event, in the order of {@code events}: what was selected or
 *     measured, with which mechanism and noise, and its cost (DP outputs and public parameters only)
 */
public record SynthesisResult(Table synthetic, List<PrivacyLoss> events, PrivacyLoss privacyLoss, List<int[]> selected,
    List<String> receipt) {
  public SynthesisResult {
    events = List.copyOf(events);
    selected = List.copyOf(selected);
    receipt = List.copyOf(receipt);
    if (receipt.size() != events.size()) {
      throw new IllegalArgumentException("receipt must have one line per event");
    }
  }

  /** A result whose receipt lines name each event's cost only (the generator keeps its own order). */
  public SynthesisResult(Table synthetic, List<PrivacyLoss> events, PrivacyLoss privacyLoss, List<int[]> selected) {
    this(synthetic, events, privacyLoss, selected, events.stream().map(e -> "event: " + e).toList());
  }
}
