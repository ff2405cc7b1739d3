package org.privet.sql;

import java.util.List;
import java.util.Optional;

/**
 * Where DP SQL finds the datasets a query's FROM names: for each name, its source, its privacy unit
 * and its public metadata (column names and types, public column bounds, public key sets). The
 * ledger implements this over its registered datasets; tests implement it over bundled files.
 *
 * <p><b>FROM resolution</b> (issue 25; decided by {@code FromResolver} from names only, never from
 * data). A FROM item names a table:
 *
 * <ul>
 *   <li>{@code dataset.table}, qualified: the table of that dataset;
 *   <li>{@code name}, unqualified, in a query whose dataset an earlier FROM item fixed: that
 *       dataset's table so named;
 *   <li>{@code name}, unqualified, first in the query: the one multi-table dataset holding a table
 *       so named ({@link #datasetsWithTable}; two or more are refused: qualify it), else the
 *       dataset so named, which must have one table (a multi-table dataset's name alone is refused:
 *       name one of its tables).
 * </ul>
 *
 * All tables of one query belong to one dataset (one budget); a table of another dataset is refused
 * naming its position. Single-table datasets resolve exactly as before: their one table is named as
 * the dataset.
 */
@FunctionalInterface
public interface DatasetCatalog {

  /**
   * The dataset registered under {@code name} (matched case-insensitively by the implementation's
   * choice), or empty if there is none.
   */
  Optional<DatasetDescriptor> find(String name);

  /**
   * The names of the multi-table datasets that hold a table named {@code table} (ignoring case),
   * for resolving an unqualified FROM name. Single-table datasets need not be listed (their table
   * is found by {@link #find}). The default knows no multi-table datasets.
   */
  default List<String> datasetsWithTable(String table) {
    return List.of();
  }

  /**
   * The distinct values of {@code column} of the <em>public</em> table {@code table} of dataset
   * {@code dataset} (NULL excluded), typed as the column's values ({@code Long}, {@code Double},
   * {@code String}, ...), for group keys that come from a public table (public groups); empty when
   * this catalog cannot read them (groups are then selected privately). Public data only: never
   * called for a private table.
   */
  default Optional<List<Object>> publicValues(String dataset, String table, String column) {
    return Optional.empty();
  }

  /**
   * A catalog of one dataset: {@link #find} matches its name ignoring case, and
   * {@link #datasetsWithTable} lists it for each of its tables (so an unqualified FROM name
   * resolves to it); no public values are read.
   */
  static DatasetCatalog of(DatasetDescriptor dataset) {
    java.util.Objects.requireNonNull(dataset, "dataset");
    return new DatasetCatalog() {
      @Override
      public Optional<DatasetDescriptor> find(String name) {
        return dataset.name().equalsIgnoreCase(name) ? Optional.of(dataset) : Optional.empty();
      }

      @Override
      public List<String> datasetsWithTable(String table) {
        return dataset.table(table).isPresent() ? List.of(dataset.name()) : List.of();
      }
    };
  }
}
