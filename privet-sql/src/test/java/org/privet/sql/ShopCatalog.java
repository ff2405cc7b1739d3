package org.privet.sql;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.sql.DatasetDescriptor.Reference;
import org.privet.sql.DatasetDescriptor.TableDescriptor;

/**
 * Test support shared by the join fixtures: a catalog holding one multi-table dataset {@code shop}
 * whose only public table is {@code nation} (columns nationkey, name), and the table descriptors
 * they build. Asking it for a private table's values fails the test.
 */
final class ShopCatalog implements DatasetCatalog {
  private final DatasetDescriptor shop;
  private final List<? extends List<?>> nation;

  ShopCatalog(DatasetDescriptor shop, List<? extends List<?>> nation) {
    this.shop = shop;
    this.nation = nation;
  }

  /** A table registered on {@code db} as {@code prefix + name}, with at most one reference. */
  static TableDescriptor table(DuckDbBackend db, String prefix, String name, Reference ref,
      boolean isPublic) {
    Source s = Source.table(prefix + name);
    return new TableDescriptor(name, s, db.describe(s), ref == null ? List.of() : List.of(ref),
        isPublic);
  }

  @Override
  public Optional<DatasetDescriptor> find(String name) {
    return name.equalsIgnoreCase("shop") ? Optional.of(shop) : Optional.empty();
  }

  @Override
  public List<String> datasetsWithTable(String table) {
    return shop.table(table).isPresent() ? List.of("shop") : List.of();
  }

  @Override
  public Optional<List<Object>> publicValues(String dataset, String table, String column) {
    if (!table.equals("nation")) {
      throw new AssertionError("publicValues asked for a private table: " + table);
    }
    int i = column.equals("nationkey") ? 0 : 1;
    LinkedHashSet<Object> values = new LinkedHashSet<>();
    nation.forEach(r -> values.add(r.get(i)));
    return Optional.of(new ArrayList<>(values));
  }
}
