package org.privet.sql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One query of the shared test corpus ({@code src/test/resources/corpus/{valid,invalid}/*.sql}):
 * leading {@code -- key: value} lines hold the expectations, the rest is the SQL handed to the
 * parser (positions are counted from its first line). Other leading comment lines are ignored.
 */
record CorpusFile(String name, Map<String, String> expect, String sql) {

  static Stream<CorpusFile> all(String kind) {
    URL dir = CorpusFile.class.getClassLoader().getResource("corpus/" + kind);
    if (dir == null) {
      throw new IllegalStateException("corpus/" + kind + " not on the test classpath");
    }
    try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
      List<Path> sorted = files.filter(p -> p.toString().endsWith(".sql")).sorted().toList();
      return sorted.stream().map(CorpusFile::read);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static CorpusFile read(Path p) {
    try {
      List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
      Map<String, String> expect = new LinkedHashMap<>();
      int i = 0;
      while (i < lines.size() && lines.get(i).startsWith("-- ")) {
        String line = lines.get(i++).substring(3);
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).matches("[a-z_]+")) {
          expect.put(line.substring(0, colon), line.substring(colon + 1).trim());
        }
      }
      return new CorpusFile(p.getFileName().toString(), expect,
          String.join("\n", lines.subList(i, lines.size())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
