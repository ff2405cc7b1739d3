package org.privet.engine.duckdb;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.privet.engine.PublicSchema;
import org.privet.engine.Source;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.BoundingPlan;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.CsvHeader;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.GroupSink;
import org.privet.engine.spi.TableSchema;
import org.privet.engine.spi.UnitGroupsSink;

/**
 * {@link Backend} on an embedded DuckDB database (in memory or a file), reading registered tables,
 * CSV files and Parquet files.
 *
 * <p>Thread-safety: one statement at a time (methods are synchronized).
 *
 * <p>Exceptions never carry DuckDB's own messages about query execution, which can quote data
 * values; they name the failing step and the SQL state.
 */
public final class DuckDbBackend implements Backend {
  private final DuckDBConnection connection;

  private DuckDbBackend(DuckDBConnection connection) {
    this.connection = connection;
  }

  /** A fresh in-memory database. */
  public static DuckDbBackend inMemory() {
    return open("jdbc:duckdb:");
  }

  /** A database file (created if absent). */
  public static DuckDbBackend open(Path file) {
    return open("jdbc:duckdb:" + file.toAbsolutePath());
  }

  /**
   * The table expression DuckDB reads {@code source} with, as every query renders it (e.g. a
   * Parquet directory as its part files, {@link Source.ParquetFile#partFiles}): for the curator's
   * trusted reads outside the engine, such as anonymization, which must not restate the rendering.
   */
  public static String tableExpression(Source source) {
    return SqlText.from(source);
  }

  /**
   * The widest grouping key, in bits, that DuckDB aggregates with a perfect hash table (one slot
   * per key value, no hashing or probing) rather than its radix-partitioned hash table: DuckDB's
   * {@code perfect_ht_threshold}, 12 by default, set to this on the backend's connection when it
   * is opened (session scope: other connections to the same database keep their own). A key
   * qualifies when the range of its values, from DuckDB's own column statistics, fits in that
   * many bits (an integer privacy unit of up to 262,144 distinct ids, such as TPC-H's customers
   * at scale factor 1); each thread then allocates 2<sup>bits</sup> slots. Only the
   * physical operator changes: the same groups and the same aggregates (the results are DuckDB's
   * either way). Issue 25 (docs/benchmarks.md, "Q10 on DuckDB: the per-unit aggregate's floor"):
   * the per-unit {@code GROUP BY} of TPC-H Q10's 1.5 million joined rows into 100,000 customers
   * costs 1.5× the plain join instead of 2.9× (one statement, SF 1, quiet machine); 20 bits made
   * the queries that group the orders' keys (20 bits at SF 0.1: 150,000 of 600,000 values)
   * 2–3.5× slower, 18 bits cost 0.3 ms on 1,000 keys spread over the whole range.
   */
  static final int PERFECT_HASH_BITS = 18;

  private static DuckDbBackend open(String url) {
    try {
      DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection(url);
      try (Statement st = c.createStatement()) {
        st.execute("SET perfect_ht_threshold = " + PERFECT_HASH_BITS);
      } catch (SQLException e) {
        c.close();
        throw e;
      }
      return new DuckDbBackend(c);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open DuckDB database: " + e.getMessage(), e);
    }
  }

  /**
   * The underlying connection, for the data owner's trusted use only (loading data, benchmarks).
   * Never hand it to an analyst: it bypasses every privacy protection.
   */
  public Connection trustedConnection() {
    return connection;
  }

  /**
   * Creates table {@code name} with the given columns and appends {@code rows} (one list of values
   * per row, in column order; nulls allowed). Rows are streamed into DuckDB's appender, not held.
   *
   * @throws IllegalArgumentException on a bad name, type or row width (messages without values)
   */
  public synchronized void registerTable(String name, List<String> columns,
      List<ColumnType> types, Iterable<? extends List<?>> rows) {
    Objects.requireNonNull(rows, "rows");
    if (columns.size() != types.size() || columns.isEmpty()) {
      throw new IllegalArgumentException("columns and types must be non-empty and of equal length");
    }
    StringBuilder ddl = new StringBuilder("CREATE OR REPLACE TABLE ")
        .append(SqlText.quote(name)).append(" (");
    for (int i = 0; i < columns.size(); i++) {
      if (i > 0) {
        ddl.append(", ");
      }
      ddl.append(SqlText.quote(columns.get(i))).append(' ').append(nativeType(types.get(i)));
    }
    ddl.append(')');
    run(ddl.toString(), "create table");
    long rowNumber = 0;
    try (DuckDBAppender app = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, name)) {
      for (List<?> row : rows) {
        rowNumber++;
        if (row.size() != columns.size()) {
          throw new IllegalArgumentException("row " + rowNumber + " has " + row.size()
              + " values, expected " + columns.size());
        }
        app.beginRow();
        for (int i = 0; i < row.size(); i++) {
          appendValue(app, types.get(i), row.get(i), rowNumber, columns.get(i));
        }
        app.endRow();
      }
    } catch (SQLException e) {
      throw new IllegalArgumentException("cannot append row " + rowNumber + " to table '" + name
          + "' (SQL state " + e.getSQLState() + ")");
    }
  }

  private static void appendValue(DuckDBAppender app, ColumnType type, Object v, long row,
      String column) throws SQLException {
    if (v == null) {
      app.appendNull();
      return;
    }
    try {
      switch (type) {
        case INTEGER -> app.append(((Number) v).longValue());
        case FLOATING -> app.append(((Number) v).doubleValue());
        case DECIMAL -> app.append(v instanceof BigDecimal b ? b.doubleValue()
            : ((Number) v).doubleValue());
        case STRING -> app.append((String) v);
        case BOOLEAN -> app.append(((Boolean) v).booleanValue());
        case DATE -> app.append((LocalDate) v);
        case TIMESTAMP -> app.append((LocalDateTime) v);
        default -> throw new IllegalArgumentException("unsupported column type " + type);
      }
    } catch (ClassCastException e) {
      throw new IllegalArgumentException("row " + row + ", column '" + column
          + "': value of Java type " + v.getClass().getSimpleName() + " does not fit " + type);
    }
  }

  static String nativeType(ColumnType t) {
    return switch (t) {
      case INTEGER -> "BIGINT";
      case FLOATING, DECIMAL -> "DOUBLE";
      case STRING -> "VARCHAR";
      case BOOLEAN -> "BOOLEAN";
      case DATE -> "DATE";
      case TIMESTAMP -> "TIMESTAMP";
      default -> throw new IllegalArgumentException("unsupported column type " + t);
    };
  }

  @Override
  public synchronized TableSchema describe(Source source) {
    described = null; // any describe ends what the last one read for its query
    if (source instanceof Source.Typed t) {
      return describeTyped(t);
    }
    if (source instanceof Source.Relational r) {
      // Each scanned source's structure is checked as for one table (before any charge); the
      // plan's schema is the scans' public schemas, no row read. The declared keys the plan's
      // rendering asks about are read in the same statement, for this query's statements.
      described = checkScans(r);
      return r.relation().schema();
    }
    String sql = "DESCRIBE SELECT * FROM " + SqlText.from(source);
    List<TableSchema.Column> cols = new ArrayList<>();
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        String name = rs.getString("column_name");
        String nativeType = rs.getString("column_type");
        cols.add(new TableSchema.Column(name, classify(nativeType), nativeType));
      }
    } catch (SQLException e) {
      throw new IllegalArgumentException("source " + SqlText.describe(source)
          + " cannot be read (does it exist? SQL state " + e.getSQLState() + ")");
    }
    return new TableSchema(cols);
  }

  /**
   * Checks a join's scanned sources ({@link org.privet.engine.spi.ScanChecks}): the plain tables
   * together in one statement (DuckDB binds {@code SELECT 1 FROM t0, t1, ...} iff it binds each
   * {@code DESCRIBE SELECT * FROM ti}), else each source as {@link #describe} checks one; the
   * refusal is the first failing source's, in scan order. When the plan's rendering asks about
   * declared keys ({@link org.privet.engine.plan.RelationSql.KeyFacts#questions}), the same
   * statement reads them ({@link #keyFactsStatement}), and they are returned with the source, for
   * the statements of this query only ({@link #factsFor}); else null.
   */
  private Described checkScans(Source.Relational source) {
    org.privet.engine.plan.Relation relation = source.relation();
    List<org.privet.engine.plan.RelationSql.KeyFacts.Question> questions =
        org.privet.engine.plan.RelationSql.KeyFacts.questions(relation);
    org.privet.engine.plan.RelationSql.KeyFacts[] read = {null};
    org.privet.engine.spi.ScanChecks.check(relation.scans(), questions.isEmpty() ? 2 : 1,
        tables -> {
          StringBuilder from = new StringBuilder();
          for (int i = 0; i < tables.size(); i++) {
            from.append(i > 0 ? ", " : "").append(SqlText.from(tables.get(i))).append(" AS __t")
                .append(i);
          }
          if (questions.isEmpty()) {
            try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("DESCRIBE SELECT 1 FROM " + from)) {
              return true;
            } catch (SQLException e) {
              return false; // each source in order: the first failing one refuses
            }
          }
          // The tables bound as the plain check binds them, under a false filter DuckDB's
          // optimizer turns into an empty result (no row is read; DuckDbDeclaredKeysTest holds
          // it with a view whose rows cannot be read): one row of the declared keys' codes.
          String sql = keyFactsStatement(questions) + " LEFT JOIN (SELECT 1 FROM " + from
              + " WHERE false) AS __scans ON true";
          try {
            read[0] = keyFacts(questions, sql);
            return true;
          } catch (SQLException e) {
            return false; // each source in order: the first failing one refuses
          }
        }, this::describe);
    return read[0] == null ? null : new Described(source, read[0]);
  }

  /**
   * The declared-key facts read by the last {@link #describe} of a relational source (its scan
   * check, before the query's charge), held for the statements of that query: {@link #factsFor}
   * hands them to the next call that renders that very source and drops them; every describe
   * replaces them. Never kept past the next rendering: a constraint the owner drops is read again
   * by the next query (DuckDbDeclaredKeysTest).
   */
  private record Described(Source.Relational source,
      org.privet.engine.plan.RelationSql.KeyFacts facts) {}

  private Described described;

  /**
   * The key facts for rendering {@code source}: those its scan check read, when it is the source
   * last described (taken, so used once); else read now in one catalog statement; {@link
   * org.privet.engine.plan.RelationSql.KeyFacts#NONE} for a source that is not a plan.
   */
  private org.privet.engine.plan.RelationSql.KeyFacts factsFor(Source source) {
    Described d = described;
    described = null;
    if (d != null && d.source() == source) {
      return d.facts();
    }
    if (!(source instanceof Source.Relational r)) {
      return org.privet.engine.plan.RelationSql.KeyFacts.NONE;
    }
    List<org.privet.engine.plan.RelationSql.KeyFacts.Question> questions =
        org.privet.engine.plan.RelationSql.KeyFacts.questions(r.relation());
    if (questions.isEmpty()) {
      return org.privet.engine.plan.RelationSql.KeyFacts.NONE;
    }
    try {
      return keyFacts(questions, keyFactsStatement(questions));
    } catch (SQLException e) {
      return org.privet.engine.plan.RelationSql.KeyFacts.NONE; // the checks are rendered
    }
  }

  /**
   * One row, one code per question, from DuckDB's catalog only ({@code pragma_table_info} of the
   * name as the query's FROM resolves it: a view of that name answers no key and no NOT NULL): 2
   * when the table's PRIMARY KEY is exactly the one column {@code key}, plus 1 when {@code unit}
   * is declared NOT NULL.
   */
  private static String keyFactsStatement(
      List<org.privet.engine.plan.RelationSql.KeyFacts.Question> questions) {
    List<String> codes = new ArrayList<>();
    for (org.privet.engine.plan.RelationSql.KeyFacts.Question q : questions) {
      codes.add("(SELECT CASE WHEN COUNT(*) FILTER (WHERE pk) = 1 AND COALESCE(bool_or(pk AND"
          + " lower(name) = lower(" + SqlText.string(q.key()) + ")), false) THEN 2 ELSE 0 END"
          + " + CASE WHEN COALESCE(bool_or(\"notnull\" AND lower(name) = lower("
          + SqlText.string(q.unit()) + ")), false) THEN 1 ELSE 0 END FROM pragma_table_info("
          + SqlText.string(SqlText.from(q.source())) + "))");
    }
    return "SELECT " + String.join(", ", codes) + " FROM (SELECT 1) AS __one";
  }

  /**
   * The answers of {@code sql} ({@link #keyFactsStatement}, perhaps with the scan check): a key
   * that is the PRIMARY KEY with a NOT NULL unit is guaranteed; a NOT NULL unit with another
   * primary key is asked once more of the catalog for a UNIQUE constraint ({@link
   * #uniqueKeyWithUnit}); anything else is not.
   *
   * @throws SQLException if {@code sql} fails (the caller decides what that means)
   */
  private org.privet.engine.plan.RelationSql.KeyFacts keyFacts(
      List<org.privet.engine.plan.RelationSql.KeyFacts.Question> questions, String sql)
      throws SQLException {
    int[] codes = new int[questions.size()];
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      if (!rs.next()) {
        throw new SQLException("no row", "22000");
      }
      for (int i = 0; i < codes.length; i++) {
        codes[i] = rs.getInt(i + 1);
      }
    }
    java.util.Map<org.privet.engine.plan.RelationSql.KeyFacts.Question, Boolean> answers =
        new java.util.HashMap<>();
    for (int i = 0; i < codes.length; i++) {
      org.privet.engine.plan.RelationSql.KeyFacts.Question q = questions.get(i);
      answers.put(q, codes[i] == 3 || (codes[i] == 1
          && uniqueKeyWithUnit(q.source(), q.key(), q.unit())));
    }
    return org.privet.engine.plan.RelationSql.KeyFacts.of(answers);
  }

  /**
   * The schema a bounding plan is rendered against: a relational source's public schema ({@link
   * org.privet.engine.plan.Relation#schema()}) without checking its scans again (the engine's
   * {@link #describe} of the query's source checked them before the charge; a source gone since
   * makes the statement fail, as any failure after the charge, without a driver message), else
   * {@link #describe}.
   */
  private TableSchema planSchema(Source source) {
    return source instanceof Source.Relational r ? r.relation().schema() : describe(source);
  }

  /**
   * The registered schema, read from no row: only the file's structure is checked (a CSV header,
   * a Parquet file's or table's column names).
   */
  private TableSchema describeTyped(Source.Typed t) {
    if (t.file() instanceof Source.CsvFile c) {
      CsvHeader.check(c, t.schema());
    } else {
      TableSchema present = describe(t.file());
      for (String name : t.schema().names()) {
        if (present.column(name).isEmpty()) {
          throw new IllegalArgumentException("source " + SqlText.describe(t) + " has no column '"
              + name + "' of its registered schema (its structure changed since registration)");
        }
      }
    }
    List<TableSchema.Column> cols = new ArrayList<>();
    for (PublicSchema.Column c : t.schema().columns()) {
      cols.add(new TableSchema.Column(c.name(), c.type(), nativeType(c.type())));
    }
    return new TableSchema(cols);
  }

  static ColumnType classify(String nativeType) {
    String t = nativeType.toUpperCase(Locale.ROOT);
    if (t.startsWith("DECIMAL") || t.startsWith("NUMERIC")) {
      return ColumnType.DECIMAL;
    }
    return switch (t) {
      case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
          "UINTEGER", "UBIGINT", "UHUGEINT" -> ColumnType.INTEGER;
      case "FLOAT", "DOUBLE", "REAL" -> ColumnType.FLOATING;
      case "VARCHAR" -> ColumnType.STRING;
      case "BOOLEAN" -> ColumnType.BOOLEAN;
      case "DATE" -> ColumnType.DATE;
      default -> t.startsWith("TIMESTAMP") ? ColumnType.TIMESTAMP : ColumnType.OTHER;
    };
  }


  private BoundingPlan plan(BoundedAggregation spec, DuckDbDialect dialect,
      org.privet.engine.plan.RelationSql.KeyFacts facts) {
    return new BoundingPlan(spec, planSchema(spec.source()), SqlText.from(spec.source(),
        spec.columnsNamed(), facts), dialect);
  }

  /**
   * {@link org.privet.engine.plan.RelationSql.KeyFacts} from DuckDB's catalog (public metadata the
   * database enforces, no row read): a table source whose every table of that name (any catalog
   * or schema the name may resolve to, and no view of that name) declares a one-column PRIMARY
   * KEY or UNIQUE constraint on {@code key} and a NOT NULL constraint on {@code unit}. DuckDB
   * rejects any insert or update that breaks either while it is declared; the catalog is read
   * within the backend call (for one query's passes, the query) whose statements it shapes, under
   * this backend's lock (a schema change by the owner in the middle of a query is outside the
   * model). Anything else, or a failing catalog read: false (the check is rendered).
   */
  private boolean uniqueKeyWithUnit(Source source, String key, String unit) {
    if (!(source instanceof Source.Table t)) {
      return false;
    }
    String[] parts = t.name().split("\\.");
    String table = parts[parts.length - 1];
    List<String> args = new ArrayList<>(List.of(table));
    String where = "lower(table_name) = lower(?)";
    if (parts.length >= 2) {
      where += " AND lower(schema_name) = lower(?)";
      args.add(parts[parts.length - 2]);
    }
    if (parts.length >= 3) {
      where += " AND lower(database_name) = lower(?)";
      args.add(parts[parts.length - 3]);
    }
    String same = "c.database_name = t.database_name AND c.schema_name = t.schema_name"
        + " AND c.table_name = t.table_name AND len(c.constraint_column_names) = 1";
    String sql = "WITH t AS (SELECT database_name, schema_name, table_name FROM duckdb_tables()"
        + " WHERE " + where + "), ok AS (SELECT * FROM t WHERE EXISTS (SELECT 1 FROM"
        + " duckdb_constraints() c WHERE " + same + " AND c.constraint_type IN ('PRIMARY KEY',"
        + " 'UNIQUE') AND lower(c.constraint_column_names[1]) = lower(?)) AND EXISTS (SELECT 1"
        + " FROM duckdb_constraints() c WHERE " + same + " AND c.constraint_type = 'NOT NULL'"
        + " AND lower(c.constraint_column_names[1]) = lower(?))) SELECT (SELECT COUNT(*) FROM t),"
        + " (SELECT COUNT(*) FROM ok), (SELECT COUNT(*) FROM duckdb_views() WHERE"
        + " lower(view_name) = lower(?))";
    args.add(key);
    args.add(unit);
    args.add(table);
    try (java.sql.PreparedStatement st = connection.prepareStatement(sql)) {
      for (int i = 0; i < args.size(); i++) {
        st.setString(i + 1, args.get(i));
      }
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() && rs.getLong(1) > 0 && rs.getLong(1) == rs.getLong(2)
            && rs.getLong(3) == 0;
      }
    } catch (SQLException e) {
      return false;
    }
  }

  @Override
  public String physicalPlan(BoundedAggregation spec) {
    return plan(spec, DuckDbDialect.FAST, factsFor(spec.source())).statement();
  }

  @Override
  public synchronized void aggregate(BoundedAggregation spec, GroupSink sink) {
    aggregateWith(spec, sink, factsFor(spec.source()));
  }

  @Override
  public boolean countsPairRows() {
    return true;
  }

  @Override
  public synchronized void pairRowsHistogram(BoundedAggregation spec,
      java.util.function.Consumer<org.privet.engine.spi.PairRowsCount> sink) {
    try {
      plan(spec, DuckDbDialect.FAST, factsFor(spec.source())).runPairRowsHistogram(connection, 0,
          sink);
    } catch (SQLException e) {
      throw failure("bounded aggregation", e);
    }
  }

  @Override
  public synchronized String pairRowsHistogramPlan(BoundedAggregation spec) {
    return plan(spec, DuckDbDialect.FAST, factsFor(spec.source())).pairRowsHistogramStatement();
  }

  /** {@link #aggregate} with the key facts of the query the spec belongs to. */
  private void aggregateWith(BoundedAggregation spec, GroupSink sink,
      org.privet.engine.plan.RelationSql.KeyFacts facts) {
    aggregate(spec, sink, d -> plan(spec, d, facts));
  }

  /** Runs the plan {@code planner} makes for a dialect, with the exact-sum rerun. */
  private void aggregate(BoundedAggregation spec, GroupSink sink,
      java.util.function.Function<DuckDbDialect, BoundingPlan> planner) {
    long[] delivered = {0};
    try {
      stream(planner.apply(DuckDbDialect.FAST), sink, delivered);
    } catch (SQLException e) {
      String message = e.getMessage();
      if (delivered[0] > 0 || message == null || !message.contains(BoundingPlan.DOUBLE_SUM_GUARD)) {
        throw failure("bounded aggregation", e);
      }
      // A pair too large for the exact DOUBLE sum (nothing delivered yet: the guard fires while
      // pairs are formed, before the blocking per-group aggregation): the plan with 128-bit sums.
      try {
        stream(planner.apply(DuckDbDialect.FAST.withExactPairSums()), sink, delivered);
      } catch (SQLException e2) {
        throw failure("bounded aggregation", e2);
      }
    }
  }

  /** Numbers this backend's shared-rows tables (names only; nothing about the data). */
  private long sharedTables;

  /**
   * A view whose specs over the passes' source, filter and unit read one temporary table of this
   * connection ({@link SharedRows}): the (unit, group) pairs' row counts when every pass {@link
   * BoundingPlan#sharesPairs} with one text (counts), else the rows of step 1 of {@link
   * BoundedAggregation} projected to the columns the passes read; made at the first spec it
   * serves and dropped when the view is closed.
   */
  @Override
  public synchronized Backend sharingRows(List<BoundedAggregation> passes) {
    if (passes.isEmpty()) {
      return Backend.super.sharingRows(passes);
    }
    // The facts the query's scan check read, for every pass (passes read one source).
    org.privet.engine.plan.RelationSql.KeyFacts facts = factsFor(passes.get(0).source());
    return org.privet.engine.spi.SharedPasses.of(passes, planSchema(passes.get(0).source()),
        p -> plan(p, DuckDbDialect.FAST, facts))
        .map(sp -> new SharedRows(sp, "__privet_rows_" + ++sharedTables, facts))
        .orElseGet(() -> new SharedRows(null, null, facts));
  }

  /**
   * What one query's passes share ({@link #sharingRows}, {@link
   * org.privet.engine.spi.SharedPasses}): a temporary table of this connection (temporary tables
   * are per connection, and only the engine's statements, which name it, run here), made by
   * {@code CREATE TEMP TABLE ... AS} the shared pairs or rows statement at the first spec it
   * serves; any other spec (every spec, when nothing is shared: {@code shared} null) runs as on
   * the backend, with the query's key facts. A failure to make the table is reported as
   * the failure of the spec's own statement would be (the same refusal when the source is gone,
   * else no driver message). Closing drops the table.
   */
  private final class SharedRows implements Backend {
    private final org.privet.engine.spi.SharedPasses shared;
    private final String name;
    private boolean attempted;

    private final org.privet.engine.plan.RelationSql.KeyFacts facts;

    SharedRows(org.privet.engine.spi.SharedPasses shared, String name,
        org.privet.engine.plan.RelationSql.KeyFacts facts) {
      this.shared = shared;
      this.name = name;
      this.facts = facts;
    }

    private String table() {
      return "temp.main." + SqlText.quote(name);
    }

    /** Makes the table once; {@code step} names the failing step as the direct path would. */
    private void make(String step) {
      if (attempted) {
        return; // made (a failed attempt threw, and its query stops there)
      }
      attempted = true;
      String rows = shared.pairs();
      if (rows == null) {
        // The source's structure is checked as the direct plan checks it (the same refusal).
        DuckDbBackend.this.planSchema(shared.template().source());
        rows = shared.rowsStatement(SqlText.from(shared.template().source(),
            shared.rowsColumnsNamed(), facts), DuckDbDialect.FAST);
      }
      run("CREATE TEMP TABLE " + SqlText.quote(name) + " AS " + rows, step);
    }

    @Override
    public void aggregate(BoundedAggregation spec, GroupSink sink) {
      synchronized (DuckDbBackend.this) {
        if (shared != null && shared.pairs() != null) {
          BoundingPlan direct = DuckDbBackend.this.plan(spec, DuckDbDialect.FAST, facts);
          if (shared.servesPairs(direct)) {
            make("bounded aggregation");
            long[] delivered = {0};
            try {
              forEachGroup(direct, direct.statementOverPairs(table()), sink, delivered);
            } catch (SQLException e) {
              throw failure("bounded aggregation", e);
            }
            return;
          }
        }
        if (shared == null || !shared.servesRows(spec)) {
          DuckDbBackend.this.aggregateWith(spec, sink, facts);
          return;
        }
        make("bounded aggregation");
        DuckDbBackend.this.aggregate(spec, sink, d -> shared.rowsPlan(spec, table(), d));
      }
    }

    @Override
    public boolean listsKeptGroups() {
      return true;
    }

    @Override
    public void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
      synchronized (DuckDbBackend.this) {
        if (shared == null || !shared.servesRows(spec)) {
          DuckDbBackend.this.keptGroupsWith(spec, sink, facts);
          return;
        }
        make("kept groups");
        try {
          shared.rowsPlan(spec, table(), DuckDbDialect.FAST).runKeptGroups(connection, 0, sink);
        } catch (SQLException e) {
          throw failure("kept groups", e);
        }
      }
    }

    @Override
    public TableSchema describe(Source source) {
      return DuckDbBackend.this.describe(source);
    }

    @Override
    public void query(Source source, org.privet.engine.spi.RenderedQuery query, int columns,
        java.util.function.Consumer<String[]> rows) {
      DuckDbBackend.this.query(source, query, columns, rows);
    }

    @Override
    public String physicalPlan(BoundedAggregation spec) {
      synchronized (DuckDbBackend.this) {
        return DuckDbBackend.this.plan(spec, DuckDbDialect.FAST, facts).statement();
      }
    }

    /** Drops the table (if any); the backend stays open. */
    @Override
    public void close() {
      synchronized (DuckDbBackend.this) {
        if (attempted) {
          attempted = false;
          run("DROP TABLE IF EXISTS " + table(), "drop shared rows");
        }
      }
    }
  }

  @Override
  public boolean listsKeptGroups() {
    return true;
  }

  @Override
  public synchronized void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
    keptGroupsWith(spec, sink, factsFor(spec.source()));
  }

  /** {@link #keptGroups} with the key facts of the query the spec belongs to. */
  private void keptGroupsWith(BoundedAggregation spec, UnitGroupsSink sink,
      org.privet.engine.plan.RelationSql.KeyFacts facts) {
    try {
      plan(spec, DuckDbDialect.FAST, facts).runKeptGroups(connection, 0, sink);
    } catch (SQLException e) {
      throw failure("kept groups", e);
    }
  }

  /** Runs {@code sql} (a statement of {@code plan}'s rows), handing each group to the sink. */
  private void forEachGroup(BoundingPlan plan, String sql, GroupSink sink, long[] delivered)
      throws SQLException {
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      Object[] row = new Object[n];
      while (rs.next()) {
        for (int i = 0; i < n; i++) {
          row[i] = rs.getObject(i + 1);
        }
        delivered[0]++;
        sink.accept(plan.group(i -> row[i]));
      }
    }
  }

  /** Runs the plan's statement, handing each group to the sink. */
  private void stream(BoundingPlan plan, GroupSink sink, long[] delivered) throws SQLException {
    plan.run(connection, 0, g -> {
      delivered[0]++;
      sink.accept(g);
    });
  }

  @Override
  public synchronized void query(Source source, org.privet.engine.spi.RenderedQuery query,
      int columns, java.util.function.Consumer<String[]> rows) {
    String sql = query.render(SqlText.from(source), describe(source), DuckDbDialect.FAST);
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        String[] row = new String[columns];
        for (int i = 0; i < columns; i++) {
          row[i] = rs.getString(i + 1);
        }
        rows.accept(row);
      }
    } catch (SQLException e) {
      throw failure("rendered query", e);
    }
  }

  /**
   * Streams {@code columns} of every row of {@code source} to {@code rows} as text (SQL NULL as
   * {@code null}), for a release that must read rows after its charge (synthetic data). The read is
   * total on the data: a CSV is parsed with the layout of the public {@code schema} and no sniffing,
   * every field as text; a short row is padded with NULLs and a row that cannot be parsed is skipped
   * (a per-row rule), so no value or row can make the scan fail. Failures that remain (the file
   * vanished, I/O) do not depend on the values and carry no driver message.
   *
   * @throws IllegalArgumentException if a column is not in {@code schema} (names only)
   * @throws IllegalStateException if the scan fails (message without data values)
   */
  public synchronized void scanText(Source source, TableSchema schema, List<String> columns,
      java.util.function.Consumer<String[]> rows) {
    for (String c : columns) {
      if (schema.column(c).isEmpty()) {
        throw new IllegalArgumentException("column '" + c + "' is not in the schema of "
            + SqlText.describe(source));
      }
    }
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery(SqlText.textScan(source, schema, columns))) {
      int k = columns.size();
      while (rs.next()) {
        String[] row = new String[k];
        for (int i = 0; i < k; i++) {
          row[i] = rs.getString(i + 1);
        }
        rows.accept(row);
      }
    } catch (SQLException e) {
      throw failure("row scan", e);
    }
  }

  /**
   * Whether {@code column} of {@code source} holds some non-NULL value on more than one row, i.e.
   * is not a key of it: the curator's check, when a table is added, that a reference's target is a
   * key of its table (issue 25; docs/proofs/engine-joins.md, "Keys: meant, not needed for
   * privacy"). It reads the
   * data, as the curator's act at registration; a query never calls it. A typed source is compared
   * on its typed values, as a join compares them; NULLs match nothing and are ignored.
   *
   * @throws IllegalArgumentException if the column is not in the source's schema (names only)
   * @throws IllegalStateException if the read fails (message without data values)
   */
  public synchronized boolean hasDuplicateValues(Source source, String column) {
    if (describe(source).column(column).isEmpty()) {
      throw new IllegalArgumentException("column '" + column + "' is not in the schema of "
          + SqlText.describe(source));
    }
    String c = SqlText.quote(column);
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("SELECT 1 FROM " + SqlText.from(source) + " AS t WHERE " + c
            + " IS NOT NULL GROUP BY " + c + " HAVING COUNT(*) > 1 LIMIT 1")) {
      return rs.next();
    } catch (SQLException e) {
      throw failure("key check", e);
    }
  }

  /** Runs trusted SQL (data loading); the driver message is kept since no protected data is read. */
  public synchronized void execute(String sql) {
    try (Statement st = connection.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("statement failed: " + e.getMessage(), e);
    }
  }

  private void run(String sql, String step) {
    try (Statement st = connection.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw failure(step, e);
    }
  }

  private static IllegalStateException failure(String step, SQLException e) {
    // The driver's message can quote a data value (e.g. a failed cast): withhold it.
    return new IllegalStateException("DuckDB " + step + " failed (SQL state " + e.getSQLState()
        + "); the driver's message is withheld because it may contain data values");
  }

  @Override
  public synchronized void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot close DuckDB connection (SQL state "
          + e.getSQLState() + ")");
    }
  }
}
