package org.privet.engine.spi;

import java.util.function.Consumer;
import org.privet.engine.Source;

/**
 * The default {@link Backend#sharingRows} view: every call goes to the backend as is, and closing
 * the view does nothing (in particular it does not close the backend). Views that change some
 * calls extend it ({@link PairRowsHistogram#view}).
 */
class UnsharedView implements Backend {
  private final Backend backend;

  UnsharedView(Backend backend) {
    this.backend = backend;
  }

  @Override
  public TableSchema describe(Source source) {
    return backend.describe(source);
  }

  @Override
  public void aggregate(BoundedAggregation spec, GroupSink sink) {
    backend.aggregate(spec, sink);
  }

  @Override
  public boolean listsKeptGroups() {
    return backend.listsKeptGroups();
  }

  @Override
  public void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
    backend.keptGroups(spec, sink);
  }

  @Override
  public void query(Source source, RenderedQuery query, int columns, Consumer<String[]> rows) {
    backend.query(source, query, columns, rows);
  }

  @Override
  public String physicalPlan(BoundedAggregation spec) {
    return backend.physicalPlan(spec);
  }

  @Override
  public void close() {
    // the view holds nothing; the backend stays open
  }
}
