package org.privet.engine.spi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.privet.engine.Filter;
import org.privet.engine.Source;

/**
 * The exact transformation a backend must perform; the engine's sensitivity bounds rely on it
 * (argument: {@code docs/proofs/engine-bounding.md}). In order:
 *
 * <ol>
 *   <li>Read {@code source}; keep rows where {@code filter} is true; if {@code unitColumn} is
 *       present drop rows whose unit is NULL; if {@code publicGroups} is present drop rows whose
 *       group key is not listed (NULL equals NULL here).
 *   <li>Row-level ({@code unitColumn} empty): every row is its own unit with L0 = L∞ = 1.
 *   <li>Unit-level: form (unit, group) pairs. For each unit keep a pair iff at most {@code l0} of
 *       the unit's pairs have a salted hash of (unit, group key) ≤ its own (the l0 smallest; pairs
 *       tied at the boundary are all dropped); the choice therefore depends only on that unit's
 *       own rows and the salt. Within a pair, row counts are capped at
 *       {@code lInf} and value measures bounded as documented on {@link Measure}: fixed-point
 *       sums are scaled to L∞ values and then, if the measure has a {@link Measure.PairClamp},
 *       the unit's sum in the group is clamped to the pair bounds (per unit per group clamping;
 *       every backend must implement it exactly, or refuse the spec).
 *   <li>Aggregate the kept pairs per group exactly.
 * </ol>
 *
 * <p><b>Rows per unit in total</b> ({@code maxRowsContributed} = m &gt; 0, ZetaSQL's {@code
 * max_rows_contributed}; unit-level only, with {@code l0 = lInf = m}): step 3 is replaced. Each
 * unit's pairs are ordered by their salted hash; a pair whose cumulative row count (its own rows
 * and those of the pairs at or below its hash) is at most m keeps all its n rows; the first pair
 * past m keeps the rest, a = m − (rows of the pairs below it), if it is alone at its hash (pairs
 * tied with it are all dropped), and every later pair is dropped. Within a kept pair, a takes the
 * place of L∞ (row counts capped at a, sums scaled to a values, then pair-clamped). A unit thus
 * keeps at most m rows in total, over at most m groups, chosen from its own rows and the salt
 * only ({@code docs/proofs/rows-contributed.md}).
 *
 * @param source where rows come from
 * @param filter row filter, if any, with its literals typed for their columns ({@link
 *     ColumnLiterals#typed}: backends render it with {@link FilterSql} and never convert a value)
 * @param unitColumn privacy-unit column, empty for row-level units
 * @param groupBy group columns (may be empty: one group)
 * @param publicGroups listed group keys (values already typed for their columns), if public
 * @param l0 max groups per unit
 * @param lInf max rows per unit per group
 * @param salt per-query random salt for hash-based selection
 * @param measures value measures
 * @param maxRowsContributed m &gt; 0: at most m rows per unit in total over all groups (then
 *     {@code l0 = lInf = m}); 0: the L0/L∞ bounding above
 */
public record BoundedAggregation(Source source, Optional<Filter> filter, Optional<String> unitColumn,
    List<String> groupBy, Optional<List<List<Object>>> publicGroups, int l0, int lInf, long salt,
    List<Measure> measures, int maxRowsContributed) {
  /** L0/L∞ bounding (no total row cap). */
  public BoundedAggregation(Source source, Optional<Filter> filter, Optional<String> unitColumn,
      List<String> groupBy, Optional<List<List<Object>>> publicGroups, int l0, int lInf, long salt,
      List<Measure> measures) {
    this(source, filter, unitColumn, groupBy, publicGroups, l0, lInf, salt, measures, 0);
  }

  public BoundedAggregation {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(unitColumn, "unitColumn");
    groupBy = List.copyOf(groupBy);
    Objects.requireNonNull(publicGroups, "publicGroups");
    measures = List.copyOf(measures);
    if (l0 < 1 || lInf < 1) {
      throw new IllegalArgumentException("l0 and lInf must be positive");
    }
    measures.forEach(m -> Objects.requireNonNull(m, "measures"));
    if (maxRowsContributed < 0) {
      throw new IllegalArgumentException("maxRowsContributed must not be negative");
    }
    if (maxRowsContributed > 0) {
      if (unitColumn.isEmpty()) {
        throw new IllegalArgumentException("maxRowsContributed needs a unit column");
      }
      if (l0 != maxRowsContributed || lInf != maxRowsContributed) {
        throw new IllegalArgumentException("maxRowsContributed = m needs l0 = lInf = m");
      }
      if (measures.stream().anyMatch(m -> m instanceof Measure.PairRows
          || m instanceof Measure.PairValues)) {
        throw new IllegalArgumentException(
            "maxRowsContributed does not take pair-rows or pair-values measures");
      }
    }
    groupBy.forEach(g -> Objects.requireNonNull(g, "groupBy"));
    if (publicGroups.isPresent()) {
      List<List<Object>> keys = new java.util.ArrayList<>();
      for (List<Object> key : publicGroups.get()) {
        if (key.size() != groupBy.size()) {
          throw new IllegalArgumentException("every public group key must have one value per "
              + "group column (" + groupBy.size() + ")");
        }
        keys.add(java.util.Collections.unmodifiableList(new java.util.ArrayList<>(key)));
      }
      publicGroups = Optional.of(List.copyOf(keys));
    }
  }

  /** The columns the aggregation reads besides its filter's: unit, groups and measures. */
  public java.util.Set<String> columnsRead() {
    java.util.Set<String> c = new java.util.LinkedHashSet<>();
    unitColumn.ifPresent(c::add);
    c.addAll(groupBy);
    measures.forEach(m -> c.add(m.column()));
    return c;
  }

  /** The columns a statement of this aggregation names: {@link #columnsRead} and the filter's. */
  public java.util.Set<String> columnsNamed() {
    java.util.Set<String> c = columnsRead();
    filter.ifPresent(f -> c.addAll(FilterSql.columns(f)));
    return c;
  }
}
