package org.privet.ledger;

import java.util.Optional;

/**
 * A table of a registered dataset as the ledger keeps it ({@link Ledger#tables}).
 *
 * @param spec the table
 * @param schema its public schema, fixed when the table was added (for the unit table, the
 *     dataset's schema: empty for a dataset registered before schemas were kept)
 * @param unitTable whether it is the dataset's first table, which holds the privacy-unit column
 */
public record DatasetTable(TableSpec spec, Optional<RegisteredSchema> schema, boolean unitTable) {
  public DatasetTable {
    java.util.Objects.requireNonNull(spec, "spec");
    java.util.Objects.requireNonNull(schema, "schema");
  }

  /** The table's name. */
  public String name() {
    return spec.name();
  }
}
