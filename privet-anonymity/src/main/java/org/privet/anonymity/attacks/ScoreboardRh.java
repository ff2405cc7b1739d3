package org.privet.anonymity.attacks;

/**
 * Algorithm Scoreboard-RH of Narayanan &amp; Shmatikov, "Robust de-anonymization of large sparse
 * datasets", IEEE S&amp;P 2008 (its de-anonymization section), against one released table.
 *
 * <ol>
 *   <li><b>Score.</b> Score(aux, r′) = Σ_{i ∈ supp(aux)} wt(i)·Sim(aux_i, r′_i), with wt(i) =
 *       1/log|supp(i)|: an item few records rated weighs more. |supp(i)| counts the release's
 *       records that rated i; an item rated by one record weighs as one rated by two (1/log 2),
 *       since 1/log 1 is infinite. Sim is the paper's per-attribute similarity in the form it uses
 *       for approximately known ratings (the Netflix case study, Figure 1): 1 if r′ rated i with
 *       stars within one of aux's and a date within ±D days of aux's, else 0.
 *   <li><b>Eccentricity.</b> e = (max − max₂)/σ over the scores of all records (σ their standard
 *       deviation, max₂ the second highest).
 *   <li><b>Decision.</b> If e ≥ φ the best-scoring record is named, else the attacker abstains (⊥).
 *       The paper uses φ = 1.5.
 * </ol>
 *
 * <p>Scores are accumulated through an inverted index (item → records that rated it), so an attack
 * costs the sum of its items' supports, not the table's size.
 */
final class ScoreboardRh {
  /** The paper's eccentricity threshold φ. */
  static final double PHI = 1.5;

  /** One known rating of the attacker's auxiliary information. */
  record Known(int item, int stars, int day) {}

  /** The decision: the named record, or −1 for ⊥, and the eccentricity it rests on. */
  record Decision(int record, double eccentricity, double best, double second, double sigma) {
    boolean abstained() {
      return record < 0;
    }
  }

  private final int records;
  private final int[] start;
  private final int[] who;
  private final byte[] stars;
  private final int[] days;
  private final double[] weight;
  private final double[] score;
  private final int[] touched;

  ScoreboardRh(SparseRatings release) {
    this.records = release.users();
    int items = release.itemCount();
    int[] support = release.supports();
    start = new int[items + 1];
    for (int i = 0; i < items; i++) {
      start[i + 1] = start[i] + support[i];
    }
    int total = start[items];
    who = new int[total];
    stars = new byte[total];
    days = new int[total];
    int[] fill = java.util.Arrays.copyOf(start, items);
    for (int r = 0; r < records; r++) {
      for (int k = 0; k < release.size(r); k++) {
        int p = fill[release.item(r, k)]++;
        who[p] = r;
        stars[p] = (byte) release.stars(r, k);
        days[p] = release.day(r, k);
      }
    }
    weight = new double[items];
    for (int i = 0; i < items; i++) {
      weight[i] = weight(support[i]);
    }
    score = new double[records];
    touched = new int[records];
  }

  /** wt(i) = 1/log|supp(i)| (natural log), with supports below 2 counted as 2. */
  static double weight(int support) {
    return 1 / Math.log(Math.max(2, support));
  }

  /**
   * Sim(aux_i, r′_i) for a record that rated the item: stars within one and days within ±{@code
   * tolerance}.
   */
  static boolean similar(int knownStars, int knownDay, int stars, int day, int tolerance) {
    return Math.abs(knownStars - stars) <= 1 && Math.abs(knownDay - day) <= tolerance;
  }

  /** Scores every record against {@code aux} and decides. Not thread-safe (one scratch board). */
  Decision decide(Known[] aux, int tolerance, double phi) {
    int n = 0;
    for (Known k : aux) {
      if (k.item() < 0 || k.item() >= weight.length) {
        continue;
      }
      double w = weight[k.item()];
      for (int p = start[k.item()]; p < start[k.item() + 1]; p++) {
        if (similar(k.stars(), k.day(), stars[p], days[p], tolerance)) {
          int r = who[p];
          if (score[r] == 0) {
            touched[n++] = r;
          }
          score[r] += w;
        }
      }
    }
    double sum = 0;
    double squares = 0;
    double best = 0;
    double second = 0;
    int arg = -1;
    for (int t = 0; t < n; t++) {
      int r = touched[t];
      double s = score[r];
      sum += s;
      squares += s * s;
      if (s > best) {
        second = best;
        best = s;
        arg = r;
      } else if (s > second) {
        second = s;
      }
      score[r] = 0;
    }
    return decision(arg, best, second, sum, squares, records, phi);
  }

  /**
   * The eccentricity test on summary statistics of the scores: their sum and sum of squares over
   * {@code records} records, the best score (of record {@code arg}) and the second best.
   */
  static Decision decision(
      int arg, double best, double second, double sum, double squares, int records, double phi) {
    double mean = sum / records;
    double sigma = Math.sqrt(Math.max(0, squares / records - mean * mean));
    double eccentricity = sigma > 0 ? (best - second) / sigma : 0;
    boolean named = best > 0 && sigma > 0 && eccentricity >= phi;
    return new Decision(named ? arg : -1, eccentricity, best, second, sigma);
  }

  /**
   * The paper's similarity of two whole records (the model section): Σ over the union of their
   * items of Sim(r_i, r′_i), divided by the size of the union; 0 for two empty records.
   */
  static double similarity(SparseRatings a, int ra, SparseRatings b, int rb, int tolerance) {
    int i = 0;
    int j = 0;
    int union = 0;
    int same = 0;
    while (i < a.size(ra) || j < b.size(rb)) {
      int x = i < a.size(ra) ? a.item(ra, i) : Integer.MAX_VALUE;
      int y = j < b.size(rb) ? b.item(rb, j) : Integer.MAX_VALUE;
      union++;
      if (x == y) {
        if (similar(a.stars(ra, i), a.day(ra, i), b.stars(rb, j), b.day(rb, j), tolerance)) {
          same++;
        }
        i++;
        j++;
      } else if (x < y) {
        i++;
      } else {
        j++;
      }
    }
    return union == 0 ? 0 : same / (double) union;
  }
}
