package org.privet.anonymity;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.TableSchema;

/**
 * Reads a CSV or Parquet source (a file, or a directory of Parquet part files) through DuckDB, like every other Privet source: the same {@link
 * Source} values, the same DuckDB type inference. Numeric DuckDB types become numeric columns;
 * everything else is categorical text.
 *
 * <p>This is the curator's trusted read for anonymization (no privacy protection): it must never
 * serve an analyst.
 */
public final class TableReader {
  private TableReader() {}

  /**
   * Reads the named columns (all columns when {@code columns} is empty).
   *
   * @param parameter the option that named the columns, for error messages
   * @throws IllegalArgumentException if a column is missing or a numeric column holds a NULL
   */
  public static Microdata read(Source source, List<String> columns, String parameter) {
    if (source instanceof Source.Table) {
      throw new IllegalArgumentException("source: anonymization reads CSV or Parquet files");
    }
    try (DuckDbBackend backend = DuckDbBackend.inMemory()) {
      TableSchema schema = backend.describe(source);
      List<TableSchema.Column> chosen = new ArrayList<>();
      if (columns.isEmpty()) {
        chosen.addAll(schema.columns());
      } else {
        for (String c : columns) {
          chosen.add(schema.column(c).orElseThrow(() -> new IllegalArgumentException(parameter
              + ": no column named '" + c + "' (columns: "
              + schema.columns().stream().map(TableSchema.Column::name).collect(Collectors.joining(", ")) + ")")));
        }
      }
      String select = chosen.stream().map(c -> quote(c.name())).collect(Collectors.joining(", "));
      List<List<Object>> cells = new ArrayList<>();
      for (int i = 0; i < chosen.size(); i++) {
        cells.add(new ArrayList<>());
      }
      Connection conn = backend.trustedConnection();
      try (Statement st = conn.createStatement();
          ResultSet rs = st.executeQuery("SELECT " + select + " FROM " + from(source))) {
        while (rs.next()) {
          for (int i = 0; i < chosen.size(); i++) {
            cells.get(i).add(chosen.get(i).type().isNumeric() ? rs.getObject(i + 1) : rs.getString(i + 1));
          }
        }
      } catch (SQLException e) {
        throw new IllegalArgumentException("cannot read the source (SQL state " + e.getSQLState() + ")");
      }
      List<Microdata.Column> out = new ArrayList<>();
      for (int i = 0; i < chosen.size(); i++) {
        TableSchema.Column c = chosen.get(i);
        List<Object> v = cells.get(i);
        if (c.type().isNumeric()) {
          double[] d = new double[v.size()];
          for (int r = 0; r < d.length; r++) {
            if (v.get(r) == null) {
              throw new IllegalArgumentException(parameter + ": numeric column '" + c.name()
                  + "' has missing values; drop or impute them first");
            }
            d[r] = ((Number) v.get(r)).doubleValue();
          }
          out.add(Microdata.Column.numeric(c.name(), d));
        } else {
          out.add(Microdata.Column.categorical(c.name(), v.toArray(new String[0])));
        }
      }
      return Microdata.of(out);
    }
  }

  /**
   * DuckDB's table function for a file source: for a CSV file the reader options the engine uses
   * plus skipping the leading {@code #} comment lines that our own generalized CSVs carry; for a
   * Parquet file or directory of part files the engine's own rendering ({@link
   * DuckDbBackend#tableExpression}).
   */
  static String from(Source source) {
    if (source instanceof Source.CsvFile c) {
      StringBuilder s = new StringBuilder("read_csv(").append(string(c.path().toAbsolutePath().toString()))
          .append(", header = ").append(c.header()).append(", delim = ").append(string(c.delimiter()));
      if (!c.columnNames().isEmpty()) {
        s.append(", names = [").append(c.columnNames().stream().map(TableReader::string)
            .collect(Collectors.joining(", "))).append(']');
      }
      if (!c.nullString().isEmpty()) {
        s.append(", nullstr = ").append(string(c.nullString()));
      }
      int comments = leadingCommentLines(c.path());
      if (comments > 0) {
        s.append(", skip = ").append(comments);
      }
      return s.append(')').toString();
    }
    return DuckDbBackend.tableExpression(source);
  }

  /**
   * The number of lines starting with {@code #} at the top of a CSV file: the header comment of a
   * {@link GeneralizedTable#writeCsv generalized table}, skipped when it is read back.
   */
  static int leadingCommentLines(java.nio.file.Path file) {
    try (java.io.BufferedReader r = java.nio.file.Files.newBufferedReader(file, java.nio.charset.StandardCharsets.UTF_8)) {
      int n = 0;
      for (String line = r.readLine(); line != null && line.startsWith("#"); line = r.readLine()) {
        n++;
      }
      return n;
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      return 0; // DuckDB reports the unreadable file
    }
  }

  private static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  private static String string(String s) {
    return '\'' + s.replace("'", "''") + '\'';
  }
}
