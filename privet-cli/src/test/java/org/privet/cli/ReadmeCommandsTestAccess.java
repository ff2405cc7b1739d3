package org.privet.cli;

import java.util.List;

/** Lets tests of other packages read README sections the way {@link ReadmeCommandsTest} does. */
public final class ReadmeCommandsTestAccess {
  private ReadmeCommandsTestAccess() {}

  public static List<List<String>> privetCommands(String markdown) {
    return ReadmeCommandsTest.privetCommands(markdown);
  }
}
