package org.privet.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.privet.engine.Source;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.testing.TestPostgres;

/**
 * Issue 23, suspicion "set union's unit equality", on a real PostgreSQL. Set union reads each
 * unit's kept groups from a stream ordered by SQL and splits it where the unit value changes. SQL
 * holds {@code 0.0 = -0.0}, {@code 'NaN' = 'NaN'} (float8) and {@code 1.0 = 1.00} (numeric), but a
 * (unit, group) pair keeps the unit value of its own rows, so one unit can reach Java as 0.0,
 * -0.0, 0.0, ... or 1.0, 1.00, ..., which Java's {@code equals} would split into several units,
 * each within its own ℓ2 bound and each with up to L0 groups. Each SQL unit must reach the
 * mechanism as one unit with at most L0 groups (DuckDB: {@code SetUnionUnitKeyTest}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresSetUnionUnitKeyTest {
  private PostgresBackend pg;

  @BeforeAll
  void open() throws SQLException {
    String url = TestPostgres.server().newDatabase();
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE zeros (u double precision, g text)");
      st.execute("CREATE TABLE nans (u double precision, g text)");
      st.execute("CREATE TABLE scales (u numeric, g text)");
      for (int i = 0; i < 12; i++) {
        st.execute("INSERT INTO zeros VALUES (" + (i % 2 == 0 ? "0.0" : "'-0'") + ", 'g" + i + "')");
        st.execute("INSERT INTO nans VALUES ('NaN', 'g" + i + "')");
        st.execute("INSERT INTO scales VALUES (" + (i % 3 == 0 ? "1.0" : i % 3 == 1 ? "1.00" : "1") + ", 'g" + i + "')");
      }
      st.execute("INSERT INTO zeros VALUES (1.0, 'g0')");
      st.execute("INSERT INTO nans VALUES (1.0, 'g0')");
      st.execute("INSERT INTO scales VALUES (2.5, 'g0')");
    }
    pg = PostgresBackend.connect(url, new Properties());
  }

  @AfterAll
  void close() {
    pg.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"zeros", "nans", "scales"})
  void keptGroups_sqlEqualUnitValues_areOneUnitWithAtMostL0Groups(String table) {
    BoundedAggregation spec = new BoundedAggregation(Source.table(table), Optional.empty(),
        Optional.of("u"), List.of("g"), Optional.empty(), 3, 1, 20261127L, List.of());
    List<Integer> units = new ArrayList<>();
    pg.keptGroups(spec, groups -> units.add(groups.size()));
    assertEquals(2, units.size(), table + ": two SQL units, seen as " + units);
    units.forEach(n -> assertTrue(n <= 3, table + ": at most L0 groups per unit, seen " + units));
  }
}
