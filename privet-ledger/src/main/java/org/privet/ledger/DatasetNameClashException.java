package org.privet.ledger;

import java.util.List;

/**
 * A written dataset name that equals the names of two or more registered datasets ignoring case:
 * a ledger written before such names were refused at registration (issue 23). Every use of those
 * datasets is refused, charging nothing, until the curator renames all but one ({@code privet
 * dataset rename}, {@link Ledger#renameDataset}). The message names the datasets, so it is for the
 * curator; the server answers analysts as for an unknown dataset.
 */
public final class DatasetNameClashException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<String> names;

  public DatasetNameClashException(String written, List<String> names) {
    super("dataset name '" + written + "' matches " + names.size() + " registered datasets ignoring"
        + " case (" + String.join(", ", names) + "), registered before names had to differ ignoring"
        + " case; nothing is charged to any of them until the curator renames all but one: privet"
        + " dataset rename --name " + names.get(names.size() - 1) + " --to NEW_NAME");
    this.names = List.copyOf(names);
  }

  /** The clashing datasets' names. */
  public List<String> names() {
    return names;
  }
}
