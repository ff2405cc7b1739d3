package org.privet.cli;

import java.nio.file.Path;

/**
 * Where the privet jar lives, to find the files bundled next to it (the demo data). The launcher
 * may run a cached copy of the jar (start-up, see the {@code privet} script); it then names the
 * original in the system property {@code privet.jar}.
 */
public final class JarLocation {
  private JarLocation() {}

  /**
   * The original jar's path: the {@code privet.jar} property if set, else the code source of this
   * class.
   *
   * @throws IllegalStateException if neither can be read
   */
  public static Path path() {
    String launched = System.getProperty("privet.jar");
    if (launched != null && !launched.isEmpty()) {
      return Path.of(launched).toAbsolutePath();
    }
    try {
      return Path.of(JarLocation.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (Exception e) {
      throw new IllegalStateException("cannot locate the privet jar", e);
    }
  }
}
