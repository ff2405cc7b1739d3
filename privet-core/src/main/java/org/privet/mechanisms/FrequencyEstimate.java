package org.privet.mechanisms;

/**
 * An unbiased estimate of a true frequency (a fraction in [0, 1]) recovered from randomized
 * responses, with a confidence interval for it.
 *
 * @param estimate the unbiased estimate (may fall outside [0, 1]; it is not clipped, so that
 *     averages of estimates stay unbiased)
 * @param interval a confidence interval for the true frequency, clipped to [0, 1]
 */
public record FrequencyEstimate(double estimate, ConfidenceInterval interval) {}
