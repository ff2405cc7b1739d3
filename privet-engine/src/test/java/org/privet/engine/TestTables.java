package org.privet.engine;

import java.nio.file.Path;
import java.util.List;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;

/** Shared test fixtures. */
public final class TestTables {
  static final List<String> COLS = List.of("uid", "g", "x");
  static final List<ColumnType> TYPES =
      List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING);

  private TestTables() {}

  public static void register(DuckDbBackend db, String name, List<? extends List<?>> rows) {
    db.registerTable(name, COLS, TYPES, rows);
  }

  /** The repository root: walk up until data/adult-raw exists. */
  public static Path repoRoot() {
    return org.privet.testing.Repository.root();
  }
}
