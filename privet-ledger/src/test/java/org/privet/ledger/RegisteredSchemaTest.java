package org.privet.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.privet.accounting.PureDp;

/**
 * Public schemas fixed at registration: kept, fixed once, checked, and migrated into old ledgers;
 * on each store.
 */
@ParameterizedClass
@EnumSource(TestLedger.Kind.class)
class RegisteredSchemaTest {
  @Parameter TestLedger.Kind kind;
  @TempDir Path workspace;
  TestLedger where;

  @org.junit.jupiter.api.BeforeEach
  void fresh() {
    where = TestLedger.fresh(kind, workspace);
  }

  private static final RegisteredSchema SCHEMA = schema("person_id:integer,age:integer,sex:string,day:date", RegisteredSchema.Origin.DECLARED);

  /** {@code name:type,...} as the ledger keeps it. */
  static RegisteredSchema schema(String text, RegisteredSchema.Origin origin) {
    List<RegisteredSchema.Column> columns = new java.util.ArrayList<>();
    for (String e : text.split(",")) {
      columns.add(new RegisteredSchema.Column(e.split(":")[0], e.split(":")[1]));
    }
    return new RegisteredSchema(columns, origin);
  }

  private static DatasetSpec spec(String name) {
    return DatasetSpec.builder().name(name).source("/data/" + name + ".csv")
        .privacyUnit(PrivacyUnit.column("person_id")).budget(new PureDp(1))
        .publicMetadata(new PublicMetadata(Map.of("age", new ColumnBounds(0, 120)),
            Map.of("sex", List.of("F", "M"))))
        .build();
  }

  @Test
  void register_withSchema_roundTripsAndIsFixedOnce() {
    try (Ledger ledger = where.open()) {
      ledger.register(spec("adult"), SCHEMA);
    }
    try (Ledger ledger = where.open()) {
      assertEquals(Optional.of(SCHEMA), ledger.schema("adult"));
      RegisteredSchema other = schema("person_id:integer,age:double,sex:string", RegisteredSchema.Origin.INFERRED);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ledger.fixSchema("adult", other));
      assertTrue(e.getMessage().contains("fixed once"), e.getMessage());
      assertEquals(Optional.of(SCHEMA), ledger.schema("adult"));
    }
  }

  @Test
  void register_schemaWithoutTheRegisteredColumns_refusedNamingTheParameter() {
    try (Ledger ledger = where.open()) {
      RegisteredSchema noUnit = schema("age:integer,sex:string", RegisteredSchema.Origin.DECLARED);
      assertTrue(assertThrows(IllegalArgumentException.class,
          () -> ledger.register(spec("a"), noUnit)).getMessage().startsWith("privacyUnit: column 'person_id'"));
      RegisteredSchema textAge = schema("person_id:integer,age:string,sex:string", RegisteredSchema.Origin.DECLARED);
      assertTrue(assertThrows(IllegalArgumentException.class,
          () -> ledger.register(spec("a"), textAge)).getMessage().startsWith("bounds: column 'age' is not numeric"));
      assertEquals(List.of(), ledger.datasets(), "a refused registration stores nothing");
    }
  }

  @Test
  void open_ledgerWrittenBeforeSchemas_gainsTheTableKeepsItsDatasetsAndFixesASchemaOnce() throws Exception {
    // The ledger as the previous version wrote it: no dataset_schemas table.
    try (Connection c = where.raw(); Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE datasets(name TEXT PRIMARY KEY, spec TEXT NOT NULL,"
          + " registered_at TEXT NOT NULL)");
      s.executeUpdate("INSERT INTO datasets VALUES ('adult', '"
          + LedgerJson.write(LedgerJson.dataset(spec("adult"))) + "', '2026-01-01T00:00:00Z')");
    }
    try (Ledger ledger = where.open()) {
      assertEquals(spec("adult"), ledger.dataset("adult"));
      assertEquals(Optional.empty(), ledger.schema("adult"));
      ledger.fixSchema("adult", SCHEMA);
    }
    try (Ledger ledger = where.open()) {
      assertEquals(Optional.of(SCHEMA), ledger.schema("adult"));
      assertThrows(IllegalArgumentException.class, () -> ledger.fixSchema("adult", SCHEMA));
    }
    try (Connection c = where.raw(); Statement s = c.createStatement()) {
      assertThrows(java.sql.SQLException.class,
          () -> s.executeUpdate("DELETE FROM dataset_schemas"), "append-only");
    }
  }

  @Test
  void schema_badColumns_refusedNamingTheColumn() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> schema("age:integer,AGE:date", RegisteredSchema.Origin.DECLARED))
        .getMessage().contains("'AGE' is listed twice"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> schema("age:money", RegisteredSchema.Origin.DECLARED)).getMessage().contains("was money"));
  }
}
