package org.privet.sql;

import java.util.List;
import java.util.Optional;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;

/** Test fixture: a DuckDB table registered as the one dataset of a catalog. */
final class SqlTestTables {
  private SqlTestTables() {}

  /**
   * Registers {@code rows} as table {@code name} and returns a catalog holding it as a dataset
   * of that name with privacy unit {@code unit}.
   */
  static DatasetCatalog catalog(DuckDbBackend db, String name, List<String> columns,
      List<ColumnType> types, List<? extends List<?>> rows, String unit) {
    db.registerTable(name, columns, types, rows);
    Source src = Source.table(name);
    DatasetDescriptor d = DatasetDescriptor.builder(name, src, db.describe(src)).privacyUnit(unit)
        .build();
    return n -> n.equalsIgnoreCase(name) ? Optional.of(d) : Optional.empty();
  }
}
