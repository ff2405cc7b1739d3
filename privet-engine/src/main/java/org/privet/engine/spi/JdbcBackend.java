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
   * message); any other source is described. When its rendering asks about declared keys ({@link
   * org.privet.engine.plan.RelationSql.KeyFacts#questions}), {@link #guarantees} answers them in
   * the current transaction, which the plan's statement then runs in.
   */
  private BoundingPlan plan(BoundedAggregation spec) {
    if (!(spec.source() instanceof Source.Relational r)) {
      return new BoundingPlan(spec, describe(spec.source()), from(spec.source()), dialect);
    }
    List<org.privet.engine.plan.RelationSql.KeyFacts.Question> questions =
        org.privet.engine.plan.RelationSql.KeyFacts.questions(r.relation());
    Guarantees g = questions.isEmpty() ? null : guarantees(questions);
    String from = g == null ? from(spec.source())
        : org.privet.engine.plan.RelationSql.render(r.relation(), dialect,
            s -> s instanceof Source.Table t && g.tables().containsKey(t) ? g.tables().get(t)
                : from(s), null, g.facts());
    return new BoundingPlan(spec, r.relation().schema(), from, dialect);
  }

  /**
   * What the database guarantees about the tables of a plan's key questions ({@link
   * org.privet.engine.plan.RelationSql.KeyFacts}), read in the current transaction so that they
   * hold when the statement that follows in it runs; null (the default) when nothing is known:
   * every check is rendered. An implementation ends the transaction it fails in.
   */
  protected Guarantees guarantees(
      List<org.privet.engine.plan.RelationSql.KeyFacts.Question> questions) {
    return null;
  }

  /**
   * Guarantees of some tables: the facts, and how each table they vouch for is named in FROM (the
   * very relation whose constraints were read).
   */
  protected record Guarantees(org.privet.engine.plan.RelationSql.KeyFacts facts,
      java.util.Map<Source.Table, String> tables) {
    public Guarantees {
      java.util.Objects.requireNonNull(facts, "facts");
      tables = java.util.Map.copyOf(tables);
    }
  }

  @Override
  public synchronized String physicalPlan(BoundedAggregation spec) {
    try {
      return plan(spec).statement();
    } finally {
      endTransaction(true);
    }
  }

  @Override
  public synchronized void aggregate(BoundedAggregation spec, GroupSink sink) {
    inTransaction("bounded aggregation", () -> plan(spec).run(connection, 0, sink));
  }

  @Override
  public boolean countsPairRows() {
    return true;
  }

  @Override
  public synchronized void pairRowsHistogram(BoundedAggregation spec,
      java.util.function.Consumer<PairRowsCount> sink) {
    inTransaction("bounded aggregation",
        () -> plan(spec).runPairRowsHistogram(connection, 0, sink));
  }

  @Override
  public synchronized String pairRowsHistogramPlan(BoundedAggregation spec) {
    try {
      return plan(spec).pairRowsHistogramStatement();
    } finally {
      endTransaction(true);
    }
  }

  @Override
  public boolean listsKeptGroups() {
    return true;
  }

  @Override
  public synchronized void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
    inTransaction("kept groups", () -> plan(spec).runKeptGroups(connection, 0, sink));
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
