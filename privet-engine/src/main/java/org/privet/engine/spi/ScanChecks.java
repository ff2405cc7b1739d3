package org.privet.engine.spi;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.privet.engine.Source;
import org.privet.engine.plan.Relation;

/**
 * The structure check of a relational source's scans (a backend's {@code describe} of a {@link
 * Source.Relational}, before any charge), written once for every backend: each distinct scanned
 * source is checked as the backend describes one, and the refusal is the first failing one's, in
 * scan order. The plain tables may be checked together in one statement first (a backend whose
 * database resolves {@code SELECT 1 FROM t0, t1, ...} iff it resolves each table): when that
 * succeeds they are not described one by one; when it fails, every source is described in order
 * for its own refusal.
 */
public final class ScanChecks {
  private ScanChecks() {}

  /**
   * @param scans the relation's scans, in scan order
   * @param tablesTogether whether the distinct plain tables (two or more, in scan order) all
   *     resolve, checked in one statement; false when any does not (never throws for that)
   * @param describe the backend's describe of one source (throws its refusal)
   */
  public static void check(List<Relation.Scan> scans,
      Predicate<List<Source.Table>> tablesTogether, Consumer<Source> describe) {
    check(scans, 2, tablesTogether, describe);
  }

  /**
   * {@link #check(List, Predicate, Consumer)} with the tables checked together from {@code
   * fewest} distinct tables on: 1 for a backend whose together statement also reads other public
   * facts in the same round trip (DuckDB's declared keys), so even one table is checked that way.
   */
  public static void check(List<Relation.Scan> scans, int fewest,
      Predicate<List<Source.Table>> tablesTogether, Consumer<Source> describe) {
    if (fewest < 1) {
      throw new IllegalArgumentException("fewest must be at least 1");
    }
    LinkedHashSet<Source> sources = new LinkedHashSet<>();
    scans.forEach(scan -> sources.add(scan.source()));
    List<Source.Table> tables = sources.stream().filter(s -> s instanceof Source.Table)
        .map(s -> (Source.Table) s).toList();
    boolean together = tables.size() >= fewest && tablesTogether.test(tables);
    for (Source s : sources) {
      if (!(together && s instanceof Source.Table)) {
        describe.accept(s);
      }
    }
  }
}
