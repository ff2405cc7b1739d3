package org.privet.curator;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.privet.engine.Source;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;
import org.privet.ledger.ColumnBounds;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.SourceFormat;
import org.privet.ledger.UnknownDatasetException;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DatasetDescriptor;

/**
 * DP SQL's view of the ledger: a query's FROM resolves to the registered dataset, with its source,
 * its registered privacy unit (queries cannot change it) and its public metadata. The schema
 * (column names and types, which are public) comes from the backend.
 */
public final class LedgerCatalog implements DatasetCatalog {
  private final Ledger ledger;
  private final Backend backend;

  public LedgerCatalog(Ledger ledger, Backend backend) {
    this.ledger = ledger;
    this.backend = backend;
  }

  @Override
  public Optional<DatasetDescriptor> find(String name) {
    Optional<DatasetSpec> spec = ledger.datasets().stream()
        .filter(d -> d.name().equalsIgnoreCase(name)).findFirst();
    // An unknown FROM is reported as such (exit code NOT_FOUND), not as a malformed query.
    return Optional.of(describe(spec.orElseThrow(() -> new UnknownDatasetException(name))));
  }

  /** The engine source of a registered dataset. */
  public static Source source(DatasetSpec spec) {
    Path path = Path.of(spec.source());
    if (spec.format() == SourceFormat.PARQUET) {
      return Source.parquet(path);
    }
    return new Source.CsvFile(path, spec.csv().header(), spec.csv().delimiter(), spec.csv().columns(),
        spec.csv().nullString());
  }

  private DatasetDescriptor describe(DatasetSpec spec) {
    Source source = source(spec);
    TableSchema schema = backend.describe(source);
    DatasetDescriptor.Builder b = DatasetDescriptor.builder(spec.name(), source, schema);
    if (spec.privacyUnit().isRow()) {
      b.eachRowIsAUnit();
    } else {
      b.privacyUnit(spec.privacyUnit().columnName().orElseThrow());
    }
    spec.publicMetadata().bounds().forEach((column, bounds) -> addBounds(b, column, bounds));
    spec.publicMetadata().publicKeys().forEach((column, keys) -> {
      ColumnType type = schema.column(column)
          .orElseThrow(() -> new IllegalArgumentException("publicKeys: dataset '" + spec.name()
              + "' has no column named '" + column + "'"))
          .type();
      List<Object> typed = new ArrayList<>();
      keys.forEach(k -> typed.add(typedKey(column, k, type)));
      b.publicKeys(column, typed);
    });
    return b.build();
  }

  private static void addBounds(DatasetDescriptor.Builder b, String column, ColumnBounds bounds) {
    b.publicBounds(column, bounds.lower(), bounds.upper());
  }

  /** A registered key (text) as a value of the column's type, so it matches the data's keys. */
  public static Object typedKey(String column, String key, ColumnType type) {
    try {
      return switch (type) {
        case INTEGER -> Long.parseLong(key.trim());
        case FLOATING, DECIMAL -> Double.parseDouble(key.trim());
        case BOOLEAN -> Boolean.parseBoolean(key.trim());
        case DATE -> LocalDate.parse(key.trim());
        default -> key;
      };
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("publicKeys: key '" + key + "' of column '" + column
          + "' is not a " + type.name().toLowerCase(java.util.Locale.ROOT));
    }
  }
}
