package org.privet.engine.duckdb;

import java.util.List;
import java.util.stream.Collectors;
import org.privet.engine.Filter;
import org.privet.engine.Source;
import org.privet.engine.spi.FilterSql;
import org.privet.engine.spi.TableSchema;

/** Rendering of identifiers, literals, sources and filters as DuckDB SQL text. */
final class SqlText {
  private SqlText() {}

  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  static String string(String s) {
    return '\'' + s.replace("'", "''") + '\'';
  }

  static String dbl(double d) {
    return "CAST(" + string(Double.toString(d)) + " AS DOUBLE)";
  }

  static String from(Source source) {
    if (source instanceof Source.Table t) {
      String[] parts = t.name().split("\\.");
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < parts.length; i++) {
        s.append(i > 0 ? "." : "").append(quote(parts[i]));
      }
      return s.toString();
    } else if (source instanceof Source.CsvFile c) {
      StringBuilder s = new StringBuilder("read_csv(")
          .append(string(c.path().toAbsolutePath().toString()))
          .append(", header = ").append(c.header())
          .append(", delim = ").append(string(c.delimiter()));
      if (!c.columnNames().isEmpty()) {
        s.append(", names = [").append(c.columnNames().stream().map(SqlText::string)
            .collect(Collectors.joining(", "))).append(']');
      }
      if (!c.nullString().isEmpty()) {
        s.append(", nullstr = ").append(string(c.nullString()));
      }
      return s.append(')').toString();
    }
    Source.ParquetFile p = (Source.ParquetFile) source;
    return "read_parquet(" + string(p.path().toAbsolutePath().toString()) + ")";
  }

  /**
   * A statement that reads {@code columns} of every row of {@code source} as text, totally: a CSV
   * is read without sniffing (fixed quote and escape, every column VARCHAR), short rows are padded
   * with NULL and rows that cannot be parsed are skipped; other sources are cast to VARCHAR. The
   * CSV's layout is {@code schema}'s columns, in order.
   */
  static String textScan(Source source, TableSchema schema, List<String> columns) {
    StringBuilder select = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      select.append(i > 0 ? ", " : "").append("CAST(").append(quote(columns.get(i))).append(" AS VARCHAR)");
    }
    select.append(" FROM ");
    if (!(source instanceof Source.CsvFile c)) {
      return select.append(from(source)).toString();
    }
    List<String> names = schema.columns().stream().map(TableSchema.Column::name).toList();
    StringBuilder s = new StringBuilder("read_csv(")
        .append(string(c.path().toAbsolutePath().toString()))
        .append(", auto_detect = false, header = ").append(c.header())
        .append(", delim = ").append(string(c.delimiter()))
        .append(", quote = '\"', escape = '\"', null_padding = true, ignore_errors = true")
        .append(", columns = {")
        .append(names.stream().map(n -> string(n) + ": 'VARCHAR'").collect(Collectors.joining(", ")))
        .append('}');
    if (!c.nullString().isEmpty()) {
      s.append(", nullstr = ").append(string(c.nullString()));
    }
    return select.append(s.append(')')).toString();
  }

  static String describe(Source source) {
    if (source instanceof Source.Table t) {
      return "table '" + t.name() + "'";
    } else if (source instanceof Source.CsvFile c) {
      return "CSV file '" + c.path().getFileName() + "'";
    }
    return "Parquet file '" + ((Source.ParquetFile) source).path().getFileName() + "'";
  }

  /** A literal cast to the column's native type ({@link FilterSql.Dialect#literal}). */
  static String literal(Object v, TableSchema.Column column) {
    return DIALECT.literal(v, column);
  }

  static String filter(Filter f, TableSchema schema) {
    return FilterSql.render(f, schema, DIALECT);
  }

  private static final FilterSql.Dialect DIALECT = new FilterSql.Dialect() {
    @Override
    public String quote(String identifier) {
      return SqlText.quote(identifier);
    }

    @Override
    public String string(String text) {
      return SqlText.string(text);
    }
  };

  static TableSchema.Column column(TableSchema schema, String name) {
    return FilterSql.column(schema, name);
  }
}
