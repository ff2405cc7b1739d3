package org.privet.engine.spi;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.privet.engine.Source;
import org.privet.engine.plan.Relation;

/**
 * The plans of the declared-keys tests (DuckDB, PostgreSQL): tables {@code line (okey, qty)},
 * {@code ord (okey, uid)} and {@code cust (uid)}; a line item's unit is its order key's one unit
 * ({@link Relation.KeyUnit} over ord), either checked after the joins ({@link
 * Relation.DropBrokenKeys}) or joined inside; and the bounded aggregation both tests run.
 */
public final class KeyUnitPlans {
  private KeyUnitPlans() {}

  private static Relation.Scan scan(Function<Source, TableSchema> describe, String alias,
      String table) {
    return new Relation.Scan(alias, Source.table(table), describe.apply(Source.table(table)),
        false);
  }

  private static Relation.KeyUnit keyUnit(Function<Source, TableSchema> describe) {
    Relation.Scan units = scan(describe, "__unit1", "ord");
    return new Relation.KeyUnit(units, units.name("okey"), units.name("uid"), "__unit1.#key",
        "__unit1.#unit");
  }

  /** line ⋈ ord ⋈ cust, broken keys dropped after the joins (as the join binder places it). */
  public static Source.Relational afterJoins(Function<Source, TableSchema> describe) {
    Relation.Scan l = scan(describe, "l", "line");
    Relation.Scan o = scan(describe, "o", "ord");
    Relation.Scan c = scan(describe, "c", "cust");
    Relation rel = new Relation.Join(Relation.JoinKind.INNER, l, o,
        List.of(new Relation.Join.Key("l.okey", "o.okey")), Relation.JoinRole.ALONG_REFERENCE);
    rel = new Relation.Join(Relation.JoinKind.INNER, rel, c,
        List.of(new Relation.Join.Key("o.uid", "c.uid")), Relation.JoinRole.ALONG_REFERENCE);
    rel = new Relation.DropBrokenKeys(rel, "l.okey", keyUnit(describe));
    return new Source.Relational(new Relation.Project(rel, List.of(
        new Relation.Project.Output("uid", "c.uid"), new Relation.Project.Output("qty", "l.qty"))),
        "c.uid");
  }

  /** line alone, its unit from the key's one unit (KeyUnit joined inside). */
  public static Source.Relational inside(Function<Source, TableSchema> describe) {
    Relation.Scan l = scan(describe, "l", "line");
    Relation.KeyUnit k = keyUnit(describe);
    Relation rel = new Relation.Join(Relation.JoinKind.INNER, l, k,
        List.of(new Relation.Join.Key("l.okey", k.keyName())), Relation.JoinRole.ALONG_REFERENCE);
    return new Source.Relational(new Relation.Project(rel, List.of(
        new Relation.Project.Output("uid", k.unitName()),
        new Relation.Project.Output("qty", "l.qty"))), k.unitName());
  }

  /** Units, rows and Σ clamp(qty, 0, 20)·2 per unit (no cap binds), one group. */
  public static BoundedAggregation spec(Source source) {
    return new BoundedAggregation(source, Optional.empty(), Optional.of("uid"), List.of(),
        Optional.empty(), 1, 1_000_000, 3,
        List.of(new Measure.FixedPointSum("qty", 0, 20, 1, 0, false)));
  }

  /**
   * The reference the tests compare with, computed by the database in plain SQL: units, rows and
   * Σ qty·2 of line items whose key has one unit, joined with cust.
   */
  public static final String REFERENCE = "SELECT COUNT(DISTINCT g.uid), COUNT(*),"
      + " CAST(SUM(qty * 2) AS BIGINT) FROM line JOIN (SELECT okey, MIN(uid) AS uid FROM ord"
      + " GROUP BY okey HAVING COUNT(*) = COUNT(uid) AND MIN(uid) = MAX(uid)) g USING (okey)"
      + " JOIN cust ON cust.uid = g.uid";
}
