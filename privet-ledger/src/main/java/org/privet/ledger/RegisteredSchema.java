package org.privet.ledger;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A dataset's public schema as the ledger keeps it: fixed once, by the curator, when the dataset is
 * registered (or, for a dataset registered before schemas were kept, once afterwards). Queries are
 * checked against it and the source is read against it (the engine's {@code Source.typed}), so no
 * refusal and no failure depends on what the file holds (docs/proofs/threat-model.md, "Public
 * schema").
 *
 * <p>The ledger does not depend on the engine: types are kept by the names the engine's {@code
 * PublicSchema} gives them ({@code integer}, {@code double}, {@code string}, {@code boolean},
 * {@code date}, {@code timestamp}); the curator converts.
 *
 * @param columns the columns in file order, with distinct names
 * @param origin how the curator fixed it
 */
public record RegisteredSchema(List<Column> columns, Origin origin) {
  /** The type names a schema may hold. */
  public static final Set<String> TYPES = Set.of("integer", "double", "string", "boolean", "date", "timestamp");

  /**
   * One column.
   *
   * @param name 1 to 256 characters, no control characters (a header may hold any text)
   * @param type one of {@link #TYPES}
   */
  public record Column(String name, String type) {
    public Column {
      if (name == null || name.isEmpty() || name.length() > 256 || name.chars().anyMatch(Character::isISOControl)) {
        throw new IllegalArgumentException("schema column names must have 1 to 256 characters and no"
            + " control characters");
      }
      if (type == null || !TYPES.contains(type)) {
        throw new IllegalArgumentException("schema: column '" + name + "' must have a type among "
            + TYPES.stream().sorted().toList() + ", was " + type);
      }
    }

    boolean isNumeric() {
      return type.equals("integer") || type.equals("double");
    }
  }

  /** How the curator fixed a schema. */
  public enum Origin {
    /** Declared by the curator ({@code --schema}). */
    DECLARED,
    /** Inferred from the file as it was when the curator registered it. */
    INFERRED;

    /** Its lower-case name ({@code declared}, {@code inferred}). */
    public String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Origin parse(String text) {
      return valueOf(text.toUpperCase(Locale.ROOT));
    }
  }

  public RegisteredSchema {
    if (columns == null || columns.isEmpty()) {
      throw new IllegalArgumentException("schema must list at least one column");
    }
    Objects.requireNonNull(origin, "origin");
    columns = List.copyOf(columns);
    Set<String> seen = new HashSet<>();
    for (Column c : columns) {
      if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("schema: column '" + c.name() + "' is listed twice");
      }
    }
  }

  /** The column names in order. */
  public List<String> names() {
    return columns.stream().map(Column::name).toList();
  }

  /**
   * Checks that the registration's columns are in the schema: the privacy unit, bounded columns
   * (numeric), public-key columns, and a header-less CSV's column names (the schema's, in order).
   *
   * @throws IllegalArgumentException naming the parameter and the column
   */
  void requireFits(DatasetSpec spec) {
    spec.privacyUnit().columnName().ifPresent(c -> column("privacyUnit", c));
    spec.publicMetadata().bounds().keySet().forEach(c -> {
      if (!column("bounds", c).isNumeric()) {
        throw new IllegalArgumentException("bounds: column '" + c + "' is not numeric in the schema");
      }
    });
    spec.publicMetadata().publicKeys().keySet().forEach(c -> column("publicKeys", c));
    if (spec.format() == SourceFormat.CSV && !spec.csv().header()
        && !spec.csv().columns().equals(names())) {
      throw new IllegalArgumentException("schema must name the CSV's columns " + spec.csv().columns()
          + " in order, was " + names());
    }
  }

  private Column column(String parameter, String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() ->
        new IllegalArgumentException(parameter + ": column '" + name + "' is not in the schema " + names()));
  }

  /** {@code name:type,name:type}, the text form of the engine's {@code PublicSchema}. */
  @Override
  public String toString() {
    return columns.stream().map(c -> c.name() + ":" + c.type()).collect(Collectors.joining(","));
  }
}
