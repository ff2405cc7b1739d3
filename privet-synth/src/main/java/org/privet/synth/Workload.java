package org.privet.synth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A workload of marginal queries: a list of attribute subsets (each sorted ascending, distinct).
 *
 * @param marginals the attribute subsets
 */
public record Workload(List<int[]> marginals) {

  public Workload {
    marginals = List.copyOf(marginals);
    if (marginals.isEmpty()) {
      throw new IllegalArgumentException("workload must contain at least one marginal");
    }
  }

  /** All {@code k}-way marginals of the domain (e.g. 364 for k = 3 on Adult's 14 columns). */
  public static Workload allKWay(Domain domain, int k) {
    if (k < 1 || k > domain.size()) {
      throw new IllegalArgumentException("workload: k must be in [1, " + domain.size() + "], was " + k);
    }
    var out = new ArrayList<int[]>();
    combinations(domain.size(), k, 0, new int[k], 0, out);
    return new Workload(out);
  }

  /**
   * Parses a workload name: {@code all-1way}, {@code all-2way}, {@code all-3way}, ...
   *
   * @throws IllegalArgumentException for any other name
   */
  public static Workload parse(String name, Domain domain) {
    if (name != null && name.matches("all-[1-9]way")) {
      return allKWay(domain, name.charAt(4) - '0');
    }
    throw new IllegalArgumentException("workload must be of the form all-<k>way (e.g. all-3way), was " + name);
  }

  private static void combinations(int n, int k, int start, int[] cur, int depth, List<int[]> out) {
    if (depth == k) {
      out.add(cur.clone());
      return;
    }
    for (int i = start; i < n; i++) {
      cur[depth] = i;
      combinations(n, k, i + 1, cur, depth + 1, out);
    }
  }

  /** The size of the workload. */
  public int size() {
    return marginals.size();
  }

  @Override
  public String toString() {
    var sb = new StringBuilder("Workload[");
    for (int[] m : marginals) {
      sb.append(Arrays.toString(m));
    }
    return sb.append(']').toString();
  }
}
