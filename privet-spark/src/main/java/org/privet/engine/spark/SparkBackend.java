package org.privet.engine.spark;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.privet.engine.PublicSchema;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.BoundingPlan;
import org.privet.engine.spi.UnitGroupsSink;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.CsvHeader;
import org.privet.engine.spi.GroupSink;
import org.privet.engine.spi.TableSchema;

/**
 * {@link Backend} on Apache Spark: the bounded aggregation runs as one Spark SQL statement on the
 * given {@link SparkSession} (local or on a cluster), and only one row per group comes back to the
 * driver, streamed with {@code toLocalIterator}. Sources: tables and views of the session's
 * catalog (including DataFrames registered with {@link #registerDataFrame}), CSV files and Parquet
 * files.
 *
 * <p>On a cluster nothing depends on the driver's own state but the catalog's views: tables given
 * as rows ({@link #registerTable}) travel inside the plan; a file source is a local {@link
 * java.nio.file.Path}, made absolute on the driver and read by the executors at that same path, so
 * it must be visible at that path to the driver (which checks a CSV header before any charge) and to
 * every executor: one machine, or a shared mount. Data in HDFS, S3 or any other store Spark reads
 * is registered as a DataFrame ({@code registerDataFrame(name, spark.read().parquet("s3a://…"))}):
 * a {@code Path} cannot hold such a URI. {@code SparkStandaloneClusterContractTest} runs the
 * backend contract kit on a standalone cluster of separate JVMs.
 *
 * <p>No privacy logic lives here: the engine ({@link Session}) compiles the query, charges the
 * budget, and adds noise and selects partitions in Java, exactly as with DuckDB.
 *
 * <p>The backend does not own the session: {@link #close()} drops the temporary views it created
 * but leaves the session running.
 *
 * <p>Exceptions never carry Spark's own messages about query execution, which can quote data
 * values; they name the failing step and the exception class. (Spark's executor logs are Spark's:
 * configure its logging on the cluster accordingly.)
 *
 * <p>Thread-safety: one statement at a time (methods are synchronized).
 */
public final class SparkBackend implements Backend {
  private final SparkSession spark;
  /** Numbers the temporary views of file sources, across every backend of the JVM. */
  private static final AtomicLong VIEW_NUMBERS = new AtomicLong();
  /** File sources read so far: their temporary view names (schemas are inferred once). */
  private final Map<Source, String> fileViews = new LinkedHashMap<>();

  private SparkBackend(SparkSession spark) {
    this.spark = spark;
  }

  /** A backend on {@code spark}. */
  public static SparkBackend on(SparkSession spark) {
    return new SparkBackend(Objects.requireNonNull(spark, "spark"));
  }

  /**
   * A session builder already holding a Spark backend on {@code spark}: add a budget charger (and
   * optionally a random source) and build.
   */
  public static Session.Builder session(SparkSession spark) {
    return Session.builder().backend(on(spark));
  }

  /**
   * The Spark session, for the data owner's trusted use only (loading data, benchmarks). Never hand
   * it to an analyst: it bypasses every privacy protection.
   */
  public SparkSession trustedSession() {
    return spark;
  }

  /**
   * Makes {@code data} queryable as {@code Source.table(name)} (a temporary view of the session).
   *
   * @throws IllegalArgumentException on a bad name, or {@code data} of another Spark session (its
   *     view would land in that session, and the name would read whatever this one holds)
   */
  public synchronized void registerDataFrame(String name, Dataset<Row> data) {
    Objects.requireNonNull(data, "data");
    Source.table(name); // validates the name
    if (data.sparkSession() != spark) {
      throw new IllegalArgumentException("data for view '" + name
          + "' belongs to another Spark session than this backend's");
    }
    try {
      data.createOrReplaceTempView(name);
    } catch (Exception e) {
      throw new IllegalArgumentException("cannot register view '" + name + "' ("
          + e.getClass().getSimpleName() + ")");
    }
  }

  /**
   * Registers {@code rows} (one list of values per row, in column order; nulls allowed) as view
   * {@code name}. The rows are copied to the driver's memory first: meant for small tables and
   * tests; register a DataFrame for anything large.
   *
   * @throws IllegalArgumentException on a bad name, type or row width (messages without values)
   */
  public synchronized void registerTable(String name, List<String> columns,
      List<ColumnType> types, Iterable<? extends List<?>> rows) {
    Objects.requireNonNull(rows, "rows");
    if (columns.size() != types.size() || columns.isEmpty()) {
      throw new IllegalArgumentException("columns and types must be non-empty and of equal length");
    }
    StructField[] fields = new StructField[columns.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = DataTypes.createStructField(columns.get(i), sparkType(types.get(i)), true);
    }
    List<Row> copy = new ArrayList<>();
    long rowNumber = 0;
    for (List<?> row : rows) {
      rowNumber++;
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException("row " + rowNumber + " has " + row.size()
            + " values, expected " + columns.size());
      }
      Object[] values = new Object[row.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = sparkValue(types.get(i), row.get(i), rowNumber, columns.get(i));
      }
      copy.add(RowFactory.create(values));
    }
    registerDataFrame(name, spark.createDataFrame(copy, DataTypes.createStructType(fields)));
  }

  private static DataType sparkType(ColumnType t) {
    return switch (t) {
      case INTEGER -> DataTypes.LongType;
      case FLOATING, DECIMAL -> DataTypes.DoubleType;
      case STRING -> DataTypes.StringType;
      case BOOLEAN -> DataTypes.BooleanType;
      case DATE -> DataTypes.DateType;
      case TIMESTAMP -> DataTypes.TimestampType;
      default -> throw new IllegalArgumentException("unsupported column type " + t);
    };
  }

  private static Object sparkValue(ColumnType type, Object v, long row, String column) {
    if (v == null) {
      return null;
    }
    try {
      return switch (type) {
        case INTEGER -> ((Number) v).longValue();
        case FLOATING -> ((Number) v).doubleValue();
        case DECIMAL -> v instanceof BigDecimal b ? b.doubleValue() : ((Number) v).doubleValue();
        case STRING -> (String) v;
        case BOOLEAN -> (Boolean) v;
        case DATE -> java.sql.Date.valueOf((LocalDate) v);
        case TIMESTAMP -> java.sql.Timestamp.valueOf((LocalDateTime) v);
        default -> throw new IllegalArgumentException("unsupported column type " + type);
      };
    } catch (ClassCastException e) {
      throw new IllegalArgumentException("row " + row + ", column '" + column
          + "': value of Java type " + v.getClass().getSimpleName() + " does not fit " + type);
    }
  }

  /** The source as SQL text: a quoted table/view name; files get a temporary view first. */
  private String from(Source source) {
    if (source instanceof Source.Relational r) {
      return org.privet.engine.plan.RelationSql.render(r.relation(), SparkDialect.INSTANCE, this::from);
    }
    if (source instanceof Source.Table t) {
      return SparkSqlText.qualified(t.name());
    }
    String view = fileViews.get(source);
    if (view == null) {
      // Unique in the JVM: views of two backends on one session never replace each other.
      view = "__privet_file_" + HexFormat.of().toHexDigits(VIEW_NUMBERS.incrementAndGet());
      read(source).createOrReplaceTempView(view);
      fileViews.put(source, view);
    }
    return SparkSqlText.quote(view);
  }

  /**
   * A file's location for Spark: the path made absolute here, on the driver (the executors read
   * this same path; a relative one would mean the driver's working directory anyway).
   */
  private static String location(java.nio.file.Path path) {
    return path.toAbsolutePath().toString();
  }

  private Dataset<Row> read(Source source) {
    if (source instanceof Source.Typed t) {
      return readTyped(t);
    }
    if (source instanceof Source.ParquetFile p) {
      if (!p.isDirectory()) {
        return spark.read().parquet(location(p.path()));
      }
      // A directory: exactly the part files DuckDB reads (Source.ParquetFile#partFiles), so that
      // a file dropped beside them later (not *.parquet) is skipped by both backends rather than
      // failing a Spark scan after the charge; the listed paths are not globs, and the columns are
      // merged by name, as DuckDB's union_by_name.
      return spark.read().option("__globPaths__", "false").option("mergeSchema", "true")
          .parquet(p.partFiles().stream().map(SparkBackend::location).toArray(String[]::new));
    }
    Source.CsvFile c = (Source.CsvFile) source;
    DataFrameReader r = spark.read().option("header", c.header()).option("sep", c.delimiter())
        .option("inferSchema", true);
    if (!c.nullString().isEmpty()) {
      r = r.option("nullValue", c.nullString());
    }
    Dataset<Row> df = r.csv(location(c.path()));
    if (!c.columnNames().isEmpty()) {
      if (c.columnNames().size() != df.columns().length) {
        throw new IllegalArgumentException(describeSource(source) + " has " + df.columns().length
            + " columns, but " + c.columnNames().size() + " names were given");
      }
      df = df.toDF(c.columnNames().toArray(new String[0]));
    }
    return df;
  }

  /**
   * A source read against its public schema by the per-row rule of {@link Source.Typed}: CSV
   * text with no inference (PERMISSIVE: a short line is padded with NULLs, extra fields are
   * dropped, a line that cannot be parsed reads as NULLs), then one TRY_CAST per column. Only the
   * file's structure (a CSV header, a Parquet file's column names) is checked, before any charge.
   */
  private Dataset<Row> readTyped(Source.Typed t) {
    Dataset<Row> raw;
    boolean text = t.file() instanceof Source.CsvFile;
    if (t.file() instanceof Source.CsvFile c) {
      CsvHeader.check(c, t.schema());
      List<StructField> fields = new ArrayList<>();
      t.schema().names().forEach(n -> fields.add(DataTypes.createStructField(n, DataTypes.StringType, true)));
      DataFrameReader r = spark.read().schema(DataTypes.createStructType(fields))
          .option("header", c.header()).option("sep", c.delimiter()).option("quote", "\"")
          .option("escape", "\"").option("mode", "PERMISSIVE").option("enforceSchema", true);
      if (!c.nullString().isEmpty()) {
        r = r.option("nullValue", c.nullString());
      }
      raw = r.csv(location(c.path()));
    } else {
      raw = t.file() instanceof Source.Table tb ? spark.table(SparkSqlText.qualified(tb.name()))
          : read(t.file());
      List<String> present = List.of(raw.columns());
      for (String name : t.schema().names()) {
        if (!present.contains(name)) {
          throw new IllegalArgumentException("source " + describeSource(t) + " has no column '"
              + name + "' of its registered schema (its structure changed since registration)");
        }
      }
    }
    List<String> exprs = new ArrayList<>();
    for (PublicSchema.Column c : t.schema().columns()) {
      String v = SparkSqlText.quote(c.name());
      String type = sparkType(c.type()).sql();
      String conv;
      if (text && c.type() == ColumnType.INTEGER) {
        conv = "CASE WHEN trim(" + v + ") RLIKE '^[+-]?[0-9]+$' THEN TRY_CAST(trim(" + v
            + ") AS BIGINT) END";
      } else if (text && c.type() != ColumnType.STRING) {
        conv = "TRY_CAST(trim(" + v + ") AS " + type + ")";
      } else {
        conv = "TRY_CAST(" + v + " AS " + type + ")";
      }
      exprs.add(conv + " AS " + v);
    }
    return raw.selectExpr(exprs.toArray(new String[0]));
  }

  static String describeSource(Source source) {
    if (source instanceof Source.Relational) {
      return "joined tables";
    }
    if (source instanceof Source.Typed t) {
      return describeSource(t.file());
    } else if (source instanceof Source.Table t) {
      return "table '" + t.name() + "'";
    } else if (source instanceof Source.CsvFile c) {
      return "CSV file '" + c.path().getFileName() + "'";
    }
    Source.ParquetFile p = (Source.ParquetFile) source;
    return (p.isDirectory() ? "Parquet directory '" : "Parquet file '") + p.path().getFileName()
        + "'";
  }

  @Override
  public synchronized TableSchema describe(Source source) {
    if (source instanceof Source.Relational r) {
      // Each scanned source's structure is checked as for one table (before any charge); the
      // plan's schema is the scans' public schemas, no row read.
      checkScans(r.relation().scans());
      return r.relation().schema();
    }
    if (source instanceof Source.Typed t && t.file() instanceof Source.CsvFile c) {
      CsvHeader.check(c, t.schema()); // each time: the view below is cached across queries
    }
    StructType st;
    try {
      st = spark.sql("SELECT * FROM " + from(source)).schema();
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalArgumentException("source " + describeSource(source)
          + " cannot be read (does it exist? " + e.getClass().getSimpleName() + ")");
    }
    List<TableSchema.Column> cols = new ArrayList<>();
    for (StructField f : st.fields()) {
      cols.add(new TableSchema.Column(f.name(), classify(f.dataType()), f.dataType().sql()));
    }
    return new TableSchema(cols);
  }

  /**
   * Checks a join's scanned sources ({@link org.privet.engine.spi.ScanChecks}): the tables and
   * views together in one analysis (Spark resolves {@code SELECT 1 FROM t0, t1, ...} iff it
   * resolves each {@code SELECT * FROM ti}), else each source as {@link #describe} checks one; the
   * refusal is the first failing source's, in scan order.
   */
  private void checkScans(List<org.privet.engine.plan.Relation.Scan> scans) {
    org.privet.engine.spi.ScanChecks.check(scans, tables -> {
      StringBuilder sql = new StringBuilder("SELECT 1 FROM ");
      for (int i = 0; i < tables.size(); i++) {
        sql.append(i > 0 ? ", " : "").append(from(tables.get(i))).append(" AS __t").append(i);
      }
      try {
        spark.sql(sql.toString()).schema();
        return true;
      } catch (Exception e) {
        return false; // each source in order: the first failing one refuses
      }
    }, this::describe);
  }

  /**
   * The schema a bounding plan is rendered against: a relational source's public schema ({@link
   * org.privet.engine.plan.Relation#schema()}) without checking its scans again (the engine's
   * {@link #describe} of the query's source checked them before the charge; a source gone since
   * makes the statement fail, as any failure after the charge, without Spark's message), else
   * {@link #describe}.
   */
  private TableSchema planSchema(Source source) {
    return source instanceof Source.Relational r ? r.relation().schema() : describe(source);
  }

  static ColumnType classify(DataType t) {
    if (t instanceof DecimalType) {
      return ColumnType.DECIMAL;
    }
    if (t.equals(DataTypes.ByteType) || t.equals(DataTypes.ShortType)
        || t.equals(DataTypes.IntegerType) || t.equals(DataTypes.LongType)) {
      return ColumnType.INTEGER;
    }
    if (t.equals(DataTypes.FloatType) || t.equals(DataTypes.DoubleType)) {
      return ColumnType.FLOATING;
    }
    if (t.equals(DataTypes.StringType)) {
      return ColumnType.STRING;
    }
    if (t.equals(DataTypes.BooleanType)) {
      return ColumnType.BOOLEAN;
    }
    if (t.equals(DataTypes.DateType)) {
      return ColumnType.DATE;
    }
    return t.typeName().startsWith("timestamp") ? ColumnType.TIMESTAMP : ColumnType.OTHER;
  }

  private BoundingPlan plan(BoundedAggregation spec) {
    TableSchema schema = planSchema(spec.source());
    return new BoundingPlan(spec, schema, from(spec.source(), spec.columnsNamed()),
        SparkDialect.INSTANCE);
  }

  /** {@link #from(Source)}, a plan rendered with only the output columns {@code read}. */
  private String from(Source source, java.util.Set<String> read) {
    if (source instanceof Source.Relational r) {
      return org.privet.engine.plan.RelationSql.render(r.relation(), SparkDialect.INSTANCE,
          this::from, read);
    }
    return from(source);
  }

  /**
   * A view whose specs over the passes' source, filter and unit read one cached temporary view of
   * the session ({@link SharedRows}): the (unit, group) pairs' row counts when every pass {@link
   * BoundingPlan#sharesPairs} with one text (counts), else the rows of step 1 of {@link
   * BoundedAggregation} projected to the columns the passes read.
   */
  @Override
  public synchronized Backend sharingRows(List<BoundedAggregation> passes) {
    if (passes.isEmpty()) {
      return Backend.super.sharingRows(passes);
    }
    return org.privet.engine.spi.SharedPasses.of(passes, planSchema(passes.get(0).source()),
        this::plan)
        .<Backend>map(sp -> new SharedRows(sp, "__privet_rows_"
            + HexFormat.of().toHexDigits(VIEW_NUMBERS.incrementAndGet())))
        .orElseGet(() -> Backend.super.sharingRows(passes));
  }

  /**
   * What one query's passes share ({@link #sharingRows}, {@link
   * org.privet.engine.spi.SharedPasses}), as DuckDB's backend shares it: a temporary view of the
   * session over a persisted (cached) Dataset of the shared pairs or rows statement; a spec it
   * serves reads the view, any other runs as on the backend. Spark computes the cached rows at the
   * first statement that reads them; the view's name is the engine's (unique in the JVM) and
   * closing drops the view and its cache.
   */
  private final class SharedRows implements Backend {
    private final org.privet.engine.spi.SharedPasses shared;
    private final String name;
    private Dataset<Row> cached;

    SharedRows(org.privet.engine.spi.SharedPasses shared, String name) {
      this.shared = shared;
      this.name = name;
    }

    private void make() {
      if (cached != null) {
        return;
      }
      String sql = shared.pairs();
      if (sql == null) {
        SparkBackend.this.planSchema(shared.template().source()); // the direct plan's refusal
        sql = shared.rowsStatement(from(shared.template().source(), shared.rowsColumnsNamed()),
            SparkDialect.INSTANCE);
      }
      try {
        Dataset<Row> d = spark.sql(sql)
            .persist(org.apache.spark.storage.StorageLevel.MEMORY_AND_DISK());
        d.createOrReplaceTempView(name);
        cached = d;
      } catch (Exception e) {
        throw failure(e);
      }
    }

    @Override
    public void aggregate(BoundedAggregation spec, GroupSink sink) {
      synchronized (SparkBackend.this) {
        Objects.requireNonNull(sink, "sink");
        if (shared.pairs() != null) {
          BoundingPlan direct = plan(spec);
          if (shared.servesPairs(direct)) {
            make();
            forEachRow(direct.statementOverPairs(SparkSqlText.quote(name)),
                row -> sink.accept(direct.group(row::get)));
            return;
          }
        }
        if (!shared.servesRows(spec)) {
          SparkBackend.this.aggregate(spec, sink);
          return;
        }
        make();
        BoundingPlan plan = shared.rowsPlan(spec, SparkSqlText.quote(name), SparkDialect.INSTANCE);
        forEachRow(plan.statement(), row -> sink.accept(plan.group(row::get)));
      }
    }

    @Override
    public boolean listsKeptGroups() {
      return true;
    }

    @Override
    public void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
      synchronized (SparkBackend.this) {
        if (!shared.servesRows(spec)) {
          SparkBackend.this.keptGroups(spec, sink);
          return;
        }
        make();
        BoundingPlan plan = shared.rowsPlan(spec, SparkSqlText.quote(name), SparkDialect.INSTANCE);
        BoundingPlan.UnitGroupsReader reader = plan.new UnitGroupsReader(sink);
        forEachRow(plan.keptGroupsStatement(), row -> reader.row(row::get));
        reader.finish();
      }
    }

    @Override
    public TableSchema describe(Source source) {
      return SparkBackend.this.describe(source);
    }

    @Override
    public void query(Source source, org.privet.engine.spi.RenderedQuery query, int columns,
        java.util.function.Consumer<String[]> rows) {
      SparkBackend.this.query(source, query, columns, rows);
    }

    @Override
    public String physicalPlan(BoundedAggregation spec) {
      return SparkBackend.this.physicalPlan(spec);
    }

    /** Drops the view and its cache; the backend stays open. */
    @Override
    public void close() {
      synchronized (SparkBackend.this) {
        if (cached != null) {
          Dataset<Row> d = cached;
          cached = null;
          try {
            spark.catalog().dropTempView(name);
            d.unpersist();
          } catch (Exception e) {
            throw failure(e);
          }
        }
      }
    }
  }

  @Override
  public synchronized String physicalPlan(BoundedAggregation spec) {
    String sql = plan(spec).statement();
    if (spec.source() instanceof Source.Table || spec.source() instanceof Source.Relational) {
      return sql;
    }
    return "-- " + from(spec.source()) + " = " + describeSource(spec.source()) + "\n" + sql;
  }

  @Override
  public synchronized void aggregate(BoundedAggregation spec, GroupSink sink) {
    Objects.requireNonNull(sink, "sink");
    BoundingPlan plan = plan(spec);
    forEachRow(plan.statement(), row -> sink.accept(plan.group(row::get)));
  }

  @Override
  public boolean countsPairRows() {
    return true;
  }

  @Override
  public synchronized void pairRowsHistogram(BoundedAggregation spec,
      java.util.function.Consumer<org.privet.engine.spi.PairRowsCount> sink) {
    Objects.requireNonNull(sink, "sink");
    BoundingPlan plan = plan(spec);
    forEachRow(plan.pairRowsHistogramStatement(), row -> sink.accept(plan.pairRowsCount(row::get)));
  }

  @Override
  public synchronized String pairRowsHistogramPlan(BoundedAggregation spec) {
    String sql = plan(spec).pairRowsHistogramStatement();
    if (spec.source() instanceof Source.Table || spec.source() instanceof Source.Relational) {
      return sql;
    }
    return "-- " + from(spec.source()) + " = " + describeSource(spec.source()) + "\n" + sql;
  }

  @Override
  public synchronized void query(Source source, org.privet.engine.spi.RenderedQuery query,
      int columns, java.util.function.Consumer<String[]> rows) {
    String sql = query.render(from(source), describe(source), SparkDialect.INSTANCE);
    forEachRow(sql, r -> {
      String[] row = new String[columns];
      for (int i = 0; i < columns; i++) {
        Object v = r.get(i);
        row[i] = v == null ? null : v instanceof BigDecimal b ? b.toPlainString() : v.toString();
      }
      rows.accept(row);
    });
  }

  /** Runs {@code sql}, streaming each row to {@code rows}; failures withhold Spark's message. */
  private void forEachRow(String sql, java.util.function.Consumer<Row> rows) {
    Iterator<Row> it;
    try {
      it = spark.sql(sql).toLocalIterator();
    } catch (Exception e) {
      throw failure(e);
    }
    while (true) {
      Row r;
      try {
        if (!it.hasNext()) {
          break;
        }
        r = it.next();
      } catch (Exception e) {
        throw failure(e);
      }
      rows.accept(r);
    }
  }

  @Override
  public boolean listsKeptGroups() {
    return true;
  }

  @Override
  public synchronized void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
    Objects.requireNonNull(sink, "sink");
    BoundingPlan plan = plan(spec);
    BoundingPlan.UnitGroupsReader reader = plan.new UnitGroupsReader(sink);
    forEachRow(plan.keptGroupsStatement(), row -> reader.row(row::get));
    reader.finish();
  }

  private static RuntimeException failure(Exception e) {
    // No data-dependent failure is planned (sums saturate at the public cap); a failure here is
    // the backend's (disk, memory, a lost executor). Spark's message can quote a data value (e.g. a failed cast): withhold it.
    return new IllegalStateException("Spark bounded aggregation failed ("
        + e.getClass().getSimpleName()
        + "); Spark's message is withheld because it may contain data values");
  }

  @Override
  public synchronized void close() {
    for (String view : fileViews.values()) {
      try {
        spark.catalog().dropTempView(view);
      } catch (Exception e) {
        // the session may already be stopped: nothing left to drop
      }
    }
    fileViews.clear();
  }
}
