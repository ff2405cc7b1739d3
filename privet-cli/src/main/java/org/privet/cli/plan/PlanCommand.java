package org.privet.cli.plan;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privet.accounting.Budget;
import org.privet.accounting.BudgetFormat;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.ZcdpConversion;
import org.privet.accounting.pld.PldAccountant;
import org.privet.cli.AnalystOption;
import org.privet.cli.WorkspaceOption;
import org.privet.curator.LedgerBudgetCharger;
import org.privet.curator.QueryExecution;
import org.privet.engine.AccuracyTargets;
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
 * a workload of DP SQL queries given by target errors (issue 16, item 2) or by weight (issue 22,
 * item 4), and reports, before anything is spent, each query's cost, its relative error (the worst
 * of its outputs, by the exact accuracy statements: error / target, or for a query planned by
 * weight error / public magnitude, {@link PublicMagnitude}) and whether it meets its targets.
 * Compared in the same run with the equal split under basic composition, and (with δ or ρ) under
 * zCDP.
 *
 * <p>A query planned by weight gives neither a budget nor {@code max_error}: a {@code -- weight: W}
 * line (default 1) and {@code min_count}. The objective over such queries is the weighted sum of
 * squared relative errors Σ W·r² (the default objective when the workload has any), or with
 * {@code --objective max-relative} the largest W·r ({@link WorkloadPlanner#allocateWeighted}). A
 * mixed workload is planned targets first: each max_error query gets exactly the budget that meets
 * its targets (divided by its weight), and the queries planned by weight share what is left; a plan
 * family whose targets alone need more than the total is not feasible (refused if none is).
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
      "Plan a workload: split one total budget across DP SQL queries given by max_error targets",
      "or by weight, minimising the worst (or the sum of squared) relative error; report before",
      "spending."
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
      description = "DP SQL queries separated by ';', each with max_error, or with neither"
          + " max_error nor a budget (planned by weight: a '-- weight: W' line and min_count).")
  Path workloadFile;

  @Option(names = "--budget-epsilon", paramLabel = "E", description = "Total epsilon.")
  Double budgetEpsilon;

  @Option(names = "--delta", paramLabel = "D", defaultValue = "0",
      description = "Total delta with --budget-epsilon (enables PLD and zCDP plans); default 0.")
  double delta;

  @Option(names = "--budget-rho", paramLabel = "R", description = "Total rho (zCDP).")
  Double budgetRho;

  @Option(names = "--objective", paramLabel = "OBJ",
      description = "max-relative or sum-squared; default max-relative, or sum-squared when a"
          + " query is planned by weight.")
  String objective;

  @Option(names = "--run", description = "After planning, charge the whole plan once to the "
      + "ledger (refused as a whole, nothing charged, if it does not fit), then run every query "
      + "with its planned budget.")
  boolean run;

  /**
   * One candidate plan: a family, an allocation, each query's relative error (see {@link
   * Plans#ratio}), the objective's value.
   */
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
    if (objective != null) {
      WorkloadPlanner.Objective.parse(objective); // refuse a bad name before reading anything
    }
    Workload workload = Workload.read(workloadFile);
    try (Ledger ledger = workspace.open(); DuckDbBackend backend = DuckDbBackend.inMemory();
        QueryExecution execution = new QueryExecution(ledger, backend)) {
      List<DpStatement> statements = new ArrayList<>();
      boolean[] planned = new boolean[workload.items().size()];
      for (Workload.Item item : workload.items()) {
        PublicMagnitude magnitudes = new PublicMagnitude();
        DpStatement st;
        try {
          st = execution.parseForPlanning(item.sql(), magnitudes);
        } catch (RuntimeException e) {
          throw new IllegalArgumentException("workload query " + item.number() + ": "
              + e.getMessage(), e);
        }
        if (st.query().targets().isEmpty()) {
          throw new IllegalArgumentException("workload query " + item.number() + ": give"
              + " max_error, or neither max_error nor a budget to plan it by weight (the planner"
              + " sets the budget; epsilon and rho are not planned)");
        }
        if (!execution.datasetOf(st).equalsIgnoreCase(dataset)) {
          throw new IllegalArgumentException("workload query " + item.number() + " reads another"
              + " dataset than --dataset " + dataset);
        }
        planned[item.number() - 1] = magnitudes.used();
        statements.add(st);
      }
      boolean anyPlanned = false;
      for (boolean b : planned) {
        anyPlanned |= b;
      }
      String objectiveName = objective != null ? objective
          : anyPlanned ? "sum-squared" : "max-relative";
      WorkloadPlanner.Objective obj = WorkloadPlanner.Objective.parse(objectiveName);
      // The dataset's own backend: DuckDB for files, its database for a PostgreSQL table.
      this.backend = execution.backendOf(ledger.dataset(dataset).name());
      Session session = Session.builder().backend(this.backend)
          .budgetCharger(c -> {
            throw new IllegalStateException("planning must never charge");
          }).randomSource(RandomSource.secure()).build();
      double[] weights = workload.items().stream().mapToDouble(Workload.Item::weight).toArray();
      Plans plans = new Plans(session, statements, weights, planned, obj);
      List<Candidate> candidates = new ArrayList<>();
      Map<String, String> infeasible = new LinkedHashMap<>();
      List<String[]> baselines = new ArrayList<>();
      if (budgetEpsilon != null) {
        plans.additive("laplace+basic", false, budgetEpsilon, candidates, infeasible);
        baselines.add(plans.equalSplit("equal split, laplace+basic", false, budgetEpsilon));
        if (delta > 0) {
          plans.laplacePld(budgetEpsilon, delta, candidates, infeasible);
          double rho = ZcdpConversion.largestRho(budgetEpsilon, delta);
          plans.additive("gaussian+zcdp", true, rho, candidates, infeasible);
          baselines.add(plans.equalSplit("equal split, gaussian+zcdp", true, rho));
        }
      } else {
        plans.additive("gaussian+zcdp", true, budgetRho, candidates, infeasible);
        baselines.add(plans.equalSplit("equal split, gaussian+zcdp", true, budgetRho));
      }
      if (run) {
        // The ledger composes the charge with the dataset's own accountant (basic or zCDP; the
        // PLD plan is for reporting only): run the plan that accountant admits as planned.
        boolean basic = ledger.dataset(execution.datasetOf(statements.get(0))).accountant()
            == org.privet.ledger.AccountantKind.BASIC;
        String admitted = basic ? "laplace+basic" : "gaussian+zcdp";
        if (infeasible.containsKey(admitted)) {
          throw new IllegalArgumentException("--run: " + infeasible.get(admitted));
        }
        if (candidates.stream().noneMatch(c -> c.name().equals(admitted))) {
          throw new IllegalArgumentException("--run: the dataset's " + (basic ? "basic" : "zcdp")
              + " accountant admits the " + admitted + " plan, which these options do not give"
              + (basic ? "" : " (give --delta, or --budget-rho)"));
        }
        err.println("privet: --run uses the " + admitted + " plan, the one the dataset's "
            + (basic ? "basic" : "zcdp") + " accountant composes as planned");
        candidates.removeIf(c -> !c.name().equals(admitted));
      }
      if (candidates.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", infeasible.values()));
      }
      Candidate best = Collections.min(candidates,
          java.util.Comparator.comparingDouble(Candidate::value));
      print(out, workload, best, candidates, infeasible, baselines, plans, objectiveName);
      if (run) {
        return runPlan(execution, statements, best, session, ledger, out, err);
      }
      return 0;
    }
  }

  private void print(PrintWriter out, Workload w, Candidate best, List<Candidate> all,
      Map<String, String> infeasible, List<String[]> baselines, Plans plans,
      String objectiveName) {
    out.printf("plan for %d queries on dataset '%s', objective %s: %s (total %s)%n",
        w.items().size(), dataset, objectiveName, best.name(), BudgetFormat.spent(best.total()));
    out.printf("%-3s  %-12s  %-10s  %-6s  %s%n", "#", best.rho() ? "rho" : "epsilon",
        "rel.error", "meets", "errors (output => error / target, or error / magnitude)");
    for (int i = 0; i < best.cost().length; i++) {
      BudgetSolution sol = best.solutions().get(i);
      Map<String, Double> e = errorsAt(best, i);
      StringBuilder detail = new StringBuilder();
      boolean byWeight = plans.planned[i];
      e.forEach((k, v) -> detail.append(String.format("%s => %.4g / %s%.4g  ", k, v,
          byWeight ? "magnitude " : "", sol.targets().halfWidths().get(k)
              / (byWeight ? PublicMagnitude.SCALE : 1))));
      out.printf("%-3d  %-12s  %-10.4g  %-6s  %s%n", i + 1, BudgetFormat.up(best.cost()[i]),
          best.ratio()[i], byWeight ? "-" : best.ratio()[i] <= 1 ? "yes" : "no",
          detail.toString().strip());
    }
    out.println("candidates (same total budget; " + plans.objectiveText() + "):");
    for (Candidate c : all) {
      out.printf("  %-28s %s%n", c.name(), plans.describe(c.ratio()));
    }
    infeasible.forEach((name, why) -> out.printf("  %-28s not feasible: %s%n", name, why));
    for (String[] b : baselines) {
      out.printf("  %-28s %s%n", b[0], b[1]);
    }
    double naive = Double.parseDouble(baselines.get(0)[2]);
    double planned = plans.anyPlanned ? best.value() : max(best.ratio());
    out.printf("planned %s %.4g vs naive %s %.4g: ratio %.3f%n",
        plans.anyPlanned ? plans.objectiveText() : "max relative error", planned,
        baselines.get(0)[0], naive, planned / naive);
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
      out.printf("query %d:%n", i + 1);
      org.privet.cli.ResultPrinter.printTable(out,
          statements.get(i).withQuery(queries.get(i)).present(result),
          org.privet.cli.OutputFormat.TABLE);
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
    private final boolean[] planned;
    private final boolean anyPlanned;
    private final WorkloadPlanner.Objective obj;

    Plans(Session session, List<DpStatement> statements, double[] weights, boolean[] planned,
        WorkloadPlanner.Objective obj) {
      this.session = session;
      this.statements = statements;
      this.weights = weights;
      this.planned = planned;
      boolean any = false;
      for (boolean b : planned) {
        any |= b;
      }
      this.anyPlanned = any;
      this.obj = obj;
      plansSession = session;
    }

    private List<BudgetSolution> solve(boolean rho) {
      List<BudgetSolution> out = new ArrayList<>();
      for (int i = 0; i < statements.size(); i++) {
        try {
          out.add(session.solve(statements.get(i).query().withTargetNoise(rho
              ? NoiseKind.GAUSSIAN : NoiseKind.LAPLACE)));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("workload query " + (i + 1) + ": "
              + e.getMessage(), e);
        }
      }
      return out;
    }

    /**
     * Each query's relative error at its cost, the worst of its outputs: weight × error / target
     * for a max_error query (its targets count as divided by its weight), error / public magnitude
     * for a query planned by weight (its weight weighs the objective instead).
     */
    private double[] ratios(List<BudgetSolution> sols, double[] cost) {
      double[] r = new double[cost.length];
      for (int i = 0; i < r.length; i++) {
        r[i] = ratio(i, session.errorsAt(sols.get(i), cost[i]), sols.get(i).targets());
      }
      return r;
    }

    private double ratio(int i, Map<String, Double> errors, AccuracyTargets targets) {
      double worst = 0;
      for (Map.Entry<String, Double> e : errors.entrySet()) {
        worst = Math.max(worst, e.getValue() / targets.halfWidths().get(e.getKey()));
      }
      return planned[i] ? PublicMagnitude.SCALE * worst : weights[i] * worst;
    }

    /**
     * The objective's value: over the queries planned by weight if there are any (Σ W·r² or max
     * W·r; the max_error queries are met by construction), else over every query.
     */
    double value(double[] r) {
      if (!anyPlanned) {
        return WorkloadPlanner.objective(r, obj);
      }
      return WorkloadPlanner.weightedObjective(pick(r, true), pick(weights, true), obj);
    }

    String objectiveText() {
      if (!anyPlanned) {
        return "relative error = error / target, worst output";
      }
      return obj == WorkloadPlanner.Objective.SUM_SQUARED
          ? "weighted sum of squared relative errors" : "weighted max relative error";
    }

    String describe(double[] r) {
      if (!anyPlanned) {
        return String.format("max %.4g  sum-squared %.4g", max(r),
            WorkloadPlanner.objective(r, WorkloadPlanner.Objective.SUM_SQUARED));
      }
      double[] rp = pick(r, true);
      double[] wp = pick(weights, true);
      String s = String.format("weighted sum-squared %.4g  weighted max %.4g",
          WorkloadPlanner.weightedObjective(rp, wp, WorkloadPlanner.Objective.SUM_SQUARED),
          WorkloadPlanner.weightedObjective(rp, wp, WorkloadPlanner.Objective.MAX_RELATIVE));
      double[] rt = pick(r, false);
      return rt.length == 0 ? s : s + String.format("  max_error queries: max %.4g", max(rt));
    }

    private double[] pick(double[] x, boolean byWeight) {
      List<Double> out = new ArrayList<>();
      for (int i = 0; i < x.length; i++) {
        if (planned[i] == byWeight) {
          out.add(x[i]);
        }
      }
      return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * The allocation of an additive total (ε under basic composition, ρ under zCDP), or null with
     * {@code why} set if the max_error queries alone need more than the total.
     */
    private double[] allocate(List<BudgetSolution> sols, double total, double p, String name,
        Map<String, String> why) {
      double[] s = new double[sols.size()];
      for (int i = 0; i < s.length; i++) {
        s[i] = sols.get(i).parameter() * (planned[i] ? 1 : Math.pow(weights[i], p));
      }
      if (!anyPlanned) {
        return WorkloadPlanner.allocate(s, total, p, obj);
      }
      // Targets first: each max_error query exactly its solved budget; the rest by weight.
      double need = 0;
      for (int i = 0; i < s.length; i++) {
        if (!planned[i]) {
          need += s[i];
        }
      }
      double rest = total - need;
      if (!(rest > total * 1e-6)) {
        String unit = p == 2 ? "rho=" : "epsilon=";
        why.put(name, name + ": the max_error queries alone need " + unit + BudgetFormat.up(need)
            + ", not less than the total " + unit + BudgetFormat.down(total) + " (raise the total"
            + " or loosen their targets)");
        return null;
      }
      double[] byWeight = WorkloadPlanner.allocateWeighted(pick(s, true), pick(weights, true),
          rest, p, obj);
      double[] cost = new double[s.length];
      for (int i = 0, j = 0; i < s.length; i++) {
        cost[i] = planned[i] ? byWeight[j++] : s[i];
      }
      return cost;
    }

    void additive(String name, boolean rho, double total, List<Candidate> out,
        Map<String, String> why) {
      List<BudgetSolution> sols = solve(rho);
      double[] cost = allocate(sols, total, rho ? 2 : 1, name, why);
      if (cost == null) {
        return;
      }
      double[] r = ratios(sols, cost);
      PrivacyLoss t = rho ? new org.privet.accounting.Zcdp(sum(cost)) : new PureDp(sum(cost));
      out.add(new Candidate(name, rho, cost, r, value(r), sols, t));
    }

    /**
     * The basic-composition allocation scaled up, every share together, by bisection while PLD
     * composition of every release stays within (E, δ).
     */
    void laplacePld(double epsilon, double d, List<Candidate> out, Map<String, String> why) {
      List<BudgetSolution> sols = solve(false);
      double[] base = allocate(sols, epsilon, 1, "laplace+pld", why);
      if (base == null) {
        return;
      }
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
      out.add(new Candidate("laplace+pld", false, cost, r, value(r), sols,
          new org.privet.accounting.ApproxDp(pldEpsilon(sols, base, lo, d), d)));
    }

    private double pldEpsilon(List<BudgetSolution> sols, double[] base, double k, double d) {
      List<PrivacyLoss> events = new ArrayList<>();
      for (int i = 0; i < base.length; i++) {
        Plan p = session.explain(session.queryAt(sols.get(i), base[i] * k));
        p.mechanisms().forEach(m -> events.add(m.cost().loss()));
      }
      return new PldAccountant().compose(events, d).epsilon();
    }

    /**
     * The equal split with the engine's default per-query split: {name, description, the
     * objective's value (the max relative error without queries planned by weight)}.
     */
    String[] equalSplit(String name, boolean rho, double total) {
      double[] r = new double[statements.size()];
      for (int i = 0; i < r.length; i++) {
        Query q = statements.get(i).query();
        double each = total / r.length * (1 - 1e-12);
        Budget b = rho ? Budget.zcdp(each, q.targets().get().delta())
            : q.targets().get().delta() > 0 ? Budget.approx(each, q.targets().get().delta())
            : Budget.pure(each);
        Map<String, Double> e = session.errorsWithDefaultSplit(q, b,
            rho ? NoiseKind.GAUSSIAN : NoiseKind.LAPLACE);
        r[i] = ratio(i, e, q.targets().get());
      }
      return new String[] {name, describe(r),
          Double.toString(anyPlanned ? value(r) : max(r))};
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
