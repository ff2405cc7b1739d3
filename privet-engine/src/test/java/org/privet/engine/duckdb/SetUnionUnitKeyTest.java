package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;

/**
 * Issue 23, suspicion "set union's unit equality", settled on DuckDB. Set union
 * ({@code SetUnionSelection}) reads each unit's kept groups from a stream ordered by SQL and
 * splits it into units where the unit value changes. SQL holds 0.0 = -0.0 (and NaN = NaN), so one
 * unit of a DOUBLE unit column may come as 0.0, -0.0, 0.0, ...; split by Java's {@code equals}
 * (under which 0.0 and -0.0 differ) it would become several units, each within its own ℓ2
 * bound. Each SQL unit must reach the mechanism as exactly one unit with at most L0 groups. On
 * DuckDB the kept pairs already carry one zero (its grouping normalizes -0.0), on PostgreSQL they
 * did not ({@code PostgresSetUnionUnitKeyTest}); the reader now canonicalises unit values.
 */
class SetUnionUnitKeyTest {
  private static List<Object> row(Double u, String g) {
    return Arrays.asList(u, g);
  }

  private static final java.util.Set<String> stored = new java.util.TreeSet<>();

  /** The statement keptGroups runs (the same plan the backend builds). */
  private static String keptSql(DuckDbBackend backend, BoundedAggregation spec) {
    return new org.privet.engine.spi.BoundingPlan(spec, backend.describe(spec.source()),
        SqlText.from(spec.source()), DuckDbDialect.FAST).keptGroupsStatement();
  }

  private static List<List<String>> units(List<List<?>> rows, int l0) {
    List<List<String>> out = new ArrayList<>();
    try (DuckDbBackend backend = DuckDbBackend.inMemory()) {
      backend.registerTable("t", List.of("u", "g"), List.of(ColumnType.FLOATING, ColumnType.STRING), rows);
      BoundedAggregation spec = new BoundedAggregation(Source.table("t"), Optional.empty(),
          Optional.of("u"), List.of("g"), Optional.empty(), l0, 1, 20261127L, List.of());
      backend.keptGroups(spec, groups -> out.add(groups.stream().map(Object::toString).toList()));
      // The table holds both zeros (the test has power only if -0.0 reaches the stream).
      try (java.sql.Statement st = backend.trustedConnection().createStatement();
          java.sql.ResultSet rs = st.executeQuery("SELECT DISTINCT CAST(u AS VARCHAR) FROM t"
              + " UNION ALL SELECT 'kept:' || CAST(__u AS VARCHAR) FROM (" + keptSql(backend, spec) + ")")) {
        while (rs.next()) {
          stored.add(rs.getString(1));
        }
      } catch (java.sql.SQLException e) {
        throw new AssertionError(e);
      }
    }
    return out;
  }

  @Test
  void keptGroups_signedZeroUnit_isOneUnitWithAtMostL0Groups() {
    List<List<?>> rows = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      rows.add(row(i % 2 == 0 ? 0.0 : -0.0, "g" + i));
    }
    rows.add(row(1.0, "g0"));
    List<List<String>> units = units(rows, 3);
    assertTrue(stored.contains("-0.0") && stored.contains("0.0"), "both zeros stored: " + stored);
    assertEquals(2, units.size(), "units 0.0 (= -0.0) and 1.0: " + units + ", stored " + stored);
    units.forEach(u -> assertTrue(u.size() <= 3, "at most L0 groups per unit: " + units));
  }

  @Test
  void keptGroups_nanUnit_isOneUnitWithAtMostL0Groups() {
    List<List<?>> rows = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      rows.add(row(Double.NaN, "g" + i));
    }
    rows.add(row(-0.0, "g1"));
    rows.add(row(0.0, "g2"));
    List<List<String>> units = units(rows, 2);
    assertEquals(2, units.size(), "units NaN and 0.0 (= -0.0): " + units);
    units.forEach(u -> assertTrue(u.size() <= 2, "at most L0 groups per unit: " + units));
  }
}
