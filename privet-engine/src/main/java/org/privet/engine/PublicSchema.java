package org.privet.engine;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

/**
 * The public schema of a dataset: its column names and types, in file order, fixed by the curator
 * when the dataset is registered. Types decide refusals (which cost nothing), so they must never
 * be read from the data at query time; a source read through {@link Source#typed} yields exactly
 * these columns, and a value that does not parse as its column's type reads as NULL (see
 * docs/proofs/threat-model.md, "Public schema").
 *
 * <p>Immutable. Text form: {@code name:type,name:type}, with type one of {@code integer} (64-bit),
 * {@code double}, {@code string}, {@code boolean}, {@code date}, {@code timestamp}.
 *
 * @param columns the columns in file order, with distinct names
 */
public record PublicSchema(List<Column> columns) {

  /**
   * One public column.
   *
   * @param name its name (an identifier)
   * @param type its type: one of {@link #SUPPORTED}
   */
  public record Column(String name, ColumnType type) {
    public Column {
      requireName(name);
      if (type == null || !SUPPORTED.contains(type)) {
        throw new IllegalArgumentException("schema: column '" + name + "' must have a type among "
            + typeNames() + ", was " + (type == null ? "null" : type.name().toLowerCase(Locale.ROOT)));
      }
    }

    /** {@code name:type}. */
    @Override
    public String toString() {
      return name + ":" + typeName(type);
    }
  }

  /**
   * Checks a column name: 1 to 256 characters, no control characters. Names are metadata the
   * curator fixes (a file's header may hold any text); every backend quotes them.
   */
  static void requireName(String name) {
    if (name == null || name.isEmpty() || name.length() > 256 || name.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("schema column names must have 1 to 256 characters and no"
          + " control characters");
    }
  }

  /** The types a public schema may declare (DECIMAL reads as {@code double}, OTHER as text). */
  public static final List<ColumnType> SUPPORTED = List.of(ColumnType.INTEGER, ColumnType.FLOATING,
      ColumnType.STRING, ColumnType.BOOLEAN, ColumnType.DATE, ColumnType.TIMESTAMP);

  public PublicSchema {
    if (columns == null || columns.isEmpty()) {
      throw new IllegalArgumentException("schema must list at least one column");
    }
    columns = List.copyOf(columns);
    Set<String> seen = new HashSet<>();
    for (Column c : columns) {
      if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("schema: column '" + c.name() + "' is listed twice");
      }
    }
  }

  /**
   * Parses {@code name:type,name:type,...}.
   *
   * @throws IllegalArgumentException naming the parameter {@code schema} and the bad entry
   */
  public static PublicSchema parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("schema must look like name:type,name:type");
    }
    List<Column> out = new ArrayList<>();
    for (String entry : text.split(",", -1)) {
      int colon = entry.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException("schema entries must look like name:type, was '"
            + entry.trim() + "'");
      }
      out.add(new Column(entry.substring(0, colon).trim(), type(entry.substring(colon + 1))));
    }
    return new PublicSchema(out);
  }

  /**
   * The public schema the curator fixes from a backend's description of the file, at
   * registration: DECIMAL columns become {@code double}, and types the engine does not aggregate
   * ({@link ColumnType#OTHER}) become {@code string}.
   */
  public static PublicSchema of(TableSchema described) {
    List<Column> out = new ArrayList<>();
    for (TableSchema.Column c : described.columns()) {
      ColumnType t = switch (c.type()) {
        case DECIMAL -> ColumnType.FLOATING;
        case OTHER -> ColumnType.STRING;
        default -> c.type();
      };
      out.add(new Column(c.name(), t));
    }
    return new PublicSchema(out);
  }

  /** The column of that exact name. */
  public Optional<Column> column(String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /** The column names in order. */
  public List<String> names() {
    return columns.stream().map(Column::name).toList();
  }

  /** The type of {@code text} ({@code integer}, {@code double}, ...). */
  public static ColumnType type(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "integer", "int", "bigint", "long" -> ColumnType.INTEGER;
      case "double", "float", "floating", "real" -> ColumnType.FLOATING;
      case "string", "varchar", "text" -> ColumnType.STRING;
      case "boolean", "bool" -> ColumnType.BOOLEAN;
      case "date" -> ColumnType.DATE;
      case "timestamp" -> ColumnType.TIMESTAMP;
      default -> throw new IllegalArgumentException("schema types must be one of " + typeNames()
          + ", was '" + text.trim() + "'");
    };
  }

  /** The text name of a supported type. */
  public static String typeName(ColumnType type) {
    return type == ColumnType.FLOATING ? "double" : type.name().toLowerCase(Locale.ROOT);
  }

  private static String typeNames() {
    return SUPPORTED.stream().map(PublicSchema::typeName).collect(Collectors.joining(", "));
  }

  /** {@code name:type,name:type}, which {@link #parse} reads back. */
  @Override
  public String toString() {
    return columns.stream().map(Column::toString).collect(Collectors.joining(","));
  }
}
