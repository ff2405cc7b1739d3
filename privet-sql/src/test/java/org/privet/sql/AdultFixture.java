package org.privet.sql;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * The bundled UCI Adult data (repo {@code data/adult-raw/adult.data}, 32,561 rows) as two DP SQL
 * datasets, and the rows themselves in Java for computing exact answers independently of the
 * engine:
 *
 * <ul>
 *   <li>{@code adult}: a CSV written under {@code target/} with a header, underscore column names,
 *       an {@code id} column (the row number; one row per privacy unit) registered as the privacy
 *       unit, public bounds for {@code age} and public key sets for {@code sex} and {@code race};
 *   <li>{@code adult_rows}: the raw file read as is ({@code ", "} separated, {@code ?} = NULL),
 *       registered with one row per privacy unit.
 * </ul>
 */
final class AdultFixture {
  static final List<String> RAW_COLUMNS = List.of("age", "workclass", "fnlwgt", "education",
      "education_num", "marital_status", "occupation", "relationship", "race", "sex", "capital_gain",
      "capital_loss", "hours_per_week", "native_country", "income");
  private static final Set<String> NUMERIC = Set.of("id", "age", "fnlwgt", "education_num",
      "capital_gain", "capital_loss", "hours_per_week");

  final Path repoRoot;
  final Path rawFile;
  final Path csvWithId;
  /** Column name → index into a row of {@link #rows}. */
  final Map<String, Integer> index = new HashMap<>();
  /** Each row: id (Long) then the raw columns (Long for numbers, String or null). */
  final List<Object[]> rows = new ArrayList<>();
  final DatasetCatalog catalog;

  AdultFixture(DuckDbBackend backend) {
    this.repoRoot = findRepoRoot();
    this.rawFile = repoRoot.resolve("data/adult-raw/adult.data");
    index.put("id", 0);
    for (int i = 0; i < RAW_COLUMNS.size(); i++) {
      index.put(RAW_COLUMNS.get(i), i + 1);
    }
    try {
      readRows();
      this.csvWithId = writeCsvWithId();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Source withId = Source.csv(csvWithId);
    DatasetDescriptor adult = DatasetDescriptor.builder("adult", withId, backend.describe(withId))
        .privacyUnit("id")
        .publicBounds("age", 17, 90)
        .publicKeys("sex", List.of("Female", "Male"))
        .publicKeys("race", List.of("White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo",
            "Other"))
        .build();
    Source raw = Source.csv(rawFile).withoutHeader(RAW_COLUMNS).withDelimiter(", ").withNullString("?");
    DatasetDescriptor adultRows = DatasetDescriptor.builder("adult_rows", raw, backend.describe(raw))
        .eachRowIsAUnit()
        .build();
    this.catalog = name -> switch (name.toLowerCase(Locale.ROOT)) {
      case "adult" -> Optional.of(adult);
      case "adult_rows" -> Optional.of(adultRows);
      default -> Optional.empty();
    };
  }

  /** Every distinct text value of the categorical columns (to check errors never echo them). */
  Set<String> categoricalValues() {
    Set<String> out = new TreeSet<>();
    for (Object[] r : rows) {
      for (Object v : r) {
        if (v instanceof String s) {
          out.add(s);
        }
      }
    }
    return out;
  }

  static Path findRepoRoot() {
    return org.privet.testing.Repository.root();
  }

  private void readRows() throws IOException {
    long id = 0;
    for (String line : Files.readAllLines(rawFile, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(", ", -1);
      if (f.length != RAW_COLUMNS.size()) {
        throw new IllegalStateException("unexpected field count in adult.data");
      }
      Object[] row = new Object[f.length + 1];
      row[0] = id++;
      for (int i = 0; i < f.length; i++) {
        String v = f[i].trim();
        row[i + 1] = v.equals("?") ? null : NUMERIC.contains(RAW_COLUMNS.get(i)) ? (Object) Long.parseLong(v) : v;
      }
      rows.add(row);
    }
  }

  private Path writeCsvWithId() throws IOException {
    Path dir = repoRoot.resolve("privet-sql/target/sql-test-data");
    Files.createDirectories(dir);
    Path out = dir.resolve("adult-with-id.csv");
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      w.write("id," + String.join(",", RAW_COLUMNS));
      w.newLine();
      for (Object[] r : rows) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < r.length; i++) {
          sb.append(i == 0 ? "" : ",").append(r[i] == null ? "" : r[i].toString());
        }
        w.write(sb.toString());
        w.newLine();
      }
    }
    return out;
  }
}
