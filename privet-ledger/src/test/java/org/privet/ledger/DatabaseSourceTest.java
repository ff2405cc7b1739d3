package org.privet.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;

/** A dataset in a PostgreSQL table: what the ledger keeps (never a password) and how it is read. */
class DatabaseSourceTest {
  @TempDir Path dir;

  private static DatabaseSource db(String url) {
    return new DatabaseSource(url, Optional.of("reader"), Optional.of("SALES_PW"), Optional.empty());
  }

  private static DatasetSpec spec(String table, DatabaseSource db) {
    return DatasetSpec.builder().name("visits").source(table).database(db)
        .privacyUnit(PrivacyUnit.column("user_id")).budget(new PureDp(1)).build();
  }

  @Test
  void registration_roundTripsThroughTheLedgerJson_withoutAPassword() {
    DatasetSpec s = spec("sales.visits", db("jdbc:postgresql://db:5432/sales?sslmode=require"));
    assertEquals(SourceFormat.POSTGRES, s.format());
    String json = LedgerJson.write(LedgerJson.dataset(s));
    assertEquals(s, LedgerJson.registration(LedgerJson.read(json)));
    assertTrue(json.contains("\"passwordEnv\":\"SALES_PW\""), json);
    assertFalse(json.toLowerCase(java.util.Locale.ROOT).contains("\"password\""), json);
  }

  @Test
  void aPasswordInTheUrl_aBadTable_orTwoPasswordSources_areRefused() {
    for (String url : new String[] {"jdbc:postgresql://db/sales?password=x",
        "jdbc:postgresql://db/sales?user=a&PASSWORD=x", "jdbc:postgresql://a:x@db/sales"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> db(url));
      assertTrue(e.getMessage().startsWith("jdbc-url must not contain a password"), e.getMessage());
      assertFalse(e.getMessage().contains("x@") || e.getMessage().contains("=x"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> db("jdbc:mysql://db/sales"));
    for (String table : new String[] {"a.b.c", "x; DROP TABLE y", "\"q\"", ""}) {
      assertThrows(IllegalArgumentException.class, () -> spec(table, db("jdbc:postgresql://db/s")));
    }
    assertThrows(IllegalArgumentException.class, () -> new DatabaseSource("jdbc:postgresql://db/s",
        Optional.empty(), Optional.of("A"), Optional.of("/run/pw")));
    assertThrows(IllegalArgumentException.class, () -> DatasetSpec.builder().name("v")
        .source("/data/v.csv").format(SourceFormat.POSTGRES).privacyUnit(PrivacyUnit.row())
        .budget(new PureDp(1)).build());
  }

  @Test
  void login_readsThePasswordAtQueryTime_fromTheFile_theVariable_orTheDefault() throws Exception {
    Path pw = dir.resolve("pw");
    Files.writeString(pw, "from-file\nignored\n");
    DatabaseSource file = new DatabaseSource("jdbc:postgresql://db/s", Optional.of("r"),
        Optional.empty(), Optional.of(pw.toString()));
    Properties p = file.login(Map.of());
    assertEquals("r", p.getProperty("user"));
    assertEquals("from-file", p.getProperty("password"));
    assertEquals("from-env", db("jdbc:postgresql://db/s").login(Map.of("SALES_PW", "from-env"))
        .getProperty("password"));
    assertThrows(IllegalArgumentException.class, () -> db("jdbc:postgresql://db/s").login(Map.of()));
    DatabaseSource none = new DatabaseSource("jdbc:postgresql://db/s", Optional.empty(),
        Optional.empty(), Optional.empty());
    assertEquals("dflt", none.login(Map.of(DatabaseSource.DEFAULT_PASSWORD_VARIABLE, "dflt"))
        .getProperty("password"));
    assertEquals(null, none.login(Map.of()).getProperty("password"));
  }
}
