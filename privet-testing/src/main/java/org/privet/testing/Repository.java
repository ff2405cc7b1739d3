package org.privet.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** The checked-out repository a test runs in, for its bundled data and documents. */
public final class Repository {
  private Repository() {}

  /**
   * The repository root: the nearest ancestor of the working directory holding
   * {@code data/adult-raw} (Maven runs each module's tests in the module's folder).
   *
   * @throws IllegalStateException if there is none
   */
  public static Path root() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("data/adult-raw"))) {
        return p;
      }
    }
    throw new IllegalStateException("no data/adult-raw above " + Path.of("").toAbsolutePath());
  }
}
