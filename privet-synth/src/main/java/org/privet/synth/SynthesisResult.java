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
 * @param selected the marginals the generator chose to measure, in order (attribute indices)
 */
public record SynthesisResult(Table synthetic, List<PrivacyLoss> events, PrivacyLoss privacyLoss, List<int[]> selected) {
  public SynthesisResult {
    events = List.copyOf(events);
    selected = List.copyOf(selected);
  }
}
