package org.privet.anonymity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * User-given generalization hierarchies for full-domain generalization, one line per value:
 * {@code COLUMN;value;level1;level2;...} (e.g. {@code native_country;France;Europe;*}). Every value
 * of a column must list the same number of levels; the last is usually {@code *}. Lines starting
 * with {@code #} and blank lines are ignored. Immutable.
 */
public final class Hierarchies {
  private final Map<String, Map<String, List<String>>> byColumn;

  private Hierarchies(Map<String, Map<String, List<String>>> byColumn) {
    this.byColumn = byColumn;
  }

  /** No hierarchies: categorical columns generalize in one step to {@code *}. */
  public static Hierarchies none() {
    return new Hierarchies(Map.of());
  }

  /** Parses hierarchy lines (see the class comment). @throws IllegalArgumentException naming the line */
  public static Hierarchies parse(List<String> lines) {
    Map<String, Map<String, List<String>>> out = new LinkedHashMap<>();
    Map<String, Integer> heights = new HashMap<>();
    int number = 0;
    for (String line : lines) {
      number++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.split(";", -1);
      if (parts.length < 3) {
        throw new IllegalArgumentException("--hierarchies: line " + number
            + " needs COLUMN;value;level1[;level2...]");
      }
      String column = parts[0].strip();
      List<String> levels = Arrays.stream(parts).skip(1).map(String::strip).toList();
      Integer h = heights.putIfAbsent(column, levels.size());
      if (h != null && h != levels.size()) {
        throw new IllegalArgumentException("--hierarchies: line " + number + " has another number of levels"
            + " than the earlier lines of column '" + column + "'");
      }
      if (out.computeIfAbsent(column, c -> new HashMap<>()).put(levels.get(0), levels) != null) {
        throw new IllegalArgumentException("--hierarchies: line " + number + " repeats a value of column '"
            + column + "'");
      }
    }
    return new Hierarchies(out);
  }

  public static Hierarchies read(Path file) throws IOException {
    return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
  }

  /** The value → levels map of a column (levels[0] is the value itself), if given. */
  public Optional<Map<String, List<String>>> of(String column) {
    return Optional.ofNullable(byColumn.get(column));
  }
}
