package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.privet.ledger.DatasetTable;
import org.privet.ledger.Ledger;

/**
 * Base of the {@code privet dataset} command tests: a fresh temporary folder {@link #dir} per test
 * for the data files the test writes, a workspace {@link #ws} inside it, and the runs of
 * {@code privet dataset <command> --workspace ws ...} in process.
 */
abstract class DatasetWorkspace {
  @TempDir Path dir;
  Path ws;

  @BeforeEach
  void workspace() {
    ws = dir.resolve("ws");
  }

  /** Runs {@code privet dataset args[0] --workspace ws args[1..]}. */
  CliRun run(String... args) {
    List<String> a = new ArrayList<>(List.of("dataset", args[0], "--workspace", ws.toString()));
    a.addAll(List.of(args).subList(1, args.length));
    return CliRun.of(a.toArray(String[]::new));
  }

  /** The path of the file {@code name} in {@link #dir}. */
  String file(String name) {
    return dir.resolve(name).toString();
  }

  /** {@code r}, asserted to have exited OK. */
  static CliRun ok(CliRun r) {
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    return r;
  }

  /** The tables the ledger stores for {@code dataset}. */
  List<DatasetTable> tables(String dataset) {
    try (Ledger ledger = Ledger.open(ws)) {
      return ledger.tables(dataset);
    }
  }
}
