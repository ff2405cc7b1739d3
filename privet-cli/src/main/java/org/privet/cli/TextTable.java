package org.privet.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Rows of text printed as aligned columns or as CSV. */
final class TextTable {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  TextTable(List<String> header) {
    this.header = List.copyOf(header);
  }

  TextTable add(List<String> row) {
    if (row.size() != header.size()) {
      throw new IllegalArgumentException("row has " + row.size() + " cells, header " + header.size());
    }
    rows.add(List.copyOf(row));
    return this;
  }

  void print(PrintWriter out, OutputFormat format) {
    if (format == OutputFormat.CSV) {
      printCsv(out);
    } else {
      printAligned(out);
    }
  }

  void printAligned(PrintWriter out) {
    int[] width = new int[header.size()];
    for (int i = 0; i < width.length; i++) {
      width[i] = header.get(i).length();
      for (List<String> r : rows) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    printAligned(out, header, width);
    StringBuilder rule = new StringBuilder();
    for (int i = 0; i < width.length; i++) {
      rule.append(i == 0 ? "" : "  ").append("-".repeat(width[i]));
    }
    out.println(rule);
    rows.forEach(r -> printAligned(out, r, width));
    out.flush();
  }

  private static void printAligned(PrintWriter out, List<String> cells, int[] width) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      line.append(i == 0 ? "" : "  ").append(c);
      if (i < cells.size() - 1) {
        line.append(" ".repeat(width[i] - c.length()));
      }
    }
    out.println(line);
  }

  void printCsv(PrintWriter out) {
    out.println(csvLine(header));
    rows.forEach(r -> out.println(csvLine(r)));
    out.flush();
  }

  static String csvLine(List<String> cells) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      if (i > 0) {
        line.append(',');
      }
      if (c.contains(",") || c.contains("\"") || c.contains("\n") || c.contains("\r")) {
        line.append('"').append(c.replace("\"", "\"\"")).append('"');
      } else {
        line.append(c);
      }
    }
    return line.toString();
  }
}
