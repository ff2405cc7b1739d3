package org.privet.anonymity.attacks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.privet.accounting.ApproxDp;
import org.privet.random.RandomSource;

/**
 * Attack 6, the Netflix Prize: Narayanan &amp; Shmatikov, "Robust de-anonymization of large sparse
 * datasets", IEEE Symposium on Security and Privacy 2008. A handful of approximately known ratings
 * singles a record out of a sparse table, where no quasi-identifier exists.
 *
 * <p><b>Data.</b> A synthetic sparse ratings table ({@link SparseRatings#generate}: heavy-tailed
 * item popularity and user activity, a long tail of rarely rated items); the Netflix data cannot be
 * shipped. Targets are {@link #targets} people of the table (members) and as many people drawn from
 * the same model but left out of it (non-members).
 *
 * <p><b>Auxiliary information</b> (the paper's Netflix experiments): K of the target's ratings, W
 * of them wrong. A right one is one of the target's items with the stars off by at most one and the
 * date off by at most D days; a wrong one is an item the target never rated (drawn as often as the
 * table rates it), with random stars and date.
 *
 * <p><b>Releases.</b> <em>Anonymized</em>, as the Prize was: records under random ids, 5% of the
 * ratings deleted, 5% given other stars, 10% moved by up to a week, and 3% alternative ratings
 * inserted. <em>DP</em>: the user-level ε-DP synthetic table of {@link DpRatingsRelease}.
 *
 * <p><b>Attack</b>: {@link ScoreboardRh} (rarity-weighted score, eccentricity test with φ = 1.5,
 * abstain otherwise). <b>Scoring</b> follows the paper's Definition 1: the attack
 * <em>re-identifies</em> the target when the record it names has similarity at least θ = ½ with the
 * target's true record (stars within one, dates within 14 days, over the union of their items); it
 * is <em>wrong</em> when it names any other record; it <em>abstains</em> otherwise. On the
 * anonymized release only the target's own record comes close to θ. <b>Chance</b> is the
 * re-identification rate of the same attack for non-members: the release is independent of them, so
 * whatever it finds is coincidence. A DP release keeps members there: for each member, the release
 * from the table without them is a neighbour, in which they are exchangeable with a non-member, so
 * ε-DP bounds their rate by e^ε·chance (docs/proofs/attack-bounds.md).
 */
public final class NetflixAttack {
  /** The paper's success threshold θ on the similarity of the named record to the target's. */
  static final double THETA = 0.5;

  /** Date tolerance of the success criterion, in days. */
  static final int SUCCESS_DAYS = 14;

  /** The Ks of the sweep. */
  public static final int[] SWEEP = {2, 3, 4, 5, 6, 7, 8};

  private NetflixAttack() {}

  /**
   * Shares of the targets re-identified, wrongly named and abstained on, out of {@code targets}.
   */
  public record Shares(int targets, int reidentifiedCount, int wrongCount, int abstainedCount) {
    public double reidentified() {
      return reidentifiedCount / (double) targets;
    }

    public double wrong() {
      return wrongCount / (double) targets;
    }

    public double abstained() {
      return abstainedCount / (double) targets;
    }
  }

  /**
   * One setting of the attacker's knowledge: K known ratings, W wrong. Members and non-members
   * against the anonymized and the DP release.
   */
  public record Row(
      int known,
      int wrongRatings,
      Shares anonymized,
      Shares anonymizedNonMembers,
      Shares dp,
      Shares dpNonMembers) {

    /** Chance on the DP release: the non-members' re-identification rate. */
    public double chance() {
      return dpNonMembers.reidentified();
    }
  }

  /** The whole experiment. {@code given} is the row of the K and W asked for. */
  public record Outcome(
      int users,
      int items,
      long ratings,
      int dpRecords,
      int days,
      double epsilon,
      ApproxDp spent,
      List<Row> sweep,
      Row given) {}

  /** Targets per setting: 500, or half the users if fewer. */
  static int targets(int users) {
    return Math.max(1, Math.min(500, users / 2));
  }

  /**
   * Runs the experiment on a fresh synthetic table of {@code users} people.
   *
   * @param known K of the row asked for (the sweep is K = 2 … 8 with W scaled to ⌊K·W/known⌋)
   * @param wrong W
   * @param days D, the attacker's date error (and the score's tolerance)
   * @param epsilon the DP release's ε
   */
  public static Outcome run(
      int users,
      int known,
      int wrong,
      int days,
      double epsilon,
      RandomSource random,
      Consumer<String> progress) {
    if (users < 20
        || known < 1
        || wrong < 0
        || wrong >= known
        || days < 0
        || !(epsilon > 0)
        || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException(
          "netflix: need users >= 20, 0 <= wrong < known, days >= 0 and a positive"
              + " finite epsilon");
    }
    int t = targets(users);
    progress.accept("netflix: generating " + users + " synthetic users");
    SparseRatings all = SparseRatings.generate(users, t, random);
    SparseRatings table = all.slice(0, users);
    SparseRatings outsiders = all.slice(users, users + t);
    int[] members = java.util.Arrays.copyOf(SparseRatings.permutation(users, random), t);
    progress.accept("netflix: the anonymized (Prize-style) release");
    SparseRatings anonymized = prizeRelease(table, random);
    progress.accept("netflix: the DP synthetic release at epsilon = " + HtmlReport.number(epsilon));
    DpRatingsRelease.Release dp = DpRatingsRelease.synthesize(table, epsilon, random);
    ScoreboardRh anonBoard = new ScoreboardRh(anonymized);
    ScoreboardRh dpBoard = new ScoreboardRh(dp.synthetic());
    long[] itemDraw = cumulativeSupports(table);
    BiFunction<Integer, Integer, Row> at =
        (k, w) ->
            row(k, w, days, table, members, outsiders, anonymized, anonBoard, dp.synthetic(),
                dpBoard, itemDraw, random);
    List<Row> sweep = new ArrayList<>();
    Row given = null;
    for (int k : SWEEP) {
      int w = k * wrong / known;
      progress.accept("netflix: K = " + k + ", W = " + w);
      Row row = at.apply(k, w);
      sweep.add(row);
      if (k == known && w == wrong) {
        given = row;
      }
    }
    if (given == null) {
      given = at.apply(known, wrong);
    }
    return new Outcome(
        users,
        table.itemCount(),
        table.ratings(),
        dp.synthetic().users(),
        days,
        epsilon,
        dp.spent(),
        List.copyOf(sweep),
        given);
  }

  private static Row row(
      int k,
      int w,
      int days,
      SparseRatings table,
      int[] members,
      SparseRatings outsiders,
      SparseRatings anonymized,
      ScoreboardRh anonBoard,
      SparseRatings dp,
      ScoreboardRh dpBoard,
      long[] itemDraw,
      RandomSource random) {
    int[][] counts = new int[4][3];
    for (int m : members) {
      ScoreboardRh.Known[] aux = aux(table, m, k, w, days, itemDraw, random);
      tally(counts[0], anonBoard.decide(aux, days, ScoreboardRh.PHI), table, m, anonymized);
      tally(counts[2], dpBoard.decide(aux, days, ScoreboardRh.PHI), table, m, dp);
    }
    for (int o = 0; o < outsiders.users(); o++) {
      ScoreboardRh.Known[] aux = aux(outsiders, o, k, w, days, itemDraw, random);
      tally(counts[1], anonBoard.decide(aux, days, ScoreboardRh.PHI), outsiders, o, anonymized);
      tally(counts[3], dpBoard.decide(aux, days, ScoreboardRh.PHI), outsiders, o, dp);
    }
    Shares[] s = new Shares[4];
    for (int i = 0; i < 4; i++) {
      int n = i % 2 == 0 ? members.length : outsiders.users();
      s[i] = new Shares(n, counts[i][0], counts[i][1], counts[i][2]);
    }
    return new Row(k, w, s[0], s[1], s[2], s[3]);
  }

  private static void tally(
      int[] counts,
      ScoreboardRh.Decision d,
      SparseRatings truth,
      int target,
      SparseRatings release) {
    if (d.abstained()) {
      counts[2]++;
    } else if (ScoreboardRh.similarity(truth, target, release, d.record(), SUCCESS_DAYS) >= THETA) {
      counts[0]++;
    } else {
      counts[1]++;
    }
  }

  /**
   * Running sums of the items' supports: drawing from them picks an item as often as the table
   * rates it.
   */
  static long[] cumulativeSupports(SparseRatings table) {
    int[] s = table.supports();
    long[] c = new long[s.length];
    long total = 0;
    for (int i = 0; i < s.length; i++) {
      total += s[i];
      c[i] = total;
    }
    return c;
  }

  /** The attacker's auxiliary information about record {@code user} of {@code truth}. */
  static ScoreboardRh.Known[] aux(
      SparseRatings truth,
      int user,
      int known,
      int wrong,
      int days,
      long[] itemDraw,
      RandomSource random) {
    int right = Math.min(known - wrong, truth.size(user));
    int[] order = SparseRatings.permutation(truth.size(user), random);
    ScoreboardRh.Known[] aux = new ScoreboardRh.Known[right + wrong];
    java.util.Set<Integer> used = new java.util.HashSet<>();
    for (int j = 0; j < right; j++) {
      int e = order[j];
      int stars = Math.max(1, Math.min(5, truth.stars(user, e) + (int) random.nextLong(3) - 1));
      int day =
          Math.max(
              0,
              Math.min(
                  SparseRatings.DAYS - 1,
                  truth.day(user, e) + (int) random.nextLong(2L * days + 1) - days));
      aux[j] = new ScoreboardRh.Known(truth.item(user, e), stars, day);
      used.add(truth.item(user, e));
    }
    int filled = right;
    for (int j = 0; j < wrong; j++) {
      int item = -1;
      for (int tries = 0; tries < 10_000 && item < 0; tries++) {
        int x = SparseRatings.pick(itemDraw, random);
        item = truth.find(user, x) < 0 && used.add(x) ? x : -1;
      }
      if (item >= 0) {
        aux[filled++] =
            new ScoreboardRh.Known(
                item, 1 + (int) random.nextLong(5), (int) random.nextLong(SparseRatings.DAYS));
      }
    }
    return java.util.Arrays.copyOf(aux, filled);
  }

  /**
   * The Prize-style "anonymized" release: records shuffled under new ids; each rating deleted with
   * probability 5%, else given uniformly random stars with probability 5% and moved by up to ±7
   * days with probability 10%; and 3% of a record's size in alternative ratings inserted (items it
   * did not rate, drawn as often as the table rates them; random stars; a day within its ratings'
   * span).
   */
  static SparseRatings prizeRelease(SparseRatings table, RandomSource random) {
    int n = table.users();
    int[] order = SparseRatings.permutation(n, random);
    long[] itemDraw = cumulativeSupports(table);
    int[][] it = new int[n][];
    byte[][] st = new byte[n][];
    int[][] dy = new int[n][];
    for (int r = 0; r < n; r++) {
      int u = order[r];
      int size = table.size(u);
      int inserts = (int) Math.round(0.03 * size);
      List<int[]> out = new ArrayList<>(size + inserts);
      int lo = Integer.MAX_VALUE;
      int hi = 0;
      for (int k = 0; k < size; k++) {
        lo = Math.min(lo, table.day(u, k));
        hi = Math.max(hi, table.day(u, k));
        if (random.nextLong(100) < 5) {
          continue;
        }
        int stars = random.nextLong(100) < 5 ? 1 + (int) random.nextLong(5) : table.stars(u, k);
        int day = table.day(u, k);
        if (random.nextLong(100) < 10) {
          day = Math.max(0, Math.min(SparseRatings.DAYS - 1, day + (int) random.nextLong(15) - 7));
        }
        out.add(new int[] {table.item(u, k), stars, day});
      }
      java.util.Set<Integer> used = new java.util.HashSet<>();
      for (int j = 0; j < inserts; j++) {
        int item = -1;
        for (int tries = 0; tries < 10_000 && item < 0; tries++) {
          int x = SparseRatings.pick(itemDraw, random);
          item = table.find(u, x) < 0 && used.add(x) ? x : -1;
        }
        if (item >= 0) {
          out.add(
              new int[] {
                item, 1 + (int) random.nextLong(5), lo + (int) random.nextLong(hi - lo + 1)
              });
        }
      }
      it[r] = out.stream().mapToInt(x -> x[0]).toArray();
      st[r] = new byte[out.size()];
      dy[r] = out.stream().mapToInt(x -> x[2]).toArray();
      for (int j = 0; j < out.size(); j++) {
        st[r][j] = (byte) out.get(j)[1];
      }
    }
    return SparseRatings.of(table.itemCount(), it, st, dy);
  }

  /** The text table: the sweep over K, both releases, and chance. */
  public static String summary(Outcome o) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "Netflix Prize attack (Narayanan & Shmatikov 2008, Scoreboard-RH, phi = %s) on a"
                + " SYNTHETIC sparse ratings table:%n%,d users, %,d items, %,d ratings; %d targets"
                + " per row, dates known to +-%d days, stars to +-1.%n",
            HtmlReport.number(ScoreboardRh.PHI),
            o.users(),
            o.items(),
            o.ratings(),
            o.given().anonymized().targets(),
            o.days()));
    s.append(
        String.format(
            Locale.ROOT,
            "%3s %3s | %-31s | %-39s%n",
            "K",
            "W",
            "anonymized (ids, perturbed)",
            "DP synthetic (epsilon = " + HtmlReport.number(o.epsilon()) + ")"));
    s.append(
        String.format(
            Locale.ROOT,
            "%3s %3s | %9s %9s %9s | %9s %9s %9s %7s%n",
            "",
            "",
            "re-ident.",
            "wrong",
            "abstained",
            "re-ident.",
            "wrong",
            "abstained",
            "chance"));
    List<Row> rows = new ArrayList<>(o.sweep());
    if (!rows.contains(o.given())) {
      rows.add(o.given());
    }
    for (Row r : rows) {
      s.append(
          String.format(
              Locale.ROOT,
              "%3d %3d | %9s %9s %9s | %9s %9s %9s %7s%n",
              r.known(),
              r.wrongRatings(),
              HtmlReport.percent(r.anonymized().reidentified()),
              HtmlReport.percent(r.anonymized().wrong()),
              HtmlReport.percent(r.anonymized().abstained()),
              HtmlReport.percent(r.dp().reidentified()),
              HtmlReport.percent(r.dp().wrong()),
              HtmlReport.percent(r.dp().abstained()),
              HtmlReport.percent(r.chance())));
    }
    s.append(
        String.format(
            Locale.ROOT,
            "Re-identified: the named record is within similarity %s of the target's true"
                + " record (the paper's Definition 1).%n",
            HtmlReport.number(THETA)));
    s.append(
        "Chance: the same attack for people drawn from the same model but not in the table; the"
            + " release is independent of them.\n");
    Row g = o.given();
    s.append(
        String.format(
            Locale.ROOT,
            "K = %d: the attack names a record for %s of members and %s of non-members of the"
                + " anonymized release, %s and %s of the DP release (which cannot tell them apart).%n",
            g.known(),
            HtmlReport.percent(1 - g.anonymized().abstained()),
            HtmlReport.percent(1 - g.anonymizedNonMembers().abstained()),
            HtmlReport.percent(1 - g.dp().abstained()),
            HtmlReport.percent(1 - g.dpNonMembers().abstained())));
    s.append(
        String.format(
            Locale.ROOT,
            "The DP release: %,d synthetic records drawn from three noisy histograms admitted by"
                + " privet-core's accountant at epsilon = %s, delta = %s in total, per user; none"
                + " is anyone's record.%n",
            o.dpRecords(),
            HtmlReport.number(o.spent().epsilon()),
            HtmlReport.number(o.spent().delta())));
    s.append(
        "Paper, on the real Netflix Prize data: 99% re-identified from 8 ratings (2 wrong, dates"
            + " +-14 days); 68% from 2 ratings (dates +-3 days).\n");
    return s.toString();
  }

  /** Adds the attack's section, with its chart of re-identification against K, to a report. */
  public static void report(HtmlReport html, Outcome o, String setup) {
    html.heading("Attack 6: the Netflix Prize (de-anonymizing sparse records)");
    html.paragraph(setup);
    List<List<String>> rows = new ArrayList<>();
    for (Row r : o.sweep()) {
      rows.add(
          List.of(
              Integer.toString(r.known()),
              Integer.toString(r.wrongRatings()),
              HtmlReport.percent(r.anonymized().reidentified()),
              HtmlReport.percent(r.anonymized().wrong()),
              HtmlReport.percent(r.anonymized().abstained()),
              HtmlReport.percent(r.dp().reidentified()),
              HtmlReport.percent(r.dp().wrong()),
              HtmlReport.percent(r.dp().abstained()),
              HtmlReport.percent(r.chance())));
    }
    html.table(
        List.of(
            "known ratings K",
            "of them wrong W",
            "anonymized: re-identified",
            "wrong",
            "abstained",
            "DP (epsilon = " + HtmlReport.number(o.epsilon()) + "): re-identified",
            "wrong",
            "abstained",
            "chance"),
        rows);
    double[] ks = o.sweep().stream().mapToDouble(Row::known).toArray();
    html.lineChart(
        "Targets re-identified against the number of known ratings K (dates +-"
            + o.days()
            + " days)",
        "known ratings K",
        "re-identified",
        List.of(
            new HtmlReport.Series(
                "anonymized",
                ks,
                o.sweep().stream().mapToDouble(r -> r.anonymized().reidentified()).toArray(),
                "#c0392b"),
            new HtmlReport.Series(
                "DP synthetic",
                ks,
                o.sweep().stream().mapToDouble(r -> r.dp().reidentified()).toArray(),
                "#2471a3"),
            new HtmlReport.Series(
                "chance",
                ks,
                o.sweep().stream().mapToDouble(Row::chance).toArray(),
                "#777777",
                true)),
        false);
    html.pre(summary(o));
  }
}
