package org.privet.curator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.SourceFormat;
import org.privet.ledger.TableReference;
import org.privet.ledger.TableSpec;
import org.privet.sql.DatasetDescriptor;
import org.privet.sql.DatasetDescriptor.TableDescriptor;

/**
 * The ledger's multi-table datasets as DP SQL sees them (issue 25): {@link LedgerCatalog} builds
 * one {@link DatasetDescriptor} with every registered table, each read against its own fixed
 * schema, with its references and public flag; an unqualified table name finds its dataset.
 */
class LedgerCatalogTablesTest {
  @TempDir Path dir;

  private Ledger shop() throws Exception {
    Files.writeString(dir.resolve("customer.csv"), "c_custkey,c_name\n1,a\n2,b\n");
    Files.writeString(dir.resolve("orders.csv"), "o_orderkey,o_custkey,o_totalprice\n10,1,9.5\n");
    Files.writeString(dir.resolve("nation.csv"), "n_nationkey,n_name\n7,FRANCE\n");
    Files.writeString(dir.resolve("people.csv"), "id,age\n1,30\n");
    Ledger ledger = Ledger.open(dir.resolve("ws"));
    DatasetSpec shop = DatasetSpec.builder().name("shop").source(dir.resolve("customer.csv").toString())
        .privacyUnit(PrivacyUnit.column("c_custkey")).budget(new PureDp(10)).build();
    ledger.register(shop, LedgerCatalog.inferSchema(shop), "customer");
    for (String t : List.of("orders", "nation")) {
      TableSpec table = new TableSpec(t, dir.resolve(t + ".csv").toString(), SourceFormat.CSV, CsvOptions.DEFAULT,
          Optional.empty(), t.equals("orders") ? List.of(TableReference.parse("o_custkey=customer.c_custkey"))
              : List.of(), t.equals("nation"));
      ledger.addTable("shop", table, LedgerCatalog.inferSchema(table.asSource(shop)));
    }
    DatasetSpec people = DatasetSpec.builder().name("people").source(dir.resolve("people.csv").toString())
        .privacyUnit(PrivacyUnit.column("id")).budget(new PureDp(1)).build();
    LedgerCatalog.register(ledger, people, Optional.empty());
    return ledger;
  }

  @Test
  void find_multiTableDataset_describesEveryTableWithItsReferencesAndPublicFlag() throws Exception {
    try (Ledger ledger = shop(); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      DatasetDescriptor d = new LedgerCatalog(ledger, backend).find("SHOP").orElseThrow();
      assertEquals(List.of("customer", "orders", "nation"), d.tables().stream().map(TableDescriptor::name).toList());
      assertEquals(Optional.of("c_custkey"), d.privacyUnit());
      TableDescriptor orders = d.table("orders").orElseThrow();
      assertEquals(List.of(new DatasetDescriptor.Reference("o_custkey", "customer", "c_custkey")), orders.references());
      assertFalse(orders.isPublic());
      assertTrue(orders.source() instanceof Source.Typed, "read against its fixed schema");
      assertEquals(ColumnType.FLOATING, orders.column("o_totalprice").orElseThrow().type());
      assertTrue(d.table("nation").orElseThrow().isPublic());
      assertEquals(Optional.of(List.of(orders.references().get(0))), d.unitPath("orders"));
      // A single-table dataset is described as before: one table, named as the dataset.
      DatasetDescriptor people = new LedgerCatalog(ledger, backend).find("people").orElseThrow();
      assertEquals(List.of("people"), people.tables().stream().map(TableDescriptor::name).toList());
    }
  }

  @Test
  void publicValues_publicTableOnly_distinctTypedSorted() throws Exception {
    try (Ledger ledger = shop(); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      Files.writeString(dir.resolve("nation.csv"), "n_nationkey,n_name\n8,PERU\n7,FRANCE\n8,PERU\n9,\n");
      LedgerCatalog catalog = new LedgerCatalog(ledger, backend);
      assertEquals(Optional.of(List.of(7L, 8L, 9L)), catalog.publicValues("shop", "nation", "n_nationkey"));
      assertEquals(Optional.of(List.of("FRANCE", "PERU")), catalog.publicValues("shop", "Nation", "N_NAME"),
          "NULL excluded");
      assertEquals(Optional.empty(), catalog.publicValues("shop", "orders", "o_custkey"), "never a private table");
      assertEquals(Optional.empty(), catalog.publicValues("shop", "customer", "c_name"), "never the unit table");
      assertEquals(Optional.empty(), new LedgerCatalog(ledger, backend, n -> false)
          .publicValues("shop", "nation", "n_name"), "nothing of an invisible dataset");
    }
  }

  @Test
  void datasetsWithTable_unqualifiedName_findsTheDatasetHoldingIt() throws Exception {
    try (Ledger ledger = shop(); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      LedgerCatalog catalog = new LedgerCatalog(ledger, backend);
      assertEquals(List.of("shop"), catalog.datasetsWithTable("ORDERS"));
      assertEquals(List.of("shop"), catalog.datasetsWithTable("customer"));
      assertEquals(List.of(), catalog.datasetsWithTable("people"), "found by its own name");
      assertEquals(List.of(), catalog.datasetsWithTable("lineitem"));
      assertEquals(List.of(), new LedgerCatalog(ledger, backend, n -> !n.equals("shop")).datasetsWithTable("orders"),
          "an invisible dataset is not listed");
    }
  }
}
