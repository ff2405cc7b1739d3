package org.privet.anonymity.attacks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.privet.anonymity.GeneralizedTable;
import org.privet.anonymity.Microdata;
import org.privet.anonymity.Mondrian;
import org.privet.anonymity.TableReader;
import org.privet.engine.Source;
import org.privet.random.RandomSource;
import org.privet.synth.Domain;

/**
 * The attacks' experiments on the bundled UCI Adult data (Kohavi &amp; Becker 1996; UCI Machine
 * Learning Repository, doi:10.24432/C5XW20, CC BY 4.0): {@code data/adult-raw} (the original
 * files) and {@code data/adult-pgm} (the integer-coded version with its public domain, as used by
 * Private-PGM and AIM). Every table is read through DuckDB.
 */
public final class AdultAttacks {
  /** The columns of adult-raw's adult.data, in order (it has no header). */
  public static final List<String> RAW_COLUMNS = List.of("age", "workclass", "fnlwgt", "education",
      "education_num", "marital_status", "occupation", "relationship", "race", "sex",
      "capital_gain", "capital_loss", "hours_per_week", "native_country", "income");

  /** Quasi-identifiers of the linkage attack (adult-pgm names): what a census-like register holds. */
  public static final List<String> LINKAGE_QIS = List.of("age", "sex", "race", "marital-status",
      "education-num", "native-country");
  /** The linkage attack's sensitive column. */
  public static final String LINKAGE_SENSITIVE = "income>50K";
  private static final List<String> CATEGORICAL = List.of("sex", "race", "marital-status", "native-country");

  /** The k values of the k-anonymous releases. */
  public static final int[] KS = {2, 5, 10};

  private final Path data;

  /** @param data the folder holding adult-raw and adult-pgm */
  public AdultAttacks(Path data) {
    this.data = data;
  }

  /** The bundled data folder, found by walking up from {@code start}. */
  public static Path locate(Path start) throws IOException {
    for (Path p = start.toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("data/adult-raw/adult.data"))
          && Files.isRegularFile(p.resolve("data/adult-pgm/adult.csv"))) {
        return p.resolve("data");
      }
    }
    throw new java.nio.file.NoSuchFileException("data/adult-raw and data/adult-pgm", null,
        "not found above " + start + "; pass --data DIR");
  }

  /** adult-raw's adult.data (32,561 rows) through DuckDB. */
  public Microdata raw(List<String> columns) {
    return TableReader.read(Source.csv(data.resolve("adult-raw/adult.data")).withoutHeader(RAW_COLUMNS)
        .withDelimiter(", ").withNullString("?"), columns, "columns");
  }

  /** adult-pgm's adult.csv (48,842 integer-coded rows) through DuckDB. */
  public Microdata coded(List<String> columns) {
    return TableReader.read(Source.csv(data.resolve("adult-pgm/adult.csv")), columns, "columns");
  }

  /**
   * Attack 1 on adult-pgm: the raw release, Mondrian releases at k = 2, 5, 10, and an AIM synthetic
   * release at (ε, δ), each joined with the register of all 48,842 people.
   */
  public List<LinkageAttack.Outcome> linkage(double epsilon, double delta, RandomSource random,
      Consumer<String> progress) throws IOException {
    List<String> cols = new ArrayList<>(LINKAGE_QIS);
    cols.add(LINKAGE_SENSITIVE);
    Microdata codes = coded(cols);
    Microdata people = codes.withCategorical(CATEGORICAL);
    List<LinkageAttack.Outcome> out = new ArrayList<>();
    progress.accept("linkage: raw release");
    out.add(LinkageAttack.run("raw", "none", people,
        GeneralizedTable.fromMicrodata(people, LINKAGE_QIS, LINKAGE_SENSITIVE), LINKAGE_SENSITIVE));
    for (int k : KS) {
      progress.accept("linkage: Mondrian k = " + k);
      out.add(LinkageAttack.run("k-anonymous k=" + k, "none (k-anonymity)", people,
          new Mondrian(k, 1).anonymize(people, LINKAGE_QIS, LINKAGE_SENSITIVE), LINKAGE_SENSITIVE));
    }
    progress.accept("linkage: AIM synthetic data at epsilon = " + epsilon);
    AimRelease.Release aim = AimRelease.synthesize(codes, cols, Domain.load(data.resolve("adult-pgm/adult-domain.json")),
        epsilon, delta, random, progress);
    Microdata synthetic = aim.synthetic().withCategorical(CATEGORICAL);
    out.add(LinkageAttack.run("AIM synthetic", String.format(java.util.Locale.ROOT, "(%s, %.0e)-DP",
            HtmlReport.number(epsilon), delta), people,
        GeneralizedTable.fromMicrodata(synthetic, LINKAGE_QIS, LINKAGE_SENSITIVE), LINKAGE_SENSITIVE));
    return out;
  }

  /** The homogeneity experiment: income behind a census-like register's quasi-identifiers. */
  public static final List<String> HOMOGENEITY_QIS = List.of("age", "sex", "race", "marital_status", "native_country");
  /** The background-knowledge experiment: occupation behind job-market quasi-identifiers. */
  public static final List<String> BACKGROUND_QIS = List.of("age", "sex", "race", "education", "workclass");

  /**
   * Attack 2 on adult-raw, Mondrian at k: income (two values) at ℓ = 1, 2 without background
   * knowledge; occupation at ℓ = 1, 2, 3 without, and ruling out max(1, ℓ − 1) wrong values.
   */
  public List<HomogeneityAttack.Outcome> homogeneity(int k) {
    List<HomogeneityAttack.Outcome> out = new ArrayList<>();
    attack2(out, k, HOMOGENEITY_QIS, "income", 2, false);
    attack2(out, k, BACKGROUND_QIS, "occupation", 3, true);
    return out;
  }

  private void attack2(List<HomogeneityAttack.Outcome> out, int k, List<String> qis, String sensitive, int maxL,
      boolean background) {
    List<String> cols = new ArrayList<>(qis);
    cols.add(sensitive);
    Microdata people = raw(cols);
    for (int l = 1; l <= maxL; l++) {
      GeneralizedTable t = new Mondrian(k, l).anonymize(people, qis, sensitive);
      String name = sensitive + ", k=" + k + (l > 1 ? ", l=" + l : "");
      out.add(HomogeneityAttack.run(name, t, 0));
      if (background) {
        out.add(HomogeneityAttack.run(name, t, Math.max(1, l - 1)));
      }
    }
  }

  /**
   * Attack 5 on adult-pgm: all 14 attributes one-hot over their public domain; pools of {@code
   * pool} people; the attacker's reference frequencies are the whole population's.
   */
  public MembershipAttack.Outcome membership(int pool, double epsilon, int trials, RandomSource random)
      throws IOException {
    Domain domain = Domain.load(data.resolve("adult-pgm/adult-domain.json"));
    List<String> names = domain.attributes().stream().map(org.privet.synth.Attribute::name).toList();
    Microdata codes = coded(names);
    int[] offset = new int[names.size() + 1];
    for (int a = 0; a < names.size(); a++) {
      offset[a + 1] = offset[a] + domain.cardinality(a);
    }
    int d = offset[names.size()];
    byte[][] oneHot = new byte[codes.rows()][d];
    double[] reference = new double[d];
    for (int a = 0; a < names.size(); a++) {
      double[] v = codes.column("columns", names.get(a)).numbers();
      for (int r = 0; r < v.length; r++) {
        oneHot[r][offset[a] + (int) v[r]] = 1;
        reference[offset[a] + (int) v[r]] += 1.0 / v.length;
      }
    }
    return MembershipAttack.run(oneHot, reference, names.size(), pool, epsilon, trials, random);
  }

  /** Attack 3 on adult-raw's hours_per_week (clamped to [0, 100] by the DP curator). */
  public DifferencingAttack.Outcome differencing(double epsilon, int trials, RandomSource random, Path workspace,
      Consumer<String> progress) {
    double[] hours = raw(List.of("hours_per_week")).column("columns", "hours_per_week").numbers();
    return DifferencingAttack.run("hours_per_week", hours, 0, 100, epsilon, trials, random, workspace, progress);
  }

  /** Attack 4 on adult-raw's income &gt; 50K bit of the first {@code n} people. */
  public ReconstructionAttack.Outcome reconstruction(int n, int[] queries, double epsilon, int k,
      RandomSource random) {
    String[] income = raw(List.of("income")).column("columns", "income").labels();
    boolean[] secret = new boolean[Math.min(n, income.length)];
    for (int i = 0; i < secret.length; i++) {
      secret[i] = income[i].startsWith(">");
    }
    return ReconstructionAttack.run(secret, queries, epsilon, k, random);
  }
}
