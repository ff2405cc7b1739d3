package org.privet.cli.anonymity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;

/** {@code privet demo attacks} end to end: the side-by-side table and the report. */
class DemoAttacksCommandTest {

  @Test
  void demoAttacks_printsTheTableAndWritesTheReport(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("demo.html");
    CliRun r = CliRun.of("demo", "attacks", "--out", out.toString());
    assertEquals(0, r.code(), r.toString());
    String table = r.out();
    assertTrue(table.contains("| raw data | k-anonymity"), table);
    // Raw Adult: about one person in seven is unique on the six quasi-identifiers (a property of
    // the data: 14.6% in every run); k-anonymous releases link no one uniquely.
    assertTrue(table.contains("1 linkage: people re-identified           | 14.6%    | k=2,5,10: 0.0%, 0.0%, 0.0%"),
        table);
    assertTrue(table.matches("(?s).*4 reconstruction: bits recovered \\(m=1024\\) \\| 100\\.0%.*"), table);
    assertTrue(table.contains("query 3 refused by the ledger after 2 charges"), table);
    assertTrue(table.matches("(?s).*6 Netflix: re-identified \\(8 ratings\\) +\\| \\d+\\.\\d%\\*\\*\\* .*"
        + "\\| 0\\.0% \\(chance 0\\.0%\\).*"), table);
    String page = Files.readString(out);
    for (String section : new String[] {"Attack 1: linkage", "Attack 3: differencing", "Attack 4: reconstruction",
        "Attack 6: the Netflix Prize"}) {
      assertTrue(page.contains(section), section);
    }
    assertTrue(page.split("<svg").length - 1 >= 4, "a chart per attack");
  }
}
