package org.privet.cli.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A workload file: DP SQL queries separated by semicolons, each given by target errors ({@code
 * max_error}) or planned by weight (neither max_error nor a budget, {@link PublicMagnitude}); a
 * line {@code -- weight: W} before a query makes it W times as important (on a max_error query its
 * targets count as divided by W; on a query planned by weight W weighs its term of the objective,
 * W·r² or W·r). Other {@code --} lines are comments.
 */
record Workload(List<Item> items) {
  /** One query of the workload. */
  record Item(int number, String sql, double weight) {}

  static Workload read(Path file) throws IOException {
    return parse(Files.readString(file));
  }

  static Workload parse(String text) {
    List<Item> items = new ArrayList<>();
    StringBuilder sql = new StringBuilder();
    double weight = 1;
    int lineNo = 0;
    for (String line : text.split("\n", -1)) {
      lineNo++;
      String t = line.strip();
      if (t.startsWith("--")) {
        String c = t.substring(2).strip().toLowerCase(Locale.ROOT);
        if (c.startsWith("weight:")) {
          try {
            weight = Double.parseDouble(c.substring(7).strip());
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("workload line " + lineNo + ": weight must be a"
                + " number");
          }
          if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("workload line " + lineNo + ": weight must be"
                + " positive and finite");
          }
        }
        continue;
      }
      boolean quoted = false;
      for (int i = 0; i < line.length(); i++) {
        char ch = line.charAt(i);
        if (ch == '\'') {
          quoted = !quoted;
        }
        if (ch == ';' && !quoted) {
          add(items, sql, weight);
          weight = 1;
          sql.setLength(0);
        } else {
          sql.append(ch);
        }
      }
      sql.append('\n');
    }
    add(items, sql, weight);
    if (items.isEmpty()) {
      throw new IllegalArgumentException("workload: no queries (separate queries with ';')");
    }
    return new Workload(List.copyOf(items));
  }

  private static void add(List<Item> items, StringBuilder sql, double weight) {
    String s = sql.toString().strip();
    if (!s.isEmpty()) {
      items.add(new Item(items.size() + 1, s, weight));
    }
  }
}
