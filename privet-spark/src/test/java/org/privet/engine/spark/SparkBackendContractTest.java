package org.privet.engine.spark;

import java.util.List;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BackendContractTest;
import org.privet.engine.spi.ColumnType;

/**
 * Spark (local session) runs the backend contract kit, so its exact aggregates are those of every
 * other backend. (The engine's |v| ≤ 2^31 guarantee is checked by the SPI's own records.)
 */
class SparkBackendContractTest extends BackendContractTest {
  @Override
  protected Backend openBackend() {
    return SparkBackend.on(LocalSpark.session());
  }

  @Override
  protected void register(Backend backend, String name, List<String> columns, List<ColumnType> types,
      List<List<?>> rows) {
    ((SparkBackend) backend).registerTable(name, columns, types, rows);
  }
}
