package org.privet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.privet.curator.RegisteredTraining;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.Analyst;
import org.privet.ledger.Charge;
import org.privet.ledger.ColumnBounds;
import org.privet.ledger.Job;
import org.privet.ledger.Ledger;
import org.privet.ledger.Release;
import org.privet.models.Model;
import org.privet.random.RandomSource;

/**
 * Model-training jobs ({@code POST /v1/train}, issue 26 item 1) over the curator's training path
 * ({@link RegisteredTraining}), under the same exactly-once rules as {@link SynthJobs}: the request
 * is checked against public information only (400 naming the parameter, nothing charged); the
 * charge, its release record and its {@link Job} of kind {@value #KIND} commit in one transaction
 * before the 202, keyed by the Idempotency-Key and bound to the whole body; {@link LedgerJobs} runs
 * the job once across every replica sharing the ledger, and the model JSON is stored in the ledger,
 * so every replica serves the same bytes. A job whose runner died is failed, never re-run.
 *
 * <p>The model's privacy statement names its charge as its owner numbers it ({@code ledger_charge}:
 * the owner's own charge number, as {@code GET /v1/history} shows it; the ledger-wide id would
 * count everyone's releases). An analyst knows their training jobs by their own numbers (1, 2, ...),
 * the curator by charge id; others get the one 404. Privacy argument: docs/proofs/dp-models.md.
 */
final class TrainJobs implements AutoCloseable {
  /** The {@link Job#kind()} of training jobs. */
  static final String KIND = "train";
  /** The failure recorded for a job whose runner failed; fixed text, never a data value. */
  static final String FAILED = "the training failed after its charge";

  /** The CLI option names in {@link RegisteredTraining}'s messages, and the request fields they are. */
  private static final String[][] FIELD_NAMES = {
    {"--label-bounds", "labelBounds"}, {"--feature-bounds", "featureBounds"}, {"--feature-keys", "featureKeys"},
    {"--max-rows-per-unit", "maxRowsPerUnit"}, {"--features", "features"}, {"--label", "label"},
    {"--positive", "positive"}, {"--method", "method"}, {"--model", "model"}, {"--dataset", "dataset"},
    {"--regularization", "regularization"}, {"registered --public-keys", "registered public keys"},
    {"registered --bounds", "registered bounds"}};

  private final Ledger ledger;
  private final CuratorService service;
  private final LedgerJobViews views;

  TrainJobs(Ledger ledger, CuratorService service, ReleaseHooks hooks, Duration lease) {
    this.ledger = ledger;
    this.service = service;
    this.views = new LedgerJobViews(ledger, service, hooks, lease, KIND, "POST /v1/train", this::compute, FAILED,
        "the job has no model", null);
  }

  /** A checked request: the calibrated training and the ledger's text of it. */
  private record Prepared(RegisteredTraining training, String text) {}

  /** The request's public parts, checked and calibrated against {@code dataset}'s registration. */
  private Prepared prepare(String dataset, JsonNode body) {
    try {
      Model.Kind kind = Model.Kind.parse(body.hasNonNull("model") ? textField(body, "model")
          : "logistic-regression");
      String method = optionalText(body, "method");
      RegisteredTraining.Request r = new RegisteredTraining.Request(kind, method, textField(body, "label"),
          optionalText(body, "positive"), optionalText(body, "negative"),
          body.hasNonNull("labelBounds") ? bounds(body.get("labelBounds"), "labelBounds") : null,
          features(body), featureBounds(body), featureKeys(body), number(body, "epsilon", null),
          number(body, "delta", null), body.hasNonNull("maxRowsPerUnit") ? integer(body, "maxRowsPerUnit") : 1,
          body.hasNonNull("regularization") ? number(body, "regularization", null) : null,
          new RegisteredTraining.DpSgdOptions(
              number(body, "samplingRate", RegisteredTraining.DpSgdOptions.DEFAULTS.samplingRate()),
              body.hasNonNull("steps") ? integer(body, "steps") : RegisteredTraining.DpSgdOptions.DEFAULTS.steps(),
              number(body, "clip", RegisteredTraining.DpSgdOptions.DEFAULTS.clip()),
              number(body, "learningRate", RegisteredTraining.DpSgdOptions.DEFAULTS.learningRate())),
          autoBounds(body));
      RegisteredTraining training = RegisteredTraining.prepare(ledger, dataset, r, "dataset");
      String text = String.format(Locale.ROOT, "POST /v1/train model=%s method=%s label=%s features=%s"
          + " epsilon=%s delta=%s", kind.label(), method == null ? RegisteredTraining.defaultMethod(kind) : method,
          r.label(), String.join(",", r.features()), body.get("epsilon").asText(), body.get("delta").asText());
      return new Prepared(training, text);
    } catch (org.privet.ledger.UnknownDatasetException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      // every check before the charge reads public information only: a refusal naming the field
      throw ApiException.badRequest(fieldNames(e.getMessage()));
    }
  }

  /** A message of {@link RegisteredTraining} with its CLI option names replaced by request fields. */
  static String fieldNames(String message) {
    String m = message == null ? "invalid request" : message;
    for (String[] pair : FIELD_NAMES) {
      m = m.replace(pair[0], pair[1]);
    }
    return m;
  }

  private static String textField(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw new IllegalArgumentException(field + ": a non-empty string is required");
    }
    return v.asText();
  }

  private static String optionalText(JsonNode body, String field) {
    return body.hasNonNull(field) ? textField(body, field) : null;
  }

  private static double number(JsonNode body, String field, Double orElse) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      if (orElse == null) {
        throw new IllegalArgumentException(field + ": a number is required");
      }
      return orElse;
    }
    if (!v.isNumber()) {
      throw new IllegalArgumentException(field + ": a number is required");
    }
    return v.asDouble();
  }

  private static int integer(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw new IllegalArgumentException(field + ": an integer is required");
    }
    return v.asInt();
  }

  private static List<String> features(JsonNode body) {
    JsonNode v = body.get("features");
    if (v == null || !v.isArray() || v.isEmpty()) {
      throw new IllegalArgumentException("features: a non-empty array of column names is required");
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      if (!v.get(i).isTextual() || v.get(i).asText().isBlank()) {
        throw new IllegalArgumentException("features[" + i + "]: a column name is required");
      }
      out.add(v.get(i).asText());
    }
    return out;
  }

  /** The features whose featureBounds are {@code "AUTO"}. */
  private static java.util.Set<String> autoBounds(JsonNode body) {
    java.util.Set<String> out = new java.util.LinkedHashSet<>();
    JsonNode v = body.get("featureBounds");
    if (v != null && v.isObject()) {
      v.fields().forEachRemaining(e -> {
        if (e.getValue().isTextual() && e.getValue().asText().equalsIgnoreCase("AUTO")) {
          out.add(e.getKey());
        }
      });
    }
    return out;
  }

  private static ColumnBounds bounds(JsonNode v, String field) {
    if (!v.isArray() || v.size() != 2 || !v.get(0).isNumber() || !v.get(1).isNumber()) {
      throw new IllegalArgumentException(field + ": [LOW, HIGH], two numbers, is required");
    }
    try {
      return new ColumnBounds(v.get(0).asDouble(), v.get(1).asDouble());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage());
    }
  }

  private static Map<String, ColumnBounds> featureBounds(JsonNode body) {
    Map<String, ColumnBounds> out = new LinkedHashMap<>();
    JsonNode v = body.get("featureBounds");
    if (v == null || v.isNull()) {
      return out;
    }
    if (!v.isObject()) {
      throw new IllegalArgumentException("featureBounds: an object {\"COLUMN\": [LOW, HIGH], ...} is required");
    }
    v.fields().forEachRemaining(e -> {
      if (!(e.getValue().isTextual() && e.getValue().asText().equalsIgnoreCase("AUTO"))) {
        out.put(e.getKey(), bounds(e.getValue(), "featureBounds." + e.getKey()));
      }
    });
    return out;
  }

  private static Map<String, List<String>> featureKeys(JsonNode body) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    JsonNode v = body.get("featureKeys");
    if (v == null || v.isNull()) {
      return out;
    }
    if (!v.isObject()) {
      throw new IllegalArgumentException("featureKeys: an object {\"COLUMN\": [\"K1\", ...], ...} is required");
    }
    v.fields().forEachRemaining(e -> {
      String field = "featureKeys." + e.getKey();
      if (!e.getValue().isArray() || e.getValue().isEmpty()) {
        throw new IllegalArgumentException(field + ": a non-empty array of strings is required");
      }
      List<String> keys = new ArrayList<>();
      for (JsonNode k : e.getValue()) {
        if (!k.isTextual()) {
          throw new IllegalArgumentException(field + ": a non-empty array of strings is required");
        }
        keys.add(k.asText());
      }
      out.put(e.getKey(), keys);
    });
    return out;
  }

  /** Starts a job: 202 with its id, after the charge, its job and the job record are committed. */
  ObjectNode start(Analyst who, JsonNode body, Optional<String> idempotencyKey) {
    return views.start(who, body, idempotencyKey, () -> {
      JsonNode dataset = body.get("dataset");
      if (dataset == null || !dataset.isTextual() || dataset.asText().isBlank()) {
        throw ApiException.badRequest("dataset: a non-empty string is required");
      }
      String registered = service.requireVisible(who, dataset.asText());
      Prepared p = prepare(registered, body);
      // a table dataset's database must be reachable before the charge (a refusal, no data read)
      try (DuckDbBackend files = DuckDbBackend.inMemory();
          org.privet.curator.DatasetBackends backends = service.datasetBackends(files)) {
        backends.of(ledger.dataset(registered));
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest(e.getMessage());
      }
      return new LedgerJobViews.Charged(registered, p.text(), p.training().cost());
    });
  }

  /** The model JSON of a started job, trained totally from its stored request and charge. */
  private String compute(long id) {
    Job job = ledger.job(id).orElseThrow();
    Release r = ledger.releaseOfCharge(id).orElseThrow();
    // The dataset the charge was made on, as registered: the request was checked when charged.
    Prepared p = prepare(r.dataset(), LedgerJobViews.read(job.request()));
    Charge charge = ledger.charge(r.dataset(), id);
    try (DuckDbBackend files = DuckDbBackend.inMemory();
        org.privet.curator.DatasetBackends backends = service.datasetBackends(files)) {
      Model model = p.training().run(backends.of(ledger.dataset(r.dataset())), cost -> {
        if (!charge.cost().equals(cost)) {
          throw new IllegalStateException("the training cost differs from charge #" + id);
        }
        return charge;
      }, RandomSource.secure());
      return model.withPrivacy(Map.of("ledger_charge", ledger.analystChargeNumber(charge))).toJson();
    }
  }

  ObjectNode status(Analyst who, String id) {
    return views.status(who, id);
  }

  /** The model JSON of a done job, as stored in the ledger (the same bytes on every replica). */
  String model(Analyst who, String id) {
    return views.output(who, id);
  }

  /** Stops: see {@link LedgerJobs#close()}. */
  @Override
  public void close() {
    views.close();
  }
}
