package org.privet.mechanisms.truncation;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * R2T's LP-based truncation for queries whose join results may reference several privacy units
 * (self-joins, e.g. a friendship table whose rows reference two persons; Dong, Fang, Yi, Tao,
 * Machanavajjhala, "R2T: Instance-optimal Truncation for Differentially Private Query Evaluation
 * with Foreign Keys", SIGMOD 2022, Section 6): Q(I, τ) = ⌊max Σ<sub>q</sub> u<sub>q</sub>⌋ subject
 * to Σ<sub>q ∋ w</sub> u<sub>q</sub> ≤ τ for every unit w and 0 ≤ u<sub>q</sub> ≤ ψ(q), over the
 * join results q with their values ψ(q) ≥ 0 (fixed-point integers) and their sets of units.
 *
 * <p>The LP is solved <b>exactly</b>, in rational arithmetic (primal simplex from the slack basis,
 * which is feasible as every right-hand side is ≥ 0; Bland's rule, so it terminates), because the
 * sensitivity argument holds for the exact optimum: removing unit v removes the results that
 * reference it, whose u-values sum to at most τ by v's constraint, and any solution of the smaller
 * instance stays feasible; so 0 ≤ Q(I, τ) − Q(I', τ) ≤ τ, and the floor keeps that for integer τ
 * ({@code docs/proofs/r2t-truncation.md}, "Self-joins"). With one unit per result it equals
 * Σ<sub>u</sub> min(c<sub>u</sub>, τ) ({@link UnitContributions}).
 *
 * <p><b>Not integrated in the engine</b>: the engine refuses private self-joins (the proof says what
 * an integration needs: materialised results with their units, and a size known before the charge).
 * The public caps {@link #MAX_RESULTS} and {@link #MAX_UNITS} keep the exact solver's time small;
 * an instance above them is refused at construction, which a caller must make unreachable from
 * data (the size of a join is private). Immutable.
 */
public final class LpTruncation implements TruncatedQuery {
  /** The largest number of join results accepted. */
  public static final int MAX_RESULTS = 64;

  /** The largest number of distinct units accepted. */
  public static final int MAX_UNITS = 128;

  private final int[][] units; // per result: its distinct unit indexes
  private final long[] psi;
  private final int unitCount;

  private LpTruncation(int[][] units, long[] psi, int unitCount) {
    this.units = units;
    this.psi = psi;
    this.unitCount = unitCount;
  }

  /**
   * @param unitsPerResult for each join result, the ids of the units it references (at least one;
   *     repeats count once)
   * @param psi each result's value ψ(q) ≥ 0
   * @throws IllegalArgumentException naming the parameter if the arrays differ in length, a result
   *     has no unit, a value is negative, or a cap is exceeded
   */
  public static LpTruncation of(long[][] unitsPerResult, long[] psi) {
    TruncationChecks.required("unitsPerResult", unitsPerResult);
    TruncationChecks.required("psi", psi);
    if (unitsPerResult.length != psi.length) {
      throw new IllegalArgumentException("unitsPerResult and psi must have the same length");
    }
    if (psi.length > MAX_RESULTS) {
      throw new IllegalArgumentException("unitsPerResult: at most " + MAX_RESULTS + " results");
    }
    Map<Long, Integer> index = new HashMap<>();
    int[][] units = new int[psi.length][];
    for (int q = 0; q < psi.length; q++) {
      if (psi[q] < 0) {
        throw new IllegalArgumentException("psi must be non-negative");
      }
      if (unitsPerResult[q] == null || unitsPerResult[q].length == 0) {
        throw new IllegalArgumentException("unitsPerResult: every result needs a unit");
      }
      Set<Integer> distinct = new LinkedHashSet<>();
      for (long w : unitsPerResult[q]) {
        distinct.add(index.computeIfAbsent(w, k -> index.size()));
      }
      units[q] = distinct.stream().mapToInt(Integer::intValue).toArray();
    }
    if (index.size() > MAX_UNITS) {
      throw new IllegalArgumentException("unitsPerResult: at most " + MAX_UNITS + " units");
    }
    return new LpTruncation(units, psi.clone(), index.size());
  }

  @Override
  public long evaluate(long tau) {
    if (tau < 0) {
      throw new IllegalArgumentException("tau must be non-negative");
    }
    BigInteger[] v = optimum(tau);
    BigInteger floor = v[0].divide(v[1]); // v ≥ 0, so truncation is the floor
    return floor.min(BigInteger.valueOf(UnitContributions.SUM_CAP)).longValueExact();
  }

  /** The exact LP optimum at τ as {numerator, denominator} (denominator > 0, reduced). */
  BigInteger[] optimum(long tau) {
    int results = psi.length;
    int rows = unitCount + results; // one constraint per unit, then u_q ≤ ψ(q)
    int cols = results + rows; // variables, then slacks; the right-hand side apart
    Rational[][] t = new Rational[rows + 1][cols + 1];
    for (Rational[] row : t) {
      java.util.Arrays.fill(row, Rational.ZERO);
    }
    int[] basis = new int[rows];
    for (int q = 0; q < results; q++) {
      for (int w : units[q]) {
        t[w][q] = Rational.ONE;
      }
      t[unitCount + q][q] = Rational.ONE;
      t[unitCount + q][cols] = Rational.of(psi[q]);
      t[rows][q] = Rational.of(-1); // objective row: maximise Σ u_q
    }
    for (int i = 0; i < rows; i++) {
      t[i][results + i] = Rational.ONE;
      basis[i] = results + i;
      if (i < unitCount) {
        t[i][cols] = Rational.of(tau);
      }
    }
    while (true) {
      int enter = -1;
      for (int j = 0; j < cols; j++) { // Bland: the smallest improving column
        if (t[rows][j].signum() < 0) {
          enter = j;
          break;
        }
      }
      if (enter < 0) {
        break;
      }
      int leave = -1;
      Rational best = null;
      for (int i = 0; i < rows; i++) {
        if (t[i][enter].signum() > 0) {
          Rational ratio = t[i][cols].divide(t[i][enter]);
          int c = best == null ? -1 : ratio.compareTo(best);
          if (c < 0 || (c == 0 && basis[i] < basis[leave])) {
            best = ratio;
            leave = i;
          }
        }
      }
      // Bounded: every variable is capped by its own row, so a leaving row always exists.
      Rational p = t[leave][enter];
      for (int j = 0; j <= cols; j++) {
        t[leave][j] = t[leave][j].divide(p);
      }
      for (int i = 0; i <= rows; i++) {
        Rational f = t[i][enter];
        if (i != leave && f.signum() != 0) {
          for (int j = 0; j <= cols; j++) {
            if (t[leave][j].signum() != 0) {
              t[i][j] = t[i][j].subtract(f.multiply(t[leave][j]));
            }
          }
        }
      }
      basis[leave] = enter;
    }
    return new BigInteger[] {t[rows][cols].num, t[rows][cols].den};
  }

  /** An exact rational num/den, den > 0, reduced. */
  private record Rational(BigInteger num, BigInteger den) implements Comparable<Rational> {
    static final Rational ZERO = new Rational(BigInteger.ZERO, BigInteger.ONE);
    static final Rational ONE = new Rational(BigInteger.ONE, BigInteger.ONE);

    static Rational of(long v) {
      return new Rational(BigInteger.valueOf(v), BigInteger.ONE);
    }

    static Rational reduced(BigInteger n, BigInteger d) {
      if (d.signum() < 0) {
        n = n.negate();
        d = d.negate();
      }
      BigInteger g = n.gcd(d);
      return g.equals(BigInteger.ONE) || g.signum() == 0 ? new Rational(n, d)
          : new Rational(n.divide(g), d.divide(g));
    }

    int signum() {
      return num.signum();
    }

    Rational subtract(Rational o) {
      return reduced(num.multiply(o.den).subtract(o.num.multiply(den)), den.multiply(o.den));
    }

    Rational multiply(Rational o) {
      return reduced(num.multiply(o.num), den.multiply(o.den));
    }

    Rational divide(Rational o) {
      return reduced(num.multiply(o.den), den.multiply(o.num));
    }

    @Override
    public int compareTo(Rational o) {
      return num.multiply(o.den).compareTo(o.num.multiply(den));
    }
  }
}
