package org.privet.engine.duckdb;

import java.util.List;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BackendContractTest;
import org.privet.engine.spi.ColumnType;

/** DuckDB (in memory) runs the backend contract kit. */
class DuckDbBackendContractTest extends BackendContractTest {
  @Override
  protected Backend openBackend() {
    return DuckDbBackend.inMemory();
  }

  @Override
  protected void register(Backend backend, String name, List<String> columns, List<ColumnType> types,
      List<List<?>> rows) {
    ((DuckDbBackend) backend).registerTable(name, columns, types, rows);
  }
}
