package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.ledger.DatasetTable;
import org.privet.ledger.Ledger;
import org.privet.ledger.TableReference;

/**
 * The README's "Several tables" commands, run in order as written (their {@code data/} paths in a
 * temporary folder instead of the clone's): the TPC-H CSVs are generated, the four tables
 * registered under one dataset and shown, and a join query answered with public groups.
 */
class ReadmeSeveralTablesTest {
  @TempDir Path dir;

  @Test
  void readme_severalTables_runInOrderAndRegisterFourTables() throws Exception {
    String readme = ReadmeCommandsTest.readme();
    int start = readme.indexOf("### Several tables");
    String section = readme.substring(start, readme.indexOf("\n## ", start));
    Path ws = dir.resolve("ws");
    List<List<String>> commands = ReadmeCommandsTest.privetCommands(section);
    assertEquals(7, commands.size(), section);
    for (List<String> args : commands) {
      List<String> resolved = new ArrayList<>();
      for (String a : args) {
        resolved.add(a.startsWith("data/") ? dir.resolve(a).toString() : a);
      }
      if (!args.get(0).equals("data")) {
        resolved.addAll(List.of("--workspace", ws.toString()));
      }
      CliRun r = CliRun.of(resolved.toArray(String[]::new));
      assertEquals(ExitCodes.OK, r.code(), String.join(" ", args) + "\n" + r);
      if (args.get(1).equals("show")) {
        assertTrue(r.out().contains("private, references l_orderkey=orders.o_orderkey"), r.out());
      }
      if (args.get(0).equals("query")) {
        assertTrue(r.out().contains("GERMANY") && r.out().contains("PERU"), r.out()); // public groups
      }
    }
    try (Ledger ledger = Ledger.open(ws)) {
      List<DatasetTable> tables = ledger.tables("shop");
      assertEquals(List.of("customer", "orders", "lineitem", "nation"),
          tables.stream().map(DatasetTable::name).toList());
      assertEquals(List.of(new TableReference("o_custkey", "customer", "c_custkey")),
          tables.get(1).spec().references());
      assertTrue(tables.get(3).spec().isPublic());
      assertEquals(List.of(new TableReference("c_nationkey", "customer", "n_nationkey")),
          tables.get(3).spec().incoming(), "the unit table's reference to the public nations");
      assertEquals(1, ledger.datasets().size(), "one dataset, one budget");
      assertEquals(1, ledger.history("shop").size(), "the query charged the dataset once");
    }
  }
}
