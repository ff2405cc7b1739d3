package org.privet.engine.spi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The columns of a source.
 *
 * @param columns in table order
 */
public record TableSchema(List<Column> columns) {
  public TableSchema {
    columns = List.copyOf(columns);
  }

  /** Looks a column up by exact name. */
  public Optional<Column> column(String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * One column.
   *
   * @param name its name
   * @param type its kind
   * @param nativeType the backend's own type name (e.g. {@code DECIMAL(10,2)}), used for casts
   */
  public record Column(String name, ColumnType type, String nativeType) {
    public Column {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(nativeType, "nativeType");
    }
  }
}
