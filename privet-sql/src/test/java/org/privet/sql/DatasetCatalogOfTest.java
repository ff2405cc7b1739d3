package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DatasetCatalog#of}: a catalog of one multi-table dataset, as FROM resolution reads it. */
class DatasetCatalogOfTest {

  @Test
  void of_findsTheDatasetIgnoringCase_andListsItForEachOfItsTables() {
    DatasetDescriptor shop = ShopFixture.shop();
    DatasetCatalog catalog = DatasetCatalog.of(shop);
    assertSame(shop, catalog.find("SHOP").orElseThrow());
    assertTrue(catalog.find("adult").isEmpty());
    assertEquals(List.of("shop"), catalog.datasetsWithTable("Orders"));
    assertEquals(List.of("shop"), catalog.datasetsWithTable("nation"));
    assertEquals(List.of(), catalog.datasetsWithTable("partsupp"));
    assertTrue(catalog.publicValues("shop", "nation", "n_name").isEmpty());
    assertThrows(NullPointerException.class, () -> DatasetCatalog.of(null));
  }
}
