package org.privet.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The CLI tests' small visits table: 400 rows of 200 users, two cities, minutes 0 to 59. */
public final class VisitsCsv {
  private VisitsCsv() {}

  /**
   * Writes {@code user_id,city,minutes} rows i = 0..399: user i mod 200, Oslo when i mod 3 = 0
   * else Lima, minutes i mod 60; returns {@code file}.
   */
  public static Path write(Path file) throws IOException {
    StringBuilder rows = new StringBuilder("user_id,city,minutes\n");
    for (int i = 0; i < 400; i++) {
      rows.append(i % 200).append(',').append(i % 3 == 0 ? "Oslo" : "Lima").append(',').append(i % 60).append('\n');
    }
    return Files.writeString(file, rows);
  }
}
