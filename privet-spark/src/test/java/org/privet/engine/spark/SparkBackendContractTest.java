package org.privet.engine.spark;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BackendContractTest;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.Measure;

/**
 * Spark (local session) runs the backend contract kit, so its exact aggregates are those of every
 * other backend; plus Spark's own check of the engine's |v| ≤ 2^31 guarantee.
 */
class SparkBackendContractTest extends BackendContractTest {
  private SparkBackend spark;

  @Override
  protected Backend openBackend() {
    spark = SparkBackend.on(LocalSpark.session());
    return spark;
  }

  @Override
  protected void register(Backend backend, String name, List<String> columns, List<ColumnType> types,
      List<List<?>> rows) {
    ((SparkBackend) backend).registerTable(name, columns, types, rows);
  }

  @Test
  void aggregate_valuesBeyondTwoToThe31_refusedBeforeRunning() {
    BoundedAggregation s = new BoundedAggregation(Source.table("crafted"), Optional.empty(),
        Optional.of("uid"), List.of("g"), Optional.empty(), 1, 2, 0,
        List.of(new Measure.FixedPointSum("x", 0, 1e10, 0, 0, false)));
    assertThrows(IllegalArgumentException.class, () -> spark.aggregate(s, g -> { }));
  }
}
