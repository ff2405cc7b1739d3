package org.privet.cli.synth;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BudgetFormat;
import org.privet.cli.AnalystOption;
import org.privet.cli.WorkspaceOption;
import org.privet.curator.RegisteredSynthesis;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.Charge;
import org.privet.ledger.Ledger;
import org.privet.synth.Domain;
import org.privet.synth.QueryWorkload;
import org.privet.synth.SynthesisResult;
import org.privet.synth.Synthesizer;
import org.privet.synth.Table;
import org.privet.synth.Workload;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code privet synth}: writes a DP synthetic copy of a table (AIM, MST, RAP or MWEM), with progress on
 * stderr; {@code privet synth evaluate} compares a synthetic table with the real one.
 */
@Command(
    name = "synth",
    mixinStandardHelpOptions = true,
    description = {
      "Release a differentially private synthetic table that preserves low-order marginals.",
      "Example: privet synth --data data/adult-pgm/adult.csv --domain data/adult-pgm/adult-domain.json"
          + " --epsilon 1 --delta 1e-9 --method aim --out synthetic.csv"
    },
    subcommands = {SynthEvaluateCommand.class})
public final class SynthCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--data", paramLabel = "FILE", description = "the CSV table to protect (or use --dataset)")
  Path data;

  @Option(names = "--dataset", paramLabel = "NAME",
      description = "a registered dataset (each row a privacy unit): the whole synthesis is charged once to"
          + " its budget before any row is read; values outside --domain are clamped to it or take the"
          + " attribute's declared \"other\" value (default: its first value)")
  String dataset;

  @Mixin WorkspaceOption workspace;
  @Mixin AnalystOption analyst;

  @Option(names = "--domain", paramLabel = "DOMAIN.json",
      description = "the public domain (Private-PGM sizes or declared attributes)")
  Path domain;

  @Option(names = "--epsilon", description = "privacy parameter epsilon (> 0)")
  Double epsilon;

  @Option(names = "--delta",
      description = "privacy parameter delta (AIM, MST and Gaussian RAP default 1e-9; MWEM and Laplace RAP are pure DP)")
  Double delta;

  @Option(names = "--method", defaultValue = "aim", description = "aim | mst | rap | mwem (default: ${DEFAULT-VALUE})")
  String method;

  @Option(names = "--noise", defaultValue = "gaussian",
      description = "rap: gaussian (zCDP, needs delta) | laplace (pure epsilon-DP) (default: ${DEFAULT-VALUE})")
  String noise;

  @Option(names = "--workload", paramLabel = "all-<k>way|FILE",
      description = "what to preserve: all-<k>way marginals, or a query file, one query a line: 'marginal A,B',"
          + " 'count A=x B=y' (a conjunctive counting query), 'mean C | A=x B=y' (a conditional average of a"
          + " numeric or coded column, measured by rap as a noisy count and a noisy bounded sum; the other"
          + " methods preserve the marginals the file reads) (default: all-<k>way with k = min(3, attributes))")
  String workload;

  @Option(names = "--receipt", paramLabel = "FILE",
      description = "write the receipt: one line per privacy event (what was selected or measured, the"
          + " mechanism, the noise, the cost)")
  Path receipt;

  @Option(names = "--out", paramLabel = "FILE", description = "where to write the synthetic CSV")
  Path out;

  @Override
  public Integer call() throws IOException {
    if ((data == null) == (dataset == null)) {
      throw new IllegalArgumentException("give exactly one of --data FILE or --dataset NAME");
    }
    require(domain, "--domain");
    require(epsilon, "--epsilon");
    require(out, "--out");
    Synthesizer.Method m = switch (method.toLowerCase(Locale.ROOT)) {
      case "aim" -> Synthesizer.Method.AIM;
      case "mwem" -> Synthesizer.Method.MWEM;
      case "mst" -> Synthesizer.Method.MST;
      case "rap" -> Synthesizer.Method.RAP;
      default -> throw new IllegalArgumentException("--method must be aim, mst, rap or mwem, was " + method);
    };
    Synthesizer.Noise noiseKind = switch (noise.toLowerCase(Locale.ROOT)) {
      case "gaussian" -> Synthesizer.Noise.GAUSSIAN;
      case "laplace" -> Synthesizer.Noise.LAPLACE;
      default -> throw new IllegalArgumentException("--noise must be gaussian or laplace, was " + noise);
    };
    boolean pure = m == Synthesizer.Method.MWEM
        || (m == Synthesizer.Method.RAP && noiseKind == Synthesizer.Noise.LAPLACE);
    PrintWriter err = spec.commandLine().getErr();
    Domain dom = Domain.load(domain);
    var builder = Synthesizer.builder().method(m).noise(noiseKind).epsilon(epsilon)
        .progress(line -> {
          err.println(line);
          err.flush();
        });
    if (workload == null) {
      workload = "all-" + Math.min(3, dom.size()) + "way"; // as POST /v1/synth (issue 23, item 6)
    }
    if (isFile(workload)) {
      builder.queries(QueryWorkload.read(Path.of(workload), dom));
    } else {
      builder.workload(Workload.parse(workload, dom));
    }
    if (receipt != null && receipt.toAbsolutePath().getParent() != null
        && !Files.isDirectory(receipt.toAbsolutePath().getParent())) {
      throw new IllegalArgumentException("--receipt: directory " + receipt.toAbsolutePath().getParent()
          + " does not exist");
    }
    if (delta != null) {
      builder.delta(delta);
    } else if (!pure) {
      builder.delta(1e-9);
    }
    Synthesizer synthesizer = builder.build();
    ApproxDp guarantee = synthesizer.approxDp();
    err.printf(Locale.ROOT, "privet synth: method %s, cost %s = (%s)-DP%n",
        m.name().toLowerCase(Locale.ROOT), BudgetFormat.spent(synthesizer.privacyLoss()),
        BudgetFormat.spent(guarantee));
    SynthesisResult result;
    if (out.toAbsolutePath().getParent() != null && !Files.isDirectory(out.toAbsolutePath().getParent())) {
      throw new IllegalArgumentException("--out: directory " + out.toAbsolutePath().getParent() + " does not exist");
    }
    if (dataset == null) {
      result = synthesizer.synthesize(Table.read(data, dom));
    } else {
      result = synthesizeRegistered(synthesizer, dom, m, err);
    }
    result.synthetic().write(out);
    if (receipt != null) {
      var lines = new java.util.ArrayList<String>();
      lines.add("privet synth receipt: method " + m.name().toLowerCase(Locale.ROOT) + ", total "
          + BudgetFormat.spent(result.privacyLoss()));
      lines.addAll(result.receipt());
      Files.write(receipt, lines, java.nio.charset.StandardCharsets.UTF_8);
    }
    PrintWriter o = spec.commandLine().getOut();
    o.printf(Locale.ROOT, "wrote %d synthetic rows to %s (%s, privacy loss %s)%n",
        result.synthetic().rows(), out, m.name().toLowerCase(Locale.ROOT),
        BudgetFormat.spent(result.privacyLoss()));
    o.flush();
    return 0;
  }

  /**
   * Synthesizes from a registered dataset through the curator's release path
   * ({@link RegisteredSynthesis}) without giving the analyst a free look at it
   * (docs/proofs/synthetic-data.md, "Reading a registered table"; threat model:
   * docs/proofs/threat-model.md): public checks only (options, the analyst's domain file, the
   * registration and its public schema, the budget), one ledger charge, then a total read in which
   * values outside the domain are clamped or take the attribute's declared "other" value and an
   * empty table is synthesized like any other. No message, exit code or file depends on the rows.
   */
  private SynthesisResult synthesizeRegistered(
      Synthesizer synthesizer, Domain dom, Synthesizer.Method m, PrintWriter err) {
    try (Ledger ledger = workspace.open(); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      RegisteredSynthesis synthesis = RegisteredSynthesis.prepare(ledger, backend, dataset, dom, "--dataset");
      String request = String.format(Locale.ROOT, "privet synth --method %s%s --epsilon %s%s --workload %s",
          m.name().toLowerCase(Locale.ROOT), m == Synthesizer.Method.RAP ? " --noise " + noise.toLowerCase(Locale.ROOT)
              : "", epsilon, delta == null ? "" : " --delta " + delta, workload);
      return synthesis.run(backend, synthesizer, cost -> {
        Charge charge = ledger.charge(dataset, analyst.resolve(), request, cost);
        err.printf(Locale.ROOT, "privet synth: charged %s to dataset '%s' (ledger charge #%d, committed before release)%n",
            BudgetFormat.spent(synthesis.cost(synthesizer)), dataset, charge.id());
        err.flush();
        return charge;
      });
    }
  }

  /** A --workload value that is not all-<k>way names a query file (public: the analyst's file). */
  static boolean isFile(String workload) {
    if (workload.matches("all-[1-9]way")) {
      return false;
    }
    if (!Files.isRegularFile(Path.of(workload))) {
      throw new IllegalArgumentException("--workload must be all-<k>way or an existing query file, was " + workload);
    }
    return true;
  }

  static void require(Object value, String option) {
    if (value == null) {
      throw new IllegalArgumentException("missing required option " + option);
    }
  }
}
