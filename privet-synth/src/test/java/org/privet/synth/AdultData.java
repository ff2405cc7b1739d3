package org.privet.synth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository's bundled data (walks up from the working directory). */
final class AdultData {
  private AdultData() {}

  static Path repoRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("data/adult-raw"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("repository root with data/adult-raw not found");
    }
    return p;
  }

  static Domain domain() throws IOException {
    return Domain.load(repoRoot().resolve("data/adult-pgm/adult-domain.json"));
  }

  static Table table() throws IOException {
    return Table.read(repoRoot().resolve("data/adult-pgm/adult.csv"), domain());
  }
}
