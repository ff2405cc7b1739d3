package org.privet.engine.spi;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.privet.engine.PublicSchema;
import org.privet.engine.Source;

/**
 * The structural check every backend makes before reading a CSV file against its public schema
 * ({@link Source.Typed}): the file exists and, when it has a header, its first line names the
 * schema's columns in order. It reads only the first line, which is the file's structure (the same
 * on neighbouring datasets), never a row; its messages quote no file content.
 */
public final class CsvHeader {
  /** A header longer than this is not a header of identifiers. */
  private static final int MAX_HEADER_BYTES = 1 << 20;

  private CsvHeader() {}

  /**
   * Checks the file against the schema.
   *
   * @throws IllegalArgumentException if the file cannot be read or its header does not name the
   *     schema's columns in order (the message names the file and the registered columns only)
   */
  public static void check(Source.CsvFile file, PublicSchema schema) {
    String name = "CSV file '" + file.path().getFileName() + "'";
    if (!file.header()) {
      if (!Files.isReadable(file.path())) {
        throw new IllegalArgumentException("source " + name + " cannot be read (does it exist?)");
      }
      return;
    }
    List<String> fields = names(file);
    if (!fields.equals(schema.names())) {
      throw new IllegalArgumentException("source " + name + ": its header does not name the"
          + " registered columns " + schema.names() + " in order (the file's structure changed"
          + " since registration; the curator must register it again)");
    }
  }

  /**
   * The column names in the header line of a CSV file with a header (fields trimmed, one pair of
   * surrounding double quotes removed).
   *
   * @throws IllegalArgumentException if the file cannot be read (names the file only)
   */
  public static List<String> names(Source.CsvFile file) {
    String line;
    try {
      line = firstLine(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("source CSV file '" + file.path().getFileName()
          + "' cannot be read (does it exist?)");
    }
    List<String> fields = new ArrayList<>();
    for (String f : line.split(Pattern.quote(file.delimiter()), -1)) {
      String t = f.trim();
      if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
        t = t.substring(1, t.length() - 1).replace("\"\"", "\"");
      }
      fields.add(t);
    }
    return fields;
  }

  private static String firstLine(Source.CsvFile file) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file.path()))) {
      int b;
      while ((b = in.read()) >= 0 && b != '\n') {
        if (bytes.size() >= MAX_HEADER_BYTES) {
          break;
        }
        bytes.write(b);
      }
    }
    String line = bytes.toString(StandardCharsets.UTF_8);
    if (line.startsWith("\uFEFF")) {
      line = line.substring(1);
    }
    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
  }
}
