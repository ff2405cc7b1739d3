package org.privet.ledger;

import java.util.Locale;

/**
 * A reference from a column of one table of a dataset to a column of another, {@code
 * column=table.targetColumn} (a foreign key the curator declares): each row of the referencing
 * table belongs to the privacy unit(s) of the rows of {@code table} whose {@code targetColumn}
 * equals its {@code column}. The curator declares it as public metadata when adding the table;
 * nothing checks it against the data (that would make a refusal depend on private rows).
 *
 * @param column the referencing column, in the table that declares the reference
 * @param table the referenced table of the same dataset
 * @param targetColumn the referenced column of {@code table}
 */
public record TableReference(String column, String table, String targetColumn) {
  public TableReference {
    DatasetSpec.requireIdentifier("references", column);
    DatasetSpec.requireIdentifier("references", table);
    DatasetSpec.requireIdentifier("references", targetColumn);
  }

  /**
   * Parses {@code COLUMN=TABLE.COLUMN}, the form of {@code --references}.
   *
   * @throws IllegalArgumentException naming {@code references}
   */
  public static TableReference parse(String text) {
    int eq = text == null ? -1 : text.indexOf('=');
    int dot = eq < 0 ? -1 : text.indexOf('.', eq + 1);
    if (eq <= 0 || dot <= eq + 1 || dot == text.length() - 1 || text.indexOf('.', dot + 1) >= 0) {
      throw new IllegalArgumentException("references must look like COLUMN=TABLE.COLUMN, was " + text);
    }
    try {
      return new TableReference(text.substring(0, eq).strip(), text.substring(eq + 1, dot).strip(),
          text.substring(dot + 1).strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("references must look like COLUMN=TABLE.COLUMN with"
          + " identifiers (letters, digits, _), was " + text);
    }
  }

  /** Whether it references {@code name} (table names are compared ignoring case). */
  boolean references(String name) {
    return table.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT));
  }

  /** {@code column=table.targetColumn}. */
  @Override
  public String toString() {
    return column + "=" + table + "." + targetColumn;
  }
}
