package org.privet.engine.spi;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What one query's passes can share ({@link Backend#sharingRows}), decided from the passes alone
 * (public: specs and schemas, no row), written once for every SQL backend: either the (unit, group)
 * pairs' row counts, when every pass {@link BoundingPlan#sharesPairs} with one and the same {@link
 * BoundingPlan#pairsStatement} (counts), or the rows of step 1 of {@link BoundedAggregation}
 * (source rows the filter keeps, unit not NULL) projected to the columns the passes read. A
 * backend holds the shared rows in a table or view of its own ({@link #rowsStatement} or {@link
 * #pairs} makes it) and runs a spec over it when {@link #servesPairs} ({@link
 * BoundingPlan#statementOverPairs}) or {@link #servesRows} ({@link #rowsPlan}, the same bounding
 * plan over the table without the filter, already applied); the same rows, so the same result.
 */
public final class SharedPasses {
  private final BoundedAggregation template;
  private final TableSchema sourceSchema;
  private final TableSchema schema;
  private final String pairs;

  private SharedPasses(BoundedAggregation template, TableSchema sourceSchema, TableSchema schema,
      String pairs) {
    this.template = template;
    this.sourceSchema = sourceSchema;
    this.schema = schema;
    this.pairs = pairs;
  }

  /**
   * @param passes the query's planned specs
   * @param sourceSchema their source's schema
   * @param plan the backend's bounding plan of a spec (its own dialect and source text)
   * @return what they share, or empty when nothing is (no unit column; passes over different
   *     sources, filters or units)
   */
  public static Optional<SharedPasses> of(List<BoundedAggregation> passes,
      TableSchema sourceSchema, Function<BoundedAggregation, BoundingPlan> plan) {
    if (passes.isEmpty() || passes.get(0).unitColumn().isEmpty()) {
      return Optional.empty();
    }
    BoundedAggregation template = passes.get(0);
    Set<String> columns = new HashSet<>();
    String pairs = null;
    for (BoundedAggregation p : passes) {
      if (!sameRows(p, template)) {
        return Optional.empty();
      }
      columns.addAll(p.columnsRead());
      BoundingPlan bp = plan.apply(p);
      String text = bp.sharesPairs() ? bp.pairsStatement() : "";
      pairs = pairs == null || pairs.equals(text) ? text : "";
    }
    List<TableSchema.Column> kept = new ArrayList<>();
    for (TableSchema.Column c : sourceSchema.columns()) {
      if (columns.contains(c.name())) {
        kept.add(c);
      }
    }
    return Optional.of(new SharedPasses(template, sourceSchema, new TableSchema(kept),
        pairs.isEmpty() ? null : pairs));
  }

  private static boolean sameRows(BoundedAggregation a, BoundedAggregation b) {
    return a.source().equals(b.source()) && a.filter().equals(b.filter())
        && a.unitColumn().equals(b.unitColumn());
  }

  /** The passes' common pairs statement (what a shared pairs table holds), or null (rows). */
  public String pairs() {
    return pairs;
  }

  /** The passes' source (its structure is checked before the shared rows are made). */
  public BoundedAggregation template() {
    return template;
  }

  /** Whether {@code plan}'s spec reads the shared pairs: its pairs statement is theirs. */
  public boolean servesPairs(BoundingPlan plan) {
    return pairs != null && plan.sharesPairs() && plan.pairsStatement().equals(pairs);
  }

  /** Whether {@code spec} reads the shared rows: same source, filter and unit; columns held. */
  public boolean servesRows(BoundedAggregation spec) {
    return pairs == null && sameRows(spec, template)
        && spec.columnsRead().stream().allMatch(c -> schema.column(c).isPresent());
  }

  /** The source columns {@link #rowsStatement} names (to render the source with). */
  public Set<String> rowsColumnsNamed() {
    Set<String> read = template.columnsNamed();
    schema.columns().forEach(c -> read.add(c.name()));
    return read;
  }

  /**
   * The shared rows: {@code SELECT columns FROM from WHERE filter AND unit IS NOT NULL}.
   *
   * @param from the source as SQL text (rendered with at least {@link #rowsColumnsNamed})
   */
  public String rowsStatement(String from, SqlDialect d) {
    List<String> cols = new ArrayList<>();
    for (TableSchema.Column c : schema.columns()) {
      cols.add("__s." + d.quote(c.name()));
    }
    List<String> where = new ArrayList<>();
    template.filter().ifPresent(f -> where.add(FilterSql.render(f, sourceSchema, d)));
    where.add("__s." + d.quote(template.unitColumn().orElseThrow()) + " IS NOT NULL");
    return "SELECT " + String.join(", ", cols) + " FROM " + from + " AS __s WHERE "
        + String.join(" AND ", where);
  }

  /** {@code spec}'s bounding plan over the shared rows in {@code table} (SQL text). */
  public BoundingPlan rowsPlan(BoundedAggregation spec, String table, SqlDialect d) {
    BoundedAggregation unfiltered = new BoundedAggregation(spec.source(), Optional.empty(),
        spec.unitColumn(), spec.groupBy(), spec.publicGroups(), spec.l0(), spec.lInf(),
        spec.salt(), spec.measures(), spec.maxRowsContributed());
    return new BoundingPlan(unfiltered, schema, table, d);
  }
}
