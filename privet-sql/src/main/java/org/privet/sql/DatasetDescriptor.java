package org.privet.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.privet.engine.Source;
import org.privet.engine.spi.TableSchema;

/**
 * What DP SQL knows about one dataset: its name, where its rows are, its privacy unit, its columns
 * (names and types; public) and optional public metadata: per-column value bounds (used as
 * per-row contribution bounds when a query gives none) and per-column public key sets (used for
 * {@code group_selection_strategy = PUBLIC_GROUPS}).
 *
 * <p>Immutable; build with {@link #builder}. Column look-ups are case-insensitive, as in SQL.
 */
public final class DatasetDescriptor {
  private final String name;
  private final Source source;
  private final String privacyUnit;
  private final TableSchema schema;
  private final Map<String, ColumnBounds> publicBounds;
  private final Map<String, List<Object>> publicKeys;

  /** Public bounds of a numeric column: every value lies in [lower, upper]. */
  public record ColumnBounds(double lower, double upper) {
    public ColumnBounds {
      if (!Double.isFinite(lower) || !Double.isFinite(upper) || !(lower < upper)) {
        throw new IllegalArgumentException("bounds must be finite with lower < upper, were "
            + lower + " and " + upper);
      }
    }
  }

  private DatasetDescriptor(Builder b) {
    this.name = b.name;
    this.source = b.source;
    this.privacyUnit = b.privacyUnit;
    this.schema = b.schema;
    this.publicBounds = Collections.unmodifiableMap(new LinkedHashMap<>(b.publicBounds));
    this.publicKeys = Collections.unmodifiableMap(new LinkedHashMap<>(b.publicKeys));
  }

  /**
   * Starts a descriptor.
   *
   * @param name the name queries use in FROM
   * @param source where the engine reads the rows
   * @param schema the columns (e.g. from {@link org.privet.engine.spi.Backend#describe})
   */
  public static Builder builder(String name, Source source, TableSchema schema) {
    return new Builder(name, source, schema);
  }

  public String name() {
    return name;
  }

  public Source source() {
    return source;
  }

  /** The privacy unit column, or empty when each row is its own privacy unit. */
  public Optional<String> privacyUnit() {
    return Optional.ofNullable(privacyUnit);
  }

  public TableSchema schema() {
    return schema;
  }

  /** Public value bounds by exact column name. */
  public Map<String, ColumnBounds> publicBounds() {
    return publicBounds;
  }

  /** Public key sets by exact column name. */
  public Map<String, List<Object>> publicKeys() {
    return publicKeys;
  }

  /** The column named {@code written}, matched exactly first, then ignoring case. */
  public Optional<TableSchema.Column> column(String written) {
    Optional<TableSchema.Column> exact = schema.column(written);
    if (exact.isPresent()) {
      return exact;
    }
    List<TableSchema.Column> matches = schema.columns().stream()
        .filter(c -> c.name().toLowerCase(Locale.ROOT).equals(written.toLowerCase(Locale.ROOT)))
        .toList();
    return matches.size() == 1 ? Optional.of(matches.get(0)) : Optional.empty();
  }

  @Override
  public String toString() {
    return "DatasetDescriptor[" + name + ", unit=" + (privacyUnit == null ? "<each row>" : privacyUnit)
        + ", " + schema.columns().size() + " columns]";
  }

  /** Validating builder. */
  public static final class Builder {
    private final String name;
    private final Source source;
    private final TableSchema schema;
    private String privacyUnit;
    private boolean eachRow;
    private final Map<String, ColumnBounds> publicBounds = new LinkedHashMap<>();
    private final Map<String, List<Object>> publicKeys = new LinkedHashMap<>();

    private Builder(String name, Source source, TableSchema schema) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank");
      }
      this.name = name;
      this.source = Objects.requireNonNull(source, "source");
      this.schema = Objects.requireNonNull(schema, "schema");
      if (schema.columns().isEmpty()) {
        throw new IllegalArgumentException("schema must have at least one column");
      }
    }

    /** The column identifying the privacy unit. */
    public Builder privacyUnit(String column) {
      this.privacyUnit = requireColumn("privacyUnit", column);
      return this;
    }

    /** Each row is its own privacy unit. */
    public Builder eachRowIsAUnit() {
      this.eachRow = true;
      return this;
    }

    /** Public bounds of a numeric column (used when a query gives no contribution bounds). */
    public Builder publicBounds(String column, double lower, double upper) {
      TableSchema.Column c = schema.column(requireColumn("publicBounds", column)).orElseThrow();
      if (!c.type().isNumeric()) {
        throw new IllegalArgumentException("publicBounds: column '" + column + "' is not numeric");
      }
      publicBounds.put(column, new ColumnBounds(lower, upper));
      return this;
    }

    /** The public set of values of a column (for PUBLIC_GROUPS group selection). */
    public Builder publicKeys(String column, List<?> keys) {
      requireColumn("publicKeys", column);
      if (keys == null || keys.isEmpty()) {
        throw new IllegalArgumentException("publicKeys must not be empty");
      }
      publicKeys.put(column, Collections.unmodifiableList(new ArrayList<>(keys)));
      return this;
    }

    public DatasetDescriptor build() {
      if ((privacyUnit == null) == !eachRow) {
        throw new IllegalArgumentException(
            "privacyUnit: name the privacy unit column or call eachRowIsAUnit(), exactly one");
      }
      return new DatasetDescriptor(this);
    }

    private String requireColumn(String parameter, String column) {
      if (column == null || schema.column(column).isEmpty()) {
        throw new IllegalArgumentException(parameter + ": no column named '" + column + "'");
      }
      return column;
    }
  }
}
