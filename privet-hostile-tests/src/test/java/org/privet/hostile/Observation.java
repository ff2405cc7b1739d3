package org.privet.hostile;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.spi.Backend;
import org.privet.sql.DatasetDescriptor;
import org.privet.sql.DpSql;
import org.privet.sql.DpStatement;
import org.privet.sql.SqlResult;
import org.privet.testing.SeededRandomSource;

/**
 * Everything an analyst observes of one request apart from the noisy values of a successful
 * release: whether it was refused or failed (exception type and message), how many charges were
 * made, the output columns, and — where the output shape is public (no GROUP BY, or public
 * groups) — the number of rows and their keys. Under private partition selection the released
 * rows are themselves a DP output, so neither their number nor their keys are compared.
 *
 * <p>Issue 10's rule: for neighbouring tables these must be equal.
 */
record Observation(String kind, String message, int charges, List<String> columns, int rows,
    List<List<Object>> keys) {

  /** Runs DP SQL ({@code {t}} stands for the table) with the table's schema and unit uid. */
  static Observation sql(Backend backend, String table, String sql, BudgetCharger charger) {
    AtomicInteger charges = new AtomicInteger();
    DatasetDescriptor d;
    try {
      d = DatasetDescriptor.builder("t", Source.table(table),
          backend.describe(Source.table(table))).privacyUnit("uid").build();
    } catch (RuntimeException e) {
      return failed(e, charges);
    }
    return sql(backend, name -> name.equalsIgnoreCase("t") ? java.util.Optional.of(d)
        : java.util.Optional.empty(), sql.replace("{t}", "t"), charger);
  }

  /** Runs DP SQL against the datasets of {@code catalog} (multi-table datasets, issue 25). */
  static Observation sql(Backend backend, org.privet.sql.DatasetCatalog catalog, String sql,
      BudgetCharger charger) {
    AtomicInteger charges = new AtomicInteger();
    try {
      DpStatement st = DpSql.parse(sql, catalog);
      Result r = session(backend, charger, charges).run(st.query());
      SqlResult out = st.present(r);
      boolean shapePublic = !st.query().usesPrivatePartitionSelection();
      List<List<Object>> keys = new ArrayList<>();
      if (shapePublic) {
        r.rows().forEach(row -> keys.add(row.key()));
      }
      List<String> columns = new ArrayList<>(out.columnNames());
      out.bounds().forEach(b -> columns.add("auto_bounds:" + b.output())); // part of the shape
      if (out.estimatedMaxRowsPerGroup() > 0) {
        columns.add("max_rows_per_group_estimate"); // present or not: shape; its value is DP
      }
      return new Observation("released", "", charges.get(), columns,
          shapePublic ? out.rows().size() : -1, keys);
    } catch (RuntimeException e) {
      return failed(e, charges);
    }
  }

  /**
   * The EXPLAIN text of DP SQL against {@code catalog} (the plan's rendering, which charges
   * nothing), or the refusal's type and message.
   */
  static String explain(Backend backend, org.privet.sql.DatasetCatalog catalog, String sql) {
    try {
      DpStatement st = DpSql.explain(sql, catalog);
      return session(backend, BudgetCharger.unlimited(), new AtomicInteger())
          .explain(st.query()).render();
    } catch (RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }

  /** Runs a Java API query on {@code table} (the builder may refuse). */
  static Observation api(Backend backend, String table,
      java.util.function.Function<String, Query> query, BudgetCharger charger) {
    AtomicInteger charges = new AtomicInteger();
    try {
      Query q = query.apply(table);
      Result r = session(backend, charger, charges).run(q);
      boolean shapePublic = !q.usesPrivatePartitionSelection();
      List<List<Object>> keys = new ArrayList<>();
      if (shapePublic) {
        r.rows().forEach(row -> keys.add(row.key()));
      }
      List<String> columns = new ArrayList<>(r.groupColumns());
      columns.addAll(r.outputs());
      r.bounds().forEach(b -> columns.add("auto_bounds:" + b.output())); // part of the shape
      return new Observation("released", "", charges.get(), columns,
          shapePublic ? r.rows().size() : -1, keys);
    } catch (RuntimeException e) {
      return failed(e, charges);
    }
  }

  private static Observation failed(RuntimeException e, AtomicInteger charges) {
    return new Observation(e.getClass().getName(), String.valueOf(e.getMessage()), charges.get(),
        List.of(), -1, List.of());
  }

  private static Session session(Backend backend, BudgetCharger charger, AtomicInteger charges) {
    return Session.builder().backend(backend).budgetCharger(c -> {
      charger.charge(c);
      charges.incrementAndGet();
    }).randomSource(new SeededRandomSource(11)).build();
  }

  boolean refused() {
    return !kind.equals("released") && charges == 0;
  }

  boolean released() {
    return kind.equals("released");
  }
}
