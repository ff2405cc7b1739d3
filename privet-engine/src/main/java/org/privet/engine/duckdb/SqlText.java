package org.privet.engine.duckdb;

import java.math.BigDecimal;
import java.time.LocalDate;
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

  static String describe(Source source) {
    if (source instanceof Source.Table t) {
      return "table '" + t.name() + "'";
    } else if (source instanceof Source.CsvFile c) {
      return "CSV file '" + c.path().getFileName() + "'";
    }
    return "Parquet file '" + ((Source.ParquetFile) source).path().getFileName() + "'";
  }

  /** A literal cast to the column's native type. */
  static String literal(Object v, TableSchema.Column column) {
    if (v == null) {
      return "CAST(NULL AS " + column.nativeType() + ")";
    }
    String text;
    if (v instanceof BigDecimal b) {
      text = b.toPlainString();
    } else if (v instanceof LocalDate d) {
      text = d.toString();
    } else {
      text = v.toString();
    }
    return "CAST(" + string(text) + " AS " + column.nativeType() + ")";
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
    public String literal(Object value, TableSchema.Column column) {
      return SqlText.literal(value, column);
    }
  };

  static TableSchema.Column column(TableSchema schema, String name) {
    return FilterSql.column(schema, name);
  }
}
