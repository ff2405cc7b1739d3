package org.privet.synth;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An immutable table coded against a {@link Domain}: column {@code a}, row {@code i} holds a code in
 * {@code [0, domain.cardinality(a))}.
 *
 * <p>Reading checks every value against the declared domain; errors name the column and line but
 * never the offending value, which is private.
 */
public final class Table {
  private final Domain domain;
  private final int[][] columns;
  private final int rows;

  private Table(Domain domain, int[][] columns, int rows) {
    this.domain = domain;
    this.columns = columns;
    this.rows = rows;
  }

  /**
   * A table from coded columns (copied). Every code must lie in its attribute's range.
   *
   * @throws IllegalArgumentException if the shape or a code does not fit the domain
   */
  public static Table of(Domain domain, int[][] columns) {
    Objects.requireNonNull(domain, "domain");
    if (columns.length != domain.size()) {
      throw new IllegalArgumentException("columns: expected " + domain.size() + " columns, got " + columns.length);
    }
    int rows = columns[0].length;
    int[][] copy = new int[columns.length][];
    for (int a = 0; a < columns.length; a++) {
      if (columns[a].length != rows) {
        throw new IllegalArgumentException("columns: column '" + domain.attribute(a).name() + "' has a different length");
      }
      for (int code : columns[a]) {
        if (code < 0 || code >= domain.cardinality(a)) {
          throw new IllegalArgumentException(
              "columns: column '" + domain.attribute(a).name() + "' holds a value outside the declared domain");
        }
      }
      copy[a] = columns[a].clone();
    }
    return new Table(domain, copy, rows);
  }

  /** Wraps columns already validated by the caller (package-internal, no copy). */
  static Table trusted(Domain domain, int[][] columns) {
    return new Table(domain, columns, columns.length == 0 ? 0 : columns[0].length);
  }

  /**
   * Reads a CSV file through a declared domain.
   *
   * @throws IllegalArgumentException if the file is empty, lacks a declared column, or holds a value
   *     outside the domain (the message names the column and line, never the value)
   * @throws IOException if the file cannot be read
   */
  public static Table read(Path file, Domain domain) throws IOException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(domain, "domain");
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      List<String> fileColumns;
      int lineNo = 0;
      if (domain.hasHeader()) {
        String head = in.readLine();
        lineNo++;
        if (head == null || head.isBlank()) {
          throw new IllegalArgumentException("table is empty: " + file.getFileName() + " has no header row");
        }
        fileColumns = new ArrayList<>();
        for (String c : split(head)) {
          fileColumns.add(c.strip());
        }
      } else {
        fileColumns = domain.fileColumns();
      }
      int d = domain.size();
      int[] position = new int[d];
      for (int a = 0; a < d; a++) {
        position[a] = fileColumns.indexOf(domain.attribute(a).name());
        if (position[a] < 0) {
          throw new IllegalArgumentException(
              "column '" + domain.attribute(a).name() + "' of the domain is missing from " + file.getFileName());
        }
      }
      int[][] cols = new int[d][1024];
      int rows = 0;
      String line;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        String[] cells = split(line);
        if (cells.length != fileColumns.size()) {
          throw new IllegalArgumentException(
              file.getFileName() + " line " + lineNo + ": expected " + fileColumns.size() + " fields, got " + cells.length);
        }
        if (rows == cols[0].length) {
          for (int a = 0; a < d; a++) {
            cols[a] = Arrays.copyOf(cols[a], rows * 2);
          }
        }
        for (int a = 0; a < d; a++) {
          int code = domain.attribute(a).encode(cells[position[a]]);
          if (code < 0) {
            throw new IllegalArgumentException(file.getFileName() + " line " + lineNo + ": column '"
                + domain.attribute(a).name() + "' holds a value outside the declared domain");
          }
          cols[a][rows] = code;
        }
        rows++;
      }
      if (rows == 0) {
        throw new IllegalArgumentException("table is empty: " + file.getFileName() + " has no data rows");
      }
      for (int a = 0; a < d; a++) {
        cols[a] = Arrays.copyOf(cols[a], rows);
      }
      return new Table(domain, cols, rows);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("file not found: " + file);
    }
  }

  /**
   * A total encoder for rows read after a charge (a registered dataset): every row, including
   * malformed ones, becomes one row of codes by {@link Attribute#encodeTotal}, and nothing is ever
   * refused or reported, so the analyst observes the same thing whatever the values are. An empty
   * table is a valid result. Rule and argument: docs/proofs/synthetic-data.md.
   */
  public static RowEncoder encoder(Domain domain) {
    return new RowEncoder(Objects.requireNonNull(domain, "domain"));
  }

  /**
   * Accumulates text rows whose values are in the domain's attribute order ({@code null} for a
   * missing value). Not thread-safe.
   */
  public static final class RowEncoder implements java.util.function.Consumer<String[]> {
    private final Domain domain;
    private int[][] cols;
    private int rows;

    private RowEncoder(Domain domain) {
      this.domain = domain;
      this.cols = new int[domain.size()][1024];
    }

    /** Codes one row; a row shorter than the domain is padded with missing values. */
    @Override
    public void accept(String[] values) {
      if (rows == cols[0].length) {
        int grown = rows > Integer.MAX_VALUE / 2 - 16 ? Integer.MAX_VALUE - 8 : rows * 2;
        for (int a = 0; a < cols.length; a++) {
          cols[a] = Arrays.copyOf(cols[a], grown);
        }
      }
      for (int a = 0; a < cols.length; a++) {
        cols[a][rows] = domain.attribute(a).encodeTotal(a < values.length ? values[a] : null);
      }
      rows++;
    }

    /** The table of every row accepted so far. */
    public Table build() {
      int[][] out = new int[cols.length][];
      for (int a = 0; a < cols.length; a++) {
        out[a] = Arrays.copyOf(cols[a], rows);
      }
      return new Table(domain, out, rows);
    }
  }

  /** Splits one CSV line on commas, honouring double quotes. */
  static String[] split(String line) {
    if (line.indexOf('"') < 0) {
      return line.split(",", -1);
    }
    var out = new ArrayList<String>();
    var cur = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        if (quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cur.append('"');
          i++;
        } else {
          quoted = !quoted;
        }
      } else if (c == ',' && !quoted) {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString());
    return out.toArray(String[]::new);
  }

  /** Writes the table as CSV with a header row, decoding codes to the domain's values. */
  public void write(Path file) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      write(out);
    }
  }

  /** Writes the table as CSV with a header row to an open writer. */
  public void write(java.io.Writer out) throws IOException {
    int d = domain.size();
    var sb = new StringBuilder();
    for (int a = 0; a < d; a++) {
      sb.append(a == 0 ? "" : ",").append(quote(domain.attribute(a).name()));
    }
    out.write(sb.append('\n').toString());
    String[][] text = new String[d][];
    for (int a = 0; a < d; a++) {
      text[a] = new String[domain.cardinality(a)];
      for (int c = 0; c < text[a].length; c++) {
        text[a][c] = quote(domain.attribute(a).decode(c));
      }
    }
    for (int i = 0; i < rows; i++) {
      sb.setLength(0);
      for (int a = 0; a < d; a++) {
        sb.append(a == 0 ? "" : ",").append(text[a][columns[a][i]]);
      }
      out.write(sb.append('\n').toString());
    }
  }

  private static String quote(String s) {
    return s.indexOf(',') >= 0 || s.indexOf('"') >= 0 ? '"' + s.replace("\"", "\"\"") + '"' : s;
  }

  public Domain domain() {
    return domain;
  }

  public int rows() {
    return rows;
  }

  /** The code in row {@code row} of attribute {@code attr}. */
  public int get(int row, int attr) {
    return columns[attr][row];
  }

  /** The columns, shared (package-internal; callers never write to them). */
  int[][] columnsShared() {
    return columns;
  }

  /** A copy of attribute {@code attr}'s column. */
  public int[] column(int attr) {
    return columns[attr].clone();
  }

  /**
   * The marginal over the given attributes (sorted ascending, distinct): counts in row-major order,
   * the last attribute varying fastest.
   */
  public double[] marginal(int[] attrs) {
    long cells = domain.cells(attrs);
    if (cells > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("attrs: marginal over " + domain.names(attrs) + " is too large");
    }
    double[] counts = new double[(int) cells];
    int k = attrs.length;
    int[] stride = new int[k];
    int s = 1;
    for (int j = k - 1; j >= 0; j--) {
      stride[j] = s;
      s *= domain.cardinality(attrs[j]);
    }
    for (int i = 0; i < rows; i++) {
      int idx = 0;
      for (int j = 0; j < k; j++) {
        idx += columns[attrs[j]][i] * stride[j];
      }
      counts[idx]++;
    }
    return counts;
  }

  /** The same rows restricted to a subset of attributes, in the given (ascending) order. */
  public Table select(int[] attrs) {
    var list = new ArrayList<Attribute>();
    int[][] cols = new int[attrs.length][];
    for (int j = 0; j < attrs.length; j++) {
      list.add(domain.attribute(attrs[j]));
      cols[j] = columns[attrs[j]];
    }
    return new Table(Domain.of(list), cols, rows);
  }
}
