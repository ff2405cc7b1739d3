package org.privet.synth;

import java.io.IOException;
import java.nio.file.Path;

/** Locates the repository's bundled data (walks up from the working directory). */
final class AdultData {
  private AdultData() {}

  static Path repoRoot() {
    return org.privet.testing.Repository.root();
  }

  static Domain domain() throws IOException {
    return Domain.load(repoRoot().resolve("data/adult-pgm/adult-domain.json"));
  }

  static Table table() throws IOException {
    return Table.read(repoRoot().resolve("data/adult-pgm/adult.csv"), domain());
  }
}
