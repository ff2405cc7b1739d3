package org.privet.engine;

import java.util.List;
import java.util.function.Consumer;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupSink;
import org.privet.engine.spi.PairRowsCount;
import org.privet.engine.spi.RenderedQuery;
import org.privet.engine.spi.TableSchema;
import org.privet.engine.spi.UnitGroupsSink;

/**
 * Test fixture: every {@link Backend} call goes to a real backend as is; a test overrides the one
 * call it counts or makes fail (fault injection at the SPI boundary, the component under test
 * being {@link Session}). Shared by {@code SharedRowsCloseTest} and {@code PairRowsHistogramTest}.
 */
class ForwardingBackend implements Backend {
  final Backend to;

  ForwardingBackend(Backend to) {
    this.to = to;
  }

  @Override
  public TableSchema describe(Source source) {
    return to.describe(source);
  }

  @Override
  public void aggregate(BoundedAggregation spec, GroupSink sink) {
    to.aggregate(spec, sink);
  }

  @Override
  public boolean listsKeptGroups() {
    return to.listsKeptGroups();
  }

  @Override
  public void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
    to.keptGroups(spec, sink);
  }

  @Override
  public void query(Source source, RenderedQuery query, int columns, Consumer<String[]> rows) {
    to.query(source, query, columns, rows);
  }

  @Override
  public Backend sharingRows(List<BoundedAggregation> passes) {
    return to.sharingRows(passes);
  }

  @Override
  public boolean countsPairRows() {
    return to.countsPairRows();
  }

  @Override
  public void pairRowsHistogram(BoundedAggregation spec, Consumer<PairRowsCount> sink) {
    to.pairRowsHistogram(spec, sink);
  }

  @Override
  public String pairRowsHistogramPlan(BoundedAggregation spec) {
    return to.pairRowsHistogramPlan(spec);
  }

  @Override
  public String physicalPlan(BoundedAggregation spec) {
    return to.physicalPlan(spec);
  }

  @Override
  public void close() {
    to.close();
  }
}
