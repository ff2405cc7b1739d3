package org.privet.sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;

/**
 * The example tables of the ZetaSQL/BigQuery DP docs ("Tables for examples": professors and
 * students, and the "Performance implications" table_a), registered on DuckDB as datasets with
 * privacy unit {@code id}; {@code view_on_professors} is the docs' view with {@code
 * anonymization_userid_column = 'id'} over professors. Shared by the doc-examples tests.
 */
final class DocExampleTables {
  /** professors: (id, item, quantity), as in the docs. */
  static final Object[][] PROFESSORS = {
      {101L, "pencil", 24L}, {123L, "pen", 16L}, {123L, "pencil", 10L}, {123L, "pencil", 38L},
      {101L, "pen", 19L}, {101L, "pen", 23L}, {130L, "scissors", 8L}, {150L, "pencil", 72L}};
  /** students: (id, item, quantity), as in the docs. */
  static final Object[][] STUDENTS = {
      {1L, "pencil", 5L}, {1L, "pen", 2L}, {2L, "pen", 1L}, {3L, "pen", 4L}};

  private DocExampleTables() {}

  /** Registers the tables on {@code db} and returns the catalog of their datasets. */
  static DatasetCatalog register(DuckDbBackend db) {
    Map<String, DatasetDescriptor> sets = new LinkedHashMap<>();
    register(db, sets, "professors", PROFESSORS);
    register(db, sets, "students", STUDENTS);
    sets.put("view_on_professors", DatasetDescriptor.builder("view_on_professors",
        Source.table("professors"), db.describe(Source.table("professors"))).privacyUnit("id")
        .build());
    List<List<?>> a = new ArrayList<>();
    for (long i = 0; i < 20; i++) { // unit i: one row, column_b NULL when 3 divides i
      a.add(Arrays.asList(i, "a" + (i % 2), i % 3 == 0 ? null : i));
    }
    db.registerTable("table_a", List.of("id", "column_a", "column_b"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.INTEGER), a);
    sets.put("table_a", DatasetDescriptor.builder("table_a", Source.table("table_a"),
        db.describe(Source.table("table_a"))).privacyUnit("id").build());
    return name -> Optional.ofNullable(sets.get(name.toLowerCase(java.util.Locale.ROOT)));
  }

  private static void register(DuckDbBackend db, Map<String, DatasetDescriptor> sets, String name,
      Object[][] rows) {
    List<List<?>> list = new ArrayList<>();
    for (Object[] r : rows) {
      list.add(Arrays.asList(r));
    }
    db.registerTable(name, List.of("id", "item", "quantity"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.INTEGER), list);
    Source src = Source.table(name);
    sets.put(name, DatasetDescriptor.builder(name, src, db.describe(src)).privacyUnit("id").build());
  }
}
