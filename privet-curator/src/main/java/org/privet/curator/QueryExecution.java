package org.privet.curator;

import java.io.PrintWriter;
import java.util.Objects;
import java.util.function.Predicate;
import org.privet.engine.Plan;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.spi.Backend;
import org.privet.ledger.Charge;
import org.privet.ledger.Ledger;
import org.privet.random.RandomSource;
import org.privet.sql.DpSql;
import org.privet.sql.DpStatement;
import org.privet.sql.SqlResult;

/**
 * One DP SQL query against a workspace, shared by {@code privet query} and {@code privet demo}:
 * parse and compile against the ledger's datasets (a refusal charges nothing), then either explain
 * (no charge) or run with the ledger as the engine's budget charger, so that the charge is
 * committed durably before any noisy value exists.
 *
 * <p>Each dataset runs on its own backend ({@link DatasetBackends}): files on the given file
 * backend, a PostgreSQL table inside its database (connected while the query is parsed, before any
 * charge). {@link #close} closes the database connections, never the file backend.
 */
public final class QueryExecution implements AutoCloseable {
  /** What a run released and what the ledger recorded for it. */
  public record Outcome(SqlResult result, Charge charge) {}

  private final Ledger ledger;
  private final DatasetBackends backends;
  private final Predicate<String> visible;

  public QueryExecution(Ledger ledger, Backend backend) {
    this(ledger, backend, name -> true);
  }

  /**
   * A query execution that sees only the datasets {@code visible} accepts (by registered name):
   * any other name is reported exactly as an unknown one, so names are no existence oracle.
   */
  public QueryExecution(Ledger ledger, Backend backend, Predicate<String> visible) {
    this(ledger, backend, visible, true);
  }

  /**
   * As {@link #QueryExecution(Ledger, Backend, Predicate)}; {@code detailedErrors} false where
   * analysts read the messages (the server): a dataset whose database cannot be reached is then
   * refused without naming the curator's password variable or file or the SQL state.
   */
  public QueryExecution(Ledger ledger, Backend backend, Predicate<String> visible, boolean detailedErrors) {
    this(ledger, new DatasetBackends(backend, detailedErrors), visible);
  }

  /**
   * As {@link #QueryExecution(Ledger, Backend, Predicate, boolean)}, with the database connections
   * borrowed from {@code pools} (a long-running caller's, e.g. the server's) and given back by
   * {@link #close}.
   */
  public QueryExecution(Ledger ledger, Backend backend, Predicate<String> visible, boolean detailedErrors,
      org.privet.engine.postgres.PostgresPools pools) {
    this(ledger, new DatasetBackends(backend, detailedErrors, pools), visible);
  }

  private QueryExecution(Ledger ledger, DatasetBackends backends, Predicate<String> visible) {
    this.ledger = ledger;
    this.backends = backends;
    this.visible = Objects.requireNonNull(visible, "visible");
  }

  /** Parses and compiles {@code sql} against the registered datasets. */
  public DpStatement parse(String sql) {
    try {
      return DpSql.parse(sql, new LedgerCatalog(ledger, backends::of, visible));
    } catch (IllegalArgumentException e) {
      throw refused(e);
    }
  }

  /**
   * Parses the SQL of a release already charged on {@code dataset} (its current name), for a retry
   * that completes it under that charge: whatever name its FROM gives, it read this dataset when it
   * was charged, so a rename since then (or a grant revoked since then) cannot fail a paid release
   * (issue 23; SynthJobs does the same for jobs).
   */
  public DpStatement parseCharged(String sql, String dataset) {
    LedgerCatalog catalog = new LedgerCatalog(ledger, backends::of, n -> true);
    try {
      return DpSql.parse(sql, name -> catalog.find(dataset));
    } catch (IllegalArgumentException e) {
      throw refused(e);
    }
  }

  /**
   * Parses {@code sql} for a workload planner ({@link DpSql#parseForPlanning}): a statement with
   * neither a budget nor max_error takes the targets {@code planned} supplies.
   */
  public DpStatement parseForPlanning(String sql, org.privet.sql.PlannedTargets planned) {
    try {
      return DpSql.parseForPlanning(sql, new LedgerCatalog(ledger, backends::of, visible),
          planned);
    } catch (IllegalArgumentException e) {
      throw refused(e);
    }
  }

  /** The plan of a compiled statement; reads only the schema and charges nothing. */
  public Plan plan(DpStatement st) {
    try {
      return explainSession(st).explain(st.query());
    } catch (IllegalArgumentException e) {
      throw refused(e);
    }
  }

  /**
   * The solved budget of a statement given by target errors ({@code max_error}): the smallest cost
   * meeting every target and each output's error under it; empty for a statement with a budget.
   * Reads only the query and the schema; charges nothing.
   */
  public java.util.Optional<org.privet.engine.BudgetSolution> solution(DpStatement st) {
    if (st.query().targets().isEmpty()) {
      return java.util.Optional.empty();
    }
    try {
      return java.util.Optional.of(explainSession(st).solve(st.query()));
    } catch (IllegalArgumentException e) {
      throw refused(e);
    }
  }

  /**
   * The ε (or, with {@code rho}, the ρ) of a remaining budget, to compare with a solved cost; NaN
   * when the remaining budget is in another measure.
   */
  public static double remainingParameter(org.privet.accounting.PrivacyLoss remaining,
      boolean rho) {
    return SolvedBudgetReport.parameter(remaining, rho);
  }

  private Session explainSession(DpStatement st) {
    return Session.builder()
        .backend(backendOf(datasetOf(st)))
        .budgetCharger(charge -> {
          throw new IllegalStateException("explain must never charge");
        })
        .randomSource(RandomSource.secure())
        .build();
  }

  /**
   * The rendered plan of a compiled statement, with its post-processing; charges nothing. A query
   * given by target errors ({@code max_error}) also shows its solved cost against the dataset's
   * remaining budget.
   */
  public String explain(DpStatement st) {
    return explain(st, null);
  }

  /**
   * As {@link #explain(DpStatement)}; a query given by target errors is shown against {@code
   * analyst}'s remaining budget (their share's), or the dataset's when {@code analyst} is null (the
   * curator). An analyst is never shown the dataset's remaining budget, which depends on every
   * analyst's charges (issue 23, item 3).
   */
  public String explain(DpStatement st, String analyst) {
    Plan plan = plan(st);
    String dataset = datasetOf(st);
    // What the ledger would refuse whatever was spent (a measure its rule cannot take), EXPLAIN
    // refuses alike, with the same message (issue 23, item 5).
    ledger.requireAdmissible(dataset, LedgerBudgetCharger.ledgerCost(ledger, dataset,
        plan.mechanisms().stream().map(m -> m.cost().loss()).toList(), plan.total()));
    String post = st.postProcessing();
    String solved = "";
    if (st.query().targets().isPresent()) {
      Session session = explainSession(st);
      try {
        solved = SolvedBudgetReport.explain(session, session.solve(st.query()),
            SolvedBudgetReport.remaining(ledger, datasetOf(st), analyst));
      } catch (IllegalArgumentException e) {
        throw refused(e);
      }
    }
    StringBuilder differences = new StringBuilder();
    st.differences().forEach(d -> differences.append("difference from BigQuery: ").append(d)
        .append('\n'));
    return plan.render() + solved
        + (post == null || post.isBlank() ? "" : "post-processing: " + post + "\n")
        + differences;
  }

  /**
   * The registered name of the dataset a compiled statement reads: the one the catalog resolved
   * its FROM to ({@link Ledger#dataset}, ignoring case), which the run reads and charges.
   */
  public String datasetOf(DpStatement st) {
    return ledger.dataset(st.dataset()).name();
  }

  /** Runs a compiled statement for {@code analyst}, charging the ledger before any release. */
  public Outcome run(DpStatement st, String analyst, PrintWriter progress) {
    String dataset = datasetOf(st);
    progress.println("privet: running on dataset '" + dataset + "' (the ledger charges before any release)...");
    progress.flush();
    return run(st, new LedgerBudgetCharger(ledger, dataset, analyst, st.sql()));
  }

  /**
   * Runs a compiled statement with {@code charger}, which commits the charge (or, for a recovered
   * release, confirms the existing one) before any noisy value exists. An engine refusal before the
   * charge is a {@link QueryRefusedException}; anything after it is not a refusal.
   */
  public Outcome run(DpStatement st, LedgerBudgetCharger charger) {
    Backend backend = backendOf(charger.dataset());
    Session session = Session.builder()
        .backend(backend)
        .budgetCharger(charger)
        .randomSource(RandomSource.secure())
        .build();
    Result result;
    try {
      result = session.run(st.query());
    } catch (org.privet.accounting.BudgetExceededException e) {
      if (st.query().targets().isEmpty() || charger.committed().isPresent()) {
        throw e;
      }
      // Solved from targets: say what the remaining budget would buy (public information only).
      org.privet.engine.BudgetSolution sol = session.solve(st.query());
      throw SolvedBudgetReport.refusal(e, session, sol,
          SolvedBudgetReport.remaining(ledger, charger.dataset(), charger.analyst()));
    } catch (IllegalArgumentException e) {
      if (charger.committed().isPresent()) {
        throw afterCharge(e, backend); // already charged: not a refusal
      }
      throw refused(e);
    } catch (IllegalStateException e) {
      throw charger.committed().isPresent() ? afterCharge(e, backend) : e;
    }
    return new Outcome(st.present(result), charger.committed().orElseThrow());
  }

  /**
   * A failure after the charge on a database (the table altered or dropped meanwhile, the
   * connection lost): an internal error with a fixed text, the charge standing
   * (threat-model.md, consequence 3). File backends keep their own, already data-free, messages.
   */
  private RuntimeException afterCharge(RuntimeException e, Backend backend) {
    if (!(backend instanceof org.privet.engine.spi.JdbcBackend)) {
      return e;
    }
    return new IllegalStateException("the release failed in the database after the charge; the"
        + " charge stands (details withheld: they may quote data)");
  }

  /**
   * The backend that runs {@code dataset} (its registered name): the file backend, or the
   * connection to its database (opened now if not yet, before any charge).
   */
  public Backend backendOf(String dataset) {
    return backends.of(ledger.dataset(dataset));
  }

  /** Closes the database connections this execution opened (not the file backend). */
  @Override
  public void close() {
    backends.close();
  }

  private static QueryRefusedException refused(IllegalArgumentException e) {
    return new QueryRefusedException("query refused, nothing charged: " + e.getMessage(), e);
  }
}
