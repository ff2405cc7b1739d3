package org.privet.sql;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.privet.sql.DatasetDescriptor.TableDescriptor;

/**
 * Resolves the table names of one query's FROM items, in written order, against a
 * {@link DatasetCatalog}, by the rules stated there: every table of the query belongs to the
 * dataset the first item fixes. Refusals depend on names and the catalog only.
 */
final class FromResolver {
  private final DatasetCatalog catalog;
  private DatasetDescriptor dataset;

  /** A resolved FROM item: the dataset and its table. */
  record Resolved(DatasetDescriptor dataset, TableDescriptor table) {}

  /** A name that does not resolve; the binder adds the SQL position. */
  static final class Refusal extends IllegalArgumentException {
    Refusal(String message) {
      super(message);
    }
  }

  FromResolver(DatasetCatalog catalog) {
    this.catalog = catalog;
  }

  /** The dataset fixed by the first resolved item, if any. */
  Optional<DatasetDescriptor> dataset() {
    return Optional.ofNullable(dataset);
  }

  /**
   * Resolves one FROM item.
   *
   * @param qualifier the written dataset name of {@code qualifier.table}, or null
   * @param table the written table (or dataset) name, unquoted
   * @throws Refusal naming the problem (never data)
   */
  Resolved resolve(String qualifier, String table) {
    Resolved r = qualifier != null ? qualified(qualifier, table) : unqualified(table);
    if (dataset == null) {
      dataset = r.dataset();
    }
    return r;
  }

  private Resolved qualified(String qualifier, String table) {
    DatasetDescriptor d;
    if (dataset != null && dataset.name().equalsIgnoreCase(qualifier)) {
      d = dataset;
    } else {
      d = catalog.find(qualifier).orElseThrow(() -> new Refusal("unknown dataset '" + qualifier + "'"));
      if (dataset != null && !dataset.name().equalsIgnoreCase(d.name())) {
        throw otherDataset(qualifier + "." + table);
      }
    }
    TableDescriptor t = d.table(table).orElseThrow(() -> new Refusal("dataset '" + d.name()
        + "' has no table '" + table + "' (its tables: " + names(d) + ")"));
    return new Resolved(d, t);
  }

  private Resolved unqualified(String name) {
    if (dataset != null) {
      Optional<TableDescriptor> t = dataset.table(name);
      if (t.isPresent()) {
        return new Resolved(dataset, t.get());
      }
      throw otherDataset(name);
    }
    List<String> holders = catalog.datasetsWithTable(name);
    if (holders.size() > 1) {
      throw new Refusal("table '" + name + "' is in several datasets (" + String.join(", ", holders)
          + "); qualify it as dataset." + name);
    }
    if (holders.size() == 1) {
      DatasetDescriptor d = catalog.find(holders.get(0))
          .orElseThrow(() -> new Refusal("unknown dataset '" + holders.get(0) + "'"));
      TableDescriptor t = d.table(name).orElseThrow(() -> new Refusal("dataset '" + d.name()
          + "' has no table '" + name + "'"));
      return new Resolved(d, t);
    }
    DatasetDescriptor d = catalog.find(name).orElseThrow(() -> new Refusal("unknown dataset '" + name + "'"));
    if (d.isMultiTable()) {
      throw new Refusal("dataset '" + d.name() + "' has several tables (" + names(d) + "); name one"
          + " of them, e.g. " + d.name() + "." + d.tables().get(0).name());
    }
    return new Resolved(d, d.tables().get(0));
  }

  private Refusal otherDataset(String written) {
    return new Refusal("'" + written + "' is not a table of dataset '" + dataset.name() + "': all"
        + " tables of one query must belong to one dataset (its tables: " + names(dataset) + ")");
  }

  private static String names(DatasetDescriptor d) {
    return d.tables().stream().map(TableDescriptor::name).collect(Collectors.joining(", "));
  }
}
