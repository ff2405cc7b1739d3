package org.privet.ledger;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs a test class once per store (SQLite, and a real PostgreSQL server): each test gets a fresh,
 * open {@link #ledger} at {@link #where}.
 */
@ParameterizedClass
@EnumSource(TestLedger.Kind.class)
abstract class OnEachStore {
  @Parameter TestLedger.Kind kind;
  @TempDir Path workspace;
  TestLedger where;
  Ledger ledger;

  @BeforeEach
  void open() {
    where = TestLedger.fresh(kind, workspace);
    ledger = where.open();
  }

  @AfterEach
  void close() {
    ledger.close();
  }
}
