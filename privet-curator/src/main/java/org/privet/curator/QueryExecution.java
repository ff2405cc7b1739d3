package org.privet.curator;

import java.io.PrintWriter;
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
 */
public final class QueryExecution {
  /** What a run released and what the ledger recorded for it. */
  public record Outcome(SqlResult result, Charge charge) {}

  private final Ledger ledger;
  private final Backend backend;

  public QueryExecution(Ledger ledger, Backend backend) {
    this.ledger = ledger;
    this.backend = backend;
  }

  /** Parses and compiles {@code sql} against the registered datasets. */
  public DpStatement parse(String sql) {
    try {
      return DpSql.parse(sql, new LedgerCatalog(ledger, backend));
    } catch (IllegalArgumentException e) {
      throw refused(e);
    }
  }

  /** The plan of a compiled statement; reads only the schema and charges nothing. */
  public String explain(DpStatement st) {
    try {
      Plan plan = Session.builder()
          .backend(backend)
          .budgetCharger(charge -> {
            throw new IllegalStateException("explain must never charge");
          })
          .randomSource(RandomSource.secure())
          .build()
          .explain(st.query());
      String post = st.postProcessing();
      return plan.render() + (post == null || post.isBlank() ? "" : "post-processing: " + post + "\n");
    } catch (IllegalArgumentException e) {
      throw refused(e);
    }
  }

  /** Runs a compiled statement for {@code analyst}, charging the ledger before any release. */
  public Outcome run(DpStatement st, String analyst, PrintWriter progress) {
    String dataset = ledger.dataset(canonicalName(st.dataset())).name();
    LedgerBudgetCharger charger = new LedgerBudgetCharger(ledger, dataset, analyst, st.sql());
    Session session = Session.builder()
        .backend(backend)
        .budgetCharger(charger)
        .randomSource(RandomSource.secure())
        .build();
    progress.println("privet: running on dataset '" + dataset + "' (the ledger charges before any release)...");
    progress.flush();
    Result result;
    try {
      result = session.run(st.query());
    } catch (IllegalArgumentException e) {
      if (charger.committed().isPresent()) {
        throw e; // already charged: not a refusal
      }
      throw refused(e);
    }
    return new Outcome(st.present(result), charger.committed().orElseThrow());
  }

  private String canonicalName(String written) {
    return ledger.datasets().stream().map(d -> d.name())
        .filter(n -> n.equalsIgnoreCase(written)).findFirst().orElse(written);
  }

  private static QueryRefusedException refused(IllegalArgumentException e) {
    return new QueryRefusedException("query refused, nothing charged: " + e.getMessage(), e);
  }
}
