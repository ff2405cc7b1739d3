package org.privet.curator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.NeighbouringRelation;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Budget;
import org.privet.engine.AutoBounds;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;
import org.privet.ledger.Charge;
import org.privet.ledger.ColumnBounds;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.RegisteredSchema;
import org.privet.models.AdaSsp;
import org.privet.models.BackendTraining;
import org.privet.models.DpSgd;
import org.privet.models.Feature;
import org.privet.models.FeatureEncoder;
import org.privet.models.GaussianNaiveBayes;
import org.privet.models.Label;
import org.privet.models.Model;
import org.privet.models.ObjectivePerturbation;
import org.privet.models.PureObjectivePerturbation;
import org.privet.models.TrainingSet;
import org.privet.random.RandomSource;

/**
 * DP model training on a registered dataset, for {@code privet train} (and later the server):
 * validated against public information only, charged once, then the rows are read and the model
 * is trained totally (docs/proofs/dp-models.md; threat model: docs/proofs/threat-model.md).
 *
 * <p>Before the charge, only public facts are used: the request, the dataset's registration (privacy
 * unit, neighbouring relation, source kind, public schema, public bounds and keys) and the budget.
 * The mechanism is calibrated then, and its stated loss is asserted equal to the plan (the
 * requested (ε, δ)) before the ledger is charged. After the charge the data is read where it lives,
 * on the dataset's backend (DuckDB for files, PostgreSQL for a table, Spark when the caller runs
 * one), by statements {@link BackendTraining} writes once and each backend's dialect renders: every
 * value is encoded by a total rule (clamped to public bounds, one-hot over public keys, missing
 * values fixed) on a fixed-point grid, each unit keeps at most {@code maxRowsPerUnit} rows, and
 * training never throws on data. AdaSSP and naive Bayes run as exact aggregate queries (their
 * sufficient statistics), DP-SGD as one aggregate statement per step (the keyed Poisson sample, the
 * per-unit clipped gradients and their fixed-point sum); objective perturbation, an iterative
 * optimisation, reads the bounded encoded rows through the same statement.
 *
 * <p>AUTO feature bounds (a feature named {@code AUTO}, or a number column given no bounds or keys)
 * are estimated after the charge by the engine's own AUTO bounds query at ε<sub>b</sub> =
 * {@value #AUTO_BOUNDS_SHARE}·ε, pure, from the same charge; the model's mechanism is calibrated at
 * the rest, and the composition is checked before the charge. δ = 0 trains objective
 * perturbation's pure-ε variant and is charged as pure ε.
 */
public final class RegisteredTraining {

  /** A training request (all public: the analyst's choices). */
  public record Request(
      Model.Kind kind,
      String method,
      String label,
      String positive,
      String negative,
      ColumnBounds labelBounds,
      List<String> features,
      Map<String, ColumnBounds> featureBounds,
      Map<String, List<String>> featureKeys,
      double epsilon,
      double delta,
      int maxRowsPerUnit,
      Double regularization,
      DpSgdOptions sgd,
      java.util.Set<String> autoBounds) {
    public Request {
      Objects.requireNonNull(kind, "kind");
      features = List.copyOf(features);
      featureBounds = Map.copyOf(featureBounds);
      featureKeys = Map.copyOf(featureKeys);
      autoBounds = autoBounds == null ? java.util.Set.of() : java.util.Set.copyOf(autoBounds);
    }

    /** Without AUTO bounds named (numeric features without bounds still get them). */
    public Request(Model.Kind kind, String method, String label, String positive, String negative,
        ColumnBounds labelBounds, List<String> features, Map<String, ColumnBounds> featureBounds,
        Map<String, List<String>> featureKeys, double epsilon, double delta, int maxRowsPerUnit,
        Double regularization, DpSgdOptions sgd) {
      this(kind, method, label, positive, negative, labelBounds, features, featureBounds, featureKeys, epsilon,
          delta, maxRowsPerUnit, regularization, sgd, java.util.Set.of());
    }

    Request withEpsilon(double e) {
      return new Request(kind, method, label, positive, negative, labelBounds, features, featureBounds,
          featureKeys, e, delta, maxRowsPerUnit, regularization, sgd, autoBounds);
    }
  }

  /** The share of ε that buys AUTO feature bounds (the engine's default share, as for queries). */
  public static final double AUTO_BOUNDS_SHARE = AutoBounds.DEFAULT_SHARE;

  /** DP-SGD hyperparameters (public; fixed defaults unless given). */
  public record DpSgdOptions(double samplingRate, int steps, double clip, double learningRate) {
    /** The documented defaults: q = 0.01, T = 1000, C = 1, learning rate 0.05. */
    public static final DpSgdOptions DEFAULTS = new DpSgdOptions(0.01, 1000, 1.0, 0.05);
  }

  private final DatasetSpec spec;
  private final Source source;
  private final BackendTraining data;
  private final Request request;
  private final List<String> auto;
  private final double epsilonBounds;
  private final Query boundsQuery;
  private final FeatureEncoder encoder;
  private final Label label;
  private final Trainer trainer;

  /** A calibrated mechanism: its stated loss and the training step, where the data lives. */
  private interface Trainer {
    PrivacyLoss privacyLoss();

    List<? extends PrivacyLoss> parts();

    Model train(BackendTraining data, Backend backend, Source source, RandomSource random);
  }

  /** The training step of an iterative method: on the bounded rows read through the backend. */
  private interface OnRows {
    Model train(TrainingSet set, RandomSource random);
  }

  private RegisteredTraining(DatasetSpec spec, Source source, BackendTraining data, Request request,
      FeatureEncoder encoder, Label label, Trainer trainer, List<String> auto, double epsilonBounds,
      Query boundsQuery) {
    this.auto = auto;
    this.epsilonBounds = epsilonBounds;
    this.boundsQuery = boundsQuery;
    this.spec = spec;
    this.source = source;
    this.data = data;
    this.request = request;
    this.encoder = encoder;
    this.label = label;
    this.trainer = trainer;
  }

  /**
   * Checks a request against public information only and calibrates its mechanism (nothing is
   * charged or read).
   *
   * @param option how the caller names the dataset parameter in messages (e.g. {@code --dataset})
   */
  public static RegisteredTraining prepare(Ledger ledger, String dataset, Request r, String option) {
    DatasetSpec spec = ledger.dataset(dataset);
    if (spec.relation() != NeighbouringRelation.ADD_REMOVE_ONE) {
      throw new IllegalArgumentException(option + ": dataset '" + spec.name() + "' states its budget under"
          + " replace-one neighbours; training is proven under add/remove-one-unit neighbours only");
    }
    RegisteredSchema fixed = ledger.schema(spec.name()).orElseThrow(() -> new IllegalArgumentException(
        "dataset '" + spec.name() + "' has no public schema; the curator fixes one with: privet dataset"
            + " fix-schema --name " + spec.name()));
    List<TableSchema.Column> cols = new ArrayList<>();
    fixed.columns().forEach(c -> cols.add(new TableSchema.Column(c.name(),
        org.privet.engine.PublicSchema.type(c.type()), c.type())));
    TableSchema schema = new TableSchema(cols);
    String unit = spec.privacyUnit().columnName().orElse(null);
    requireColumn(schema, r.label(), "--label", spec);
    if (r.features().isEmpty()) {
      throw new IllegalArgumentException("--features: give at least one feature column");
    }
    for (String f : r.featureBounds().keySet()) {
      if (!r.features().contains(f)) {
        throw new IllegalArgumentException("--feature-bounds: " + f + " is not in --features");
      }
    }
    for (String f : r.featureKeys().keySet()) {
      if (!r.features().contains(f)) {
        throw new IllegalArgumentException("--feature-keys: " + f + " is not in --features");
      }
    }
    for (String f : r.autoBounds()) {
      if (!r.features().contains(f)) {
        throw new IllegalArgumentException("--feature-bounds: " + f + " is not in --features");
      }
      if (r.featureBounds().containsKey(f) || r.featureKeys().containsKey(f)) {
        throw new IllegalArgumentException("--feature-bounds: " + f + "=AUTO conflicts with its other bounds or"
            + " keys");
      }
    }
    List<String> auto = new ArrayList<>();
    List<Feature> features = new ArrayList<>();
    for (String f : r.features()) {
      requireColumn(schema, f, "--features", spec);
      if (f.equals(r.label())) {
        throw new IllegalArgumentException("--features: " + f + " is the label");
      }
      if (f.equals(unit)) {
        throw new IllegalArgumentException("--features: " + f + " is the privacy-unit column");
      }
      ColumnBounds b = r.featureBounds().getOrDefault(f, spec.publicMetadata().bounds().get(f));
      List<String> keys = r.featureKeys().getOrDefault(f, spec.publicMetadata().publicKeys().get(f));
      boolean number = isNumber(schema, f);
      if (r.autoBounds().contains(f)) {
        if (!number) {
          throw new IllegalArgumentException("--feature-bounds: " + f + "=AUTO needs a number column; " + f
              + " is " + schema.column(f).orElseThrow().type().name().toLowerCase(java.util.Locale.ROOT)
              + " in the registered schema");
        }
        auto.add(f);
        features.add(new Feature.Numeric(f, 0, 1)); // bounds estimated after the charge
      } else if (r.featureBounds().containsKey(f) || (b != null && !r.featureKeys().containsKey(f))) {
        features.add(new Feature.Numeric(f, b.lower(), b.upper()));
      } else if (keys != null) {
        features.add(new Feature.Categorical(f, keys));
      } else if (number) {
        auto.add(f); // a number column without public bounds: AUTO bounds, paid from the same charge
        features.add(new Feature.Numeric(f, 0, 1));
      } else {
        throw new IllegalArgumentException("--features: " + f + " needs public bounds (--feature-bounds " + f
            + "=LOW:HIGH, or registered --bounds) or public keys (--feature-keys " + f
            + "=K1,K2,..., or registered --public-keys)");
      }
    }
    FeatureEncoder encoder = new FeatureEncoder(features);
    Label label;
    if (r.kind() == Model.Kind.LINEAR_REGRESSION) {
      ColumnBounds lb = r.labelBounds() != null ? r.labelBounds() : spec.publicMetadata().bounds().get(r.label());
      if (lb == null) {
        throw new IllegalArgumentException("--label-bounds: linear regression needs public bounds of the label "
            + r.label() + " (--label-bounds LOW:HIGH, or registered --bounds)");
      }
      label = new Label.Numeric(r.label(), lb.lower(), lb.upper());
    } else {
      if (r.positive() == null) {
        throw new IllegalArgumentException("--positive: a classifier needs the label value that counts as positive");
      }
      label = new Label.Binary(r.label(), r.positive(), r.negative());
    }
    if (r.maxRowsPerUnit() < 1) {
      throw new IllegalArgumentException("--max-rows-per-unit must be at least 1, was " + r.maxRowsPerUnit());
    }
    if (unit == null && r.maxRowsPerUnit() != 1) {
      throw new IllegalArgumentException("--max-rows-per-unit: dataset '" + spec.name()
          + "' protects each row; it applies to datasets with a privacy-unit column only");
    }
    BackendTraining data = BackendTraining.of(encoder, label, unit, r.maxRowsPerUnit());
    data.check(schema);
    if (r.kind() == Model.Kind.LOGISTIC_REGRESSION && "dp-sgd".equals(r.method())) {
      data.checkDpSgd(schema);
    }
    double epsilonBounds = 0;
    double epsilonModel = r.epsilon();
    Query boundsQuery = null;
    if (!auto.isEmpty()) {
      // the engine's AUTO bounds (AutoBounds, docs/proofs/auto-bounds.md) as one query of pure ε_b
      epsilonBounds = AUTO_BOUNDS_SHARE * r.epsilon();
      epsilonModel = r.epsilon() - epsilonBounds;
      // the parts never exceed the whole, as the accountant composes them (rounding toward more loss)
      while (new BasicAccountant().compose(List.of(new ApproxDp(epsilonModel, r.delta()), new PureDp(epsilonBounds)),
          r.delta()).epsilon() > r.epsilon()) {
        epsilonModel = Math.nextDown(epsilonModel);
      }
      boundsQuery = boundsQuery(LedgerCatalog.source(spec, Optional.of(fixed)), unit, r.maxRowsPerUnit(), auto,
          epsilonBounds);
    }
    Trainer trainer = trainer(r.withEpsilon(epsilonModel), encoder);
    return new RegisteredTraining(spec, LedgerCatalog.source(spec, Optional.of(fixed)), data, r, encoder, label,
        trainer, List.copyOf(auto), epsilonBounds, boundsQuery);
  }

  private static Trainer trainer(Request r, FeatureEncoder encoder) {
    int dimension = encoder.dimension();
    String method = r.method() == null ? defaultMethod(r.kind()) : r.method();
    switch (r.kind()) {
      case LOGISTIC_REGRESSION:
        if (method.equals("objective-perturbation") && r.delta() == 0) {
          // δ = 0: the pure-ε variant (Laplace noise), which a pure-ε grant admits
          PureObjectivePerturbation op = PureObjectivePerturbation.of(r.epsilon(), r.maxRowsPerUnit(),
              r.regularization(), encoder);
          return trainer(op.privacyLoss(), List.of(op.privacyLoss()), rows(op::train));
        }
        if (method.equals("objective-perturbation")) {
          ObjectivePerturbation op = ObjectivePerturbation.of(r.epsilon(), r.delta(), r.maxRowsPerUnit(),
              r.regularization(), dimension);
          return trainer(op.privacyLoss(), List.of(op.privacyLoss()), rows(op::train));
        }
        if (method.equals("dp-sgd")) {
          DpSgdOptions o = r.sgd() == null ? DpSgdOptions.DEFAULTS : r.sgd();
          DpSgd sgd = DpSgd.builder().epsilon(r.epsilon()).delta(r.delta()).samplingRate(o.samplingRate())
              .steps(o.steps()).clip(o.clip()).learningRate(o.learningRate()).dimension(dimension).build();
          // one aggregate statement per step on the dataset's backend (BackendTraining#dpSgd)
          return trainer(sgd.privacyLoss(), List.of(sgd.privacyLoss()), (data, backend, source, random) ->
              data.dpSgd(sgd, backend, source, random));
        }
        throw new IllegalArgumentException("--method: logistic regression is trained by objective-perturbation"
            + " or dp-sgd, was " + method);
      case LINEAR_REGRESSION: {
        if (!method.equals("adassp")) {
          throw new IllegalArgumentException("--method: linear regression is trained by adassp, was " + method);
        }
        // the noise source is bound at training time (below); calibrate now with a placeholder
        AdaSsp probe = AdaSsp.of(r.epsilon(), r.delta(), dimension, RandomSource.secure());
        return trainer(probe.privacyLoss(), probe.parts(), (data, backend, source, random) -> AdaSsp.of(
            r.epsilon(), r.delta(), dimension, random).train(data.encoder(), data.label(), data.gram(backend, source)));
      }
      default: {
        if (!method.equals("gaussian-naive-bayes")) {
          throw new IllegalArgumentException("--method: naive Bayes is trained by gaussian-naive-bayes, was "
              + method);
        }
        GaussianNaiveBayes probe = GaussianNaiveBayes.of(r.epsilon(), r.delta(), RandomSource.secure());
        return trainer(probe.privacyLoss(), List.of(probe.privacyLoss()), (data, backend, source, random) ->
            GaussianNaiveBayes.of(r.epsilon(), r.delta(), random).train(data.encoder(), data.label(),
                data.classMoments(backend, source)));
      }
    }
  }

  /** The method a model kind uses when none is named. */
  public static String defaultMethod(Model.Kind kind) {
    return switch (kind) {
      case LOGISTIC_REGRESSION -> "objective-perturbation";
      case LINEAR_REGRESSION -> "adassp";
      case GAUSSIAN_NAIVE_BAYES -> "gaussian-naive-bayes";
    };
  }

  private static TrainStep rows(OnRows step) {
    return (data, backend, source, random) -> step.train(data.rows(backend, source), random);
  }

  /** {@link Trainer#train}. */
  private interface TrainStep {
    Model train(BackendTraining data, Backend backend, Source source, RandomSource random);
  }

  private static Trainer trainer(PrivacyLoss loss, List<? extends PrivacyLoss> parts, TrainStep train) {
    return new Trainer() {
      @Override
      public PrivacyLoss privacyLoss() {
        return loss;
      }

      @Override
      public List<? extends PrivacyLoss> parts() {
        return parts;
      }

      @Override
      public Model train(BackendTraining data, Backend backend, Source source, RandomSource random) {
        return train.train(data, backend, source, random);
      }
    };
  }

  private static boolean isNumber(TableSchema schema, String column) {
    ColumnType t = schema.column(column).orElseThrow().type();
    return t == ColumnType.INTEGER || t == ColumnType.FLOATING || t == ColumnType.DECIMAL;
  }

  /**
   * The bounds pass: one engine query on the same rows and contribution bound whose AUTO SUMs buy a
   * noisy quantile tree per feature with 90% of its pure ε_b (the rest answers SUMs that are
   * discarded); the estimated bounds ({@link Result#bounds()}) are its DP output.
   */
  private static Query boundsQuery(Source source, String unit, int maxRowsPerUnit, List<String> auto,
      double epsilonBounds) {
    Query.Builder q = Query.from(source);
    if (unit == null) {
      q.eachRowIsAUnit();
    } else {
      q.privacyUnit(unit).maxRowsPerGroup(maxRowsPerUnit);
    }
    for (int i = 0; i < auto.size(); i++) {
      q.sum("auto_" + i, auto.get(i));
    }
    return q.autoBoundsShare(AutoBounds.MAX_SHARE).epsilon(epsilonBounds).build();
  }

  private static void requireColumn(TableSchema schema, String column, String option, DatasetSpec spec) {
    if (column == null || schema.column(column).isEmpty()) {
      throw new IllegalArgumentException(option + ": '" + column + "' is not a column of dataset '"
          + spec.name() + "'");
    }
  }

  /** The registered name of the dataset. */
  public String dataset() {
    return spec.name();
  }

  /** The encoded dimension (intercept included). */
  public int dimension() {
    return encoder.dimension();
  }

  /** The features whose bounds are estimated privately (AUTO), in order. */
  public List<String> autoBounds() {
    return auto;
  }

  /** What the ledger is charged, once: the requested (ε, δ), or pure ε when δ = 0. */
  public List<PrivacyLoss> cost() {
    return List.of(request.delta() == 0 ? new PureDp(request.epsilon())
        : new ApproxDp(request.epsilon(), request.delta()));
  }

  /**
   * Asserts the mechanism's stated loss equals the plan, charges with {@code charge} (which must
   * commit the cost durably and return the charge, or throw to refuse, charging nothing), then
   * computes totally on {@code backend}, the dataset's ({@link DatasetBackends#of}), and trains.
   */
  public Model run(Backend backend, Function<List<PrivacyLoss>, Charge> charge, RandomSource random) {
    List<PrivacyLoss> plan = cost();
    List<PrivacyLoss> parts = new ArrayList<>(trainer.parts());
    if (!auto.isEmpty()) {
      parts.add(new PureDp(epsilonBounds));
    }
    ApproxDp composed = new BasicAccountant().compose(parts, request.delta());
    if ((auto.isEmpty() && !trainer.privacyLoss().equals(plan.get(0))) || composed.epsilon() > request.epsilon()
        || composed.delta() > request.delta()) {
      throw new IllegalStateException("the mechanism's loss " + trainer.privacyLoss() + " (parts composed: "
          + composed + ") differs from the plan " + plan);
    }
    Charge c = Objects.requireNonNull(charge.apply(plan), "charge");
    BackendTraining on = data;
    Map<String, Object> estimated = new LinkedHashMap<>();
    if (!auto.isEmpty()) {
      Result bounds = Session.builder().backend(backend).randomSource(random).budgetCharger(req -> {
        // already charged as part of this training's one charge: only check it is the planned share
        if (!Budget.pure(epsilonBounds).admits(req.total())) {
          throw new IllegalStateException("the bounds pass costs " + req.total() + ", planned " + epsilonBounds);
        }
      }).build().run(boundsQuery);
      Map<String, double[]> byColumn = new LinkedHashMap<>();
      for (AutoBounds.Estimated e : bounds.bounds()) {
        byColumn.put(e.column(), new double[] {e.lower(), e.upper()});
      }
      List<Feature> features = new ArrayList<>();
      for (Feature f : encoder.features()) {
        double[] b = byColumn.get(f.name());
        features.add(b == null ? f : new Feature.Numeric(f.name(), b[0], b[1]));
        if (b != null) {
          estimated.put(f.name(), List.of(b[0], b[1]));
        }
      }
      on = BackendTraining.of(new FeatureEncoder(features), label, spec.privacyUnit().columnName().orElse(null),
          request.maxRowsPerUnit());
    }
    Map<String, Object> more = new LinkedHashMap<>();
    more.put("dataset", spec.name());
    more.put("ledger_charge", c.id());
    more.put("privacy_unit", spec.privacyUnit().toString());
    more.put("neighbouring_relation", "add/remove one unit");
    if (!auto.isEmpty()) {
      more.put("auto_bounds", estimated);
      more.put("auto_bounds_epsilon", epsilonBounds);
      more.put("auto_bounds_mechanism", "the engine's AUTO bounds (noisy quantile tree, ranks "
          + AutoBounds.DEFAULT_LOWER_RANK + "/" + AutoBounds.DEFAULT_UPPER_RANK + "), pure epsilon, from this"
          + " charge; the model's mechanism has the rest");
      more.put("charged_epsilon", request.epsilon());
    }
    return trainer.train(on, backend, source, random).withPrivacy(more);
  }

}
