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
 * once; a connection without auto-commit gets one transaction per call, ended here, except that
 * one query's passes over a plan that asks about declared keys share one ({@link #sharingRows}).
 *
 * <p>Exceptions never carry the driver's messages about query execution, which can quote data
 * values; they name the failing step and the SQLSTATE. Thread-safety: one statement at a time.
 */
public abstract class JdbcBackend implements Backend {
  private final String database;
  private final Connection connection;
  private final SqlDialect dialect;
  /** How many transactions were ended ({@link #endTransaction}): names the current one. */
  private long transactions;

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
   * message); any other source is described. It is rendered with only the columns the statement
   * names ({@link BoundedAggregation#columnsNamed}; {@link
   * org.privet.engine.plan.RelationSql#render(org.privet.engine.plan.Relation, SqlDialect,
   * java.util.function.Function, java.util.Set, org.privet.engine.plan.RelationSql.KeyFacts)}:
   * the same rows, as DuckDB renders them). When its rendering asks about declared keys ({@link
   * org.privet.engine.plan.RelationSql.KeyFacts#questions}), {@code guarantees} answers them in
   * the current transaction, which the plan's statement then runs in.
   */
  private BoundingPlan plan(BoundedAggregation spec,
      java.util.function.Function<List<org.privet.engine.plan.RelationSql.KeyFacts.Question>,
          Guarantees> guarantees) {
    if (!(spec.source() instanceof Source.Relational r)) {
      return new BoundingPlan(spec, describe(spec.source()), from(spec.source()), dialect);
    }
    List<org.privet.engine.plan.RelationSql.KeyFacts.Question> questions =
        org.privet.engine.plan.RelationSql.KeyFacts.questions(r.relation());
    Guarantees g = questions.isEmpty() ? null : guarantees.apply(questions);
    String from = org.privet.engine.plan.RelationSql.render(r.relation(), dialect,
        g == null ? this::from
            : s -> s instanceof Source.Table t && g.tables().containsKey(t) ? g.tables().get(t)
                : from(s),
        spec.columnsNamed(),
        g == null ? org.privet.engine.plan.RelationSql.KeyFacts.NONE : g.facts());
    return new BoundingPlan(spec, r.relation().schema(), from, dialect);
  }

  private BoundingPlan plan(BoundedAggregation spec) {
    return plan(spec, this::guarantees);
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
    inTransaction(step, call, true);
  }

  /**
   * Runs {@code call}, and ends its transaction if {@code end} (else leaves it open for the next
   * call of {@link OneTransaction}); a failure rolls it back and withholds the driver's message.
   */
  private void inTransaction(String step, SqlCall call, boolean end) {
    try {
      call.run();
      if (end) {
        endTransaction(true);
      }
    } catch (SQLException e) {
      endTransaction(false);
      throw new IllegalStateException(database + " " + step + " failed (SQL state "
          + e.getSQLState() + "); the driver's message is withheld because it may contain data "
          + "values");
    }
  }

  /**
   * Commits (or rolls back) the current transaction of a connection without auto-commit. Every
   * call counts: what {@link OneTransaction} read in a transaction is used in it only.
   */
  protected final void endTransaction(boolean commit) {
    transactions++;
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

  /**
   * One query's passes in one transaction when its source asks about declared keys ({@link
   * OneTransaction}); otherwise the default view (each pass its own transaction).
   */
  @Override
  public synchronized Backend sharingRows(List<BoundedAggregation> passes) {
    if (passes.isEmpty() || !(passes.get(0).source() instanceof Source.Relational r)
        || org.privet.engine.plan.RelationSql.KeyFacts.questions(r.relation()).isEmpty()) {
      return Backend.super.sharingRows(passes);
    }
    return new OneTransaction();
  }

  /**
   * The passes of one query (its {@link #sharingRows} view) in one transaction, so that the
   * declared keys are read once (one {@link #guarantees} call: one lock, one catalog read) and
   * hold for every pass (docs/proofs/engine-joins.md, "Keys the database guarantees"): a pass
   * runs in the current transaction without ending it, with the guarantees read in that very
   * transaction for the same questions, else read now. Whatever ends the transaction (a failing
   * pass, which rolls it back; a failing catalog read; any other call of the backend) makes the
   * next pass read them again in the next one. {@link #close} ends it (commits the read-only
   * transaction, releasing its lock); a failure there is not reported (nothing was written, and
   * the next statement reports a broken connection). Other calls go to the backend as they are.
   */
  private final class OneTransaction implements Backend {
    private final java.util.Map<List<org.privet.engine.plan.RelationSql.KeyFacts.Question>,
        java.util.Optional<Guarantees>> read = new java.util.HashMap<>();
    /** The transaction {@link #read} was read in; -1: none. */
    private long readIn = -1;

    /** The guarantees for {@code questions} read in the current transaction (read now if not). */
    private Guarantees guaranteesNow(
        List<org.privet.engine.plan.RelationSql.KeyFacts.Question> questions) {
      if (readIn != transactions) {
        read.clear();
      }
      java.util.Optional<Guarantees> g = read.get(questions);
      if (g == null) {
        long before = transactions;
        g = java.util.Optional.ofNullable(guarantees(questions));
        if (transactions != before) {
          read.clear(); // a failed read ended the transaction: nothing else read holds in the next
        }
        read.put(questions, g);
        readIn = transactions;
      }
      return g.orElse(null);
    }

    @Override
    public void aggregate(BoundedAggregation spec, GroupSink sink) {
      synchronized (JdbcBackend.this) {
        inTransaction("bounded aggregation",
            () -> plan(spec, this::guaranteesNow).run(connection, 0, sink), false);
      }
    }

    @Override
    public boolean listsKeptGroups() {
      return true;
    }

    @Override
    public void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
      synchronized (JdbcBackend.this) {
        inTransaction("kept groups",
            () -> plan(spec, this::guaranteesNow).runKeptGroups(connection, 0, sink), false);
      }
    }

    @Override
    public TableSchema describe(Source source) {
      return JdbcBackend.this.describe(source);
    }

    @Override
    public void query(Source source, RenderedQuery query, int columns,
        java.util.function.Consumer<String[]> rows) {
      JdbcBackend.this.query(source, query, columns, rows);
    }

    @Override
    public String physicalPlan(BoundedAggregation spec) {
      return JdbcBackend.this.physicalPlan(spec);
    }

    /** Ends the query's transaction (releasing its locks); the backend stays open. */
    @Override
    public void close() {
      synchronized (JdbcBackend.this) {
        read.clear();
        readIn = -1;
        endTransaction(true);
      }
    }
  }
}
