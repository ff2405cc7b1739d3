package org.privet.anonymity;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A generalized (coarsened, partly redacted) table: quasi-identifier cells as {@link
 * Generalization}s, the sensitive column unchanged, suppressed rows removed and counted.
 *
 * <p><b>Not a privacy mechanism.</b> A generalized table has no formal privacy guarantee: its
 * "protection" depends on what else the reader knows (see the attacks in {@code
 * org.privet.anonymity.attacks}). The arrays are shared, not copied (rows of one class share one
 * cell array): treat them as read-only.
 *
 * @param quasiIdentifiers the quasi-identifier names, in column order
 * @param numeric for each quasi-identifier, whether it is numeric
 * @param cells released rows × quasi-identifiers
 * @param sensitive the sensitive column of the released rows, if any
 * @param sourceRows for each released row, its row in the input (the curator's key; never written)
 * @param suppressed rows of the input that were suppressed (not released)
 * @param method a one-line description of how the table was made (written in the header comment)
 */
public record GeneralizedTable(List<String> quasiIdentifiers, boolean[] numeric, Generalization[][] cells,
    Optional<Microdata.Column> sensitive, int[] sourceRows, int suppressed, String method) {

  public GeneralizedTable {
    quasiIdentifiers = List.copyOf(quasiIdentifiers);
    Objects.requireNonNull(cells, "cells");
    Objects.requireNonNull(sensitive, "sensitive");
    Objects.requireNonNull(method, "method");
    if (numeric.length != quasiIdentifiers.size() || sourceRows.length != cells.length || suppressed < 0) {
      throw new IllegalArgumentException("generalized table: inconsistent shape");
    }
  }

  public int rows() {
    return cells.length;
  }

  /** Rows of the input: released plus suppressed. */
  public int inputRows() {
    return cells.length + suppressed;
  }

  /**
   * The equivalence classes: released rows with the same generalized quasi-identifiers, in order of
   * first appearance. Each element holds the row indices of one class.
   */
  public List<int[]> classes() {
    Map<List<String>, List<Integer>> byKey = new LinkedHashMap<>();
    for (int r = 0; r < cells.length; r++) {
      List<String> key = new ArrayList<>(cells[r].length);
      for (Generalization g : cells[r]) {
        key.add(g.text());
      }
      byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }
    List<int[]> out = new ArrayList<>(byKey.size());
    for (List<Integer> rows : byKey.values()) {
      out.add(rows.stream().mapToInt(Integer::intValue).toArray());
    }
    return out;
  }

  /** For each released row, the index of its class in {@link #classes()}. */
  public int[] classOfRow() {
    int[] out = new int[cells.length];
    List<int[]> cls = classes();
    for (int c = 0; c < cls.size(); c++) {
      for (int r : cls.get(c)) {
        out[r] = c;
      }
    }
    return out;
  }

  /**
   * Reads raw or already generalized data: every quasi-identifier cell is parsed with {@link
   * Generalization#parse} (plain values are points). Nothing is suppressed.
   */
  public static GeneralizedTable fromMicrodata(Microdata data, List<String> quasiIdentifiers,
      String sensitiveColumn) {
    boolean[] numeric = new boolean[quasiIdentifiers.size()];
    Generalization[][] cells = new Generalization[data.rows()][quasiIdentifiers.size()];
    Map<String, Generalization> cache = new HashMap<>();
    for (int q = 0; q < quasiIdentifiers.size(); q++) {
      Microdata.Column c = data.column("--quasi-identifiers", quasiIdentifiers.get(q));
      numeric[q] = c.numeric() || looksNumeric(c);
      for (int r = 0; r < data.rows(); r++) {
        if (c.numeric()) {
          cells[r][q] = new Generalization.Point(c.text(r), c.numbers()[r]);
        } else {
          final boolean num = numeric[q];
          cells[r][q] = cache.computeIfAbsent((num ? "n" : "c") + c.labels()[r],
              t -> Generalization.parse(t.substring(1), num, c.name()));
        }
      }
    }
    int[] rows = new int[data.rows()];
    java.util.Arrays.setAll(rows, i -> i);
    Optional<Microdata.Column> s = sensitiveColumn == null ? Optional.empty()
        : Optional.of(data.column("--sensitive", sensitiveColumn));
    return new GeneralizedTable(quasiIdentifiers, numeric, cells, s, rows, 0, "as read");
  }

  /** A text column whose cells are all numbers, numeric ranges or "*" (a generalized numeric column). */
  private static boolean looksNumeric(Microdata.Column c) {
    boolean sawRange = false;
    for (String l : c.labels()) {
      if (l.equals("*")) {
        continue;
      }
      if (l.startsWith("[") && l.contains("..")) {
        sawRange = true;
        continue;
      }
      try {
        Double.parseDouble(l);
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return sawRange;
  }

  /**
   * Writes the table as CSV: a header comment (lines starting with {@code #}) that states this is
   * NOT a differential-privacy release and how to read the cells, then a header row and one row
   * per released record.
   */
  public void writeCsv(Writer out) throws IOException {
    out.write("# NOT A DIFFERENTIAL PRIVACY RELEASE. This table was anonymized by generalization and\n");
    out.write("# suppression (" + method + "). It has NO formal privacy guarantee: people can be\n");
    out.write("# re-identified or have their sensitive values learned by linkage, homogeneity or\n");
    out.write("# background-knowledge attacks (see `privet attack --help`). No privacy budget was charged.\n");
    out.write("# Cells: a plain value is unchanged; [a..b] is a closed interval, [a..b) has an open upper end;\n");
    out.write("# {x|y} is one of the listed values; * is any value (redacted).\n");
    out.write("# Rows suppressed (not released): " + suppressed + " of " + inputRows() + ".\n");
    List<String> header = new ArrayList<>(quasiIdentifiers);
    sensitive.ifPresent(s -> header.add(s.name()));
    out.write(String.join(",", header.stream().map(GeneralizedTable::csv).toList()));
    out.write('\n');
    for (int r = 0; r < cells.length; r++) {
      StringBuilder line = new StringBuilder();
      for (int q = 0; q < cells[r].length; q++) {
        line.append(q > 0 ? "," : "").append(csv(cells[r][q].text()));
      }
      if (sensitive.isPresent()) {
        line.append(',').append(csv(sensitive.get().text(sourceRows[r])));
      }
      out.write(line.append('\n').toString());
    }
  }

  private static String csv(String s) {
    if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
      return '"' + s.replace("\"", "\"\"") + '"';
    }
    return s;
  }
}
