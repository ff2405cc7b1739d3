package org.privet.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A released model: its kind, the public feature encoding and label, its parameters, and the
 * privacy statement it was trained under. Everything in it is either public (encoding, options) or
 * the output of a DP release, so {@link #predict} is post-processing. Immutable; written and read
 * as JSON ({@link #toJson}, {@link #read}).
 */
public final class Model {
  /** The model kinds. */
  public enum Kind {
    LOGISTIC_REGRESSION("logistic-regression"),
    LINEAR_REGRESSION("linear-regression"),
    GAUSSIAN_NAIVE_BAYES("gaussian-naive-bayes");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    /** The name on the command line and in the JSON. */
    public String label() {
      return label;
    }

    /** Parses a kind's name, or refuses naming the parameter. */
    public static Kind parse(String name) {
      for (Kind k : values()) {
        if (k.label.equals(name)) {
          return k;
        }
      }
      throw new IllegalArgumentException("--model must be logistic-regression, linear-regression or"
          + " gaussian-naive-bayes, was " + name);
    }
  }

  /** One prediction: the predicted value, and the positive class's probability (NaN for regression). */
  public record Prediction(String value, double probability) {}

  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Kind kind;
  private final String method;
  private final FeatureEncoder encoder;
  private final Label label;
  private final double[] coefficients;
  /** Naive Bayes: [class][coordinate], class 0 negative, 1 positive. */
  private final double[][] means;
  private final double[][] variances;
  private final double[] logPriors;
  private final Map<String, Object> privacy;

  private Model(Kind kind, String method, FeatureEncoder encoder, Label label, double[] coefficients,
      double[][] means, double[][] variances, double[] logPriors, Map<String, Object> privacy) {
    this.kind = kind;
    this.method = method;
    this.encoder = encoder;
    this.label = label;
    this.coefficients = coefficients == null ? null : coefficients.clone();
    this.means = means;
    this.variances = variances;
    this.logPriors = logPriors;
    this.privacy = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(privacy));
  }

  static Model logistic(String method, FeatureEncoder encoder, Label.Binary label, double[] theta,
      Map<String, Object> privacy) {
    return new Model(Kind.LOGISTIC_REGRESSION, method, encoder, label, theta, null, null, null, privacy);
  }

  static Model linear(String method, FeatureEncoder encoder, Label.Numeric label, double[] theta,
      Map<String, Object> privacy) {
    return new Model(Kind.LINEAR_REGRESSION, method, encoder, label, theta, null, null, null, privacy);
  }

  static Model naiveBayes(FeatureEncoder encoder, Label.Binary label, double[][] means, double[][] variances,
      double[] logPriors, Map<String, Object> privacy) {
    return new Model(Kind.GAUSSIAN_NAIVE_BAYES, "gaussian-naive-bayes", encoder, label, null, means, variances,
        logPriors, privacy);
  }

  /** A copy with more entries in its privacy statement (e.g. the dataset and the ledger charge). */
  public Model withPrivacy(Map<String, Object> more) {
    Map<String, Object> p = new LinkedHashMap<>(privacy);
    p.putAll(more);
    return new Model(kind, method, encoder, label, coefficients, means, variances, logPriors, p);
  }

  public Kind kind() {
    return kind;
  }

  public String method() {
    return method;
  }

  public FeatureEncoder encoder() {
    return encoder;
  }

  public Label label() {
    return label;
  }

  /** The privacy statement (read-only). */
  public Map<String, Object> privacy() {
    return privacy;
  }

  /** Linear models' coefficients on the encoded coordinates (a copy), else empty. */
  public double[] coefficients() {
    return coefficients == null ? new double[0] : coefficients.clone();
  }

  /** Predicts from the feature values in {@link FeatureEncoder#columns()} order (total). */
  public Prediction predict(String[] featureValues) {
    double[] x = encoder.encode(featureValues);
    switch (kind) {
      case LOGISTIC_REGRESSION: {
        double p = LogisticObjective.sigmoid(dot(coefficients, x));
        Label.Binary b = (Label.Binary) label;
        return new Prediction(p >= 0.5 ? b.positive() : b.negative(), p);
      }
      case LINEAR_REGRESSION: {
        double y = Math.max(-1, Math.min(1, dot(coefficients, x)));
        return new Prediction(Double.toString(((Label.Numeric) label).decode(y)), Double.NaN);
      }
      default: {
        double[] logp = new double[2];
        for (int c = 0; c < 2; c++) {
          double s = logPriors[c];
          for (int j = 1; j < x.length; j++) {
            double v = variances[c][j];
            double diff = x[j] - means[c][j];
            s += -0.5 * Math.log(2 * Math.PI * v) - diff * diff / (2 * v);
          }
          logp[c] = s;
        }
        double p = LogisticObjective.sigmoid(logp[1] - logp[0]);
        Label.Binary b = (Label.Binary) label;
        return new Prediction(p >= 0.5 ? b.positive() : b.negative(), p);
      }
    }
  }

  static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  /** The model as JSON. */
  public String toJson() {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("format", "privet-model-1");
    root.put("model", kind.label());
    root.put("method", method);
    ObjectNode l = root.putObject("label");
    l.put("column", label.column());
    if (label instanceof Label.Binary b) {
      l.put("positive", b.positive());
      l.put("negative", b.negative());
    } else {
      Label.Numeric n = (Label.Numeric) label;
      l.put("lower", n.lower());
      l.put("upper", n.upper());
    }
    ArrayNode fs = root.putArray("features");
    for (Feature f : encoder.features()) {
      ObjectNode o = fs.addObject();
      o.put("name", f.name());
      if (f instanceof Feature.Numeric n) {
        o.put("type", "numeric").put("lower", n.lower()).put("upper", n.upper());
      } else {
        o.put("type", "categorical");
        ArrayNode keys = o.putArray("keys");
        ((Feature.Categorical) f).keys().forEach(keys::add);
      }
    }
    root.put("scale", encoder.scale());
    List<String> names = encoder.coordinateNames();
    if (coefficients != null) {
      ObjectNode c = root.putObject("coefficients");
      for (int i = 0; i < names.size(); i++) {
        c.put(names.get(i), coefficients[i]);
      }
    } else {
      ObjectNode nb = root.putObject("naive_bayes");
      String[] cls = {((Label.Binary) label).negative(), ((Label.Binary) label).positive()};
      for (int c = 0; c < 2; c++) {
        ObjectNode k = nb.putObject(cls[c]);
        k.put("log_prior", logPriors[c]);
        ObjectNode m = k.putObject("means");
        ObjectNode v = k.putObject("variances");
        for (int i = 1; i < names.size(); i++) {
          m.put(names.get(i), means[c][i]);
          v.put(names.get(i), variances[c][i]);
        }
      }
    }
    root.set("privacy", MAPPER.valueToTree(privacy));
    try {
      return MAPPER.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@link #toJson} to a file. */
  public void write(Path file) throws IOException {
    Files.writeString(file, toJson() + "\n");
  }

  /**
   * Reads a model written by {@link #toJson}; refuses a malformed file naming what is wrong (the
   * file is the analyst's own, so its content may be quoted).
   */
  public static Model read(Path file) throws IOException {
    JsonNode root;
    try {
      root = MAPPER.readTree(Files.readString(file));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("--model: " + file + " is not JSON");
    }
    if (root == null || !"privet-model-1".equals(root.path("format").asText())) {
      throw new IllegalArgumentException("--model: " + file + " is not a privet model (format privet-model-1)");
    }
    Kind kind = Kind.parse(root.path("model").asText());
    List<Feature> features = new ArrayList<>();
    for (JsonNode f : root.path("features")) {
      String name = f.path("name").asText();
      if ("numeric".equals(f.path("type").asText())) {
        features.add(new Feature.Numeric(name, f.path("lower").asDouble(), f.path("upper").asDouble()));
      } else {
        List<String> keys = new ArrayList<>();
        f.path("keys").forEach(k -> keys.add(k.asText()));
        features.add(new Feature.Categorical(name, keys));
      }
    }
    FeatureEncoder enc = new FeatureEncoder(features);
    JsonNode l = root.path("label");
    Label label = kind == Kind.LINEAR_REGRESSION
        ? new Label.Numeric(l.path("column").asText(), l.path("lower").asDouble(), l.path("upper").asDouble())
        : new Label.Binary(l.path("column").asText(), l.path("positive").asText(), l.path("negative").asText());
    @SuppressWarnings("unchecked")
    Map<String, Object> privacy = MAPPER.convertValue(root.path("privacy"), LinkedHashMap.class);
    List<String> names = enc.coordinateNames();
    if (kind == Kind.GAUSSIAN_NAIVE_BAYES) {
      double[][] means = new double[2][names.size()];
      double[][] vars = new double[2][names.size()];
      double[] priors = new double[2];
      Label.Binary b = (Label.Binary) label;
      String[] cls = {b.negative(), b.positive()};
      for (int c = 0; c < 2; c++) {
        JsonNode k = root.path("naive_bayes").path(cls[c]);
        priors[c] = k.path("log_prior").asDouble();
        for (int i = 1; i < names.size(); i++) {
          means[c][i] = k.path("means").path(names.get(i)).asDouble();
          vars[c][i] = k.path("variances").path(names.get(i)).asDouble(1);
        }
      }
      return new Model(kind, root.path("method").asText(), enc, label, null, means, vars, priors,
          privacy == null ? Map.of() : privacy);
    }
    double[] coef = new double[names.size()];
    for (int i = 0; i < names.size(); i++) {
      coef[i] = root.path("coefficients").path(names.get(i)).asDouble();
    }
    return new Model(kind, root.path("method").asText(), enc, label, coef, null, null, null,
        privacy == null ? Map.of() : privacy);
  }
}
