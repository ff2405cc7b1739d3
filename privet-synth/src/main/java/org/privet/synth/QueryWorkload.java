package org.privet.synth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privet.random.RandomSource;

/**
 * A workload of mixed query classes read from a text file, for evaluating a synthetic table
 * against the real one (issue 14 §4). One query a line; {@code #} starts a comment:
 *
 * <pre>
 * marginal age,sex,income          # the normalized marginal; error: L1 distance (0..2)
 * count sex=Female income=1        # the fraction of rows matching a conjunction; error: |difference|
 * mean hours | sex=Female age=3    # a conditional average of a numeric or coded column over the
 *                                  # rows matching a conjunction; error: |difference|
 * </pre>
 *
 * <p>Values are written as in the table's CSV (the categorical value, the code, or a number inside
 * a numeric attribute's bin). {@code mean} averages the written values (a numeric attribute's bin
 * midpoints, a coded attribute's codes). A conditional average over no matching row is undefined
 * and counted separately. Non-private: an evaluation tool for the data owner.
 *
 * @param queries the queries, in file order
 */
public record QueryWorkload(List<Query> queries) {

  public QueryWorkload {
    queries = List.copyOf(queries);
    if (queries.isEmpty()) {
      throw new IllegalArgumentException("workload file must hold at least one query");
    }
  }

  /** The query classes. */
  public enum Kind {
    MARGINAL, COUNT, MEAN
  }

  /**
   * One query.
   *
   * @param kind its class
   * @param text the line it was read from
   * @param attrs a marginal's attributes (sorted), or the conjunction's attributes
   * @param codes the conjunction's codes (empty for a marginal)
   * @param target a mean's column (−1 otherwise)
   */
  public record Query(Kind kind, String text, int[] attrs, int[] codes, int target) {}

  /**
   * The marginals this workload reads: each marginal query, and for a count or a mean the marginal
   * over its conjunction's attributes (and the averaged column). What AIM, MST and MWEM preserve
   * when given a query file.
   */
  public Workload marginalWorkload() {
    var seen = new LinkedHashMap<String, int[]>();
    for (Query q : queries) {
      int[] attrs = q.target() >= 0 ? Arrays.copyOf(q.attrs(), q.attrs().length + 1) : q.attrs().clone();
      if (q.target() >= 0) {
        attrs[attrs.length - 1] = q.target();
      }
      attrs = Arrays.stream(attrs).sorted().distinct().toArray();
      if (attrs.length > 0) {
        seen.putIfAbsent(Arrays.toString(attrs), attrs);
      }
    }
    if (seen.isEmpty()) {
      throw new IllegalArgumentException("workload file: no query reads an attribute");
    }
    return new Workload(List.copyOf(seen.values()));
  }

  /** The value each code of a numeric or coded attribute stands for (bin midpoint, or the code). */
  static double[] values(Attribute a) {
    double[] value = new double[a.size()];
    for (int c = 0; c < value.length; c++) {
      value[c] = Double.parseDouble(a.decode(c));
    }
    return value;
  }

  /**
   * Reads a workload file against a domain.
   *
   * @throws IllegalArgumentException naming the line of a malformed query (the file is public)
   */
  public static QueryWorkload read(Path file, Domain domain) throws IOException {
    var out = new ArrayList<Query>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int hash = line.indexOf('#');
      String text = (hash >= 0 ? line.substring(0, hash) : line).strip();
      if (!text.isEmpty()) {
        out.add(parse(text, domain, "workload file line " + (i + 1)));
      }
    }
    return new QueryWorkload(out);
  }

  /**
   * Parses queries given one per string (the file's syntax, without comments), e.g. from a JSON
   * request; errors name {@code parameter[i]} (0-based) and never a data value.
   *
   * @throws IllegalArgumentException if the list is empty or a query is malformed
   */
  public static QueryWorkload of(List<String> queries, Domain domain, String parameter) {
    if (queries.isEmpty()) {
      throw new IllegalArgumentException(parameter + ": at least one query is required");
    }
    var out = new ArrayList<Query>();
    for (int i = 0; i < queries.size(); i++) {
      String text = queries.get(i) == null ? "" : queries.get(i).strip();
      String where = parameter + "[" + i + "]";
      if (text.isEmpty()) {
        throw new IllegalArgumentException(where + ": empty query");
      }
      out.add(parse(text, domain, where));
    }
    return new QueryWorkload(out);
  }

  static Query parse(String text, Domain domain, String where) {
    String[] head = text.split("\\s+", 2);
    String rest = head.length > 1 ? head[1].strip() : "";
    switch (head[0].toLowerCase(Locale.ROOT)) {
      case "marginal" -> {
        int[] attrs = Arrays.stream(rest.split(",")).map(String::strip)
            .mapToInt(n -> index(domain, n, where)).sorted().distinct().toArray();
        return new Query(Kind.MARGINAL, text, attrs, new int[0], -1);
      }
      case "count" -> {
        int[][] conj = conjunction(rest, domain, where);
        return new Query(Kind.COUNT, text, conj[0], conj[1], -1);
      }
      case "mean" -> {
        int bar = rest.indexOf('|');
        if (bar < 0) {
          throw new IllegalArgumentException(where + ": mean needs 'COLUMN | CONDITIONS'");
        }
        int target = index(domain, rest.substring(0, bar).strip(), where);
        if (domain.attribute(target).kind() == Attribute.Kind.CATEGORICAL) {
          throw new IllegalArgumentException(where + ": mean of categorical attribute '"
              + domain.attribute(target).name() + "'");
        }
        int[][] conj = conjunction(rest.substring(bar + 1), domain, where);
        for (int a : conj[0]) {
          if (a == target) {
            throw new IllegalArgumentException(where + ": the averaged column may not appear in its own condition");
          }
        }
        return new Query(Kind.MEAN, text, conj[0], conj[1], target);
      }
      default -> throw new IllegalArgumentException(where + ": a query starts with marginal, count or mean");
    }
  }

  private static int[][] conjunction(String text, Domain domain, String where) {
    String[] parts = text.strip().isEmpty() ? new String[0] : text.strip().split("\\s+");
    int[] attrs = new int[parts.length];
    int[] codes = new int[parts.length];
    for (int j = 0; j < parts.length; j++) {
      int eq = parts[j].indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(where + ": a condition looks like COLUMN=VALUE");
      }
      attrs[j] = index(domain, parts[j].substring(0, eq), where);
      for (int i = 0; i < j; i++) {
        if (attrs[i] == attrs[j]) {
          throw new IllegalArgumentException(where + ": attribute '" + domain.attribute(attrs[j]).name()
              + "' appears twice in a conjunction");
        }
      }
      codes[j] = domain.attribute(attrs[j]).encode(parts[j].substring(eq + 1));
      if (codes[j] < 0) {
        throw new IllegalArgumentException(where + ": value of '" + domain.attribute(attrs[j]).name()
            + "' is not in its domain");
      }
    }
    return new int[][] {attrs, codes};
  }

  private static int index(Domain domain, String name, String where) {
    return domain.indexOf(name).orElseThrow(() -> new IllegalArgumentException(where + ": no attribute '"
        + name + "' in the domain"));
  }

  /**
   * Errors of one query class.
   *
   * @param kind the class
   * @param queries how many queries of the class the workload holds
   * @param max the largest error (NaN if none defined)
   * @param mean the mean error over defined queries (NaN if none)
   * @param undefined conditional averages whose condition matches no row of one of the tables
   */
  public record ClassError(Kind kind, int queries, double max, double mean, int undefined) {}

  /** The per-class errors of {@code synthetic} against {@code real} (same domain). */
  public Map<Kind, ClassError> evaluate(Table real, Table synthetic) {
    if (!real.domain().equals(synthetic.domain())) {
      throw new IllegalArgumentException("synthetic: domain differs from the real table's domain");
    }
    Map<Kind, List<Double>> errors = new LinkedHashMap<>();
    Map<Kind, int[]> counts = new LinkedHashMap<>();
    for (Query q : queries) {
      counts.computeIfAbsent(q.kind(), k -> new int[2])[0]++;
      double e = error(q, real, synthetic);
      if (Double.isNaN(e)) {
        counts.get(q.kind())[1]++;
      } else {
        errors.computeIfAbsent(q.kind(), k -> new ArrayList<>()).add(e);
      }
    }
    Map<Kind, ClassError> out = new LinkedHashMap<>();
    counts.forEach((kind, c) -> {
      List<Double> es = errors.getOrDefault(kind, List.of());
      double max = es.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
      double mean = es.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
      out.put(kind, new ClassError(kind, c[0], max, mean, c[1]));
    });
    return out;
  }

  private static double error(Query q, Table real, Table syn) {
    return switch (q.kind()) {
      case MARGINAL -> WorkloadError.l1(real.marginal(q.attrs()), Math.max(1, real.rows()), syn.marginal(q.attrs()),
          Math.max(1, syn.rows()));
      case COUNT -> Math.abs(stats(q, real)[0] / Math.max(1, real.rows()) - stats(q, syn)[0] / Math.max(1, syn.rows()));
      case MEAN -> {
        double[] r = stats(q, real);
        double[] s = stats(q, syn);
        yield r[0] == 0 || s[0] == 0 ? Double.NaN : Math.abs(r[1] / r[0] - s[1] / s[0]);
      }
    };
  }

  /** Rows matching the conjunction, and the sum of the target's written values over them. */
  private static double[] stats(Query q, Table t) {
    int[][] cols = t.columnsShared();
    Attribute target = q.target() >= 0 ? t.domain().attribute(q.target()) : null;
    double[] value = target == null ? null : values(target);
    double n = 0;
    double sum = 0;
    rows:
    for (int i = 0; i < t.rows(); i++) {
      for (int j = 0; j < q.attrs().length; j++) {
        if (cols[q.attrs()[j]][i] != q.codes()[j]) {
          continue rows;
        }
      }
      n++;
      if (value != null) {
        sum += value[cols[q.target()][i]];
      }
    }
    return new double[] {n, sum};
  }

  /**
   * A non-private reference table of the same size: every column drawn independently from its
   * exact 1-way marginal (the "independent baseline"), by systematic sampling.
   */
  public static Table independentBaseline(Table real, RandomSource random) {
    int d = real.domain().size();
    int[][] cols = new int[d][];
    for (int a = 0; a < d; a++) {
      cols[a] = GraphicalModel.allocate(real.marginal(new int[] {a}), real.rows(), random);
    }
    return Table.trusted(real.domain(), cols);
  }

  /** A non-private bootstrap resample of the real table: the floor for any table of its size. */
  public static Table bootstrap(Table real, RandomSource random) {
    int d = real.domain().size();
    int n = real.rows();
    int[][] in = real.columnsShared();
    int[][] cols = new int[d][n];
    for (int i = 0; i < n; i++) {
      int pick = (int) random.nextLong(n);
      for (int a = 0; a < d; a++) {
        cols[a][i] = in[a][pick];
      }
    }
    return Table.trusted(real.domain(), cols);
  }
}
