package org.privet.engine.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.privet.engine.Filter;
import org.privet.engine.Source;
import org.privet.testing.SeededRandomSource;

/**
 * The backend contract kit: every {@link Backend} must compute the {@link BoundedAggregation}
 * contract exactly. A backend runs it with one subclass that opens the backend and registers
 * tables ({@link #openBackend}, {@link #register}); the kit (in privet-engine's test-jar) holds
 * every case, so the cases are written once for all backends.
 *
 * <ul>
 *   <li>Where the result does not depend on the backend's salted hash (L0 not binding; binned
 *       values not beyond L∞), the exact aggregates must equal those of {@link ContractOracle}, a
 *       literal Java reading of the contract, so all backends give identical aggregates: NULL,
 *       NaN and ±∞ values, NULL units and group keys, negative sums floored when scaled to L∞,
 *       pair clamps, filters with quotes, public groups (NULL matching NULL), row-level units, no
 *       GROUP BY, the empty table.
 *   <li>Where it does (L0 binding), the bounds must hold: at most L0 groups and L∞ rows per unit,
 *       a neighbour changes only its own contributions, and the choice depends on the salt.
 *   <li>Failures quote no data value: unknown tables; sums past 2^62 saturate
 *       at the public cap instead of failing.
 * </ul>
 *
 * <p>Ties at the L0 boundary cannot be provoked from outside a backend (they need equal salted
 * hashes); DuckDB's {@code SqlPlanTest} provokes them through its hash modulus.
 *
 * <p>A new backend adds one subclass in its module's tests, with a test-scoped dependency on {@code
 * privet-engine}'s {@code test-jar}: {@link #openBackend} returns the backend (over a real server:
 * {@code org.privet.testing.TestPostgres} gives a fresh database, as {@code
 * PostgresBackendContractTest} uses), and {@link #register} creates the table with the columns'
 * types and inserts the rows. Nothing else. DuckDB, Spark and PostgreSQL run it, so the same
 * queries give identical exact aggregates on all three.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BackendContractTest {
  protected static final List<String> COLUMNS = List.of("uid", "g", "h", "x", "label");
  protected static final List<ColumnType> TYPES = List.of(ColumnType.INTEGER, ColumnType.STRING,
      ColumnType.INTEGER, ColumnType.FLOATING, ColumnType.STRING);
  /** Values with exact halves on the grids used (rounding half to even must agree), and specials. */
  private static final double[] VALUES = {0.0, 2.5, 3.5, -0.5, 0.125, -7.25, 12.75, 99.0, 1e9,
      -1e9, 1.0 / 3, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};

  private static final List<Measure> MEASURES = List.of(
      new Measure.FixedPointSum("x", 0, 10, 0, 0, false),
      new Measure.FixedPointSum("x", -20, 50, 2, 60, true),
      new Measure.FixedPointSum("x", -1e9, 1e9, 1, 0, false),
      new Measure.Bins("x", -10, 40, 7));

  /** Sums only (binned values beyond L∞ are chosen by hash). */
  private static final List<Measure> SUMS = MEASURES.subList(0, 3);

  /** Pair-clamped sums (Measure.PairClamp): after scaling to L∞ rows, and over all rows. */
  private static final List<Measure> PAIR_CLAMPED = List.of(
      new Measure.FixedPointSum("x", -20, 50, 2, 0, false, new Measure.PairClamp(-30, 90, false)),
      new Measure.FixedPointSum("x", -20, 50, 0, 0, false, new Measure.PairClamp(-5, 60, true)));

  private final Map<String, List<List<?>>> tables = new TreeMap<>();
  private Backend backend;

  /** Opens the backend under test, once for the class. */
  protected abstract Backend openBackend();

  /** Makes {@code rows} (values typed as {@code types}: Long, String, Double, or null) readable as table {@code name}. */
  protected abstract void register(Backend backend, String name, List<String> columns,
      List<ColumnType> types, List<List<?>> rows);

  @BeforeAll
  void openAndRegister() {
    backend = openBackend();
    table("crafted", crafted());
    table("empty", List.of());
    table("heavy", heavyUnitTable());
    table("negative", List.of(row(1L, "g", -1.0), row(1L, "g", 0.0), row(1L, "g", 0.0),
        row(2L, "g", -7.0), row(2L, "g", -8.0)));
    List<List<?>> base = new ArrayList<>();
    for (long u = 0; u < 200; u++) {
      for (int r = 0; r < 6; r++) {
        base.add(row(u, "g" + ((u * 7 + r * 3) % 13), (double) ((u + r) % 12)));
      }
    }
    List<List<?>> plus = new ArrayList<>(base);
    for (int r = 0; r < 40; r++) {
      plus.add(row(999L, "g" + (r % 13), 50.0));
    }
    table("base", base);
    table("plus", plus);
    table("huge", List.of(row(1L, "g", 3e9), row(1L, "g", 3e9)));
    registerJoinTables();
  }

  @AfterAll
  void closeBackend() {
    if (backend != null) {
      backend.close();
    }
  }

  private void table(String name, List<List<?>> rows) {
    tables.put(name, rows);
    register(backend, name, COLUMNS, TYPES, rows);
  }

  private static List<?> row(Long uid, String g, Double x) {
    return Arrays.asList(uid, g, 0L, x, "plain");
  }

  /**
   * 300 units with 1 to 40 rows each over up to 9 of 12 groups (g) and 3 sub-groups (h), with
   * NULL units, NULL group values, NULL/NaN/±∞ values.
   */
  private static List<List<?>> crafted() {
    SeededRandomSource r = new SeededRandomSource(20261126L);
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 300; u++) {
      int n = 1 + (int) r.nextLong(40);
      int spread = 1 + (int) r.nextLong(9);
      long first = r.nextLong(12);
      for (int i = 0; i < n; i++) {
        long g = (first + r.nextLong(spread)) % 12;
        Object group = g == 11 ? null : "g" + g;
        Object value = r.nextLong(10) == 0 ? null : VALUES[(int) r.nextLong(VALUES.length)];
        if (value != null && r.nextBoolean()) {
          value = (double) r.nextLong(200) / 4 - 10; // quarters in [-10, 40)
        }
        rows.add(Arrays.asList(u % 97 == 5 ? null : u, group, r.nextLong(3), value,
            r.nextLong(5) == 0 ? "it's" : "plain"));
      }
    }
    return rows;
  }

  /** Unit 1: 5 rows in each of 10 groups, value 100; unit 2: one row in g0, value 5. */
  private static List<List<?>> heavyUnitTable() {
    List<List<?>> rows = new ArrayList<>();
    for (int g = 0; g < 10; g++) {
      for (int r = 0; r < 5; r++) {
        rows.add(row(1L, "g" + g, 100.0));
      }
    }
    rows.add(row(2L, "g0", 5.0));
    return rows;
  }

  private static BoundedAggregation spec(String table, Optional<String> unit, List<String> groupBy,
      int l0, int lInf, long salt, List<Measure> measures) {
    return spec(table, unit, groupBy, l0, lInf, salt, Optional.empty(), Optional.empty(), measures);
  }

  private static BoundedAggregation spec(String table, Optional<String> unit, List<String> groupBy,
      int l0, int lInf, long salt, Optional<Filter> filter, Optional<List<List<Object>>> publicGroups,
      List<Measure> measures) {
    return new BoundedAggregation(Source.table(table), filter, unit, groupBy, publicGroups, l0,
        lInf, salt, measures);
  }

  /** The backend's groups with at least one unit (the contract lets backends omit empty ones). */
  private Map<List<String>, GroupAggregate> run(BoundedAggregation spec) {
    return run(backend, spec);
  }

  /** {@link #run(BoundedAggregation)} on {@code on} (the backend or a view of it). */
  private static Map<List<String>, GroupAggregate> run(Backend on, BoundedAggregation spec) {
    Map<List<String>, GroupAggregate> out = new TreeMap<>(
        (a, b) -> a.toString().compareTo(b.toString()));
    on.aggregate(spec, g -> {
      if (g.units() > 0 || spec.groupBy().isEmpty()) {
        assertEquals(null, out.put(ContractOracle.key(g.key()), g), "one row per group");
      } else {
        assertEquals(0, g.rows(), "a group without units has no rows");
      }
    });
    return out;
  }

  private void assertContract(BoundedAggregation spec) {
    assertContract(spec, row -> true);
  }

  /** The backend's exact aggregates equal the oracle's, group by group. */
  private void assertContract(BoundedAggregation spec, Predicate<List<?>> filter) {
    String table = ((Source.Table) spec.source()).name();
    assertContract(spec, COLUMNS, tables.get(table), filter);
  }

  /** The backend's exact aggregates equal the oracle's on {@code rows}, group by group. */
  private void assertContract(BoundedAggregation spec, List<String> columns, List<List<?>> rows,
      Predicate<List<?>> filter) {
    assertContract(backend, spec, columns, rows, filter);
  }

  /** {@code on}'s (the backend's or a view's) exact aggregates equal the oracle's on {@code rows}. */
  private static void assertContract(Backend on, BoundedAggregation spec, List<String> columns,
      List<List<?>> rows, Predicate<List<?>> filter) {
    Map<List<String>, GroupAggregate> expected = ContractOracle.aggregate(columns, rows, spec, filter);
    Map<List<String>, GroupAggregate> actual = run(on, spec);
    assertEquals(expected.keySet().stream().map(Object::toString).sorted().toList(),
        actual.keySet().stream().map(Object::toString).sorted().toList(), "groups");
    for (Map.Entry<List<String>, GroupAggregate> e : expected.entrySet()) {
      GroupAggregate want = e.getValue();
      GroupAggregate got = actual.get(e.getKey());
      String where = "group " + e.getKey();
      assertEquals(want.units(), got.units(), where + " units");
      assertEquals(want.rows(), got.rows(), where + " rows");
      for (int i = 0; i < spec.measures().size(); i++) {
        if (spec.measures().get(i) instanceof Measure.FixedPointSum f) {
          assertEquals(want.sums()[i], got.sums()[i], where + " sum of measure " + i);
          assertEquals(want.counts()[i], got.counts()[i], where + " count of measure " + i);
          if (f.squares()) {
            assertEquals(want.squares()[i], got.squares()[i], where + " squares of measure " + i);
          }
        } else {
          assertArrayEquals(want.bins()[i], got.bins()[i], where + " bins of measure " + i);
        }
      }
    }
  }

  @Test
  void aggregate_l0NotBinding_exactAggregatesOfTheContract() {
    // At most 9 groups per unit: L0 = 12 never binds; L∞ = 1000 never binds.
    assertContract(spec("crafted", Optional.of("uid"), List.of("g"), 12, 1000, 7, MEASURES));
  }

  @Test
  void aggregate_linfBindingWithNegativeSums_floorsScaledPairSums() {
    // L∞ = 3 binds: pair sums are rescaled ⌊s·L∞/c⌋ (negative ones too), deterministically.
    assertContract(spec("crafted", Optional.of("uid"), List.of("g", "h"), 40, 3, 11, SUMS));
  }

  @Test
  void aggregate_negativePairSumAboveLinf_floorsAsTheContractSays() {
    BoundedAggregation s = spec("negative", Optional.of("uid"), List.of("g"), 1, 1, 0,
        List.of(new Measure.FixedPointSum("x", -10, 10, 0, 0, true)));
    assertContract(s);
    GroupAggregate g = run(s).get(List.of("g"));
    // Unit 1: ⌊−1·1/3⌋ = −1 (truncation would give 0); unit 2: ⌊−15/2⌋ = −8; squares ⌊113/2⌋ = 56.
    assertEquals(-1 - 8, g.sums()[0]);
    assertEquals(0 + 56, g.squares()[0]);
    assertEquals(2, g.counts()[0]);
  }

  @Test
  void aggregate_pairClampedSums_clampEachUnitsSumInAGroup() {
    assertContract(spec("crafted", Optional.of("uid"), List.of("g"), 12, 2, 5, PAIR_CLAMPED));
    assertContract(spec("crafted", Optional.of("uid"), List.of("g", "h"), 40, 1, 9, PAIR_CLAMPED));
    assertContract(spec("crafted", Optional.empty(), List.of("g"), 1, 1, 3, PAIR_CLAMPED));
  }

  @Test
  void aggregate_logScaleBins_powerOfTwoCellsExactly() {
    // Crafted values include exact powers of two (±1, ±2, ±4, 0.125, …), ±∞, NaN and 1e9: each
    // must fall in the cell its power of two starts (AUTO bounds' grid, docs/proofs/auto-bounds.md).
    List<Measure> log = List.of(new Measure.Bins("x", -0x1p31, 0x1p31, 80, true),
        new Measure.Bins("x", -0x1p60, 0x1p60, 184, true));
    assertContract(spec("crafted", Optional.of("uid"), List.of("g"), 12, 1000, 7, log));
    assertContract(spec("crafted", Optional.empty(), List.of(), 1, 1, 3, log));
  }

  @Test
  void aggregate_pairRows_countsKeptPairsPerPowerOfTwoCell() {
    // Each kept (unit, group) pair once, in cell min(⌈log₂ n⌉, bins − 1) of its row count n
    // (all its rows, L∞ aside): docs/proofs/contribution-bound-estimate.md. Crafted units have 1
    // to 40 rows; 3 cells saturate at n > 2, 20 cells never do.
    List<Measure> pairRows = List.of(new Measure.PairRows("uid", 20),
        new Measure.PairRows("uid", 3), MEASURES.get(0));
    assertContract(spec("crafted", Optional.of("uid"), List.of("g"), 12, 2, 7, pairRows));
    assertContract(spec("crafted", Optional.of("uid"), List.of(), 1, 1, 3, pairRows));
    assertContract(spec("crafted", Optional.of("uid"), List.of("g", "h"), 40, 1, 9, pairRows));
    assertContract(spec("negative", Optional.of("uid"), List.of("g"), 1, 1, 5, pairRows));
    assertContract(spec("empty", Optional.of("uid"), List.of("g"), 2, 2, 1, pairRows));
  }

  @Test
  void aggregate_pairValues_histogramOfEachKeptPairsValueInRowEquivalents() {
    // Each kept (unit, group) pair once, in cell ⌈log₂ max(r, 1)⌉ of r = ⌈s/b⌉ (s > 0) or
    // ⌈s/a⌉ (s < 0), s its exact sum of clamped values, all its rows (L∞ aside):
    // docs/proofs/contribution-bound-estimate.md. Bounds with both signs, a positive lower bound
    // (a' = 0), a fine grid, few cells (saturating) and many; beside the other measures.
    List<Measure> values = List.of(new Measure.PairValues("x", -20, 50, 2, 20),
        new Measure.PairValues("x", 3, 7.5, 0, 4), new Measure.PairValues("x", -1, 1, 3, 20),
        new Measure.PairRows("uid", 20), MEASURES.get(0));
    assertContract(spec("crafted", Optional.of("uid"), List.of("g"), 12, 2, 7, values));
    assertContract(spec("crafted", Optional.of("uid"), List.of(), 1, 1, 3, values));
    assertContract(spec("crafted", Optional.of("uid"), List.of("g", "h"), 40, 1, 9, values));
    assertContract(spec("negative", Optional.of("uid"), List.of("g"), 1, 1, 5, values));
    assertContract(spec("empty", Optional.of("uid"), List.of("g"), 2, 2, 1, values));
    // L0 = 1 with groups (the minimum-hash strategy where a dialect has it).
    assertContract(spec("negative", Optional.of("uid"), List.of("g"), 1, 3, 5, values));
  }

  @Test
  void aggregate_withoutGroupsAndRowLevel_exactAggregatesOfTheContract() {
    assertContract(spec("crafted", Optional.of("uid"), List.of(), 1, 1000, 3, MEASURES));
    assertContract(spec("crafted", Optional.of("uid"), List.of(), 1, 2, 3, SUMS));
    assertContract(spec("crafted", Optional.empty(), List.of("g"), 1, 1, 3, MEASURES));
    assertContract(spec("crafted", Optional.empty(), List.of(), 1, 1, 3, MEASURES));
  }

  @Test
  void aggregate_filterWithQuoteAndPublicGroups_nullKeyMatchesNull() {
    Optional<Filter> f = Optional.of(Filter.or(Filter.eq("label", "it's"), Filter.gt("h", java.math.BigDecimal.ONE)));
    Predicate<List<?>> same = r -> "it's".equals(r.get(4)) || (Long) r.get(2) > 1;
    List<List<Object>> keys = new ArrayList<>();
    keys.add(List.of("g1"));
    keys.add(List.of("g4"));
    keys.add(Arrays.asList((Object) null));
    keys.add(List.of("nobody"));
    BoundedAggregation s = spec("crafted", Optional.of("uid"), List.of("g"), 12, 1000, 5, f,
        Optional.of(keys), MEASURES);
    assertContract(s, same);
    Map<List<String>, GroupAggregate> out = run(s);
    assertEquals(3, out.size(), "listed groups with rows only; 'nobody' is filled by the engine");
    assertTrue(out.containsKey(ContractOracle.key(Arrays.asList((Object) null))), "NULL key matches NULL");
  }

  @Test
  void aggregate_emptyTable_oneZeroRowWithoutGroupsNoneWithThem() {
    assertContract(spec("empty", Optional.of("uid"), List.of("g"), 2, 2, 1, MEASURES));
    assertContract(spec("empty", Optional.of("uid"), List.of("g"), 2, 2, 1, Optional.empty(),
        Optional.of(List.of(List.of("g1"))), MEASURES));
    assertContract(spec("empty", Optional.of("uid"), List.of(), 2, 2, 1, MEASURES));
    assertEquals(1, run(spec("empty", Optional.of("uid"), List.of(), 2, 2, 1, MEASURES)).size());
  }

  @Test
  void aggregate_unitExceedingBounds_contributesAtMostL0GroupsAndLinfRows() {
    for (long salt = 0; salt < 4; salt++) {
      Map<List<String>, GroupAggregate> groups = run(spec("heavy", Optional.of("uid"),
          List.of("g"), 3, 2, salt, MEASURES));
      long units = groups.values().stream().mapToLong(GroupAggregate::units).sum();
      long rows = groups.values().stream().mapToLong(GroupAggregate::rows).sum();
      long sum = groups.values().stream().mapToLong(g -> g.sums()[0]).sum();
      long binned = groups.values().stream().mapToLong(g -> Arrays.stream(g.bins()[3]).sum()).sum();
      // Unit 2 contributes 1 unit, 1 row, value 5 to g0; unit 1 at most 3 groups × 2 rows × 10.
      assertEquals(4, units, "units, salt " + salt);
      assertEquals(3 * 2 + 1, rows, "rows, salt " + salt);
      assertEquals(3 * 2 * 10 + 5, sum, "sum (5 rows of 10 scaled to L∞ = 2 rows), salt " + salt);
      assertEquals(3 * 2 + 1, binned, "binned rows, salt " + salt);
      for (GroupAggregate g : groups.values()) {
        assertTrue(g.units() <= 2 && g.rows() <= 3, "per-group bound");
      }
    }
  }

  @Test
  void aggregate_publicGroups_filterRowsBeforeGroupSelection() {
    for (long salt = 0; salt < 10; salt++) {
      Map<List<String>, GroupAggregate> groups = run(spec("heavy", Optional.of("uid"), List.of("g"),
          1, 1, salt, Optional.empty(), Optional.of(List.of(List.of("g7"), List.of("zz"))), MEASURES));
      assertEquals(Set.of(List.of("g7")), groups.keySet());
      assertEquals(1, groups.get(List.of("g7")).units(), "unit 1 must spend its L0 on g7");
    }
  }

  @Test
  void aggregate_differentSalts_chooseDifferentGroups() {
    Set<Set<List<String>>> choices = new HashSet<>();
    for (long salt = 10; salt < 16; salt++) {
      choices.add(new HashSet<>(run(spec("heavy", Optional.of("uid"), List.of("g"), 3, 2, salt,
          MEASURES)).keySet()));
    }
    assertTrue(choices.size() > 2, "group choice should depend on the salt: " + choices.size());
  }

  @Test
  void aggregate_l0Binding_boundsEachUnitsContribution() {
    Map<List<String>, GroupAggregate> out = run(spec("crafted", Optional.of("uid"), List.of("g"),
        2, 3, 99, MEASURES));
    Map<List<String>, GroupAggregate> unbounded = run(spec("crafted", Optional.of("uid"),
        List.of("g"), 12, 1_000_000, 99, MEASURES));
    long units = out.values().stream().mapToLong(GroupAggregate::units).sum();
    long distinctUnits = 300 - 4; // units 5, 102, 199, 296 have NULL ids
    assertTrue(units <= 2 * distinctUnits, "at most L0 pairs per unit: " + units);
    for (Map.Entry<List<String>, GroupAggregate> e : out.entrySet()) {
      GroupAggregate g = e.getValue();
      GroupAggregate all = unbounded.get(e.getKey());
      assertTrue(g.units() <= all.units(), "a group keeps a subset of its units");
      assertTrue(g.rows() <= 3 * g.units(), "L∞ rows per kept pair");
      assertTrue(g.counts()[0] <= 3 * g.units(), "L∞ values per kept pair");
      assertTrue(Math.abs(g.sums()[0]) <= 3 * 10 * g.units(), "|sum| ≤ L∞·M per pair");
      assertTrue(Arrays.stream(g.bins()[3]).sum() <= 3 * g.units(), "binned rows per pair");
    }
    assertTrue(units < unbounded.values().stream().mapToLong(GroupAggregate::units).sum(),
        "L0 = 2 binds on this table");
  }

  /**
   * Kept groups (set union's input): per unit at most L0 distinct groups, exactly the pairs the
   * aggregation counts (per group, the number of units listing it is its unit count), for unit-level
   * specs with L0 = 1 (the minimum-hash strategy) and L0 = 3 (binding on "heavy"), and row-level
   * specs.
   */
  @Test
  void keptGroups_eachUnitsGroups_areExactlyThePairsAggregated() {
    if (!backend.listsKeptGroups()) {
      return;
    }
    for (int l0 : new int[] {1, 3}) { // the minimum-hash and the window strategies
      for (String table : new String[] {"heavy", "crafted"}) {
        BoundedAggregation spec = spec(table, Optional.of("uid"), List.of("g"), l0, 2, 7 + l0,
            MEASURES);
        Map<List<String>, Long> listed = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        long[] unitsSeen = {0};
        backend.keptGroups(spec, groups -> {
          unitsSeen[0]++;
          assertTrue(!groups.isEmpty() && groups.size() <= l0, "1..L0 groups per unit");
          Set<List<String>> distinct = new HashSet<>();
          for (List<Object> g : groups) {
            assertTrue(distinct.add(ContractOracle.key(g)), "distinct groups per unit");
            listed.merge(ContractOracle.key(g), 1L, Long::sum);
          }
        });
        Map<List<String>, Long> counted = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        run(spec).forEach((k, g) -> counted.put(k, g.units()));
        assertEquals(counted.toString(), listed.toString(), table + " L0 = " + l0);
        assertTrue(unitsSeen[0] > 0);
      }
    }
    BoundedAggregation rowLevel = spec("crafted", Optional.empty(), List.of("g"), 1, 1, 3,
        MEASURES);
    long[] rows = {0};
    backend.keptGroups(rowLevel, groups -> {
      assertEquals(1, groups.size(), "a row is a unit of one group");
      rows[0]++;
    });
    assertEquals(run(rowLevel).values().stream().mapToLong(GroupAggregate::units).sum(), rows[0]);
  }

  @Test
  void aggregate_addingOneUnit_changesOnlyThatUnitsContributions() {
    for (long salt = 1; salt <= 2; salt++) {
      Map<List<String>, GroupAggregate> a = run(spec("base", Optional.of("uid"), List.of("g"), 2, 3,
          salt, MEASURES));
      Map<List<String>, GroupAggregate> b = run(spec("plus", Optional.of("uid"), List.of("g"), 2, 3,
          salt, MEASURES));
      long unitDiff = 0;
      long rowDiff = 0;
      long sumDiff = 0;
      for (List<String> key : b.keySet()) {
        GroupAggregate gb = b.get(key);
        GroupAggregate ga = a.get(key);
        long ua = ga == null ? 0 : ga.units();
        assertTrue(gb.units() - ua >= 0 && gb.units() - ua <= 1, "per-group unit change");
        unitDiff += gb.units() - ua;
        rowDiff += gb.rows() - (ga == null ? 0 : ga.rows());
        sumDiff += Math.abs(gb.sums()[0] - (ga == null ? 0 : ga.sums()[0]));
      }
      assertEquals(2, unitDiff, "the added unit appears in exactly L0 groups");
      assertEquals(2 * 3, rowDiff, "and contributes L∞ rows to each");
      assertEquals(2 * 3 * 10, sumDiff, "its clamped sum is 2 groups × 3 rows × 10");
      assertTrue(b.keySet().containsAll(a.keySet()), "no group of the others disappears");
    }
  }

  // ---- Total row cap per unit (ZetaSQL's max_rows_contributed, docs/proofs/rows-contributed.md) --

  private static BoundedAggregation rowsCapped(String table, List<String> groupBy, int m,
      long salt, List<Measure> measures) {
    return new BoundedAggregation(Source.table(table), Optional.empty(), Optional.of("uid"),
        groupBy, Optional.empty(), m, m, salt, measures, m);
  }

  @Test
  void aggregate_rowsCapNotBindingOrOneGroup_exactAggregatesOfTheContract() {
    // Crafted units have at most 40 rows: a cap of 40 keeps every row of every unit, over any
    // number of groups; without GROUP BY the cap is the unit's only pair's L∞.
    assertContract(rowsCapped("crafted", List.of("g"), 40, 7, MEASURES));
    assertContract(rowsCapped("crafted", List.of("g", "h"), 1000, 3, PAIR_CLAMPED));
    assertContract(rowsCapped("crafted", List.of(), 3, 5, SUMS));
    assertContract(rowsCapped("empty", List.of("g"), 2, 1, MEASURES));
  }

  @Test
  void aggregate_rowsCapBinding_keepsExactlyMRowsOfAUnitOverItsGroups() {
    // Unit 1: 5 rows of 100 in each of 10 groups; unit 2: one row of 5 in g0. Cap 7: unit 1 keeps
    // 7 rows in total (5 in its first group by salted hash, 2 in its second), whatever the salt.
    for (long salt = 0; salt < 6; salt++) {
      Map<List<String>, GroupAggregate> groups = run(rowsCapped("heavy", List.of("g"), 7, salt,
          MEASURES));
      long units = groups.values().stream().mapToLong(GroupAggregate::units).sum();
      long rows = groups.values().stream().mapToLong(GroupAggregate::rows).sum();
      long sum = groups.values().stream().mapToLong(g -> g.sums()[0]).sum();
      long count = groups.values().stream().mapToLong(g -> g.counts()[2]).sum();
      long binned = groups.values().stream().mapToLong(g -> Arrays.stream(g.bins()[3]).sum()).sum();
      assertEquals(1 + 2, units, "unit 1 in exactly 2 groups, salt " + salt);
      assertEquals(7 + 1, rows, "7 rows of unit 1 in total, salt " + salt);
      assertEquals(7 * 10 + 5, sum, "7 clamped values of 10, salt " + salt);
      assertEquals(7 + 1, count, "7 values of unit 1 counted, salt " + salt);
      assertEquals(7 + 1, binned, "7 binned rows of unit 1, salt " + salt);
      long fives = groups.values().stream().filter(g -> g.rows() - (g.key().equals(List.of("g0"))
          ? 1 : 0) == 5).count();
      assertEquals(1, fives, "its first group keeps all 5 rows, salt " + salt);
    }
    Set<Set<List<String>>> choices = new HashSet<>();
    for (long salt = 10; salt < 16; salt++) {
      choices.add(new HashSet<>(run(rowsCapped("heavy", List.of("g"), 7, salt, MEASURES))
          .keySet()));
    }
    assertTrue(choices.size() > 2, "which groups keep the rows depends on the salt");
  }

  @Test
  void aggregate_rowsCapAddingOneUnit_changesOnlyThatUnitsContributions() {
    // Unit 999 adds 40 rows of 50 over 13 groups; cap 4: it adds exactly 4 rows, 4 clamped values
    // of 10, over 1 to 4 groups; every other unit's kept rows are the same in both tables.
    for (long salt = 1; salt <= 3; salt++) {
      Map<List<String>, GroupAggregate> a = run(rowsCapped("base", List.of("g"), 4, salt,
          MEASURES));
      Map<List<String>, GroupAggregate> b = run(rowsCapped("plus", List.of("g"), 4, salt,
          MEASURES));
      long unitDiff = 0;
      long rowDiff = 0;
      long sumDiff = 0;
      for (List<String> key : b.keySet()) {
        GroupAggregate gb = b.get(key);
        GroupAggregate ga = a.get(key);
        long ua = ga == null ? 0 : ga.units();
        assertTrue(gb.units() - ua >= 0 && gb.units() - ua <= 1, "per-group unit change");
        long rd = gb.rows() - (ga == null ? 0 : ga.rows());
        assertTrue(rd >= 0 && rd <= 4 * (gb.units() - ua), "rows only where the unit is");
        unitDiff += gb.units() - ua;
        rowDiff += rd;
        sumDiff += gb.sums()[0] - (ga == null ? 0 : ga.sums()[0]);
      }
      assertTrue(unitDiff >= 1 && unitDiff <= 4, "the added unit is in 1..m groups: " + unitDiff);
      assertEquals(4, rowDiff, "and contributes exactly m rows in total");
      assertEquals(4 * 10, sumDiff, "its clamped sum is 4 rows × 10");
      assertTrue(b.keySet().containsAll(a.keySet()), "no group of the others disappears");
    }
  }

  @Test
  void keptGroups_rowsCap_areThePairsAggregated() {
    if (!backend.listsKeptGroups()) {
      return;
    }
    BoundedAggregation spec = rowsCapped("crafted", List.of("g"), 3, 5, MEASURES);
    Map<List<String>, Long> listed = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
    backend.keptGroups(spec, groups -> {
      assertTrue(!groups.isEmpty() && groups.size() <= 3, "1..m groups per unit");
      groups.forEach(g -> listed.merge(ContractOracle.key(g), 1L, Long::sum));
    });
    Map<List<String>, Long> counted = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
    run(spec).forEach((k, g) -> counted.put(k, g.units()));
    assertEquals(counted.toString(), listed.toString());
  }

  @Test
  void aggregate_sumOfSquaresBeyond64Bits_saturatesAtThePublicCap() {
    // Two values of 2^31 in one pair: Σv² = 2^63 leaves 64 bits; nothing may fail after the charge
    // (issue 10, item 3): the group's sum of squares saturates at Measure.SUM_CAP.
    BoundedAggregation s = spec("huge", Optional.of("uid"), List.of("g"), 1, 2, 0,
        List.of(new Measure.FixedPointSum("x", 0, Math.scalb(1.0, 31), 0, 0, true)));
    assertContract(s);
    assertEquals(Measure.SUM_CAP, run(s).get(List.of("g")).squares()[0]);
  }

  @Test
  void describe_registeredTable_columnsInOrderWithTheirKinds() {
    TableSchema schema = backend.describe(Source.table("crafted"));
    assertEquals(COLUMNS, schema.columns().stream().map(TableSchema.Column::name).toList());
    assertEquals(TYPES, schema.columns().stream().map(TableSchema.Column::type).toList());
  }

  @Test
  void describe_missingTable_throwsIllegalArgumentNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> backend.describe(Source.table("no_such_table")));
    assertTrue(e.getMessage().contains("no_such_table"), e.getMessage());
  }

  // ---- Joins (issue 25): the bounding plan over a relational plan (Source.Relational) ----------

  private static final List<String> JOINED = List.of("uid", "name", "qty", "label");
  private final Map<String, List<List<?>>> joinTables = new TreeMap<>();

  /**
   * customer (60 units; nation 0..5 or NULL), orders (0..6 per customer, unique keys), lineitem
   * (0..4 per order, plus a dangling and a NULL order key; NULL/NaN/∞ quantities), nation (public;
   * key 3 twice, key 5 missing).
   */
  private void registerJoinTables() {
    SeededRandomSource r = new SeededRandomSource(20261127L);
    List<List<?>> customer = new ArrayList<>();
    List<List<?>> orders = new ArrayList<>();
    List<List<?>> lineitem = new ArrayList<>();
    long okey = 100;
    for (long u = 1; u <= 60; u++) {
      customer.add(Arrays.asList(u, u % 11 == 0 ? null : r.nextLong(6), r.nextLong(4) == 0 ? "it's" : "plain"));
      long n = r.nextLong(7);
      for (int k = 0; k < n; k++) {
        long o = okey++;
        orders.add(Arrays.asList(o, u, (double) r.nextLong(100)));
        long items = r.nextLong(5);
        for (int i = 0; i < items; i++) {
          Object q = r.nextLong(12) == 0 ? null : VALUES[(int) r.nextLong(VALUES.length)];
          if (q != null && r.nextBoolean()) {
            q = (double) r.nextLong(40) / 4;
          }
          lineitem.add(Arrays.asList(o, q));
        }
      }
    }
    lineitem.add(Arrays.asList(99_999L, 1.0));
    lineitem.add(Arrays.asList(null, 1.0));
    List<List<?>> nation = List.of(Arrays.asList(0L, "n0"), Arrays.asList(1L, "n1"),
        Arrays.asList(2L, "it's"), Arrays.asList(3L, "n3a"), Arrays.asList(3L, "n3b"),
        Arrays.asList(4L, "n4"));
    joinTable("j_customer", List.of("uid", "nat", "label"),
        List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.STRING), customer);
    joinTable("j_orders", List.of("okey", "uid", "total"),
        List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.FLOATING), orders);
    joinTable("j_lineitem", List.of("okey", "qty"), List.of(ColumnType.INTEGER, ColumnType.FLOATING),
        lineitem);
    joinTable("j_nation", List.of("nat", "name"), List.of(ColumnType.INTEGER, ColumnType.STRING), nation);
    // the neighbour of the self-join cases: without the unit with the most orders
    Map<Object, Long> perUnit = new TreeMap<>();
    orders.forEach(o -> perUnit.merge(o.get(1), 1L, Long::sum));
    selfJoinVictim = (Long) perUnit.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow()
        .getKey();
    joinTable("j_orders_minus", List.of("okey", "uid", "total"),
        List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.FLOATING),
        orders.stream().filter(o -> !selfJoinVictim.equals(o.get(1))).toList());
  }

  private Long selfJoinVictim;

  private void joinTable(String name, List<String> columns, List<ColumnType> types, List<List<?>> rows) {
    joinTables.put(name, rows);
    register(backend, name, columns, types, rows);
  }

  private org.privet.engine.plan.Relation.Scan scan(String alias, String table, boolean isPublic) {
    Source s = Source.table(table);
    return new org.privet.engine.plan.Relation.Scan(alias, s, backend.describe(s), isPublic);
  }

  /**
   * lineitem ⋈ orders ⋈ customer along the references, LEFT ⋈ nation (public), projected to
   * (uid, name, qty, label); with {@code filter}, a Select over that projection and a second
   * projection (every node kind below the truncation).
   */
  private Source joinedSource(Filter filter) {
    org.privet.engine.plan.Relation.Scan l = scan("l", "j_lineitem", false);
    org.privet.engine.plan.Relation.Scan o = scan("o", "j_orders", false);
    org.privet.engine.plan.Relation.Scan c = scan("c", "j_customer", false);
    org.privet.engine.plan.Relation.Scan n = scan("n", "j_nation", true);
    org.privet.engine.plan.Relation rel = new org.privet.engine.plan.Relation.Join(
        org.privet.engine.plan.Relation.JoinKind.INNER, l, o,
        List.of(new org.privet.engine.plan.Relation.Join.Key("l.okey", "o.okey")),
        org.privet.engine.plan.Relation.JoinRole.ALONG_REFERENCE);
    rel = new org.privet.engine.plan.Relation.Join(org.privet.engine.plan.Relation.JoinKind.INNER, rel,
        c, List.of(new org.privet.engine.plan.Relation.Join.Key("o.uid", "c.uid")),
        org.privet.engine.plan.Relation.JoinRole.ALONG_REFERENCE);
    rel = new org.privet.engine.plan.Relation.Join(org.privet.engine.plan.Relation.JoinKind.LEFT, rel,
        n, List.of(new org.privet.engine.plan.Relation.Join.Key("c.nat", "n.nat")),
        org.privet.engine.plan.Relation.JoinRole.PUBLIC);
    org.privet.engine.plan.Relation.Project p = new org.privet.engine.plan.Relation.Project(rel, List.of(
        new org.privet.engine.plan.Relation.Project.Output("uid", "c.uid"),
        new org.privet.engine.plan.Relation.Project.Output("name", "n.name"),
        new org.privet.engine.plan.Relation.Project.Output("qty", "l.qty"),
        new org.privet.engine.plan.Relation.Project.Output("label", "c.label")));
    if (filter != null) {
      p = new org.privet.engine.plan.Relation.Project(new org.privet.engine.plan.Relation.Select(p, filter),
          JOINED.stream().map(x -> new org.privet.engine.plan.Relation.Project.Output(x, x)).toList());
    }
    return new Source.Relational(p, "c.uid");
  }

  /** The joined rows, computed here: (uid, name, qty, label) as the SQL joins define them. */
  private List<List<?>> joinedRows() {
    List<List<?>> out = new ArrayList<>();
    for (List<?> li : joinTables.get("j_lineitem")) {
      for (List<?> o : joinTables.get("j_orders")) {
        if (li.get(0) == null || !li.get(0).equals(o.get(0))) {
          continue;
        }
        for (List<?> c : joinTables.get("j_customer")) {
          if (!o.get(1).equals(c.get(0))) {
            continue;
          }
          boolean matched = false;
          for (List<?> n : joinTables.get("j_nation")) {
            if (c.get(1) != null && c.get(1).equals(n.get(0))) {
              out.add(Arrays.asList(c.get(0), n.get(1), li.get(1), c.get(2)));
              matched = true;
            }
          }
          if (!matched) {
            out.add(Arrays.asList(c.get(0), null, li.get(1), c.get(2)));
          }
        }
      }
    }
    return out;
  }

  private void assertJoinContract(BoundedAggregation spec, Predicate<List<?>> filter) {
    assertContract(spec, JOINED, joinedRows(), filter);
  }

  private static final List<Measure> QTY = List.of(new Measure.FixedPointSum("qty", 0, 10, 2, 0, false));

  @Test
  void aggregate_joinedRelation_exactAggregatesPerUnitOverTheJoinedRows() {
    // 6 names at most per unit (L0 = 8 never binds); L∞ = 1000 never binds.
    assertJoinContract(new BoundedAggregation(joinedSource(null), Optional.empty(), Optional.of("uid"),
        List.of("name"), Optional.empty(), 8, 1000, 3, QTY), row -> true);
  }

  @Test
  void aggregate_joinedRelation_linfBoundsEachUnitsJoinedRows() {
    // L∞ = 2 binds on joined rows: each unit keeps at most 2 rows per name (the truncation).
    BoundedAggregation s = new BoundedAggregation(joinedSource(null), Optional.empty(),
        Optional.of("uid"), List.of("name"), Optional.empty(), 8, 2, 5, QTY);
    assertJoinContract(s, row -> true);
    assertJoinContract(new BoundedAggregation(joinedSource(null), Optional.empty(), Optional.of("uid"),
        List.of(), Optional.empty(), 1, 3, 5, QTY), row -> true);
  }

  @Test
  void aggregate_joinedRelationWithSelectAndFilter_quotesAndPublicGroups() {
    Filter inPlan = Filter.or(Filter.eq("label", "it's"), Filter.eq("name", "it's"));
    Filter onTop = Filter.not(Filter.eq("name", "n1"));
    Predicate<List<?>> same = row -> ("it's".equals(row.get(3)) || "it's".equals(row.get(1)))
        && row.get(1) != null && !"n1".equals(row.get(1));
    List<List<Object>> keys = List.of(List.of("it's"), List.of("n3a"), List.of("n3b"), List.of("n0"));
    assertJoinContract(new BoundedAggregation(joinedSource(inPlan), Optional.of(ColumnLiterals.typed(
        onTop, backend.describe(joinedSource(inPlan)))), Optional.of("uid"), List.of("name"),
        Optional.of(keys), 8, 1000, 7, QTY), same);
  }

  /**
   * A computed column over the joined rows, {@code qty * 2 - 1} (Relation.Compute): NULL and NaN
   * give NULL, ±∞ and huge values are clamped to ±2^500 at each step (no backend may fail on a
   * value, PostgreSQL's float overflow included), then the measure clamps as usual.
   */
  @Test
  void aggregate_computedColumn_isTotalAndExact() {
    Source joined = joinedSource(null);
    org.privet.engine.plan.Relation.Project p = (org.privet.engine.plan.Relation.Project)
        ((Source.Relational) joined).relation();
    org.privet.engine.plan.Expr e = new org.privet.engine.plan.Expr.Arith('-',
        new org.privet.engine.plan.Expr.Arith('*', new org.privet.engine.plan.Expr.Column("qty"),
            new org.privet.engine.plan.Expr.Number(2)), new org.privet.engine.plan.Expr.Number(1));
    org.privet.engine.plan.Relation.Project computed = new org.privet.engine.plan.Relation.Project(
        new org.privet.engine.plan.Relation.Compute(p, "q2", e),
        List.of(new org.privet.engine.plan.Relation.Project.Output("uid", "uid"),
            new org.privet.engine.plan.Relation.Project.Output("name", "name"),
            new org.privet.engine.plan.Relation.Project.Output("qty", "q2"),
            new org.privet.engine.plan.Relation.Project.Output("label", "label")));
    BoundedAggregation spec = new BoundedAggregation(new Source.Relational(computed, "c.uid"),
        Optional.empty(), Optional.of("uid"), List.of("name"), Optional.empty(), 8, 1000, 3,
        List.of(new Measure.FixedPointSum("qty", -5, 30, 2, 0, false)));
    double bound = Math.scalb(1.0, 500);
    List<List<?>> rows = new ArrayList<>();
    for (List<?> r : joinedRows()) {
      Double q = (Double) r.get(2);
      Double v = null;
      if (q != null && !q.isNaN()) {
        double x = Math.max(-bound, Math.min(bound, q));
        x = Math.max(-bound, Math.min(bound, x * 2));
        v = Math.max(-bound, Math.min(bound, x - 1));
      }
      rows.add(Arrays.asList(r.get(0), r.get(1), v, r.get(3)));
    }
    assertContract(spec, JOINED, rows, row -> true);
  }

  // ---- Self-joins on the unit (issue 25; docs/proofs/r2t-truncation.md, "Self-joins") ----------

  private static final long CAP_SALT = 77;

  private org.privet.engine.plan.Relation capped(org.privet.engine.plan.Relation r, String unit,
      long m, long salt) {
    return new org.privet.engine.plan.Relation.UnitCap(r, unit, m, salt);
  }

  /** {@code left} ⋈ {@code right} on the unit (JoinRole.UNIT), projected to (uid, x). */
  private Source onTheUnit(org.privet.engine.plan.Relation left, String leftUnit,
      org.privet.engine.plan.Relation right, String rightUnit, String x) {
    org.privet.engine.plan.Relation j = new org.privet.engine.plan.Relation.Join(
        org.privet.engine.plan.Relation.JoinKind.INNER, left, right,
        List.of(new org.privet.engine.plan.Relation.Join.Key(leftUnit, rightUnit)),
        org.privet.engine.plan.Relation.JoinRole.UNIT);
    return new Source.Relational(new org.privet.engine.plan.Relation.Project(j, List.of(
        new org.privet.engine.plan.Relation.Project.Output("uid", leftUnit),
        new org.privet.engine.plan.Relation.Project.Output("x", x))), leftUnit);
  }

  private static final List<String> UID_X = List.of("uid", "x");

  private BoundedAggregation selfJoinSpec(Source s, List<Measure> measures) {
    return new BoundedAggregation(s, Optional.empty(), Optional.of("uid"), List.of(),
        Optional.empty(), 1, 1_000_000, 9, measures);
  }

  /** Rows of table {@code t} per unit (column {@code unitAt}). */
  private Map<Object, Long> perUnit(List<List<?>> rows, int unitAt) {
    Map<Object, Long> m = new java.util.HashMap<>();
    rows.forEach(r -> m.merge(r.get(unitAt), 1L, Long::sum));
    return m;
  }

  /**
   * orders ⋈ orders on the unit, each side capped at m rows per unit: with m = 1000 (not binding)
   * the joined rows are every pair of one unit's orders (checked with o1's totals); with m = 2
   * each unit has min(n, 2)² rows (checked with a per-unit constant, since which rows stay is the
   * backend's hash). Both computed here from the table's rows.
   */
  @Test
  void aggregate_selfJoinOnTheUnit_eachSideCapped_rowsAreTheProductOfTheCaps() {
    List<List<?>> orders = joinTables.get("j_orders");
    List<Measure> sum = List.of(new Measure.FixedPointSum("x", 0, 1000, 1, 0, false));
    List<List<?>> pairs = new ArrayList<>();
    for (List<?> a : orders) {
      for (List<?> b : orders) {
        if (a.get(1).equals(b.get(1))) {
          pairs.add(Arrays.asList(a.get(1), a.get(2)));
        }
      }
    }
    Source all = onTheUnit(capped(scan("o1", "j_orders", false), "o1.uid", 1000, CAP_SALT), "o1.uid",
        capped(scan("o2", "j_orders", false), "o2.uid", 1000, CAP_SALT), "o2.uid", "o1.total");
    assertContract(selfJoinSpec(all, sum), UID_X, pairs, row -> true);
    List<List<?>> capped = new ArrayList<>();
    perUnit(orders, 1).forEach((u, n) -> {
      for (long i = 0; i < Math.min(n, 2) * Math.min(n, 2); i++) {
        capped.add(Arrays.asList(u, ((Long) u).doubleValue()));
      }
    });
    Source two = onTheUnit(capped(scan("o1", "j_orders", false), "o1.uid", 2, CAP_SALT), "o1.uid",
        capped(scan("o2", "j_orders", false), "o2.uid", 2, CAP_SALT), "o2.uid", "o2.uid");
    assertContract(selfJoinSpec(two, sum), UID_X, capped, row -> true);
  }

  /**
   * A chain and a copy: (lineitem ⋈ orders along the reference, capped per unit) ⋈ (orders,
   * capped) on the unit. Not binding: every (line item of u, order of u) pair with the line item's
   * quantity (NULL, NaN, ±∞ included); with m = 2: min(a, 2)·min(b, 2) rows per unit.
   */
  @Test
  void aggregate_chainJoinedWithACopyOnTheUnit_exactOverTheJoinedRows() {
    List<List<?>> orders = joinTables.get("j_orders");
    Map<Object, Object> unitOfOrder = new java.util.HashMap<>();
    orders.forEach(o -> unitOfOrder.put(o.get(0), o.get(1)));
    List<List<?>> items = new ArrayList<>(); // (uid, qty) of the line items with an order
    for (List<?> li : joinTables.get("j_lineitem")) {
      if (li.get(0) != null && unitOfOrder.containsKey(li.get(0))) {
        items.add(Arrays.asList(unitOfOrder.get(li.get(0)), li.get(1)));
      }
    }
    List<List<?>> rows = new ArrayList<>();
    for (List<?> it : items) {
      for (List<?> o : orders) {
        if (it.get(0).equals(o.get(1))) {
          rows.add(it);
        }
      }
    }
    for (long m : new long[] {1000, 2}) {
      org.privet.engine.plan.Relation chain = new org.privet.engine.plan.Relation.Join(
          org.privet.engine.plan.Relation.JoinKind.INNER, scan("l", "j_lineitem", false),
          scan("o1", "j_orders", false),
          List.of(new org.privet.engine.plan.Relation.Join.Key("l.okey", "o1.okey")),
          org.privet.engine.plan.Relation.JoinRole.ALONG_REFERENCE);
      Source s = onTheUnit(capped(chain, "o1.uid", m, CAP_SALT), "o1.uid",
          capped(scan("o2", "j_orders", false), "o2.uid", m, CAP_SALT), "o2.uid",
          m == 2 ? "o2.uid" : "l.qty");
      if (m == 1000) {
        assertContract(selfJoinSpec(s, QTY.stream().map(q -> (Measure) new Measure.FixedPointSum(
            "x", 0, 10, 2, 0, false)).toList()), UID_X, rows, row -> true);
      } else {
        Map<Object, Long> a = perUnit(items, 0);
        Map<Object, Long> b = perUnit(orders, 1);
        List<List<?>> capped = new ArrayList<>();
        a.forEach((u, n) -> {
          for (long i = 0; i < Math.min(n, 2) * Math.min(b.get(u), 2); i++) {
            capped.add(Arrays.asList(u, ((Long) u).doubleValue()));
          }
        });
        assertContract(selfJoinSpec(s, List.of(new Measure.FixedPointSum("x", 0, 1000, 0, 0,
            false))), UID_X, capped, row -> true);
      }
    }
  }

  /** The orders kept by a cap of {@code m} per unit over {@code table}, by unit. */
  private Map<Object, Set<Object>> keptOrders(String table, long m, long salt) {
    org.privet.engine.plan.Relation r = capped(scan("o", table, false), "o.uid", m, salt);
    Source s = new Source.Relational(new org.privet.engine.plan.Relation.Project(r, List.of(
        new org.privet.engine.plan.Relation.Project.Output("uid", "o.uid"),
        new org.privet.engine.plan.Relation.Project.Output("okey", "o.okey"))), "o.uid");
    Map<Object, Set<Object>> out = new TreeMap<>();
    Map<Object, Object> unitOf = new java.util.HashMap<>();
    joinTables.get("j_orders").forEach(o -> unitOf.put(o.get(0), o.get(1)));
    backend.aggregate(new BoundedAggregation(s, Optional.empty(), Optional.of("uid"),
        List.of("okey"), Optional.empty(), 1000, 1000, 3, List.of()), g -> {
          if (g.units() > 0) {
            assertEquals(1, g.rows(), "one row per order key");
            Object okey = ((Number) g.key().get(0)).longValue();
            out.computeIfAbsent(unitOf.get(okey), k -> new java.util.TreeSet<>()).add(okey);
          }
        });
    return out;
  }

  /**
   * Relation.UnitCap is unit-local: each unit keeps min(n, m) of its own rows; on the neighbour
   * without one unit every other unit keeps exactly the same rows; another salt chooses other rows.
   */
  @Test
  void unitCap_keepsMinNmOfItsOwnRows_theSameOnANeighbour_dependsOnTheSalt() {
    Map<Object, Long> n = perUnit(joinTables.get("j_orders"), 1);
    Map<Object, Set<Object>> d = keptOrders("j_orders", 2, CAP_SALT);
    assertEquals(n.keySet(), d.keySet());
    n.forEach((u, k) -> assertEquals(Math.min(k, 2), d.get(u).size(), "unit " + u));
    Map<Object, Set<Object>> dPrime = keptOrders("j_orders_minus", 2, CAP_SALT);
    Map<Object, Set<Object>> others = new TreeMap<>(d);
    others.remove(selfJoinVictim);
    assertEquals(others, dPrime, "the other units keep the same rows");
    assertTrue(!keptOrders("j_orders", 2, CAP_SALT + 1).equals(d), "the salt chooses the rows");
  }

  /**
   * R2T for SUM (docs/proofs/r2t-truncation.md, "SUM"): the one bounding plan {@code R2TPass}
   * compiles, a fixed-point measure per threshold τ_j = 2^j with an all-rows pair clamp [0, τ_j]
   * (grid units), over the joined relation. The backend's sums equal the contract oracle's and,
   * computed here from the joined rows, Σ_u min(c_u, τ_j) with c_u = Σ rnd(clamp(qty, 0, 10)·2^k)
   * over unit u's joined rows (NULL/NaN ignored, ±∞ clamped).
   */
  @Test
  void aggregate_r2tSumPlan_eachMeasureIsTheSumOfTruncatedUnitTotals() {
    Source joined = joinedSource(null);
    org.privet.engine.Query q = org.privet.engine.Query.from(joined).privacyUnit("uid")
        .sum("s", "qty", 0, 10).truncateR2T(64).epsilon(1).build();
    org.privet.engine.compile.R2TPass pass = org.privet.engine.compile.R2TPass.compile(q,
        backend.describe(joined), 5);
    assertEquals(1, pass.specs().size());
    BoundedAggregation spec = pass.specs().get(0);
    assertContract(spec, JOINED, joinedRows(), row -> true);
    int k = pass.gridExponent();
    Map<Object, Long> perUnit = new java.util.HashMap<>();
    for (List<?> r : joinedRows()) {
      Double qty = (Double) r.get(2);
      if (qty != null && !qty.isNaN()) {
        perUnit.merge(r.get(0), (long) Math.rint(Math.scalb(Math.max(0, Math.min(10, qty)), k)),
            Long::sum);
      }
    }
    List<GroupAggregate> groups = new ArrayList<>();
    backend.aggregate(spec, groups::add);
    long[] exact = pass.exact(List.of(groups)).get(0).exact();
    assertEquals(6, exact.length);
    for (int j = 1; j <= 6; j++) {
      long tau = 1L << (j + k);
      long expected = perUnit.values().stream().mapToLong(c -> Math.min(c, tau)).sum();
      assertEquals(expected, exact[j - 1], "Q(I, 2^" + j + ")");
    }
    assertTrue(exact[0] < exact[5] && perUnit.values().stream().anyMatch(c -> c > (1L << (6 + k))),
        "the fixture has a unit above the top threshold and thresholds that bind");
  }

  /**
   * R2T for COUNT(*) in one pass (docs/proofs/r2t-truncation.md, "The engine's use"): the one
   * bounding plan {@code R2TPass} compiles, a row-count measure per threshold τ_j = 2^j with an
   * all-rows pair clamp [0, τ_j], over the joined relation, scalar and per public group (L0 = 8
   * never binds: at most 6 names per unit). Each measure's sum equals the contract oracle's and,
   * computed here from the joined rows (rows with a NULL or NaN quantity count too),
   * Σ_u min(c_u, τ_j) per group with c_u unit u's joined rows in the group.
   */
  @Test
  void aggregate_r2tCountPlan_onePassEachMeasureIsTheCountOfTruncatedUnitRows() {
    Source joined = joinedSource(null);
    List<String> names = new ArrayList<>(List.of("n0", "n1", "it's", "n3a", "n3b", "n4"));
    for (boolean grouped : new boolean[] {false, true}) {
      org.privet.engine.Query.Builder b = org.privet.engine.Query.from(joined).privacyUnit("uid")
          .count("n").truncateR2T(16).epsilon(1);
      if (grouped) {
        List<List<?>> keys = new ArrayList<>();
        names.forEach(x -> keys.add(List.of(x)));
        keys.add(Arrays.asList((Object) null)); // customers without a nation (LEFT join)
        b.groupBy("name").publicGroups(keys).maxGroupsContributed(8);
      }
      org.privet.engine.compile.R2TPass pass = org.privet.engine.compile.R2TPass.compile(b.build(),
          backend.describe(joined), 5);
      assertEquals(1, pass.specs().size(), "one backend pass for every threshold");
      BoundedAggregation spec = pass.specs().get(0);
      assertEquals(4, spec.measures().size());
      assertContract(spec, JOINED, joinedRows(), row -> true);
      // c_{u,g} from the joined rows, independently of the plan.
      Map<List<Object>, Map<Object, Long>> perGroupUnit = new java.util.LinkedHashMap<>();
      for (List<?> r : joinedRows()) {
        List<Object> key = grouped ? Arrays.asList(r.get(1)) : List.of();
        perGroupUnit.computeIfAbsent(key, k -> new java.util.HashMap<>()).merge(r.get(0), 1L,
            Long::sum);
      }
      List<GroupAggregate> groups = new ArrayList<>();
      backend.aggregate(spec, groups::add);
      List<org.privet.engine.compile.R2TPass.GroupValues> values = pass.exact(List.of(groups));
      assertEquals(grouped ? names.size() + 1 : 1, values.size());
      boolean binds = false;
      for (org.privet.engine.compile.R2TPass.GroupValues g : values) {
        Map<Object, Long> perUnit = perGroupUnit.getOrDefault(g.key(), Map.of());
        for (int j = 1; j <= 4; j++) {
          long tau = 1L << j;
          long expected = perUnit.values().stream().mapToLong(c -> Math.min(c, tau)).sum();
          assertEquals(expected, g.exact()[j - 1], "group " + g.key() + " Q(I, 2^" + j + ")");
          binds |= perUnit.values().stream().anyMatch(c -> c > tau);
        }
      }
      assertTrue(binds && perGroupUnit.values().stream().flatMap(m -> m.values().stream())
          .anyMatch(c -> c > 16), "the fixture has thresholds that bind and a unit above the top");
    }
  }

  /**
   * A COUNT(*) query's L∞ estimate and main pass from one statement ({@link PairRowsHistogram},
   * docs/proofs/contribution-bound-estimate.md, "COUNT(*) from the pairs' row-count histogram"),
   * over the joined relation, scalar and per public group (L0 = 8 never binds: at most 6 names per
   * unit). The backend's histogram of the kept pairs' row counts equals the one computed here
   * from the joined rows (per group, the number of units with exactly n joined rows), and the
   * groups computed from it equal, field by field, what the backend's own statement returns for
   * the estimate's spec (the pair-rows cells) and for the COUNT(*) main pass at every τ = 1, 2, …,
   * 2^6 with another salt (kept units, Σ_u min(c_u, τ), also checked against the rows).
   */
  @Test
  void pairRowsHistogram_joinedRelation_isTheRowsHistogramAndGivesBothPassesGroups() {
    assertTrue(backend.countsPairRows(), "the backend computes the histogram");
    Source joined = joinedSource(null);
    List<List<Object>> keys = new ArrayList<>();
    for (String x : List.of("n0", "n1", "it's", "n3a", "n3b", "n4")) {
      keys.add(List.of(x));
    }
    keys.add(Arrays.asList((Object) null));
    boolean binds = false;
    for (boolean grouped : new boolean[] {false, true}) {
      List<String> groupBy = grouped ? List.of("name") : List.of();
      Optional<List<List<Object>>> listed = grouped ? Optional.of(keys) : Optional.empty();
      BoundedAggregation template = new BoundedAggregation(joined, Optional.empty(),
          Optional.of("uid"), groupBy, listed, 8, 1, 9, List.of(new Measure.PairRows("uid",
              org.privet.engine.ContributionBoundEstimate.CELLS)));
      assertTrue(PairRowsHistogram.serves(template, template));
      assertContract(template, JOINED, joinedRows(), row -> true);
      // c_{u,g} from the joined rows, apart from the plan; then units per (group, n).
      Map<List<Object>, Map<Object, Long>> perGroupUnit = new java.util.HashMap<>();
      for (List<?> r : joinedRows()) {
        perGroupUnit.computeIfAbsent(grouped ? Arrays.asList(r.get(1)) : List.of(),
            k -> new java.util.HashMap<>()).merge(r.get(0), 1L, Long::sum);
      }
      Map<List<Object>, Long> expected = new java.util.HashMap<>();
      perGroupUnit.forEach((key, units) -> units.values().forEach(n -> {
        List<Object> cell = new ArrayList<>(key);
        cell.add(n);
        expected.merge(cell, 1L, Long::sum);
      }));
      List<PairRowsCount> histogram = new ArrayList<>();
      backend.pairRowsHistogram(template, histogram::add);
      Map<List<Object>, Long> got = new java.util.HashMap<>();
      for (PairRowsCount h : histogram) {
        List<Object> cell = new ArrayList<>(h.key());
        cell.add(h.rows());
        assertEquals(null, got.put(cell, h.pairs()), "one row per (group, n): " + cell);
      }
      assertEquals(expected, got, (grouped ? "per name" : "scalar") + ": the histogram");
      List<BoundedAggregation> specs = new ArrayList<>(List.of(template));
      for (int tau = 1; tau <= 64; tau <<= 1) {
        specs.add(new BoundedAggregation(joined, Optional.empty(), Optional.of("uid"), groupBy,
            listed, 8, tau, 1000 + tau, List.of()));
      }
      for (BoundedAggregation spec : specs) {
        assertTrue(PairRowsHistogram.serves(template, spec));
        List<GroupAggregate> direct = new ArrayList<>();
        backend.aggregate(spec, direct::add);
        List<GroupAggregate> computed = PairRowsHistogram.aggregate(spec, histogram);
        String where = (grouped ? "per name" : "scalar") + ", L∞ " + spec.lInf()
            + (spec.measures().isEmpty() ? "" : " (the estimate's cells)");
        assertEquals(direct.size(), computed.size(), where + ": groups");
        for (GroupAggregate g : direct) {
          GroupAggregate h = computed.stream().filter(x -> x.key().equals(g.key())).findFirst()
              .orElseThrow(() -> new AssertionError(where + ": group " + g.key()));
          String at = where + ", group " + g.key();
          assertEquals(g.units(), h.units(), at + " units");
          assertEquals(g.rows(), h.rows(), at + " rows");
          assertEquals(Arrays.deepToString(g.bins()), Arrays.deepToString(h.bins()), at + " cells");
          assertEquals(Arrays.toString(g.sums()) + Arrays.toString(g.counts())
              + Arrays.toString(g.squares()), Arrays.toString(h.sums())
              + Arrays.toString(h.counts()) + Arrays.toString(h.squares()), at + " arrays");
          long tau = spec.lInf();
          Map<Object, Long> units = perGroupUnit.getOrDefault(grouped ? g.key() : List.of(),
              Map.of());
          assertEquals(units.size(), h.units(), at + " units from the rows");
          assertEquals(units.values().stream().mapToLong(c -> Math.min(c, tau)).sum(), h.rows(),
              at + " Σ_u min(c_u, τ) from the rows");
          binds |= units.values().stream().anyMatch(c -> c > tau);
        }
      }
    }
    assertTrue(binds, "the fixture has thresholds that bind");
  }

  @Test
  void describe_joinedRelation_isThePlansSchemaWithoutReadingRows() {
    TableSchema s = backend.describe(joinedSource(null));
    assertEquals(JOINED, s.columns().stream().map(TableSchema.Column::name).toList());
    assertEquals(List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING, ColumnType.STRING),
        s.columns().stream().map(TableSchema.Column::type).toList());
  }

  /**
   * Relation.KeyUnit (docs/proofs/engine-joins.md, "Keys"): orders whose key is duplicated across
   * units ("a", "b"), within one unit ("c" twice), with a parent without a unit ("d" and NULL),
   * NULL keys; line items joined INNER to the key's one unit keep only the keys whose orders all
   * have one and the same (STRING) unit, with it. Expected rows from the lists here.
   */
  @Test
  void aggregate_keyUnit_keepsOnlyKeysWhoseRowsHaveOneUnit() {
    List<List<?>> orders = List.of(Arrays.asList(1L, "a"), Arrays.asList(1L, "b"), Arrays.asList(2L, "c"),
        Arrays.asList(2L, "c"), Arrays.asList(3L, "d"), Arrays.asList(3L, null), Arrays.asList(4L, null),
        Arrays.asList(5L, "e"), Arrays.asList(null, "f"), Arrays.asList(null, "f"),
        Arrays.asList(6L, "it's"));
    List<List<?>> lineitem = List.of(Arrays.asList(1L, "x", 1.0), Arrays.asList(2L, "x", 2.0),
        Arrays.asList(2L, "y", 2.5), Arrays.asList(3L, "x", 3.0), Arrays.asList(4L, "x", 4.0),
        Arrays.asList(5L, "y", 5.0), Arrays.asList(5L, "y", 0.5), Arrays.asList(null, "x", 1.0),
        Arrays.asList(9L, "x", 1.0), Arrays.asList(6L, "x", 7.25));
    register(backend, "j_kd_orders", List.of("okey", "uid"), List.of(ColumnType.INTEGER, ColumnType.STRING),
        orders);
    register(backend, "j_kd_lineitem", List.of("okey", "g", "qty"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), lineitem);
    org.privet.engine.plan.Relation.Scan l = scan("l", "j_kd_lineitem", false);
    org.privet.engine.plan.Relation.KeyUnit k = new org.privet.engine.plan.Relation.KeyUnit(
        scan("o", "j_kd_orders", false), "o.okey", "o.uid", "k.#key", "k.#unit");
    org.privet.engine.plan.Relation.Project p = new org.privet.engine.plan.Relation.Project(
        new org.privet.engine.plan.Relation.Join(org.privet.engine.plan.Relation.JoinKind.INNER, l, k,
            List.of(new org.privet.engine.plan.Relation.Join.Key("l.okey", "k.#key")),
            org.privet.engine.plan.Relation.JoinRole.ALONG_REFERENCE),
        List.of(new org.privet.engine.plan.Relation.Project.Output("uid", "k.#unit"),
            new org.privet.engine.plan.Relation.Project.Output("g", "l.g"),
            new org.privet.engine.plan.Relation.Project.Output("qty", "l.qty")));
    List<List<?>> expected = new ArrayList<>();
    for (List<?> li : lineitem) {
      java.util.Set<Object> units = new java.util.HashSet<>();
      for (List<?> o : orders) {
        if (li.get(0) != null && li.get(0).equals(o.get(0))) {
          units.add(o.get(1));
        }
      }
      if (units.size() == 1 && !units.contains(null)) {
        expected.add(Arrays.asList(units.iterator().next(), li.get(1), li.get(2)));
      }
    }
    assertEquals(5, expected.size(), "the fixture keeps keys 2, 5 and 6 only");
    assertContract(new BoundedAggregation(new Source.Relational(p, "o.uid"), Optional.empty(),
        Optional.of("uid"), List.of("g"), Optional.empty(), 8, 1000, 3, QTY),
        List.of("uid", "g", "qty"), expected, row -> true);
  }

  /** Every aggregate of {@code got} equals {@code want}'s, group by group. */
  private static void assertSameAggregates(Map<List<String>, GroupAggregate> want,
      Map<List<String>, GroupAggregate> got, String what) {
    assertEquals(want.keySet().toString(), got.keySet().toString(), what + ": groups");
    for (Map.Entry<List<String>, GroupAggregate> e : want.entrySet()) {
      GroupAggregate w = e.getValue();
      GroupAggregate g = got.get(e.getKey());
      String where = what + ", group " + e.getKey();
      assertEquals(w.units(), g.units(), where + " units");
      assertEquals(w.rows(), g.rows(), where + " rows");
      assertArrayEquals(w.sums(), g.sums(), where + " sums");
      assertArrayEquals(w.counts(), g.counts(), where + " counts");
      assertArrayEquals(w.squares(), g.squares(), where + " squares");
      for (int i = 0; i < w.bins().length; i++) {
        assertArrayEquals(w.bins()[i], g.bins()[i], where + " bins of measure " + i);
      }
    }
  }

  /**
   * {@link Backend#sharingRows} (issue 25: one query's passes read one join once): on the view,
   * every spec of the query (the L∞ estimate's pair rows, the release at several L∞ and salts,
   * binding L0 with both strategies, public groups, bins; counts alone, whose passes may share
   * their pairs) gives exactly the backend's own aggregates and kept groups; a spec with another
   * filter or a column the view does not hold runs as on the backend; closing the view leaves
   * the backend open, and a second view on the same rows works as the first.
   */
  @Test
  void sharingRows_passesOfOneQuery_exactlyTheBackendsAggregates() {
    Filter filter = ColumnLiterals.typed(Filter.not(Filter.eq("label", "it's")),
        backend.describe(Source.table("crafted")));
    java.util.function.BiFunction<Integer, Integer, BoundedAggregation> release = (l0, lInf) ->
        spec("crafted", Optional.of("uid"), List.of("g"), l0, lInf, 11 + lInf, Optional.of(filter),
            Optional.empty(), MEASURES);
    java.util.function.BiFunction<Integer, Integer, BoundedAggregation> count = (l0, lInf) ->
        spec("crafted", Optional.of("uid"), List.of("g"), l0, lInf, 3 + lInf, Optional.of(filter),
            Optional.empty(), List.of());
    BoundedAggregation estimate = spec("crafted", Optional.of("uid"), List.of("g"), 3, 1, 5,
        Optional.of(filter), Optional.empty(), List.of(new Measure.PairRows("uid", 20)));
    List<BoundedAggregation> specs = List.of(estimate, release.apply(3, 2), release.apply(1, 4),
        release.apply(12, 1000), count.apply(3, 2), count.apply(3, 7), count.apply(1, 2),
        spec("crafted", Optional.of("uid"), List.of("g"), 2, 3, 9, Optional.of(filter),
            Optional.of(List.of(List.of("g1"), List.of("g4"), Arrays.asList((Object) null))), SUMS),
        spec("crafted", Optional.of("uid"), List.of(), 1, 5, 9, Optional.of(filter),
            Optional.empty(), SUMS),
        // a total row cap per unit (issue 24), with a sum and counting only
        new BoundedAggregation(Source.table("crafted"), Optional.of(filter), Optional.of("uid"),
            List.of("g"), Optional.empty(), 5, 5, 13, SUMS, 5),
        new BoundedAggregation(Source.table("crafted"), Optional.of(filter), Optional.of("uid"),
            List.of("g"), Optional.empty(), 5, 5, 13, List.of(), 5));
    // Passes that read rows (a sum), and passes of counts (their pairs may be shared).
    List<List<BoundedAggregation>> queries = List.of(List.of(estimate, release.apply(3, 2)),
        List.of(estimate, count.apply(3, 2)), List.of(estimate, release.apply(3, 2)));
    for (List<BoundedAggregation> passes : queries) {
      try (Backend shared = backend.sharingRows(passes)) {
        for (BoundedAggregation s : specs) {
          assertSameAggregates(run(s), run(shared, s), passes.get(1).measures().size()
              + " measure(s) in the passes; spec " + s.l0() + "/" + s.lInf() + " "
              + s.measures().size() + " measure(s)");
        }
        // Not the view's rows: another filter, a column it does not hold (h).
        BoundedAggregation other = spec("crafted", Optional.of("uid"), List.of("g"), 3, 2, 4,
            SUMS);
        assertSameAggregates(run(other), run(shared, other), "another filter");
        BoundedAggregation byH = spec("crafted", Optional.of("uid"), List.of("h"), 3, 2, 4,
            Optional.of(filter), Optional.empty(), SUMS);
        assertSameAggregates(run(byH), run(shared, byH), "a column the view does not hold");
        if (backend.listsKeptGroups()) {
          for (int l0 : new int[] {1, 3}) {
            BoundedAggregation s = release.apply(l0, 2);
            List<String> direct = new ArrayList<>();
            List<String> viewed = new ArrayList<>();
            backend.keptGroups(s, g -> direct.add(g.toString()));
            shared.keptGroups(s, g -> viewed.add(g.toString()));
            assertEquals(direct, viewed, "kept groups, L0 = " + l0);
          }
        }
      }
    }
    // Over a join (the case it is for), with a filter on top: rows, then pairs.
    Source joined = joinedSource(null);
    Filter onTop = ColumnLiterals.typed(Filter.not(Filter.eq("name", "n1")), backend.describe(joined));
    BoundedAggregation joinEstimate = new BoundedAggregation(joined, Optional.of(onTop),
        Optional.of("uid"), List.of("name"), Optional.empty(), 2, 1, 3,
        List.of(new Measure.PairRows("uid", 20)));
    BoundedAggregation joinSum = new BoundedAggregation(joined, Optional.of(onTop),
        Optional.of("uid"), List.of("name"), Optional.empty(), 2, 2, 7, QTY);
    BoundedAggregation joinCount = new BoundedAggregation(joined, Optional.of(onTop),
        Optional.of("uid"), List.of("name"), Optional.empty(), 2, 2, 7, List.of());
    for (BoundedAggregation main : List.of(joinSum, joinCount)) {
      try (Backend shared = backend.sharingRows(List.of(joinEstimate, main))) {
        for (BoundedAggregation s : List.of(joinEstimate, main)) {
          assertSameAggregates(run(s), run(shared, s), "joined, L∞ " + s.lInf() + ", "
              + s.measures().size() + " measure(s)");
        }
      }
    }
    assertSameAggregates(run(estimate), run(estimate), "the backend after the views closed");
  }

  /**
   * {@link Backend#sharingRows} when the passes share pairs with values (issue 25: a lone SUM's
   * pair-values estimate and its pair-clamped release; a variance's centred sum with squares): on
   * the view, every spec over the shared pairs (other L0, L∞, salts and pair clamps) gives the
   * oracle's aggregates, computed in the test from the rows; over the crafted values (halves,
   * NaN, ±∞, 1e9) and over a join with a filter on top.
   */
  @Test
  void sharingRows_sumPassesSharePairsWithValues_theOraclesAggregates() {
    Filter filter = ColumnLiterals.typed(Filter.not(Filter.eq("label", "it's")),
        backend.describe(Source.table("crafted")));
    Predicate<List<?>> kept = row -> row.get(4) != null && !"it's".equals(row.get(4));
    java.util.function.Function<List<Measure>, java.util.function.IntFunction<BoundedAggregation>>
        at = ms -> lInf -> spec("crafted", Optional.of("uid"), List.of("g"), 12 + lInf % 3, lInf,
            5 + lInf, Optional.of(filter), Optional.empty(), ms);
    List<Measure> estimate = List.of(new Measure.PairValues("x", -20, 50, 0, 20));
    java.util.function.LongFunction<List<Measure>> clamped = l -> List.of(
        new Measure.FixedPointSum("x", -20, 50, 0, 0, false, new Measure.PairClamp(-20 * l, 50 * l,
            true)));
    List<Measure> variance = List.of(new Measure.FixedPointSum("x", -20, 50, 2, 60, true),
        new Measure.FixedPointSum("x", -20, 50, 2, 60, false),
        new Measure.FixedPointSum("x", -1e9, 1e9, 1, 0, false));
    for (List<List<Measure>> passes : List.of(List.of(estimate, clamped.apply(1 << 19)),
        List.of(variance, variance))) {
      List<BoundedAggregation> specs = passes.stream().map(ms -> at.apply(ms).apply(1)).toList();
      try (Backend shared = backend.sharingRows(specs)) {
        for (int lInf : new int[] {1, 2, 7, 1000}) {
          for (List<Measure> ms : passes) {
            assertContract(shared, at.apply(ms).apply(lInf), COLUMNS, tables.get("crafted"), kept);
          }
          if (passes.get(0) == estimate) {
            assertContract(shared, at.apply(clamped.apply(lInf)).apply(lInf), COLUMNS,
                tables.get("crafted"), kept);
          }
          // L0 binding (pairs kept by salted hash): the backend's own aggregates.
          for (List<Measure> ms : passes) {
            BoundedAggregation b = spec("crafted", Optional.of("uid"), List.of("g"), 1 + lInf % 2,
                lInf, 3 + lInf, Optional.of(filter), Optional.empty(), ms);
            assertSameAggregates(run(b), run(shared, b), "L0 " + b.l0() + ", L∞ " + lInf);
          }
        }
      }
    }
    // Over a join, with a filter on top and no groups (Q18's shape).
    Source joined = joinedSource(null);
    Filter onTop = ColumnLiterals.typed(Filter.not(Filter.eq("name", "n1")), backend.describe(joined));
    Predicate<List<?>> notN1 = row -> row.get(1) != null && !"n1".equals(row.get(1));
    java.util.function.BiFunction<List<Measure>, Integer, BoundedAggregation> joinSpec =
        (ms, lInf) -> new BoundedAggregation(joined, Optional.of(onTop), Optional.of("uid"),
            List.of(), Optional.empty(), 1, lInf, 3, ms);
    List<Measure> qtyValues = List.of(new Measure.PairValues("qty", 0, 10, 2, 20));
    java.util.function.IntFunction<List<Measure>> qtyClamped = l -> List.of(
        new Measure.FixedPointSum("qty", 0, 10, 2, 0, false, new Measure.PairClamp(0, 40L * l, true)));
    try (Backend shared = backend.sharingRows(List.of(joinSpec.apply(qtyValues, 1),
        joinSpec.apply(qtyClamped.apply(1 << 19), 1 << 19)))) {
      assertContract(shared, joinSpec.apply(qtyValues, 1), JOINED, joinedRows(), notN1);
      for (int lInf : new int[] {1, 2, 4}) {
        assertContract(shared, joinSpec.apply(qtyClamped.apply(lInf), lInf), JOINED, joinedRows(),
            notN1);
      }
    }
  }
}
