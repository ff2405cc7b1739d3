package org.privet.curator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.TableSchema;

/**
 * The curator's check, when a Parquet <em>directory</em> is registered as a source ({@code
 * --source DIR}; issue 25), that it is one table written in parts, as Spark writes it (part files
 * {@code part-*.parquet} beside {@code _SUCCESS} and {@code .crc} files) or DuckDB's {@code COPY
 * ... (FORMAT PARQUET, PER_THREAD_OUTPUT)}: every entry not starting with {@code _} or {@code .}
 * is a regular {@code *.parquet} file ({@link Source.ParquetFile#partFiles}), there is at least
 * one, and all have the same columns (names and types, read by an in-memory DuckDB from the files'
 * footers, no row). It runs at registration, before anything is stored, like the schema
 * inference; its refusal names the parameter and the directory's entries (the curator's own
 * files), never a value.
 */
public final class ParquetParts {
  private ParquetParts() {}

  /**
   * Checks {@code path} if it is a directory (a file is left to the usual checks).
   *
   * @param parameter the option or field that named the path, e.g. {@code --source}
   * @return the part files (one for a file)
   * @throws IllegalArgumentException naming {@code parameter} if the directory is not one table
   *     of Parquet part files
   */
  public static List<Path> require(Path path, String parameter) {
    if (!Files.isDirectory(path)) {
      return List.of(path);
    }
    String dir = "directory '" + path.getFileName() + "'";
    List<Path> parts = new ArrayList<>();
    try (Stream<Path> entries = Files.list(path)) {
      for (Path e : entries.sorted().toList()) {
        String name = e.getFileName().toString();
        if (name.startsWith("_") || name.startsWith(".")) {
          continue; // Spark's _SUCCESS and .crc files, skipped by every reader
        }
        if (Files.isDirectory(e)) {
          throw new IllegalArgumentException(parameter + ": " + dir + " holds a subdirectory '"
              + name + "'; only a flat directory of Parquet part files is read (partitioned"
              + " layouts are not)");
        }
        if (!Source.ParquetFile.isPartFile(e)) {
          throw new IllegalArgumentException(parameter + ": " + dir + " holds '" + name
              + "', which is not a Parquet part file (*.parquet); a directory source must hold"
              + " only the part files of one table (and _ or . files)");
        }
        parts.add(e);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(parameter + ": " + dir + " cannot be listed");
    }
    if (parts.isEmpty()) {
      throw new IllegalArgumentException(parameter + ": " + dir + " holds no Parquet part file"
          + " (*.parquet)");
    }
    try (DuckDbBackend duckdb = DuckDbBackend.inMemory()) {
      List<String> first = null;
      for (Path part : parts) {
        TableSchema s;
        try {
          s = duckdb.describe(Source.parquet(part));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(parameter + ": part file '" + part.getFileName()
              + "' of " + dir + " cannot be read as Parquet");
        }
        List<String> columns = s.columns().stream().map(c -> c.name() + " " + c.nativeType())
            .toList();
        if (first == null) {
          first = columns;
        } else if (!first.equals(columns)) {
          throw new IllegalArgumentException(parameter + ": the part files of " + dir + " do not"
              + " all have the same columns ('" + parts.get(0).getFileName() + "' and '"
              + part.getFileName() + "' differ); write the table with one schema");
        }
      }
    }
    return List.copyOf(parts);
  }
}
