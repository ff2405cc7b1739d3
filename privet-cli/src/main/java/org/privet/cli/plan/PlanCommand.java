package org.privet.cli.plan;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privet.accounting.Budget;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.ZcdpConversion;
import org.privet.accounting.pld.PldAccountant;
import org.privet.cli.AnalystOption;
import org.privet.cli.WorkspaceOption;
import org.privet.curator.LedgerBudgetCharger;
import org.privet.curator.QueryExecution;
import org.privet.engine.BudgetSolution;
import org.privet.engine.NoiseKind;
import org.privet.engine.Plan;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.Ledger;
import org.privet.random.RandomSource;
import org.privet.sql.DpStatement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code privet plan --dataset NAME --workload FILE.sql [--budget-epsilon E [--delta D] |
 * --budget-rho R] [--objective max-relative|sum-squared] [--run]}: allocates one total budget across
 * a workload of DP SQL queries given by target errors (issue 16, item 2), and reports, before
 * anything is spent, each query's cost, its relative error (error / target, the worst of its
 * outputs, by the exact accuracy statements) and whether it meets its targets. Compared in the same
 * run with the equal split under basic composition, and (with δ or ρ) under zCDP.
 *
 * <p>Allocation: {@link WorkloadPlanner} (closed form from each query's solved budget). Families
 * tried: geometric noise with basic composition; with δ &gt; 0 also geometric noise with the
 * allocation scaled up as far as PLD composition of every release allows at δ, and discrete
 * Gaussian noise with zCDP composition of ρ converted at δ; with a ρ budget, discrete Gaussian
 * with zCDP. The best by the objective is the plan. Reads only the workload, the registered
 * schemas and the budget state (docs/proofs/accuracy-targets.md).
 */
@Command(
    name = "plan",
    description = {
      "Plan a workload: split one total budget across DP SQL queries given by max_error targets,",
      "minimising the worst (or the sum of squared) relative error; report before spending."
    },
    mixinStandardHelpOptions = true)
public final class PlanCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;
  @Mixin AnalystOption analyst;

  @Option(names = "--dataset", required = true, paramLabel = "NAME",
      description = "The registered dataset every query of the workload reads.")
  String dataset;

  @Option(names = "--workload", required = true, paramLabel = "FILE.sql",
      description = "DP SQL queries separated by ';', each with max_error; '-- weight: W' lines.")
  Path workloadFile;

  @Option(names = "--budget-epsilon", paramLabel = "E", description = "Total epsilon.")
  Double budgetEpsilon;

  @Option(names = "--delta", paramLabel = "D", defaultValue = "0",
      description = "Total delta with --budget-epsilon (enables PLD and zCDP plans); default 0.")
  double delta;

  @Option(names = "--budget-rho", paramLabel = "R", description = "Total rho (zCDP).")
  Double budgetRho;

  @Option(names = "--objective", defaultValue = "max-relative", paramLabel = "OBJ",
      description = "max-relative (default) or sum-squared.")
  String objective;

  @Option(names = "--run", description = "After planning, charge the whole plan once to the "
      + "ledger (refused as a whole, nothing charged, if it does not fit), then run every query "
      + "with its planned budget.")
  boolean run;

  /** One candidate plan: a family, an allocation, each query's exact relative error. */
  record Candidate(String name, boolean rho, double[] cost, double[] ratio, double value,
      List<BudgetSolution> solutions, PrivacyLoss total) {}

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if ((budgetEpsilon == null) == (budgetRho == null)) {
      throw new IllegalArgumentException("give exactly one of --budget-epsilon and --budget-rho");
    }
    if (!(delta >= 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in [0, 1), was " + delta);
    }
    if (budgetRho != null && delta != 0) {
      throw new IllegalArgumentException("--delta applies only with --budget-epsilon");
    }
    WorkloadPlanner.Objective obj = WorkloadPlanner.Objective.parse(objective);
    Workload workload = Workload.read(workloadFile);
    try (Ledger ledger = workspace.open(); DuckDbBackend backend = DuckDbBackend.inMemory();
        QueryExecution execution = new QueryExecution(ledger, backend)) {
      List<DpStatement> statements = new ArrayList<>();
      for (Workload.Item item : workload.items()) {
        DpStatement st = execution.parse(item.sql());
        if (st.query().targets().isEmpty()) {
          throw new IllegalArgumentException("workload query " + item.number() + ": give"
              + " max_error (the planner allocates by target errors)");
        }
        if (!execution.datasetOf(st).equalsIgnoreCase(dataset)) {
          throw new IllegalArgumentException("workload query " + item.number() + " reads another"
              + " dataset than --dataset " + dataset);
        }
        statements.add(st);
      }
      // The dataset's own backend: DuckDB for files, its database for a PostgreSQL table.
      this.backend = execution.backendOf(ledger.dataset(dataset).name());
      Session session = Session.builder().backend(this.backend)
          .budgetCharger(c -> {
            throw new IllegalStateException("planning must never charge");
          }).randomSource(RandomSource.secure()).build();
      double[] weights = workload.items().stream().mapToDouble(Workload.Item::weight).toArray();
      Plans plans = new Plans(session, statements, weights, obj);
      List<Candidate> candidates = new ArrayList<>();
      List<String[]> baselines = new ArrayList<>();
      if (budgetEpsilon != null) {
        candidates.add(plans.additive("laplace+basic", false, budgetEpsilon, delta));
        baselines.add(plans.equalSplit("equal split, laplace+basic", false, budgetEpsilon, delta));
        if (delta > 0) {
          candidates.add(plans.laplacePld(budgetEpsilon, delta));
          double rho = ZcdpConversion.largestRho(budgetEpsilon, delta);
          candidates.add(plans.additive("gaussian+zcdp", true, rho, 0));
          baselines.add(plans.equalSplit("equal split, gaussian+zcdp", true, rho, 0));
        }
      } else {
        candidates.add(plans.additive("gaussian+zcdp", true, budgetRho, 0));
        baselines.add(plans.equalSplit("equal split, gaussian+zcdp", true, budgetRho, 0));
      }
      if (run) {
        // The ledger composes the charge with the dataset's own accountant (basic or zCDP; the
        // PLD plan is for reporting only): run the plan that accountant admits as planned.
        boolean basic = ledger.dataset(execution.datasetOf(statements.get(0))).accountant()
            == org.privet.ledger.AccountantKind.BASIC;
        String admitted = basic ? "laplace+basic" : "gaussian+zcdp";
        if (candidates.stream().noneMatch(c -> c.name().equals(admitted))) {
          throw new IllegalArgumentException("--run: the dataset's " + (basic ? "basic" : "zcdp")
              + " accountant admits the " + admitted + " plan, which these options do not give"
              + (basic ? "" : " (give --delta, or --budget-rho)"));
        }
        err.println("privet: --run uses the " + admitted + " plan, the one the dataset's "
            + (basic ? "basic" : "zcdp") + " accountant composes as planned");
        candidates.removeIf(c -> !c.name().equals(admitted));
      }
      Candidate best = Collections.min(candidates,
          java.util.Comparator.comparingDouble(Candidate::value));
      print(out, workload, best, candidates, baselines, obj);
      if (run) {
        return runPlan(execution, statements, best, session, ledger, out, err);
      }
      return 0;
    }
  }

  private void print(PrintWriter out, Workload w, Candidate best, List<Candidate> all,
      List<String[]> baselines, WorkloadPlanner.Objective obj) {
    out.printf("plan for %d queries on dataset '%s', objective %s: %s (total %s)%n",
        w.items().size(), dataset, objective, best.name(), best.total());
    out.printf("%-3s  %-12s  %-10s  %-6s  %s%n", "#", best.rho() ? "rho" : "epsilon",
        "rel.error", "meets", "errors (output => error / target)");
    for (int i = 0; i < best.cost().length; i++) {
      BudgetSolution sol = best.solutions().get(i);
      Map<String, Double> e = errorsAt(best, i);
      StringBuilder detail = new StringBuilder();
      e.forEach((k, v) -> detail.append(String.format("%s => %.4g / %.4g  ", k, v,
          sol.targets().halfWidths().get(k))));
      out.printf("%-3d  %-12.6g  %-10.4g  %-6s  %s%n", i + 1, best.cost()[i], best.ratio()[i],
          best.ratio()[i] <= 1 ? "yes" : "no", detail.toString().strip());
    }
    out.println("candidates (same total budget; relative error = error / target, worst output):");
    for (Candidate c : all) {
      out.printf("  %-28s max %.4g  sum-squared %.4g%n", c.name(), max(c.ratio()),
          WorkloadPlanner.objective(c.ratio(), WorkloadPlanner.Objective.SUM_SQUARED));
    }
    for (String[] b : baselines) {
      out.printf("  %-28s max %s  sum-squared %s%n", b[0], b[1], b[2]);
    }
    double naive = Double.parseDouble(baselines.get(0)[1]);
    out.printf("planned max relative error %.4g vs naive equal split (basic) %.4g: ratio %.3f%n",
        max(best.ratio()), naive, max(best.ratio()) / naive);
    out.flush();
  }

  private Map<String, Double> errorsAt(Candidate c, int i) {
    return plansSession.errorsAt(c.solutions().get(i), c.cost()[i]);
  }

  private Session plansSession;

  /**
   * Charges the whole plan once (one ledger charge holding every mechanism of every query, refused
   * as a whole if it does not fit, nothing charged), then runs each query under it: each run's
   * charge request must equal its planned share, else nothing more is read.
   */
  private int runPlan(QueryExecution execution, List<DpStatement> statements, Candidate best,
      Session session, Ledger ledger, PrintWriter out, PrintWriter err) {
    String name = execution.datasetOf(statements.get(0));
    List<Query> queries = new ArrayList<>();
    List<List<PrivacyLoss>> planned = new ArrayList<>();
    List<PrivacyLoss> all = new ArrayList<>();
    for (int i = 0; i < statements.size(); i++) {
      Query q = session.queryAt(best.solutions().get(i), best.cost()[i]);
      Plan p = session.explain(q);
      List<PrivacyLoss> losses = p.mechanisms().stream().map(m -> m.cost().loss()).toList();
      List<PrivacyLoss> cost = LedgerBudgetCharger.ledgerCost(ledger, name, losses, p.total());
      queries.add(q);
      planned.add(cost);
      all.addAll(cost);
    }
    // Throws BudgetExceededException (nothing charged) if the whole workload does not fit.
    org.privet.ledger.Charge charge = ledger.charge(name, analyst.resolve(),
        "privet plan --workload " + workloadFile.getFileName() + " (" + statements.size()
            + " queries, " + best.name() + ")", all);
    err.println("privet: charged the whole plan once (ledger charge #" + charge.id() + ", "
        + all.size() + " mechanism(s)); running its " + statements.size() + " queries");
    Session runner = Session.builder().backend(backend).randomSource(
        RandomSource.secure()).budgetCharger(this::checkAgainstPlan).build();
    for (int i = 0; i < statements.size(); i++) {
      expected = planned.get(i);
      org.privet.engine.Result result = runner.run(queries.get(i));
      out.printf("query %d:%n%s%n", i + 1, statements.get(i).withQuery(queries.get(i))
          .present(result));
    }
    out.flush();
    return 0;
  }

  private List<PrivacyLoss> expected;
  private org.privet.engine.spi.Backend backend;

  /** Each run's charge must be exactly its planned share of the one ledger charge. */
  private void checkAgainstPlan(org.privet.engine.ChargeRequest request) {
    List<PrivacyLoss> losses = request.mechanisms().stream()
        .map(org.privet.engine.MechanismCost::loss).toList();
    if (!expected.equals(losses) && !expected.equals(List.of(request.total()))) {
      throw new IllegalStateException("internal error: a planned query's cost differs from the"
          + " plan's charge");
    }
  }

  private static double max(double[] r) {
    return WorkloadPlanner.objective(r, WorkloadPlanner.Objective.MAX_RELATIVE);
  }

  /** Builds candidates for one workload. */
  private final class Plans {
    private final Session session;
    private final List<DpStatement> statements;
    private final double[] weights;
    private final WorkloadPlanner.Objective obj;

    Plans(Session session, List<DpStatement> statements, double[] weights,
        WorkloadPlanner.Objective obj) {
      this.session = session;
      this.statements = statements;
      this.weights = weights;
      this.obj = obj;
      plansSession = session;
    }

    private List<BudgetSolution> solve(boolean rho) {
      List<BudgetSolution> out = new ArrayList<>();
      for (DpStatement st : statements) {
        out.add(session.solve(st.query().withTargetNoise(rho ? NoiseKind.GAUSSIAN
            : NoiseKind.LAPLACE)));
      }
      return out;
    }

    private double[] solvedScaled(List<BudgetSolution> sols, double p) {
      double[] s = new double[sols.size()];
      for (int i = 0; i < s.length; i++) {
        s[i] = sols.get(i).parameter() * Math.pow(weights[i], p);
      }
      return s;
    }

    /** Exact relative errors (worst output, weighted) of each query at its cost. */
    private double[] ratios(List<BudgetSolution> sols, double[] cost) {
      double[] r = new double[cost.length];
      for (int i = 0; i < r.length; i++) {
        r[i] = ratio(session.errorsAt(sols.get(i), cost[i]), sols.get(i), weights[i]);
      }
      return r;
    }

    private double ratio(Map<String, Double> errors, BudgetSolution sol, double weight) {
      double worst = 0;
      for (Map.Entry<String, Double> e : errors.entrySet()) {
        worst = Math.max(worst, weight * e.getValue() / sol.targets().halfWidths().get(e.getKey()));
      }
      return worst;
    }

    Candidate additive(String name, boolean rho, double total, double d) {
      List<BudgetSolution> sols = solve(rho);
      double p = rho ? 2 : 1;
      double[] cost = WorkloadPlanner.allocate(solvedScaled(sols, p), total, p, obj);
      double[] r = ratios(sols, cost);
      PrivacyLoss t = rho ? new org.privet.accounting.Zcdp(sum(cost)) : new PureDp(sum(cost));
      return new Candidate(name, rho, cost, r, WorkloadPlanner.objective(r, obj), sols, t);
    }

    /** Laplace allocation scaled up by bisection while PLD composition stays within (E, δ). */
    Candidate laplacePld(double epsilon, double d) {
      List<BudgetSolution> sols = solve(false);
      double[] base = WorkloadPlanner.allocate(solvedScaled(sols, 1), epsilon, 1, obj);
      double lo = 1;
      double hi = 1;
      while (pldEpsilon(sols, base, hi * 2, d) <= epsilon && hi < 64) {
        hi *= 2;
      }
      hi *= 2;
      for (int it = 0; it < 12; it++) {
        double mid = (lo + hi) / 2;
        if (pldEpsilon(sols, base, mid, d) <= epsilon) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      double[] cost = new double[base.length];
      for (int i = 0; i < cost.length; i++) {
        cost[i] = base[i] * lo;
      }
      double[] r = ratios(sols, cost);
      return new Candidate("laplace+pld", false, cost, r, WorkloadPlanner.objective(r, obj), sols,
          new org.privet.accounting.ApproxDp(pldEpsilon(sols, base, lo, d), d));
    }

    private double pldEpsilon(List<BudgetSolution> sols, double[] base, double k, double d) {
      List<PrivacyLoss> events = new ArrayList<>();
      for (int i = 0; i < base.length; i++) {
        Plan p = session.explain(session.queryAt(sols.get(i), base[i] * k));
        p.mechanisms().forEach(m -> events.add(m.cost().loss()));
      }
      return new PldAccountant().compose(events, d).epsilon();
    }

    /** The equal split with the engine's default per-query split: {name, max, sum-squared}. */
    String[] equalSplit(String name, boolean rho, double total, double d) {
      double[] r = new double[statements.size()];
      for (int i = 0; i < r.length; i++) {
        Query q = statements.get(i).query();
        double each = total / r.length * (1 - 1e-12);
        Budget b = rho ? Budget.zcdp(each, q.targets().get().delta())
            : q.targets().get().delta() > 0 ? Budget.approx(each, q.targets().get().delta())
            : Budget.pure(each);
        Map<String, Double> e = session.errorsWithDefaultSplit(q, b,
            rho ? NoiseKind.GAUSSIAN : NoiseKind.LAPLACE);
        double worst = 0;
        for (Map.Entry<String, Double> x : e.entrySet()) {
          worst = Math.max(worst,
              weights[i] * x.getValue() / q.targets().get().halfWidths().get(x.getKey()));
        }
        r[i] = worst;
      }
      return new String[] {name, String.format("%.4g", max(r)),
          String.format("%.4g", WorkloadPlanner.objective(r, WorkloadPlanner.Objective.SUM_SQUARED))};
    }
  }

  private static double sum(double[] x) {
    double s = 0;
    for (double v : x) {
      s += v;
    }
    return s;
  }
}
