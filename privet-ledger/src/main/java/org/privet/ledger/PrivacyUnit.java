package org.privet.ledger;

import java.util.Optional;

/**
 * The unit of protection of a dataset, always explicit: either all rows sharing a value of one
 * column (user-level DP), or each row on its own.
 */
public final class PrivacyUnit {
  private static final PrivacyUnit ROW = new PrivacyUnit(null);

  private final String column;

  private PrivacyUnit(String column) {
    this.column = column;
  }

  /** All rows with the same value of {@code column} belong to one privacy unit. */
  public static PrivacyUnit column(String column) {
    return new PrivacyUnit(DatasetSpec.requireIdentifier("privacyUnit", column));
  }

  /** Each row is its own privacy unit. */
  public static PrivacyUnit row() {
    return ROW;
  }

  /** The privacy-unit column, or empty when each row is a unit. */
  public Optional<String> columnName() {
    return Optional.ofNullable(column);
  }

  public boolean isRow() {
    return column == null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PrivacyUnit p && java.util.Objects.equals(column, p.column);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hashCode(column);
  }

  @Override
  public String toString() {
    return column == null ? "each row" : "column " + column;
  }
}
