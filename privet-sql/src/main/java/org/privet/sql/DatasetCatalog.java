package org.privet.sql;

import java.util.Optional;

/**
 * Where DP SQL finds the datasets a query's FROM names: for each name, its source, its privacy unit
 * and its public metadata (column names and types, public column bounds, public key sets). The
 * ledger implements this over its registered datasets; tests implement it over bundled files.
 */
@FunctionalInterface
public interface DatasetCatalog {

  /**
   * The dataset registered under {@code name} (matched case-insensitively by the implementation's
   * choice), or empty if there is none.
   */
  Optional<DatasetDescriptor> find(String name);
}
