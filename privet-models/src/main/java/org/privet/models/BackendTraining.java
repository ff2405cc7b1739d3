package org.privet.models;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.privet.engine.Source;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.SqlDialect;
import org.privet.engine.spi.TableSchema;
import org.privet.random.RandomSource;

/**
 * A model's data where it lives (issue 26: "run it as aggregate queries on the dataset's
 * backend"): the public encoding ({@link FeatureEncoder}, {@link Label}) and per-unit contribution
 * bounding written once as SQL and rendered by each backend's {@link SqlDialect}
 * ({@link Backend#query}), so the same code runs on DuckDB, Spark and PostgreSQL. No privacy logic
 * lives in the SQL beyond the bounding the proofs rely on; the noise is added in Java.
 *
 * <p>The statement, as common table expressions over the source:
 * <ol>
 *   <li>{@code __e}: per row the unit {@code __u}, the fixed-point coordinates {@code __c0..}
 *       (integers in [0, 2^K], K = {@value Feature#GRID_BITS}: the intercept 2^K, a number
 *       rint(((min(max(x, lo), hi) − lo)/(hi − lo))·2^K) half to even, 2^(K−1) when NULL or NaN, a
 *       key 2^K when the value with its spaces trimmed equals it; on an integer column a key
 *       matches the integer it spells canonically, on a boolean column {@code true/t/yes/y/1} and
 *       {@code false/f/no/n/0} match TRUE and FALSE, any other key nothing) and the label {@code __y} in
 *       [−2^K, 2^K]: exactly {@link FeatureEncoder#encodeFixed} and {@link Label#encodeFixed};
 *   <li>{@code __r}, {@code __b} (per-unit bounding): each unit keeps its first L rows in the
 *       order of a salted hash of the encoded row (ties broken by the encoded values, so the kept
 *       multiset is deterministic), m = the unit's kept rows;
 *   <li>{@code __k}: the weight w = lcm(1..L)/m, an exact integer, so that a unit's weights sum
 *       to lcm(1..L) (to 1 after the public division). Row-level privacy: w = 1, L = 1.
 * </ol>
 * Sufficient statistics are then exact integer sums (the dialect's wide integer: HUGEINT,
 * NUMERIC, DECIMAL(38,0); principle "sums are fixed-point"): Σ w·u<sub>a</sub>·u<sub>b</sub>,
 * Σ w·u<sub>a</sub>·y, and per class Σ w, Σ w·u<sub>a</sub>, Σ w·u<sub>a</sub>². With L ≤ {@value
 * #MAX_ROWS_PER_UNIT} every term is below 2^74, so no sum of fewer than 2^52 rows leaves 128 bits
 * (or DECIMAL(38,0)). They are converted to doubles once, after the exact sum, and equal what
 * {@link #gram(TrainingSet)} and {@link #classMoments(TrainingSet)} compute in Java from the same
 * kept rows. Objective perturbation and DP-SGD are not sequences of fixed aggregates here: they
 * read the bounded encoded rows ({@link #rows}) through the same statement (docs/proofs/dp-models.md,
 * "Where the data lives"). Immutable.
 */
public final class BackendTraining {
  /** The largest rows-per-unit bound: lcm(1..20) = 232792560 &lt; 2^28. */
  public static final int MAX_ROWS_PER_UNIT = 20;
  /** Result columns per statement (PostgreSQL allows 1664). */
  static final int COLUMNS_PER_STATEMENT = 1000;
  /** The public salt of the per-unit row order. */
  static final long SALT = 0x5eed_0f_7a_1bL;

  private final FeatureEncoder encoder;
  private final Label label;
  private final String unit;
  private final int maxRowsPerUnit;
  private final long lcm;
  /** Per coordinate: the index of its feature (−1 for the intercept). */
  private final int[] featureOf;

  private BackendTraining(FeatureEncoder encoder, Label label, String unit, int maxRowsPerUnit) {
    this.encoder = Objects.requireNonNull(encoder, "encoder");
    this.label = Objects.requireNonNull(label, "label");
    this.unit = unit;
    if (maxRowsPerUnit < 1 || maxRowsPerUnit > MAX_ROWS_PER_UNIT) {
      throw new IllegalArgumentException("--max-rows-per-unit must be in [1, " + MAX_ROWS_PER_UNIT + "], was "
          + maxRowsPerUnit);
    }
    if (unit == null && maxRowsPerUnit != 1) {
      throw new IllegalArgumentException("--max-rows-per-unit applies to datasets with a privacy-unit column only");
    }
    this.maxRowsPerUnit = maxRowsPerUnit;
    this.lcm = lcm(maxRowsPerUnit);
    this.featureOf = new int[encoder.dimension()];
    featureOf[0] = -1;
    int off = 1;
    for (int f = 0; f < encoder.features().size(); f++) {
      for (int j = 0; j < encoder.features().get(f).width(); j++) {
        featureOf[off++] = f;
      }
    }
  }

  /**
   * The encoding and bounding of one training request.
   *
   * @param unit the privacy-unit column, or null when each row is a unit
   * @param maxRowsPerUnit L, in [1, {@value #MAX_ROWS_PER_UNIT}]; 1 without a unit column
   */
  public static BackendTraining of(FeatureEncoder encoder, Label label, String unit, int maxRowsPerUnit) {
    return new BackendTraining(encoder, label, unit, maxRowsPerUnit);
  }

  static long lcm(int n) {
    long l = 1;
    for (int i = 2; i <= n; i++) {
      l = l / gcd(l, i) * i;
    }
    return l;
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /** The feature encoding. */
  public FeatureEncoder encoder() {
    return encoder;
  }

  /** The label. */
  public Label label() {
    return label;
  }

  /** lcm(1..L): the weights' common denominator. */
  long weightDenominator() {
    return lcm;
  }

  /**
   * Refuses, from the public schema only, column types whose encoding the SQL does not render the
   * same on every backend: numbers need a numeric column; keys and a classifier's label a text or
   * integer column.
   *
   * @throws IllegalArgumentException naming the option and the column, never a value
   */
  public void check(TableSchema schema) {
    for (Feature f : encoder.features()) {
      ColumnType t = type(schema, f.name());
      if (f instanceof Feature.Numeric && !numeric(t)) {
        throw new IllegalArgumentException("--feature-bounds: feature " + f.name() + " is a "
            + t.name().toLowerCase(java.util.Locale.ROOT) + " column in the registered schema; a numeric"
            + " feature needs a number column (or give --feature-keys)");
      }
      if (f instanceof Feature.Categorical && !keyed(t)) {
        throw new IllegalArgumentException("--feature-keys: feature " + f.name() + " is a "
            + t.name().toLowerCase(java.util.Locale.ROOT) + " column; keys are matched on text, integer"
            + " or boolean columns only");
      }
    }
    ColumnType t = type(schema, label.column());
    if (label instanceof Label.Numeric && !numeric(t)) {
      throw new IllegalArgumentException("--label: " + label.column() + " is a "
          + t.name().toLowerCase(java.util.Locale.ROOT) + " column; linear regression needs a number column");
    }
    if (label instanceof Label.Binary && !keyed(t)) {
      throw new IllegalArgumentException("--label: " + label.column() + " is a "
          + t.name().toLowerCase(java.util.Locale.ROOT) + " column; a classifier's label must be a text,"
          + " integer or boolean column");
    }
  }

  private static boolean keyed(ColumnType t) {
    return t == ColumnType.STRING || t == ColumnType.INTEGER || t == ColumnType.BOOLEAN;
  }

  private static boolean numeric(ColumnType t) {
    return t == ColumnType.INTEGER || t == ColumnType.FLOATING || t == ColumnType.DECIMAL;
  }

  private static ColumnType type(TableSchema schema, String column) {
    return schema.column(column).orElseThrow(() -> new IllegalArgumentException("'" + column
        + "' is not a column of the dataset")).type();
  }

  // ---------------------------------------------------------------- SQL

  /** The encoded, bounded rows as common table expressions ending in {@code __k}. */
  String boundedRows(String from, TableSchema schema, SqlDialect d) {
    return boundedRows(from, schema, d, false, null);
  }

  /**
   * The encoded, bounded rows ({@code __k}: {@code __u} the unit, {@code __m} its kept rows,
   * {@code __c0..}, {@code __y}, {@code __w}); with {@code rowIds} and each row a unit, {@code __u}
   * is a number that differs between rows ({@link SqlDialect#distinctRowNumber}), and only rows
   * whose number satisfies {@code rowFilter} (a predicate on {@code __u}; null: every row) are
   * encoded.
   */
  String boundedRows(String from, TableSchema schema, SqlDialect d, boolean rowIds, String rowFilter) {
    check(schema);
    int dim = encoder.dimension();
    List<String> cols = new ArrayList<>();
    cols.add(d.bigint(Feature.ONE) + " AS __c0");
    int off = 1;
    for (Feature f : encoder.features()) {
      TableSchema.Column c = schema.column(f.name()).orElseThrow();
      if (f instanceof Feature.Numeric n) {
        cols.add(numeric(n, c, d) + " AS __c" + off);
      } else {
        List<String> keys = ((Feature.Categorical) f).keys();
        for (int k = 0; k < keys.size(); k++) {
          cols.add("CASE WHEN " + matches(c, keys.get(k), d) + " THEN " + d.bigint(Feature.ONE) + " ELSE "
              + d.bigint(0) + " END AS __c" + (off + k));
        }
      }
      off += f.width();
    }
    TableSchema.Column lc = schema.column(label.column()).orElseThrow();
    String y;
    if (label instanceof Label.Binary b) {
      y = "CASE WHEN " + matches(lc, b.positive(), d) + " THEN " + d.bigint(Feature.ONE) + " ELSE "
          + d.bigint(-Feature.ONE) + " END";
    } else {
      Label.Numeric n = (Label.Numeric) label;
      y = "(" + d.bigint(2) + " * " + numeric(new Feature.Numeric(n.column(), n.lower(), n.upper()), lc, d) + " - "
          + d.bigint(Feature.ONE) + ")";
    }
    cols.add(y + " AS __y");
    List<String> encoded = new ArrayList<>();
    for (int a = 0; a < dim; a++) {
      encoded.add("__c" + a);
    }
    encoded.add("__y");
    String all = String.join(", ", encoded);
    if (unit == null) {
      String rows = !rowIds ? from + " AS __s" : "(SELECT __s0.*, " + d.distinctRowNumber() + " AS __u FROM " + from
          + " AS __s0) AS __s" + (rowFilter == null ? "" : " WHERE " + rowFilter);
      return "WITH __e AS (SELECT " + (rowIds ? "__u, " : "") + String.join(", ", cols)
          + " FROM " + rows + "), __k AS (SELECT __e.*, " + d.bigint(1) + " AS __rn, " + d.bigint(1)
          + " AS __m, " + d.bigint(1) + " AS __w FROM __e)";
    }
    String u = d.quote(unit);
    return "WITH __e AS (SELECT " + u + " AS __u, " + String.join(", ", cols) + " FROM " + from + " AS __s),"
        + " __r AS (SELECT __e.*, ROW_NUMBER() OVER (PARTITION BY __u ORDER BY "
        + d.saltedHash(encoded, SALT) + ", " + all + ") AS __rn FROM __e),"
        + " __b AS (SELECT __r.*, COUNT(*) OVER (PARTITION BY __u) AS __m FROM __r WHERE __rn <= "
        + maxRowsPerUnit + "),"
        + " __k AS (SELECT __b.*, " + d.floorDiv("CAST(" + lcm + " AS " + d.wideInteger() + ")", "__m")
        + " AS __w FROM __b)";
  }

  /** The fixed-point encoding of a number column, as {@link Feature.Numeric#fixed}. */
  private static String numeric(Feature.Numeric n, TableSchema.Column c, SqlDialect d) {
    if (n.upper() == n.lower()) {
      return d.bigint(Feature.ONE / 2);
    }
    String x = d.asDouble(c);
    String clamped = "LEAST(GREATEST(" + x + ", " + d.dbl(n.lower()) + "), " + d.dbl(n.upper()) + ")";
    return "CASE WHEN " + x + " IS NULL OR " + d.isNaN(x) + " THEN " + d.bigint(Feature.ONE / 2) + " ELSE "
        + d.roundToBigint("((" + clamped + " - " + d.dbl(n.lower()) + ") / " + d.dbl(n.range()) + ") * "
            + d.dbl(Feature.ONE)) + " END";
  }

  /** Keys that name a boolean column's true value (as a registered CSV's {@code yes} reads). */
  static final java.util.Set<String> TRUE_TEXT = java.util.Set.of("true", "t", "yes", "y", "1");
  /** Keys that name its false value. */
  static final java.util.Set<String> FALSE_TEXT = java.util.Set.of("false", "f", "no", "n", "0");

  /** Whether a text, integer or boolean column equals a key (text: spaces trimmed; integer: canonical keys only). */
  private static String matches(TableSchema.Column c, String key, SqlDialect d) {
    if (c.type() == ColumnType.BOOLEAN) {
      String k = Feature.trimSpaces(key).toLowerCase(java.util.Locale.ROOT);
      if (TRUE_TEXT.contains(k)) {
        return d.quote(c.name()) + " = TRUE";
      }
      return FALSE_TEXT.contains(k) ? d.quote(c.name()) + " = FALSE" : "1 = 0";
    }
    if (c.type() == ColumnType.INTEGER) {
      try {
        long v = Long.parseLong(key);
        if (Long.toString(v).equals(key)) {
          return d.quote(c.name()) + " = " + d.bigint(v);
        }
      } catch (NumberFormatException e) {
        // a key that is not an integer's text matches no integer
      }
      return "1 = 0";
    }
    return "TRIM(" + d.quote(c.name()) + ") = " + d.string(key);
  }

  private String weighted(SqlDialect d, String... factors) {
    return d.exactSum("CAST(__w AS " + d.wideInteger() + ") * " + String.join(" * ", factors));
  }

  /** Runs the aggregate columns in statements of at most {@link #COLUMNS_PER_STATEMENT}. */
  private BigInteger[] sums(Backend backend, Source source, List<java.util.function.Function<SqlDialect, String>> cols) {
    BigInteger[] out = new BigInteger[cols.size()];
    for (int start = 0; start < cols.size(); start += COLUMNS_PER_STATEMENT) {
      int from = start;
      int to = Math.min(cols.size(), start + COLUMNS_PER_STATEMENT);
      backend.query(source, (sql, schema, d) -> {
        List<String> select = new ArrayList<>();
        for (int i = from; i < to; i++) {
          select.add(cols.get(i).apply(d) + " AS __x" + (i - from));
        }
        return boundedRows(sql, schema, d) + " SELECT " + String.join(", ", select) + " FROM __k";
      }, to - from, row -> {
        for (int i = from; i < to; i++) {
          String v = row[i - from];
          out[i] = v == null ? BigInteger.ZERO : new java.math.BigDecimal(v).toBigIntegerExact();
        }
      });
    }
    for (int i = 0; i < out.length; i++) {
      if (out[i] == null) {
        out[i] = BigInteger.ZERO;
      }
    }
    return out;
  }

  /** Whether coordinates a ≠ b are two keys of one categorical feature (their product is always 0). */
  private boolean structuralZero(int a, int b) {
    return a != b && featureOf[a] >= 0 && featureOf[a] == featureOf[b]
        && encoder.features().get(featureOf[a]) instanceof Feature.Categorical;
  }

  /** Σ w·u·uᵀ and Σ w·u·y on the backend. */
  public Gram gram(Backend backend, Source source) {
    int dim = encoder.dimension();
    List<java.util.function.Function<SqlDialect, String>> cols = new ArrayList<>();
    List<int[]> where = new ArrayList<>();
    for (int a = 0; a < dim; a++) {
      for (int b = a; b < dim; b++) {
        if (!structuralZero(a, b)) {
          String ca = "__c" + a;
          String cb = "__c" + b;
          cols.add(d -> weighted(d, ca, cb));
          where.add(new int[] {a, b});
        }
      }
    }
    for (int a = 0; a < dim; a++) {
      String ca = "__c" + a;
      cols.add(d -> weighted(d, ca, "__y"));
    }
    BigInteger[] s = sums(backend, source, cols);
    BigInteger[][] xtx = zeros(dim, dim);
    for (int i = 0; i < where.size(); i++) {
      xtx[where.get(i)[0]][where.get(i)[1]] = s[i];
      xtx[where.get(i)[1]][where.get(i)[0]] = s[i];
    }
    BigInteger[] xty = new BigInteger[dim];
    System.arraycopy(s, where.size(), xty, 0, dim);
    return new Gram(xtx, xty, lcm);
  }

  /** Per class (y &gt; 0 or not): Σ w, Σ w·u, Σ w·u² on the backend. */
  public ClassMoments classMoments(Backend backend, Source source) {
    int dim = encoder.dimension();
    List<java.util.function.Function<SqlDialect, String>> cols = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      String cond = c == 1 ? "__y > 0" : "__y <= 0";
      cols.add(d -> d.exactSum("CASE WHEN " + cond + " THEN CAST(__w AS " + d.wideInteger() + ") ELSE CAST(0 AS "
          + d.wideInteger() + ") END"));
      for (int a = 1; a < dim; a++) {
        String ca = "__c" + a;
        cols.add(d -> d.exactSum("CASE WHEN " + cond + " THEN CAST(__w AS " + d.wideInteger() + ") * " + ca
            + " ELSE CAST(0 AS " + d.wideInteger() + ") END"));
        cols.add(d -> d.exactSum("CASE WHEN " + cond + " THEN CAST(__w AS " + d.wideInteger() + ") * " + ca + " * "
            + ca + " ELSE CAST(0 AS " + d.wideInteger() + ") END"));
      }
    }
    BigInteger[] s = sums(backend, source, cols);
    BigInteger[] count = new BigInteger[2];
    BigInteger[][] sum = zeros(2, dim);
    BigInteger[][] sq = zeros(2, dim);
    int i = 0;
    for (int c = 0; c < 2; c++) {
      count[c] = s[i++];
      for (int a = 1; a < dim; a++) {
        sum[c][a] = s[i++];
        sq[c][a] = s[i++];
      }
    }
    return new ClassMoments(count, sum, sq, lcm);
  }

  /**
   * The bounded encoded rows, read through the backend into a training set (for iterative
   * methods), in a canonical order that depends on the kept rows only (rows sorted within a unit,
   * units sorted by their rows), so that every backend gives the same training set.
   */
  public TrainingSet rows(Backend backend, Source source) {
    int dim = encoder.dimension();
    List<List<long[]>> units = new ArrayList<>();
    backend.query(source, (sql, schema, d) -> {
      List<String> select = new ArrayList<>();
      select.add("__rn");
      for (int a = 0; a < dim; a++) {
        select.add("__c" + a);
      }
      select.add("__y");
      return boundedRows(sql, schema, d) + " SELECT " + String.join(", ", select) + " FROM __k"
          + (unit == null ? "" : " ORDER BY __u, __rn");
    }, dim + 2, row -> {
      if (Long.parseLong(row[0]) == 1 || units.isEmpty()) {
        units.add(new ArrayList<>(1));
      }
      long[] u = new long[dim + 1];
      for (int a = 0; a <= dim; a++) {
        u[a] = Long.parseLong(row[1 + a]);
      }
      units.get(units.size() - 1).add(u);
    });
    java.util.Comparator<long[]> rowOrder = java.util.Arrays::compare;
    units.forEach(rows -> rows.sort(rowOrder));
    units.sort((x, y) -> {
      for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
        int c = rowOrder.compare(x.get(i), y.get(i));
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(x.size(), y.size());
    });
    TrainingSet.Builder b = TrainingSet.builder(encoder, label, maxRowsPerUnit);
    for (int i = 0; i < units.size(); i++) {
      for (long[] r : units.get(i)) {
        b.addFixed(Integer.toString(i), java.util.Arrays.copyOf(r, dim), r[dim]);
      }
    }
    return b.build();
  }

  // ---------------------------------------------------------------- DP-SGD's steps

  /** The largest encoded dimension DP-SGD's per-step statement handles (result columns per statement). */
  public static final int MAX_SGD_DIMENSION = COLUMNS_PER_STATEMENT;

  /**
   * Refuses, from the public schema only, what DP-SGD's per-step statement does not handle: a
   * privacy-unit column other than text or integer (the keyed sample hashes the unit's canonical
   * text, which only these render alike and injectively on every backend) and more than {@value
   * #MAX_SGD_DIMENSION} encoded coordinates.
   *
   * @throws IllegalArgumentException naming the option and the column, never a value
   */
  public void checkDpSgd(TableSchema schema) {
    check(schema);
    if (encoder.dimension() > MAX_SGD_DIMENSION) {
      throw new IllegalArgumentException("--method dp-sgd: the features encode to " + encoder.dimension()
          + " coordinates; DP-SGD runs on the dataset's backend with at most " + MAX_SGD_DIMENSION);
    }
    if (unit != null) {
      ColumnType t = type(schema, unit);
      if (t != ColumnType.STRING && t != ColumnType.INTEGER) {
        throw new IllegalArgumentException("--method dp-sgd: the privacy-unit column " + unit + " is a "
            + t.name().toLowerCase(java.util.Locale.ROOT) + " column; DP-SGD samples units by a keyed hash of"
            + " their text, defined for text and integer unit columns");
      }
    }
  }

  /** s = scale·2^−K: a margin is (Σ θₐ·uₐ)·s, a coordinate of a unit's gradient Sₐ·s in units of 2^−K. */
  static double stepScale(FeatureEncoder encoder) {
    return Math.scalb(encoder.scale(), -Feature.GRID_BITS);
  }

  /**
   * Trains DP-SGD with one aggregate statement per step on {@code backend} (after the charge;
   * total): the statement samples units by a keyed hash of the step's secret salt, clips each
   * sampled unit's gradient and sums them on the fixed-point grid ({@link #clippedSumSql}); the
   * noise and the update are added in Java ({@link DpSgd}). docs/proofs/dp-models.md, "DP-SGD".
   */
  public Model dpSgd(DpSgd sgd, Backend backend, Source source, RandomSource random) {
    if (!(label instanceof Label.Binary b)) {
      throw new IllegalArgumentException("DP-SGD trains logistic regression: the label must be binary");
    }
    return sgd.train(encoder, b, (theta, salt) -> clippedSums(backend, source, sgd, theta, salt), random);
  }

  /**
   * One DP-SGD step's statement ({@link #clippedSumSql}) on {@code backend}: the exact sums, in
   * units of 2^−K, of the clipped gradients at {@code theta} of the units that {@code salt} samples
   * at {@code sgd}'s rate (no noise: curator-side; the release adds it).
   */
  public BigInteger[] clippedSums(Backend backend, Source source, DpSgd sgd, double[] theta, String salt) {
    int dim = encoder.dimension();
    if (theta.length != dim) {
      throw new IllegalArgumentException("theta has " + theta.length + " coordinates, expected " + dim);
    }
    String threshold = sgd.thresholdHex();
    double clipBound = sgd.clipBound();
    BigInteger[] out = new BigInteger[dim];
    java.util.Arrays.fill(out, BigInteger.ZERO);
    backend.query(source, (sql, schema, d) -> clippedSumSql(sql, schema, d, theta, salt, threshold, clipBound),
        dim, row -> {
          for (int a = 0; a < dim; a++) {
            out[a] = row[a] == null ? BigInteger.ZERO : new java.math.BigDecimal(row[a]).toBigIntegerExact();
          }
        });
    return out;
  }

  /**
   * {@link #clippedSums(Backend, Source, DpSgd, double[], String)} computed in Java from a training
   * set's kept rows (the reference of the tests and the audit): the same keyed sample, fixed-point
   * gradients, clip and truncation, in the same order of floating-point operations.
   *
   * @param unitTexts per unit of {@code set} (in its order), the unit's text as the statement
   *     casts it, or null for the NULL unit
   */
  public static BigInteger[] clippedSums(TrainingSet set, List<String> unitTexts, DpSgd sgd, double[] theta,
      String salt) {
    int dim = set.encoder().dimension();
    double s = stepScale(set.encoder());
    double s2 = Math.scalb(s, -Feature.GRID_BITS);
    double bound = sgd.clipBound();
    String threshold = sgd.thresholdHex();
    long t = threshold == null ? 0 : Long.parseUnsignedLong(threshold, 16);
    List<List<Integer>> rowsOf = new ArrayList<>();
    for (int u = 0; u < set.units; u++) {
      rowsOf.add(new ArrayList<>());
    }
    for (int i = 0; i < set.rows; i++) {
      rowsOf.get(set.unit[i]).add(i);
    }
    long[] sum = new long[dim];
    double[] terms = new double[dim];
    for (int u = 0; u < set.units; u++) {
      if (threshold != null && Long.compareUnsigned(firstDigestBits(salt, unitTexts.get(u)), t) >= 0) {
        continue;
      }
      long[] g = new long[dim];
      double m = rowsOf.get(u).size();
      for (int i : rowsOf.get(u)) {
        int[] idx = set.index.get(i);
        long[] fix = set.fixed.get(i);
        java.util.Arrays.fill(terms, 0.0);
        for (int k = 0; k < idx.length; k++) {
          terms[idx[k]] = theta[idx[k]] * (double) fix[k];
        }
        double dot = pairwiseSum(terms, 0, dim); // a zero coordinate's term is ±0: no value changes
        double z = set.yFixed[i] > 0 ? -(dot * s) : dot * s;
        double p = LogisticObjective.sigmoid(Math.min(DpSgd.MAX_EXPONENT, Math.max(-DpSgd.MAX_EXPONENT, z)));
        long c = (long) Math.rint(p / m * Feature.ONE);
        long q = set.yFixed[i] > 0 ? -c : c;
        for (int k = 0; k < idx.length; k++) {
          g[idx[k]] += q * fix[k];
        }
      }
      for (int a = 0; a < dim; a++) {
        terms[a] = (double) g[a] * (double) g[a];
      }
      double squares = pairwiseSum(terms, 0, dim);
      double norm = Math.sqrt(squares) * s2;
      double f = norm <= bound ? 1.0 : bound / norm;
      for (int a = 0; a < dim; a++) {
        double x = f * ((double) g[a] * s);
        sum[a] += x < 0 ? -(long) Math.floor(-x) : (long) Math.floor(x);
      }
    }
    BigInteger[] out = new BigInteger[dim];
    for (int a = 0; a < dim; a++) {
      out[a] = BigInteger.valueOf(sum[a]);
    }
    return out;
  }

  /** The first 64 bits of SHA-256(salt ‖ n ‖ ':' ‖ text), n its UTF-8 length; of salt ‖ 'n' for NULL. */
  static long firstDigestBits(String salt, String text) {
    byte[] t = text == null ? null : text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    String message = text == null ? salt + "n" : salt + t.length + ":" + text;
    try {
      byte[] h = java.security.MessageDigest.getInstance("SHA-256").digest(
          message.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.nio.ByteBuffer.wrap(h).getLong();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }

  /**
   * One DP-SGD step as one statement: the exact sums Σ over sampled units of Vₐ, Vₐ the unit's
   * clipped gradient coordinate truncated toward zero to the grid 2^−K ({@code __v0..}; NULL when
   * no unit is sampled). The steps, after the bounded rows {@code __k}:
   * <ol>
   *   <li>{@code __t}, {@code __z}: per row z = clamp(−y·(Σₐ θₐ·uₐ)·s, ±{@value DpSgd#MAX_EXPONENT}), the
   *       sum over every coordinate in pairwise order ({@link #pairwise}), s = {@link #stepScale};
   *   <li>{@code __q}: c = rint(σ(z)/m · 2^K) (σ as {@link LogisticObjective#sigmoid}, m the unit's kept
   *       rows), signed −c for y &gt; 0 and c otherwise;
   *   <li>{@code __g}: per unit (GROUP BY the unit, HAVING the unit is sampled; with each row a unit,
   *       per row, the rows filtered before they are encoded) Sₐ = Σ c·uₐ, exact integers below 2^45;
   *   <li>{@code __h}, {@code __l}, {@code __n}: Sₐ as DOUBLE (exact), ‖·‖ = sqrt(Σₐ Sₐ·Sₐ)·s·2^−K (pairwise),
   *       f = 1 if ‖·‖ ≤ C' else C'/‖·‖, C' = C·(1 − 2^−30);
   *   <li>{@code __x}: xₐ = f·(Sₐ·s), then Vₐ = sign(xₐ)·⌊|xₐ|⌋ and Σ Vₐ in the wide integer.
   * </ol>
   * A unit is sampled iff the first 16 hex digits of SHA-256(salt ‖ n ‖ ':' ‖ text) are below
   * {@code threshold} (n the decimal byte length of the unit's text; a NULL unit hashes salt ‖ 'n'):
   * always when {@code threshold} is null.
   */
  String clippedSumSql(String from, TableSchema schema, SqlDialect d, double[] theta, String salt, String threshold,
      double clipBound) {
    int dim = encoder.dimension();
    String dbl = d.doubleType();
    double s = stepScale(encoder);
    List<String> terms = new ArrayList<>();
    for (int a = 0; a < dim; a++) {
      terms.add("(" + d.dbl(theta[a]) + " * CAST(__c" + a + " AS " + dbl + "))");
    }
    String dot = pairwise(terms, 0, dim);
    String ys = "(__dot * " + d.dbl(s) + ")";
    String z = "CASE WHEN __y > 0 THEN -" + ys + " ELSE " + ys + " END";
    String max = d.dbl(DpSgd.MAX_EXPONENT);
    String one = d.dbl(1.0);
    List<String> c = new ArrayList<>();
    for (int a = 0; a < dim; a++) {
      c.add("__c" + a);
    }
    String cs = String.join(", ", c);
    String sampled = threshold == null ? null : sampled(d, "__u", salt, threshold);
    // each row a unit: only the sampled rows are encoded; units: the sample is decided per unit below
    StringBuilder q = new StringBuilder(boundedRows(from, schema, d, true, unit == null ? sampled : null));
    q.append(", __t AS (SELECT __u, __m, __y, ").append(cs).append(", ").append(dot).append(" AS __dot FROM __k)");
    q.append(", __z AS (SELECT __u, __m, __y, ").append(cs).append(", LEAST(GREATEST(").append(z).append(", -")
        .append(max).append("), ").append(max).append(") AS __z FROM __t)");
    q.append(", __p AS (SELECT __u, ").append(cs).append(", CASE WHEN __z >= 0 THEN ").append(one).append(" / (")
        .append(one).append(" + exp(-__z)) ELSE exp(__z) / (").append(one).append(" + exp(__z)) END AS __p,")
        .append(" __m, __y FROM __z)");
    String rounded = d.roundToBigint("(__p / CAST(__m AS " + dbl + ")) * " + d.dbl(Feature.ONE));
    q.append(", __q AS (SELECT __u, ").append(cs).append(", CASE WHEN __y > 0 THEN -").append(rounded)
        .append(" ELSE ").append(rounded).append(" END AS __q FROM __p)");
    List<String> g = new ArrayList<>();
    for (int a = 0; a < dim; a++) {
      g.add(unit == null ? "__q * __c" + a + " AS __g" + a : d.exactSum("__q * __c" + a) + " AS __g" + a);
    }
    q.append(", __g AS (SELECT ").append(String.join(", ", g)).append(" FROM __q");
    if (unit != null) {
      q.append(" GROUP BY __u").append(sampled == null ? "" : " HAVING " + sampled);
    }
    q.append(")");
    List<String> h = new ArrayList<>();
    List<String> sq = new ArrayList<>();
    for (int a = 0; a < dim; a++) {
      h.add("CAST(__g" + a + " AS " + dbl + ") AS __h" + a);
      sq.add("(__h" + a + " * __h" + a + ")");
    }
    String squares = pairwise(sq, 0, dim);
    q.append(", __h AS (SELECT ").append(String.join(", ", h)).append(" FROM __g)");
    q.append(", __l AS (SELECT __h.*, sqrt(").append(squares).append(") * ")
        .append(d.dbl(Math.scalb(s, -Feature.GRID_BITS))).append(" AS __nrm FROM __h)");
    String bound = d.dbl(clipBound);
    q.append(", __n AS (SELECT __l.*, CASE WHEN __nrm <= ").append(bound).append(" THEN ").append(one)
        .append(" ELSE ").append(bound).append(" / __nrm END AS __f FROM __l)");
    List<String> x = new ArrayList<>();
    List<String> v = new ArrayList<>();
    for (int a = 0; a < dim; a++) {
      x.add("__f * (__h" + a + " * " + d.dbl(s) + ") AS __x" + a);
      String xa = "__x" + a;
      v.add(d.exactSum("CAST(CASE WHEN " + xa + " < 0 THEN -CAST(FLOOR(-" + xa + ") AS BIGINT) ELSE CAST(FLOOR("
          + xa + ") AS BIGINT) END AS " + d.wideInteger() + ")") + " AS __v" + a);
    }
    q.append(", __x AS (SELECT ").append(String.join(", ", x)).append(" FROM __n)");
    q.append(" SELECT ").append(String.join(", ", v)).append(" FROM __x");
    return q.toString();
  }

  /**
   * The sum of {@code terms[lo..hi)} as a balanced tree (pairwise summation: the halves split at
   * (lo + hi)/2): the order {@link #pairwiseSum} follows in Java, and shallow enough that a
   * database plans it quickly.
   */
  private static String pairwise(List<String> terms, int lo, int hi) {
    if (hi - lo == 1) {
      return terms.get(lo);
    }
    int mid = (lo + hi) >>> 1;
    return "(" + pairwise(terms, lo, mid) + " + " + pairwise(terms, mid, hi) + ")";
  }

  /** Σ {@code x[lo..hi)} in the order of {@link #pairwise}. */
  static double pairwiseSum(double[] x, int lo, int hi) {
    if (hi - lo == 1) {
      return x[lo];
    }
    int mid = (lo + hi) >>> 1;
    return pairwiseSum(x, lo, mid) + pairwiseSum(x, mid, hi);
  }

  /** Whether the unit {@code u} is in the step's sample: its keyed digest's first 64 bits below the threshold. */
  private static String sampled(SqlDialect d, String u, String salt, String threshold) {
    String text = "CAST(" + u + " AS " + d.textType() + ")";
    String message = "CASE WHEN " + u + " IS NULL THEN " + d.string(salt + "n") + " ELSE " + d.string(salt)
        + " || CAST(" + d.octetLength(text) + " AS " + d.textType() + ") || ':' || " + text + " END";
    return "substr(" + d.sha256Hex(message) + ", 1, 16) < " + d.string(threshold);
  }

  // ---------------------------------------------------------------- the same in Java

  /** Each row's weight numerator lcm(1..L)/m, for m the kept rows of its unit in {@code set}. */
  private static long[] weights(TrainingSet set, long lcm) {
    int[] m = new int[set.units];
    for (int i = 0; i < set.rows; i++) {
      m[set.unit[i]]++;
    }
    long[] w = new long[set.rows];
    for (int i = 0; i < set.rows; i++) {
      w[i] = lcm / m[set.unit[i]];
    }
    return w;
  }

  /** {@link #gram(Backend, Source)} computed in Java from a training set's kept rows (exact). */
  public static Gram gram(TrainingSet set) {
    int dim = set.encoder().dimension();
    long lcm = lcmOf(set);
    BigInteger[][] xtx = zeros(dim, dim);
    BigInteger[] xty = zeros(1, dim)[0];
    long[] w = weights(set, lcm);
    for (int i = 0; i < set.rows; i++) {
      int[] idx = set.index.get(i);
      long[] u = set.fixed.get(i);
      BigInteger wi = BigInteger.valueOf(w[i]);
      for (int a = 0; a < idx.length; a++) {
        BigInteger wa = wi.multiply(BigInteger.valueOf(u[a]));
        xty[idx[a]] = xty[idx[a]].add(wa.multiply(BigInteger.valueOf(set.yFixed[i])));
        for (int c = 0; c < idx.length; c++) {
          xtx[idx[a]][idx[c]] = xtx[idx[a]][idx[c]].add(wa.multiply(BigInteger.valueOf(u[c])));
        }
      }
    }
    return new Gram(xtx, xty, lcm);
  }

  /** {@link #classMoments(Backend, Source)} computed in Java from a training set's kept rows (exact). */
  public static ClassMoments classMoments(TrainingSet set) {
    int dim = set.encoder().dimension();
    long lcm = lcmOf(set);
    BigInteger[] count = {BigInteger.ZERO, BigInteger.ZERO};
    BigInteger[][] sum = zeros(2, dim);
    BigInteger[][] sq = zeros(2, dim);
    long[] w = weights(set, lcm);
    for (int i = 0; i < set.rows; i++) {
      int c = set.yFixed[i] > 0 ? 1 : 0;
      BigInteger wi = BigInteger.valueOf(w[i]);
      count[c] = count[c].add(wi);
      int[] idx = set.index.get(i);
      long[] u = set.fixed.get(i);
      for (int a = 0; a < idx.length; a++) {
        if (idx[a] == 0) {
          continue;
        }
        BigInteger wu = wi.multiply(BigInteger.valueOf(u[a]));
        sum[c][idx[a]] = sum[c][idx[a]].add(wu);
        sq[c][idx[a]] = sq[c][idx[a]].add(wu.multiply(BigInteger.valueOf(u[a])));
      }
    }
    return new ClassMoments(count, sum, sq, lcm);
  }

  private static long lcmOf(TrainingSet set) {
    if (set.maxRowsPerUnit() > MAX_ROWS_PER_UNIT) {
      throw new IllegalArgumentException("--max-rows-per-unit must be in [1, " + MAX_ROWS_PER_UNIT + "], was "
          + set.maxRowsPerUnit());
    }
    return lcm(set.maxRowsPerUnit());
  }

  private static BigInteger[][] zeros(int r, int c) {
    BigInteger[][] z = new BigInteger[r][c];
    for (BigInteger[] row : z) {
      java.util.Arrays.fill(row, BigInteger.ZERO);
    }
    return z;
  }

  static double toDouble(BigInteger v, int twoPower, double factor, long denominator) {
    return Math.scalb(new java.math.BigDecimal(v).doubleValue(), -twoPower) * factor / denominator;
  }

  /**
   * Exact Σ w·u·uᵀ (symmetric) and Σ w·u·y, in units of 2^−2K and weight 1/{@code denominator}.
   * Equal statistics are equal objects.
   */
  public record Gram(BigInteger[][] xtx, BigInteger[] xty, long denominator) {
    /** XᵀX in the encoding's units (scale² applied). */
    double[][] xtxDouble(double scale) {
      int d = xty.length;
      double[][] out = new double[d][d];
      for (int a = 0; a < d; a++) {
        for (int b = 0; b < d; b++) {
          out[a][b] = toDouble(xtx[a][b], 2 * Feature.GRID_BITS, scale * scale, denominator);
        }
      }
      return out;
    }

    /** Xᵀy in the encoding's units. */
    double[] xtyDouble(double scale) {
      double[] out = new double[xty.length];
      for (int a = 0; a < xty.length; a++) {
        out[a] = toDouble(xty[a], 2 * Feature.GRID_BITS, scale, denominator);
      }
      return out;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Gram g && java.util.Arrays.deepEquals(xtx, g.xtx) && java.util.Arrays.equals(xty, g.xty)
          && denominator == g.denominator;
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.deepHashCode(xtx) * 31 + java.util.Arrays.hashCode(xty);
    }

    @Override
    public String toString() {
      return "Gram" + java.util.Arrays.deepToString(xtx) + java.util.Arrays.toString(xty) + "/" + denominator;
    }
  }

  /** Exact per-class Σ w, Σ w·u, Σ w·u² (class 0 negative, 1 positive), weights over {@code denominator}. */
  public record ClassMoments(BigInteger[] count, BigInteger[][] sum, BigInteger[][] sumSquares, long denominator) {
    @Override
    public boolean equals(Object o) {
      return o instanceof ClassMoments m && java.util.Arrays.equals(count, m.count)
          && java.util.Arrays.deepEquals(sum, m.sum) && java.util.Arrays.deepEquals(sumSquares, m.sumSquares)
          && denominator == m.denominator;
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(count) * 31 + java.util.Arrays.deepHashCode(sum);
    }

    @Override
    public String toString() {
      return "ClassMoments" + java.util.Arrays.toString(count) + java.util.Arrays.deepToString(sum)
          + java.util.Arrays.deepToString(sumSquares) + "/" + denominator;
    }
  }
}
