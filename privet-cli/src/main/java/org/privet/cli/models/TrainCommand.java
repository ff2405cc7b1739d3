package org.privet.cli.models;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privet.cli.AnalystOption;
import org.privet.cli.WorkspaceOption;
import org.privet.curator.DatasetBackends;
import org.privet.curator.RegisteredTraining;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.Backend;
import org.privet.ledger.Charge;
import org.privet.ledger.ColumnBounds;
import org.privet.ledger.Ledger;
import org.privet.models.Model;
import org.privet.random.RandomSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code privet train}: trains a DP model on a registered dataset ({@link RegisteredTraining}):
 * public checks, one ledger charge committed before anything is released, a total read and
 * training, then the model JSON (coefficients, encoding, privacy statement and cost). Refusals
 * come before the charge and depend on public information only; nothing after it depends on the
 * rows except the model's noisy parameters (docs/proofs/dp-models.md).
 */
@Command(
    name = "train",
    mixinStandardHelpOptions = true,
    description = {
      "Train a differentially private model on a registered dataset, charged once to its budget.",
      "Example: privet train --dataset adult --model logistic-regression --label income --positive '>50K'"
          + " --features age,education_num,hours_per_week,sex --feature-bounds age=17:90,education_num=1:16,"
          + "hours_per_week=1:99 --feature-keys sex=Female,Male --epsilon 1 --delta 1e-6 --out model.json"
    })
public final class TrainCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin WorkspaceOption workspace;
  @Mixin AnalystOption analyst;

  @Option(names = "--dataset", required = true, paramLabel = "NAME", description = "the registered dataset")
  String dataset;

  @Option(names = "--model", defaultValue = "logistic-regression",
      description = "logistic-regression | linear-regression | gaussian-naive-bayes (default: ${DEFAULT-VALUE})")
  String model;

  @Option(names = "--method",
      description = "logistic-regression: objective-perturbation (default) | dp-sgd; linear-regression: adassp;"
          + " gaussian-naive-bayes: gaussian-naive-bayes")
  String method;

  @Option(names = "--label", required = true, paramLabel = "COLUMN", description = "the column to predict")
  String label;

  @Option(names = "--positive", paramLabel = "VALUE", description = "classifiers: the label value that is positive")
  String positive;

  @Option(names = "--negative", paramLabel = "VALUE",
      description = "classifiers: the name predicted for the other class (default: 'not <positive>')")
  String negative;

  @Option(names = "--label-bounds", paramLabel = "LOW:HIGH",
      description = "linear regression: public bounds of the label (default: the registered --bounds)")
  String labelBounds;

  @Option(names = "--features", required = true, split = ",", paramLabel = "COLUMN",
      description = "the feature columns")
  List<String> features = new ArrayList<>();

  @Option(names = "--feature-bounds", split = ",(?=[A-Za-z_][A-Za-z0-9_]*=)", paramLabel = "COLUMN=LOW:HIGH",
      description = "public bounds of numeric features, or COLUMN=AUTO to estimate them privately from the same"
          + " charge (repeatable; default: the registered --bounds, else AUTO for a number column)")
  List<String> featureBounds = new ArrayList<>();

  @Option(names = "--feature-keys", paramLabel = "COLUMN=K1,K2,...",
      description = "public keys of a categorical feature, one-hot encoded (repeatable; default: the"
          + " registered --public-keys)")
  List<String> featureKeys = new ArrayList<>();

  @Option(names = "--epsilon", required = true, description = "privacy parameter epsilon (> 0)")
  double epsilon;

  @Option(names = "--delta", required = true, description = "privacy parameter delta in [0, 1); 0 trains"
      + " objective perturbation's pure-epsilon variant (Laplace noise)")
  double delta;

  @Option(names = "--max-rows-per-unit", defaultValue = "1",
      description = "datasets with a privacy-unit column: rows kept per unit, weighted to total 1"
          + " (default: ${DEFAULT-VALUE})")
  int maxRowsPerUnit;

  @Option(names = "--regularization", description = "objective perturbation: the ridge Lambda (default: the"
      + " one that spends epsilon/10 on the Jacobian term)")
  Double regularization;

  @Option(names = "--sampling-rate", defaultValue = "0.01", description = "dp-sgd: Poisson rate (default: ${DEFAULT-VALUE})")
  double samplingRate;

  @Option(names = "--steps", defaultValue = "1000", description = "dp-sgd: steps (default: ${DEFAULT-VALUE})")
  int steps;

  @Option(names = "--clip", defaultValue = "1", description = "dp-sgd: per-unit gradient clip (default: ${DEFAULT-VALUE})")
  double clip;

  @Option(names = "--learning-rate", defaultValue = "0.05", description = "dp-sgd: Adam step (default: ${DEFAULT-VALUE})")
  double learningRate;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "where to write the model JSON")
  Path out;

  @Override
  public Integer call() throws IOException {
    Model.Kind kind = Model.Kind.parse(model);
    if (out.toAbsolutePath().getParent() != null && !Files.isDirectory(out.toAbsolutePath().getParent())) {
      throw new IllegalArgumentException("--out: directory " + out.toAbsolutePath().getParent() + " does not exist");
    }
    RegisteredTraining.Request request = new RegisteredTraining.Request(kind, method, label, positive, negative,
        labelBounds == null ? null : bounds("--label-bounds", labelBounds), features, parseBounds(featureBounds),
        parseKeys(featureKeys), epsilon, delta, maxRowsPerUnit, regularization,
        new RegisteredTraining.DpSgdOptions(samplingRate, steps, clip, learningRate), autoBounds(featureBounds));
    PrintWriter err = spec.commandLine().getErr();
    Model trained;
    try (Ledger ledger = workspace.open(); DuckDbBackend files = DuckDbBackend.inMemory();
        DatasetBackends backends = new DatasetBackends(files)) {
      RegisteredTraining training = RegisteredTraining.prepare(ledger, dataset, request, "--dataset");
      // the dataset's backend: a table's database is connected now, before the charge
      Backend backend = backends.of(ledger.dataset(training.dataset()));
      String text = String.format(Locale.ROOT, "privet train --model %s --method %s --label %s --features %s"
          + " --epsilon %s --delta %s", kind.label(), method == null ? RegisteredTraining.defaultMethod(kind) : method,
          label, String.join(",", features), epsilon, delta);
      trained = training.run(backend, cost -> {
        Charge charge = ledger.charge(dataset, analyst.resolve(), text, cost);
        err.printf(Locale.ROOT, "privet train: charged %s to dataset '%s' (ledger charge #%d, committed before"
            + " release)%n", cost.get(0), dataset, charge.id());
        err.flush();
        return charge;
      }, RandomSource.secure());
    }
    trained.write(out);
    PrintWriter o = spec.commandLine().getOut();
    o.printf(Locale.ROOT, "wrote %s model (%s, %d coefficients) to %s%n", trained.kind().label(), trained.method(),
        trained.encoder().dimension(), out);
    o.flush();
    return 0;
  }

  static ColumnBounds bounds(String option, String text) {
    String[] p = text.split(":", -1);
    if (p.length != 2) {
      throw new IllegalArgumentException(option + " must look like LOW:HIGH, was " + text);
    }
    try {
      return new ColumnBounds(Double.parseDouble(p[0].trim()), Double.parseDouble(p[1].trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " must look like LOW:HIGH with numbers, was " + text);
    }
  }

  static Map<String, ColumnBounds> parseBounds(List<String> items) {
    Map<String, ColumnBounds> m = new LinkedHashMap<>();
    for (String s : items) {
      int eq = s.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--feature-bounds must look like COLUMN=LOW:HIGH, was " + s);
      }
      String column = s.substring(0, eq).trim();
      if (s.substring(eq + 1).trim().equalsIgnoreCase("AUTO")) {
        continue; // autoBounds(items)
      }
      m.put(column, bounds("--feature-bounds " + column, s.substring(eq + 1)));
    }
    return m;
  }

  /** The features given as {@code COLUMN=AUTO}: bounds estimated privately from the same charge. */
  static java.util.Set<String> autoBounds(List<String> items) {
    java.util.Set<String> out = new java.util.LinkedHashSet<>();
    for (String s : items) {
      int eq = s.indexOf('=');
      if (eq > 0 && s.substring(eq + 1).trim().equalsIgnoreCase("AUTO")) {
        out.add(s.substring(0, eq).trim());
      }
    }
    return out;
  }

  static Map<String, List<String>> parseKeys(List<String> items) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (String s : items) {
      int eq = s.indexOf('=');
      if (eq <= 0 || eq == s.length() - 1) {
        throw new IllegalArgumentException("--feature-keys must look like COLUMN=K1,K2,..., was " + s);
      }
      m.put(s.substring(0, eq).trim(), Arrays.stream(s.substring(eq + 1).split(",")).map(String::trim).toList());
    }
    return m;
  }
}
