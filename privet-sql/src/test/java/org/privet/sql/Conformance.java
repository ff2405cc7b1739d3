package org.privet.sql;

/**
 * The tally behind the dialect conformance figure of docs/sql.md (issue 24): every documented
 * example query a doc-examples test runs is either answered (and then checked against the
 * documented result or semantics: a wrong answer fails the test) or refused (with its line,
 * column and the feature). Conformance is answered / (answered + refused) over both suites.
 */
final class Conformance {
  private int answered;
  private int refused;
  private final String suite;

  Conformance(String suite) {
    this.suite = suite;
  }

  void answered() {
    answered++;
  }

  void refused() {
    refused++;
  }

  int answeredCount() {
    return answered;
  }

  int total() {
    return answered + refused;
  }

  /** The line printed after the suite (docs/sql.md quotes it). */
  String report() {
    return "conformance " + suite + ": " + answered + " of " + total()
        + " documented example queries answered as documented, " + refused + " refused";
  }
}
