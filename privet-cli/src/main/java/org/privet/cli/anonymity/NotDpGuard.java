package org.privet.cli.anonymity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.privet.cli.WorkspaceOption;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;

/**
 * Refuses to anonymize a file that is registered in the ledger as a DP dataset, unless the curator
 * confirms with {@code --i-understand-this-is-not-dp}: a k-anonymous release of protected data has
 * no formal guarantee and bypasses the budget.
 */
final class NotDpGuard {
  static final String CONFIRM = "--i-understand-this-is-not-dp";

  private NotDpGuard() {}

  /** The registered dataset whose source is {@code file}, if any (the ledger is not created). */
  static Optional<String> registeredAs(WorkspaceOption workspace, Path file) throws IOException {
    Path ws = workspace.resolve();
    if (!Files.isRegularFile(ws.resolve(Ledger.DATABASE_FILE))) {
      return Optional.empty();
    }
    Path real = file.toRealPath();
    try (Ledger ledger = Ledger.open(ws)) {
      for (DatasetSpec d : ledger.datasets()) {
        Path source = Path.of(d.source());
        if (Files.exists(source) && Files.isSameFile(source, real)) {
          return Optional.of(d.name());
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Refuses {@code file} (a file or a directory of Parquet part files), given as {@code option},
   * if it is a registered dataset's source and the curator did not confirm.
   */
  static void check(WorkspaceOption workspace, Path file, String option, boolean confirmed)
      throws IOException {
    Optional<String> name = registeredAs(workspace, file);
    if (name.isPresent() && !confirmed) {
      throw new IllegalArgumentException(option + " is the source of dataset '" + name.get()
          + "', registered in the ledger for differentially private release. Anonymization is NOT"
          + " differentially private and charges no budget; pass " + CONFIRM + " to go ahead.");
    }
  }
}
