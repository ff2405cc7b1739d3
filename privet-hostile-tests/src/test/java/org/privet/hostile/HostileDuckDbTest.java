package org.privet.hostile;


import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * The hostile-analyst suite on DuckDB (issue 10): every error path of {@link Cases} on three pairs
 * of neighbouring tables — empty vs the victim alone, the base table without and with the victim,
 * the base table with and without its unit 8, and without and with a heavy victim of 300 rows
 * (issue 24: the private L∞ estimate) — must be observed identically ({@link
 * Observation}), and refused or released as the case states.
 */
class HostileDuckDbTest {
  private static DuckDbBackend db;

  @BeforeAll
  static void tables() {
    db = DuckDbBackend.inMemory();
    Tables.duckdb(db, "empty", List.of());
    Tables.duckdb(db, "victim_only", Cases.victim());
    Tables.duckdb(db, "base", Cases.base());
    Tables.duckdb(db, "base_victim", Cases.plus(Cases.base(), Cases.victim()));
    Tables.duckdb(db, "base_minus8", Cases.base().stream().filter(r -> r.uid() != 8).toList());
    Tables.duckdb(db, "base_heavy", Cases.plus(Cases.base(), Cases.heavyVictim()));
  }

  @AfterAll
  static void close() {
    db.close();
  }

  static Stream<Cases.Case> cases() {
    return Cases.all().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void errorPath_onNeighbouringTables_observedIdentically(Cases.Case c) {
    String[][] pairs = {{"empty", "victim_only"}, {"base", "base_victim"},
        {"base", "base_minus8"}, {"base", "base_heavy"}};
    Cases.assertObservedAlike(c, db, pairs);
  }
}
