package org.privet.curator;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.privet.engine.PublicSchema;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.postgres.PostgresBackend;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.CsvHeader;
import org.privet.engine.spi.TableSchema;
import org.privet.ledger.ColumnBounds;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.DatasetTable;
import org.privet.ledger.Ledger;
import org.privet.ledger.RegisteredSchema;
import org.privet.ledger.SourceFormat;
import org.privet.ledger.UnknownDatasetException;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DatasetDescriptor;

/**
 * DP SQL's view of the ledger: a query's FROM resolves to the registered dataset, with its source,
 * its registered privacy unit (queries cannot change it), its public metadata and its public
 * schema. The schema is the one the curator fixed at registration: the source is read against it
 * ({@link Source#typed}), so column types, and the refusals they decide, never depend on what the
 * file holds now (docs/proofs/threat-model.md, "Public schema").
 */
public final class LedgerCatalog implements DatasetCatalog {
  private final Ledger ledger;
  private final Function<DatasetSpec, Backend> backends;
  private final Predicate<String> visible;

  /** A catalog whose datasets are all read by {@code backend} (files only). */
  public LedgerCatalog(Ledger ledger, Backend backend) {
    this(ledger, spec -> backend, n -> true);
  }

  /** A catalog where each dataset is read by its own backend ({@link DatasetBackends#of}). */
  public LedgerCatalog(Ledger ledger, DatasetBackends backends) {
    this(ledger, backends::of, n -> true);
  }

  /** A catalog that resolves only the registered names {@code visible} accepts. */
  public LedgerCatalog(Ledger ledger, Backend backend, Predicate<String> visible) {
    this(ledger, spec -> backend, visible);
  }

  LedgerCatalog(Ledger ledger, Function<DatasetSpec, Backend> backends, Predicate<String> visible) {
    this.ledger = ledger;
    this.backends = backends;
    this.visible = visible;
  }

  @Override
  public Optional<DatasetDescriptor> find(String name) {
    // One resolution (ignoring case, refusing a clash) for the read, the charge and the records;
    // an unknown FROM is reported as such (exit code NOT_FOUND), not as a malformed query, and an
    // invisible dataset exactly as an unknown one.
    DatasetSpec spec = ledger.dataset(name);
    if (!visible.test(spec.name())) {
      throw new UnknownDatasetException(name);
    }
    return Optional.of(describe(spec));
  }

  /**
   * The registered multi-table datasets (visible here) holding a table so named, ignoring case
   * ({@link Ledger#datasetsWithTable}).
   */
  @Override
  public List<String> datasetsWithTable(String table) {
    return ledger.datasetsWithTable(table).stream().filter(visible).toList();
  }

  /** A public table with more distinct values than this gives no public groups (they are selected privately). */
  static final int MAX_PUBLIC_VALUES = 100_000;

  /**
   * The distinct values of a column of a <em>public</em> table of a registered dataset (issue 25):
   * its contents are public (the curator added it with {@code --public}), so they serve as public
   * group keys. Read now, before any charge, from the table as registered (its file through an
   * in-memory DuckDB, against its fixed schema; a PostgreSQL table from its database); typed as the
   * registered keys are ({@link #typedKey}), sorted. Empty for a private table (never read), an
   * unknown or invisible one, and one with more than {@value #MAX_PUBLIC_VALUES} values.
   *
   * @throws IllegalArgumentException if the public table cannot be read now (no data value, no
   *     driver message)
   */
  @Override
  public Optional<List<Object>> publicValues(String dataset, String table, String column) {
    DatasetSpec spec = ledger.dataset(dataset);
    if (!visible.test(spec.name())) {
      return Optional.empty();
    }
    Optional<DatasetTable> found = ledger.tables(spec.name()).stream()
        .filter(t -> t.name().equalsIgnoreCase(table) && t.spec().isPublic()).findFirst();
    if (found.isEmpty()) {
      return Optional.empty();
    }
    DatasetTable t = found.get();
    Optional<RegisteredSchema.Column> c = t.schema().orElseThrow().columns().stream()
        .filter(x -> x.name().equalsIgnoreCase(column)).findFirst();
    if (c.isEmpty()) {
      return Optional.empty();
    }
    java.util.Set<String> texts = new java.util.HashSet<>();
    boolean[] tooMany = {false};
    java.util.function.Consumer<String> add = v -> {
      if (v != null && !tooMany[0] && texts.add(v) && texts.size() > MAX_PUBLIC_VALUES) {
        tooMany[0] = true;
      }
    };
    if (spec.database().isPresent()) {
      publicDatabaseValues(spec, t, c.get().name(), add);
    } else {
      try (DuckDbBackend db = DuckDbBackend.inMemory()) {
        Source s = source(t.spec().asSource(spec), t.schema());
        db.scanText(s, db.describe(s), List.of(c.get().name()), row -> add.accept(row[0]));
      } catch (IllegalStateException e) {
        throw new IllegalArgumentException("dataset '" + spec.name() + "': public table '" + t.name()
            + "' cannot be read now; nothing was charged");
      }
    }
    if (tooMany[0]) {
      return Optional.empty();
    }
    ColumnType type = PublicSchema.type(c.get().type());
    List<Object> typed = new ArrayList<>();
    texts.forEach(v -> typed.add(typedKey(c.get().name(), v, type)));
    typed.sort(LedgerCatalog::compareKeys);
    return Optional.of(List.copyOf(typed));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareKeys(Object a, Object b) {
    return a instanceof Comparable ca && a.getClass() == b.getClass() ? ca.compareTo(b)
        : String.valueOf(a).compareTo(String.valueOf(b));
  }

  /** A public PostgreSQL table's distinct values of {@code column} as text, on a connection of its own. */
  private static void publicDatabaseValues(DatasetSpec spec, DatasetTable t, String column,
      java.util.function.Consumer<String> add) {
    org.privet.ledger.DatabaseSource db = spec.database().orElseThrow();
    String from = java.util.Arrays.stream(t.spec().source().split("\\."))
        .map(LedgerCatalog::quoteIdentifier).collect(java.util.stream.Collectors.joining("."));
    try (java.sql.Connection conn = new org.postgresql.Driver().connect(db.jdbcUrl(), db.login(System.getenv()));
        java.sql.Statement st = conn.createStatement();
        java.sql.ResultSet r = st.executeQuery("SELECT DISTINCT CAST(" + quoteIdentifier(column)
            + " AS text) FROM " + from)) {
      while (r.next()) {
        add.accept(r.getString(1));
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalArgumentException("dataset '" + spec.name() + "': public table '" + t.name()
          + "' cannot be read now (SQL state " + e.getSQLState() + "); nothing was charged");
    }
  }

  private static String quoteIdentifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /**
   * The engine source of a registered dataset, read against its public schema.
   *
   * @throws IllegalArgumentException if the dataset has no public schema (registered before
   *     schemas were kept): a refusal that depends on the ledger only
   */
  public static Source source(DatasetSpec spec, Optional<RegisteredSchema> schema) {
    RegisteredSchema fixed = schema.orElseThrow(() -> new IllegalArgumentException("dataset '"
        + spec.name() + "' has no public schema (it was registered before schemas were fixed at"
        + " registration); the curator fixes one with: privet dataset fix-schema --name "
        + spec.name()));
    List<PublicSchema.Column> columns = new ArrayList<>();
    fixed.columns().forEach(c -> columns.add(new PublicSchema.Column(c.name(), PublicSchema.type(c.type()))));
    return Source.typed(source(spec), new PublicSchema(columns));
  }

  /** A schema the curator fixes, as the ledger keeps it (types by their PublicSchema names). */
  public static RegisteredSchema registered(PublicSchema schema, RegisteredSchema.Origin origin) {
    List<RegisteredSchema.Column> columns = new ArrayList<>();
    schema.columns().forEach(c -> columns.add(
        new RegisteredSchema.Column(c.name(), PublicSchema.typeName(c.type()))));
    return new RegisteredSchema(columns, origin);
  }

  /**
   * Registers {@code spec} with its public schema fixed now: {@code declared} if given, else the
   * curator's inference from the file as it is now ({@link #inferred}). The CLI's {@code dataset
   * register} and the server's {@code POST /v1/datasets} both register through here.
   */
  public static DatasetSpec register(Ledger ledger, DatasetSpec spec, Optional<PublicSchema> declared) {
    RegisteredSchema fixed = declared.map(s -> registered(s, RegisteredSchema.Origin.DECLARED))
        .orElseGet(() -> inferSchema(spec));
    return ledger.register(spec, fixed);
  }

  /**
   * Adds {@code table} to a registered dataset with its public schema ({@link Ledger#addTable}),
   * after the registration's rules ({@link Ledger#checkTable}) and the curator's check on the data
   * that each reference's target column is a key of its table ({@link ReferenceKeys}): the joins
   * proof's precondition (docs/proofs/engine-joins.md). The CLI's {@code dataset add-table} adds
   * tables through here.
   *
   * @throws IllegalArgumentException naming the parameter (a target that is not a key: {@code
   *     references} and the column, never a value); nothing is stored then
   */
  public static org.privet.ledger.DatasetTable addTable(Ledger ledger, String dataset,
      org.privet.ledger.TableSpec table, RegisteredSchema schema) {
    org.privet.ledger.TableSpec checked = ledger.checkTable(dataset, table, schema);
    DatasetSpec spec = ledger.dataset(dataset);
    ReferenceKeys.require(spec, ledger.tables(spec.name()), checked, Optional.of(schema), System.getenv());
    return ledger.addTable(dataset, table, schema);
  }

  /**
   * Registers a multi-table dataset whole ({@link Ledger#register(DatasetSpec, RegisteredSchema,
   * String, List)}): its unit table named {@code tableName}, then {@code tables} in order, each
   * checked as {@link #addTable} checks it, the registration's rules first ({@link
   * Ledger#checkRegistration}), then on the data that each reference's target column is a key of
   * its table ({@link ReferenceKeys}); nothing is stored unless all pass. The server's {@code POST
   * /v1/datasets} registers a dataset with tables through here.
   *
   * @return the dataset's tables as stored
   * @throws IllegalArgumentException naming the parameter (never a value); nothing is stored then
   */
  public static List<DatasetTable> register(Ledger ledger, DatasetSpec spec, RegisteredSchema schema,
      String tableName, List<Ledger.NewTable> tables) {
    List<DatasetTable> checked = ledger.checkRegistration(spec, schema, tableName, tables);
    for (int i = 1; i < checked.size(); i++) {
      ReferenceKeys.require(spec, checked.subList(0, i), checked.get(i).spec(), checked.get(i).schema(),
          System.getenv());
    }
    return ledger.register(spec, schema, tableName, tables);
  }

  /**
   * {@link #inferred} on an in-memory DuckDB, or for a PostgreSQL table on a connection to its
   * database (the password read now): the curator's inference at registration.
   */
  public static RegisteredSchema inferSchema(DatasetSpec spec) {
    if (spec.database().isPresent()) {
      try (PostgresBackend pg = DatasetBackends.connect(spec, System.getenv())) {
        return inferred(spec, pg);
      }
    }
    try (DuckDbBackend backend = DuckDbBackend.inMemory()) {
      return inferred(spec, backend);
    }
  }

  /**
   * The curator's act at registration when no schema is declared: the schema the backend infers
   * from the file as it is now, fixed from then on (DECIMAL read as double, other types as
   * string). A CSV keeps its registered layout (header line or registered names); a column the
   * backend cannot type (an empty file, or one too ragged to sniff) is string; the curator sees the
   * schema and may declare another.
   */
  public static RegisteredSchema inferred(DatasetSpec spec, Backend backend) {
    if (spec.database().isPresent() && !(backend instanceof PostgresBackend)) {
      return inferSchema(spec); // a table is described by its own database, from its catalog
    }
    Source file = source(spec);
    PublicSchema schema;
    try {
      schema = PublicSchema.of(backend.describe(file));
    } catch (IllegalArgumentException e) {
      if (!(file instanceof Source.CsvFile)) {
        throw e;
      }
      schema = null;
    }
    if (file instanceof Source.CsvFile csv) {
      // The registered layout wins: a header-less file's named columns, or the header's.
      List<String> names = csv.header() ? CsvHeader.names(csv) : csv.columnNames();
      List<PublicSchema.Column> columns = new ArrayList<>();
      for (String n : names) {
        Optional<PublicSchema.Column> c = schema == null ? Optional.empty() : schema.column(n);
        columns.add(c.orElse(new PublicSchema.Column(n, ColumnType.STRING)));
      }
      schema = new PublicSchema(columns);
    }
    return registered(schema, RegisteredSchema.Origin.INFERRED);
  }

  /** The file or table of a registered dataset, as the backend would read it without a schema. */
  public static Source source(DatasetSpec spec) {
    if (spec.format() == SourceFormat.POSTGRES) {
      return Source.table(spec.source());
    }
    Path path = Path.of(spec.source());
    if (spec.format() == SourceFormat.PARQUET) {
      return Source.parquet(path);
    }
    return new Source.CsvFile(path, spec.csv().header(), spec.csv().delimiter(), spec.csv().columns(),
        spec.csv().nullString());
  }

  /**
   * The dataset as DP SQL sees it: source, schema, privacy unit and public metadata, and its tables
   * (issue 25): the unit table first, then each added table read against its own fixed schema, with
   * its references and public flag as registered.
   */
  public DatasetDescriptor describe(DatasetSpec spec) {
    Source source = source(spec, ledger.schema(spec.name()));
    Backend backend = backends.apply(spec);
    TableSchema schema = backend.describe(source);
    DatasetDescriptor.Builder b = DatasetDescriptor.builder(spec.name(), source, schema);
    if (spec.privacyUnit().isRow()) {
      b.eachRowIsAUnit();
    } else {
      b.privacyUnit(spec.privacyUnit().columnName().orElseThrow());
    }
    List<DatasetTable> tables = ledger.tables(spec.name());
    // A public table's referencedBy are references of the tables added before it (TableSpec).
    java.util.Map<String, List<DatasetDescriptor.Reference>> incoming = new java.util.HashMap<>();
    for (DatasetTable t : tables) {
      t.spec().incoming().forEach(r -> incoming.computeIfAbsent(key(r.table()),
          k -> new ArrayList<>()).add(new DatasetDescriptor.Reference(r.column(), t.name(), r.targetColumn())));
    }
    List<DatasetDescriptor.Reference> unitRefs = incoming.getOrDefault(key(tables.get(0).name()), List.of());
    if (!tables.get(0).name().equals(spec.name()) || !unitRefs.isEmpty()) {
      b.unitTable(tables.get(0).name(), unitRefs);
    }
    for (DatasetTable t : tables.subList(1, tables.size())) {
      // All tables of a dataset are read by its one backend (TableRules): files, or its database.
      Source ts = source(t.spec().asSource(spec), t.schema());
      List<DatasetDescriptor.Reference> refs = new ArrayList<>(t.spec().references().stream()
          .map(r -> new DatasetDescriptor.Reference(r.column(), r.table(), r.targetColumn())).toList());
      refs.addAll(incoming.getOrDefault(key(t.name()), List.of()));
      b.addTable(new DatasetDescriptor.TableDescriptor(t.name(), ts, backend.describe(ts), refs,
          t.spec().isPublic()));
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

  private static String key(String tableName) {
    return tableName.toLowerCase(java.util.Locale.ROOT);
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
