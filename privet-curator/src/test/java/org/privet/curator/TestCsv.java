package org.privet.curator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small CSV datasets the curator's tests register. */
final class TestCsv {
  private TestCsv() {}

  /**
   * Writes {@code rows} rows {@code id,g,v}: one row per id (0, 1, …), group {@code a} for even ids
   * and {@code b} for odd ones, and value {@code id mod 10}; returns {@code file}.
   */
  static Path idGroupValue(Path file, int rows) throws IOException {
    StringBuilder text = new StringBuilder("id,g,v\n");
    for (int i = 0; i < rows; i++) {
      text.append(i).append(',').append(i % 2 == 0 ? "a" : "b").append(',').append(i % 10).append('\n');
    }
    return Files.writeString(file, text);
  }
}
