package org.privet.engine.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import org.privet.engine.PublicSchema;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.JdbcBackend;
import org.privet.engine.spi.TableSchema;

/**
 * {@link org.privet.engine.spi.Backend} on a PostgreSQL database: the data stays in PostgreSQL and
 * the whole bounded aggregation runs there as one statement ({@link
 * org.privet.engine.spi.BoundingPlan} in {@link PostgresDialect}); only one row per group comes
 * back. Sources are tables and views ({@code Source.table("name")} or
 * {@code "schema.name"}).
 *
 * <p>The session is read-only (the backend never writes), with {@code standard_conforming_strings}
 * on (string literals are rendered for it). Credentials are the caller's business: pass them in
 * the connection properties, never in a stored URL.
 *
 * <p>The result (one row per group) is fetched at once: through a portal (a JDBC fetch size)
 * PostgreSQL plans no parallel query, measured twice as slow (docs/benchmarks.md). Exceptions never
 * carry PostgreSQL's messages ({@link JdbcBackend}). Thread-safety: one statement at a time.
 */
public final class PostgresBackend extends JdbcBackend {
  private PostgresBackend(Connection connection) {
    super("PostgreSQL", connection, PostgresDialect.INSTANCE);
  }

  /**
   * Connects to {@code jdbcUrl} ({@code jdbc:postgresql://host:port/database}) with {@code
   * properties} (e.g. {@code user}, {@code password}).
   *
   * @throws IllegalArgumentException if the URL is not a PostgreSQL URL
   * @throws IllegalStateException if the connection fails (SQLSTATE only)
   */
  public static PostgresBackend connect(String jdbcUrl, Properties properties) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("jdbcUrl must start with jdbc:postgresql:");
    }
    try {
      Connection c = DriverManager.getConnection(jdbcUrl, properties);
      try (Statement st = c.createStatement()) {
        st.execute(SESSION_SETUP);
      }
      c.setReadOnly(true);
      c.setAutoCommit(false); // one read-only transaction per statement, ended explicitly
      return new PostgresBackend(c);
    } catch (SQLException e) {
      throw cannotConnect(e);
    }
  }

  /** The session setting every connection gets: string literals are rendered for it. */
  static final String SESSION_SETUP = "SET standard_conforming_strings = on";

  /** A backend on a connection already set up as {@link #connect} sets one up (a pooled one). */
  static PostgresBackend over(Connection setUp) {
    return new PostgresBackend(setUp);
  }

  /** The failure of a connection attempt, with its SQLSTATE and never the driver's text. */
  static IllegalStateException cannotConnect(SQLException e) {
    return new IllegalStateException("cannot connect to PostgreSQL (SQL state " + e.getSQLState() + ")");
  }

  /** The connection, for this package's tests. */
  Connection jdbc() {
    return connection();
  }

  /** A typed table ({@link Source.Typed}) is read as its table: the check is in {@link #describe}. */
  @Override
  protected String from(Source source) {
    return super.from(source instanceof Source.Typed t ? t.file() : source);
  }

  /**
   * A table's columns from the catalog; for a typed table (a registered dataset), its registered
   * columns, each as the catalog declares it now. Only structure is read, never a row: a column of
   * the registered schema that is missing, or whose type no longer maps to its registered type
   * ({@link PublicSchema#of}), is refused before anything is charged (threat-model.md, "Public
   * schema"); the curator re-fixes the schema.
   */
  @Override
  public synchronized TableSchema describe(Source source) {
    if (source instanceof Source.Typed t) {
      return describeTyped(t);
    }
    if (source instanceof Source.Relational r) {
      // Each scanned source's structure is checked as for one table (before any charge); the
      // plan's schema is the scans' public schemas, no row read.
      // Each distinct source once, in scan order (the first failing one refuses).
      org.privet.engine.spi.ScanChecks.check(r.relation().scans(), tables -> false,
          this::describe);
      return r.relation().schema();
    }
    String name = from(source);
    List<TableSchema.Column> cols = new ArrayList<>();
    try (PreparedStatement st = connection().prepareStatement("SELECT a.attname, "
        + "format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = "
        + "to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum")) {
      st.setString(1, name);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          cols.add(column(rs.getString(1), rs.getString(2)));
        }
      }
      endTransaction(true);
    } catch (SQLException e) {
      endTransaction(false);
      throw new IllegalArgumentException("source table '" + ((Source.Table) source).name()
          + "' cannot be described (SQL state " + e.getSQLState() + ")");
    }
    if (cols.isEmpty()) {
      throw new IllegalArgumentException("source table '" + ((Source.Table) source).name()
          + "' cannot be read (does it exist?)");
    }
    return new TableSchema(cols);
  }

  /**
   * PostgreSQL's guarantees for a plan's key questions ({@link
   * org.privet.engine.plan.RelationSql.KeyFacts}; docs/proofs/engine-joins.md, "Keys the database
   * guarantees"), read from the catalog only (no row), in the transaction the plan's statement then
   * runs in, and in one round trip: first {@code LOCK TABLE ... IN ACCESS SHARE MODE} on every
   * asked name (the lock any read takes, allowed in a read-only transaction, held to the end of
   * the transaction: a constraint or NOT NULL cannot be dropped until the statement has run, since
   * that needs ACCESS EXCLUSIVE), then, per question, the relation the name resolves to as FROM
   * resolves it ({@code to_regclass}: no other table or view of that name is read): guaranteed when
   * it is an ordinary table without inheritance children, with a non-deferrable PRIMARY KEY or
   * UNIQUE constraint on exactly the key column and the unit column NOT NULL. A guaranteed table is
   * then scanned as {@code ONLY schema.table}: exactly the relation whose constraints were read,
   * without a child a concurrent {@code CREATE TABLE ... INHERITS} (which does not wait for
   * readers) may add. Any failure: the transaction is rolled back and nothing is guaranteed. The
   * passes of one query share the transaction, the lock and these answers ({@link
   * JdbcBackend#sharingRows}).
   */
  @Override
  protected Guarantees guarantees(
      List<org.privet.engine.plan.RelationSql.KeyFacts.Question> questions) {
    java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
    questions.forEach(q -> names.add(from(q.source())));
    StringBuilder sql = new StringBuilder("LOCK TABLE ").append(String.join(", ", names))
        .append(" IN ACCESS SHARE MODE; SELECT ");
    for (int i = 0; i < questions.size(); i++) {
      sql.append(i > 0 ? ", " : "").append("(SELECT quote_ident(n.nspname) || '.' ||"
          + " quote_ident(c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid ="
          + " c.relnamespace WHERE c.oid = to_regclass(?) AND c.relkind = 'r' AND NOT"
          + " c.relhassubclass AND EXISTS (SELECT 1 FROM pg_constraint k JOIN pg_attribute a ON"
          + " a.attrelid = c.oid AND a.attnum = k.conkey[1] WHERE k.conrelid = c.oid AND"
          + " k.contype IN ('p', 'u') AND NOT k.condeferrable AND cardinality(k.conkey) = 1 AND"
          + " a.attname = ? AND NOT a.attisdropped) AND EXISTS (SELECT 1 FROM pg_attribute a"
          + " WHERE a.attrelid = c.oid AND a.attname = ? AND a.attnotnull AND NOT"
          + " a.attisdropped))");
    }
    java.util.Map<org.privet.engine.plan.RelationSql.KeyFacts.Question, Boolean> answers =
        new java.util.HashMap<>();
    java.util.Map<Source.Table, String> tables = new java.util.HashMap<>();
    try (PreparedStatement st = connection().prepareStatement(sql.toString())) {
      int p = 1;
      for (org.privet.engine.plan.RelationSql.KeyFacts.Question q : questions) {
        st.setString(p++, from(q.source()));
        st.setString(p++, q.key());
        st.setString(p++, q.unit());
      }
      boolean rows = st.execute();
      while (!rows && st.getUpdateCount() != -1) {
        rows = st.getMoreResults();
      }
      try (ResultSet rs = st.getResultSet()) {
        if (rs == null || !rs.next()) {
          throw new SQLException("no row", "22000");
        }
        for (int i = 0; i < questions.size(); i++) {
          String only = rs.getString(i + 1);
          org.privet.engine.plan.RelationSql.KeyFacts.Question q = questions.get(i);
          answers.put(q, only != null);
          if (only != null) {
            tables.put(q.source(), "ONLY " + only);
          }
        }
      }
    } catch (SQLException e) {
      endTransaction(false); // nothing is guaranteed; the statement runs in a fresh transaction
      return null;
    }
    // A table vouched for by one question and not another is still scanned as ONLY: it has no
    // child, so ONLY reads the same rows (and the plan's other scans of it stay consistent).
    return new Guarantees(org.privet.engine.plan.RelationSql.KeyFacts.of(answers), tables);
  }

  private TableSchema describeTyped(Source.Typed t) {
    String table = ((Source.Table) t.file()).name();
    TableSchema present = describe(t.file());
    PublicSchema now = PublicSchema.of(present);
    List<TableSchema.Column> cols = new ArrayList<>();
    for (PublicSchema.Column registered : t.schema().columns()) {
      String n = registered.name();
      if (now.column(n).map(c -> c.type() != registered.type()).orElse(true)) {
        throw new IllegalArgumentException("source table '" + table + "' has no column '" + n
            + "' of type " + PublicSchema.typeName(registered.type()) + " of its registered schema"
            + " (its structure changed since registration)");
      }
      cols.add(present.column(n).orElseThrow());
    }
    return new TableSchema(cols);
  }

  /**
   * A column of PostgreSQL type {@code type} (as {@code format_type} spells it). A NUMERIC without
   * precision is reported as {@code numeric(1000)}: filters and public keys then refuse it (their
   * literals are typed against a declared precision), while sums read it totally.
   */
  static TableSchema.Column column(String name, String type) {
    String t = type.toLowerCase(Locale.ROOT);
    ColumnType kind;
    String nativeType = type;
    if (t.equals("smallint") || t.equals("integer") || t.equals("bigint")) {
      kind = ColumnType.INTEGER;
    } else if (t.startsWith("numeric")) {
      kind = ColumnType.DECIMAL;
      nativeType = t.equals("numeric") ? "numeric(1000)" : type;
    } else if (t.equals("real") || t.equals("double precision")) {
      kind = ColumnType.FLOATING;
    } else if (t.equals("text") || t.startsWith("character")) {
      kind = ColumnType.STRING;
    } else if (t.equals("boolean")) {
      kind = ColumnType.BOOLEAN;
    } else if (t.equals("date")) {
      kind = ColumnType.DATE;
    } else if (t.startsWith("timestamp")) {
      kind = ColumnType.TIMESTAMP;
    } else {
      kind = ColumnType.OTHER;
    }
    return new TableSchema.Column(name, kind, nativeType);
  }
}
