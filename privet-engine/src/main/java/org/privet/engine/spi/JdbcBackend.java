package org.privet.engine.spi;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.privet.engine.Source;

/**
 * A {@link Backend} over one JDBC connection whose bounding runs as the {@link BoundingPlan}
 * rendered by a {@link SqlDialect}: a new SQL database is a dialect, a subclass that opens the
 * connection and describes a table, and a {@code BackendContractTest} subclass. Sources are tables
 * and views ({@code name} or {@code schema.name}). The result (one row per group) is fetched at
 * once; a connection without auto-commit gets one transaction per call, ended here.
 *
 * <p>Exceptions never carry the driver's messages about query execution, which can quote data
 * values; they name the failing step and the SQLSTATE. Thread-safety: one statement at a time.
 */
public abstract class JdbcBackend implements Backend {
  private final String database;
  private final Connection connection;
  private final SqlDialect dialect;

  /**
   * @param database the database's name, for messages
   * @param connection an open connection, owned by this backend from now on
   * @param dialect the database's spelling
   */
  protected JdbcBackend(String database, Connection connection, SqlDialect dialect) {
    this.database = database;
    this.connection = connection;
    this.dialect = dialect;
  }

  /** The connection, for subclasses (describing tables). */
  protected final Connection connection() {
    return connection;
  }

  /**
   * The source as SQL: a table or view name with each dotted part quoted.
   *
   * @throws IllegalArgumentException for a file source
   */
  protected String from(Source source) {
    if (source instanceof Source.Relational r) {
      return org.privet.engine.plan.RelationSql.render(r.relation(), dialect, this::from);
    }
    if (!(source instanceof Source.Table t)) {
      throw new IllegalArgumentException("the " + database
          + " backend reads tables and views only");
    }
    List<String> parts = new ArrayList<>();
    for (String p : t.name().split("\\.")) {
      parts.add(dialect.quote(p));
    }
    return String.join(".", parts);
  }

  /**
   * The bounding plan of {@code spec}. A relational source is rendered against its public schema
   * ({@link org.privet.engine.plan.Relation#schema()}) without describing its scans again: the
   * engine's {@link #describe} of the query's source checked them before the charge (a source
   * gone since makes the statement fail, as any failure after the charge, without the driver's
   * message); any other source is described.
   */
  private BoundingPlan plan(BoundedAggregation spec) {
    TableSchema schema = spec.source() instanceof Source.Relational r ? r.relation().schema()
        : describe(spec.source());
    return new BoundingPlan(spec, schema, from(spec.source()), dialect);
  }

  @Override
  public synchronized String physicalPlan(BoundedAggregation spec) {
    return plan(spec).statement();
  }

  @Override
  public synchronized void aggregate(BoundedAggregation spec, GroupSink sink) {
    BoundingPlan plan = plan(spec);
    inTransaction("bounded aggregation", () -> plan.run(connection, 0, sink));
  }

  @Override
  public boolean listsKeptGroups() {
    return true;
  }

  @Override
  public synchronized void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
    BoundingPlan plan = plan(spec);
    inTransaction("kept groups", () -> plan.runKeptGroups(connection, 0, sink));
  }

  @Override
  public synchronized void query(Source source, RenderedQuery query, int columns,
      java.util.function.Consumer<String[]> rows) {
    String sql = query.render(from(source), describe(source), dialect);
    inTransaction("rendered query", () -> {
      try (java.sql.Statement st = connection.createStatement();
          java.sql.ResultSet rs = st.executeQuery(sql)) {
        while (rs.next()) {
          String[] row = new String[columns];
          for (int i = 0; i < columns; i++) {
            row[i] = rs.getString(i + 1);
          }
          rows.accept(row);
        }
      }
    });
  }

  /** A JDBC call that may fail with the driver's exception. */
  private interface SqlCall {
    void run() throws SQLException;
  }

  /** Runs {@code call} and ends its transaction; a failure withholds the driver's message. */
  private void inTransaction(String step, SqlCall call) {
    try {
      call.run();
      endTransaction(true);
    } catch (SQLException e) {
      endTransaction(false);
      throw new IllegalStateException(database + " " + step + " failed (SQL state "
          + e.getSQLState() + "); the driver's message is withheld because it may contain data "
          + "values");
    }
  }

  /** Commits (or rolls back) the current transaction of a connection without auto-commit. */
  protected final void endTransaction(boolean commit) {
    try {
      if (!connection.getAutoCommit()) {
        if (commit) {
          connection.commit();
        } else {
          connection.rollback();
        }
      }
    } catch (SQLException e) {
      // the connection is broken: the next statement reports it
    }
  }

  @Override
  public synchronized void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot close the " + database + " connection (SQL state "
          + e.getSQLState() + ")");
    }
  }
}
