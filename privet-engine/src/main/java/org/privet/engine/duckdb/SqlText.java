package org.privet.engine.duckdb;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.privet.engine.PublicSchema;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
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

  /**
   * {@link #from(Source)}, where a plan is rendered with only the output columns {@code read}
   * ({@link org.privet.engine.plan.RelationSql#render(org.privet.engine.plan.Relation,
   * org.privet.engine.spi.SqlDialect, java.util.function.Function, java.util.Set)}).
   */
  static String from(Source source, java.util.Set<String> read) {
    return from(source, read, org.privet.engine.plan.RelationSql.KeyFacts.NONE);
  }

  /** {@link #from(Source, java.util.Set)} with what the database guarantees about its tables. */
  static String from(Source source, java.util.Set<String> read,
      org.privet.engine.plan.RelationSql.KeyFacts facts) {
    if (source instanceof Source.Relational r) {
      return org.privet.engine.plan.RelationSql.render(r.relation(), DuckDbDialect.FAST, SqlText::from,
          read, facts);
    }
    return from(source);
  }

  static String from(Source source) {
    if (source instanceof Source.Relational r) {
      return org.privet.engine.plan.RelationSql.render(r.relation(), DuckDbDialect.FAST, SqlText::from);
    }
    if (source instanceof Source.Typed t) {
      return typed(t);
    } else if (source instanceof Source.Table t) {
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
    if (p.isDirectory()) {
      // A directory of part files (Spark's layout): the files listed, not a glob, so that no
      // character of the path is read as a pattern; by name, so that a part file written later
      // without a column reads it as NULL rather than failing the scan (the curator checks at
      // registration that all parts have the same columns).
      return "read_parquet([" + p.partFiles().stream()
          .map(f -> string(f.toAbsolutePath().toString())).collect(Collectors.joining(", "))
          + "], union_by_name = true)";
    }
    return "read_parquet(" + string(p.path().toAbsolutePath().toString()) + ")";
  }

  /**
   * A typed source ({@link Source.Typed}, whose Javadoc states the per-row rule) as a subquery:
   * CSV text read by {@link #textCsv}, then each column converted by a TRY_CAST, so that no value
   * can make the read fail.
   */
  private static String typed(Source.Typed t) {
    List<String> cols = new ArrayList<>();
    boolean text = t.file() instanceof Source.CsvFile;
    for (PublicSchema.Column c : t.schema().columns()) {
      String v = quote(c.name());
      String conv;
      if (text && c.type() == ColumnType.INTEGER) {
        conv = "CASE WHEN regexp_full_match(trim(" + v + "), '[+-]?[0-9]+') THEN TRY_CAST(trim("
            + v + ") AS BIGINT) END";
      } else if (text && c.type() != ColumnType.STRING) {
        conv = "TRY_CAST(trim(" + v + ") AS " + DuckDbBackend.nativeType(c.type()) + ")";
      } else {
        conv = "TRY_CAST(" + v + " AS " + DuckDbBackend.nativeType(c.type()) + ")";
      }
      cols.add(conv + " AS " + v);
    }
    String base = t.file() instanceof Source.CsvFile c ? textCsv(c, t.schema().names()) : from(t.file());
    return "(SELECT " + String.join(", ", cols) + " FROM " + base + ")";
  }

  /**
   * A CSV file read as text, totally: no sniffing (fixed quote and escape, every column VARCHAR,
   * named {@code names} in order), a short row padded with NULLs, a row that cannot be parsed
   * (more fields than {@code names}, an unterminated quote) skipped.
   */
  private static String textCsv(Source.CsvFile c, List<String> names) {
    StringBuilder s = new StringBuilder("read_csv(")
        .append(string(c.path().toAbsolutePath().toString()))
        .append(", auto_detect = false, header = ").append(c.header())
        .append(", delim = ").append(string(c.delimiter()))
        .append(", quote = '\"', escape = '\"', null_padding = true, ignore_errors = true")
        // DuckDB's parallel scanner refuses null_padding once a quoted field holds a line break:
        // an error that a value would decide, so the scan is sequential.
        .append(", parallel = false")
        .append(", columns = {")
        .append(names.stream().map(n -> string(n) + ": 'VARCHAR'").collect(Collectors.joining(", ")))
        .append('}');
    if (!c.nullString().isEmpty()) {
      s.append(", nullstr = ").append(string(c.nullString()));
    }
    return s.append(')').toString();
  }

  /**
   * A statement that reads {@code columns} of every row of {@code source} as text, totally: a CSV
   * is read by {@link #textCsv}; other sources are cast to VARCHAR. The CSV's layout is {@code
   * schema}'s columns, in order.
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
    return select.append(textCsv(c, schema.columns().stream().map(TableSchema.Column::name).toList()))
        .toString();
  }

  static String describe(Source source) {
    if (source instanceof Source.Relational) {
      return "joined tables";
    }
    if (source instanceof Source.Typed t) {
      return describe(t.file());
    } else if (source instanceof Source.Table t) {
      return "table '" + t.name() + "'";
    } else if (source instanceof Source.CsvFile c) {
      return "CSV file '" + c.path().getFileName() + "'";
    }
    Source.ParquetFile p = (Source.ParquetFile) source;
    return (p.isDirectory() ? "Parquet directory '" : "Parquet file '") + p.path().getFileName()
        + "'";
  }
}
