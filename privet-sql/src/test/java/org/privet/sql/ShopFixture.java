package org.privet.sql;

import java.util.List;
import java.util.Optional;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;
import org.privet.sql.DatasetDescriptor.Reference;
import org.privet.sql.DatasetDescriptor.TableDescriptor;

/** Test fixture: descriptors of a customer/orders/lineitem/nation dataset (no rows). */
final class ShopFixture {
  private ShopFixture() {}

  static TableSchema schema(String... nameTypePairs) {
    List<TableSchema.Column> cols = new java.util.ArrayList<>();
    for (int i = 0; i < nameTypePairs.length; i += 2) {
      ColumnType type = ColumnType.valueOf(nameTypePairs[i + 1]);
      cols.add(new TableSchema.Column(nameTypePairs[i], type, type == ColumnType.INTEGER ? "BIGINT"
          : type == ColumnType.STRING ? "VARCHAR" : "DOUBLE"));
    }
    return new TableSchema(cols);
  }

  static final TableSchema CUSTOMER = schema("c_custkey", "INTEGER", "c_nationkey", "INTEGER",
      "c_acctbal", "FLOATING");
  static final TableSchema ORDERS = schema("o_orderkey", "INTEGER", "o_custkey", "INTEGER",
      "o_totalprice", "FLOATING");
  static final TableSchema LINEITEM = schema("l_orderkey", "INTEGER", "l_quantity", "FLOATING",
      "l_price", "FLOATING");
  static final TableSchema NATION = schema("n_nationkey", "INTEGER", "n_name", "STRING");

  static TableDescriptor orders() {
    return new TableDescriptor("orders", Source.table("orders"), ORDERS,
        List.of(new Reference("o_custkey", "customer", "c_custkey")), false);
  }

  static TableDescriptor lineitem() {
    return new TableDescriptor("lineitem", Source.table("lineitem"), LINEITEM,
        List.of(new Reference("l_orderkey", "orders", "o_orderkey")), false);
  }

  static TableDescriptor nation() {
    return new TableDescriptor("nation", Source.table("nation"), NATION, List.of(), true);
  }

  static DatasetDescriptor.Builder shopBuilder() {
    return DatasetDescriptor.builder("shop", Source.table("customer"), CUSTOMER)
        .privacyUnit("c_custkey")
        .unitTable("customer", List.of(new Reference("c_nationkey", "nation", "n_nationkey")));
  }

  static DatasetDescriptor shop() {
    return shopBuilder().addTable(orders()).addTable(lineitem()).addTable(nation()).build();
  }

  /** A catalog of {@code shop} plus single-table datasets {@code adult} and {@code orders2}. */
  static DatasetCatalog catalog(DatasetDescriptor... more) {
    DatasetDescriptor shop = shop();
    return new DatasetCatalog() {
      @Override
      public Optional<DatasetDescriptor> find(String name) {
        if (name.equalsIgnoreCase("shop")) {
          return Optional.of(shop);
        }
        for (DatasetDescriptor d : more) {
          if (d.name().equalsIgnoreCase(name)) {
            return Optional.of(d);
          }
        }
        return Optional.empty();
      }

      @Override
      public List<String> datasetsWithTable(String table) {
        List<String> out = new java.util.ArrayList<>();
        if (shop.table(table).isPresent()) {
          out.add("shop");
        }
        for (DatasetDescriptor d : more) {
          if (d.isMultiTable() && d.table(table).isPresent()) {
            out.add(d.name());
          }
        }
        return out;
      }
    };
  }
}
