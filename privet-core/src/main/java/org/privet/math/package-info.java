/**
 * Numerical functions shared by the mechanisms and the accountants (the normal distribution's
 * tails). Not a privacy surface: callers that certify a guarantee with these values add their own
 * margins for floating-point error.
 */
package org.privet.math;
