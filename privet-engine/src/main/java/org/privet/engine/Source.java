package org.privet.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where a query reads its rows: a table registered with the backend, or a CSV or Parquet file.
 *
 * <p>Immutable. Validation of names happens here; whether the table or file exists is checked by
 * the backend when the query is compiled.
 */
public sealed interface Source
    permits Source.Table, Source.CsvFile, Source.ParquetFile, Source.Typed, Source.Relational {

  /** A table already known to the backend (e.g. registered from a Java collection). */
  static Table table(String name) {
    return new Table(name);
  }

  /** A CSV file with a header row, comma separated. */
  static CsvFile csv(Path path) {
    return new CsvFile(path, true, ",", List.of(), "");
  }

  /** A Parquet file, or a directory of Parquet part files ({@link ParquetFile}). */
  static ParquetFile parquet(Path path) {
    return new ParquetFile(path);
  }

  /**
   * {@code file} read against the public schema the curator fixed at registration (see {@link
   * Typed}).
   */
  static Typed typed(Source file, PublicSchema schema) {
    return new Typed(file, schema);
  }

  /** A table known to the backend by name. */
  record Table(String name) implements Source {
    public Table {
      Names.requireIdentifier("table", name);
    }
  }

  /**
   * A CSV file.
   *
   * @param path the file
   * @param header whether the first line holds column names
   * @param delimiter the field separator (1 to 4 characters)
   * @param columnNames column names to use (required when there is no header; empty = from header)
   * @param nullString the text that stands for a missing value (e.g. "?"); empty = none besides an
   *     empty field
   */
  record CsvFile(Path path, boolean header, String delimiter, List<String> columnNames,
      String nullString) implements Source {
    public CsvFile {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(delimiter, "delimiter");
      Objects.requireNonNull(nullString, "nullString");
      if (delimiter.isEmpty() || delimiter.length() > 4) {
        throw new IllegalArgumentException("delimiter must have 1 to 4 characters");
      }
      columnNames = List.copyOf(columnNames);
      columnNames.forEach(c -> Names.requireIdentifier("columnNames", c));
      if (!header && columnNames.isEmpty()) {
        throw new IllegalArgumentException("columnNames are required when the CSV has no header");
      }
    }

    /** Returns a copy that reads the file without a header, naming its columns. */
    public CsvFile withoutHeader(List<String> names) {
      return new CsvFile(path, false, delimiter, names, nullString);
    }

    /** Returns a copy with another field separator. */
    public CsvFile withDelimiter(String newDelimiter) {
      return new CsvFile(path, header, newDelimiter, columnNames, nullString);
    }

    /** Returns a copy that reads {@code text} as a missing value. */
    public CsvFile withNullString(String text) {
      return new CsvFile(path, header, delimiter, columnNames, text);
    }
  }

  /**
   * A Parquet file, or a directory of Parquet part files as Spark writes it (or DuckDB's {@code
   * COPY ... (FORMAT PARQUET, PER_THREAD_OUTPUT)}): the rows of its {@link #partFiles()}, which
   * must all have the same columns (the curator checks that at registration). DuckDB and Spark
   * both read exactly this list of part files, so a file dropped beside them later is skipped by
   * both.
   */
  record ParquetFile(Path path) implements Source {
    public ParquetFile {
      Objects.requireNonNull(path, "path");
    }

    /** Whether {@link #path} is a directory of part files (else one Parquet file). */
    public boolean isDirectory() {
      return java.nio.file.Files.isDirectory(path);
    }

    /**
     * The files read: the file itself, or for a directory every regular file directly in it whose
     * name ends in {@code .parquet} and does not start with {@code _} or {@code .} (Spark's
     * {@code _SUCCESS} and {@code .crc} files, which Spark's reader skips too), by name.
     *
     * @throws IllegalArgumentException if the directory cannot be listed or holds no part file
     *     (naming the directory, never a value)
     */
    public List<Path> partFiles() {
      if (!isDirectory()) {
        return List.of(path);
      }
      try (java.util.stream.Stream<Path> entries = java.nio.file.Files.list(path)) {
        List<Path> parts = entries.filter(ParquetFile::isPartFile).sorted().toList();
        if (parts.isEmpty()) {
          throw new IllegalArgumentException("Parquet directory '" + path.getFileName()
              + "' holds no part file (*.parquet)");
        }
        return parts;
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException("Parquet directory '" + path.getFileName()
            + "' cannot be listed");
      }
    }

    /** A part file of a directory: a regular *.parquet file not starting with _ or . */
    public static boolean isPartFile(Path entry) {
      String name = entry.getFileName().toString();
      return !name.startsWith("_") && !name.startsWith(".")
          && name.toLowerCase(java.util.Locale.ROOT).endsWith(".parquet")
          && java.nio.file.Files.isRegularFile(entry);
    }
  }

  /**
   * A source read against a fixed {@link PublicSchema}, so that nothing about the rows decides the
   * columns, their types, or whether reading fails. Backends render it by a total per-row rule:
   *
   * <ul>
   *   <li>The result has exactly the schema's columns, with exactly its types; the backend's
   *       {@code describe} returns them without reading any row.
   *   <li>A CSV file is read as text in the registered dialect, with no type or dialect
   *       detection (quote and escape are {@code "}). Its header line, if it has one, must name
   *       the schema's columns in order: that is the file's structure, checked before anything is
   *       charged, never a row. A line with fewer fields reads the missing ones as NULL; a line
   *       that cannot be parsed (an unterminated quote, bytes that are not UTF-8, on DuckDB also
   *       more fields than the schema's) is skipped; Spark keeps a line with more fields and drops
   *       the extra ones, and reads a line it cannot parse as NULLs.
   *   <li>Each value is then converted to its column's type. A value that does not parse, or
   *       does not fit (an integer past 64 bits), becomes NULL: counted nowhere, never an error.
   *       Integers from text are {@code [+-]?[0-9]+} after trimming; other types follow the
   *       backend's {@code TRY_CAST}.
   *   <li>A Parquet file or table missing a column of the schema is refused when described
   *       (its structure, before any charge).
   * </ul>
   *
   * <p>Proof path: docs/proofs/threat-model.md, "Public schema".
   *
   * @param file a CSV file, Parquet file or table (not itself typed)
   * @param schema the public schema; for a CSV file without header, its names must be the file's
   *     column names
   */
  record Typed(Source file, PublicSchema schema) implements Source {
    public Typed {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(schema, "schema");
      if (file instanceof Typed) {
        throw new IllegalArgumentException("file must not be a typed source already");
      }
      if (file instanceof CsvFile c && !c.columnNames().isEmpty()
          && !c.columnNames().equals(schema.names())) {
        throw new IllegalArgumentException("schema must name the CSV file's columns "
            + c.columnNames() + " in order, was " + schema.names());
      }
    }
  }

  /**
   * The rows of a relational plan over other sources (joins of a multi-table dataset, issue 25):
   * a backend renders it with {@link org.privet.engine.plan.RelationSql} as a subquery and
   * describes it as {@link org.privet.engine.plan.Relation#schema()}, without reading a row.
   *
   * @param relation the plan, ending in a projection to plain column names
   * @param unitDerivation how each row's privacy unit is derived (for EXPLAIN)
   */
  record Relational(org.privet.engine.plan.Relation relation, String unitDerivation) implements Source {
    public Relational {
      Objects.requireNonNull(relation, "relation");
      Objects.requireNonNull(unitDerivation, "unitDerivation");
      if (!(relation instanceof org.privet.engine.plan.Relation.Project)) {
        throw new IllegalArgumentException("a relational source ends in a projection to final names");
      }
    }
  }
}
