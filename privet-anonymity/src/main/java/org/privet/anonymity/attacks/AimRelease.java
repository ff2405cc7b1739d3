package org.privet.anonymity.attacks;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.privet.accounting.ApproxDp;
import org.privet.anonymity.Microdata;
import org.privet.random.RandomSource;
import org.privet.synth.Attribute;
import org.privet.synth.Domain;
import org.privet.synth.SynthesisResult;
import org.privet.synth.Synthesizer;
import org.privet.synth.Table;
import org.privet.synth.Workload;

/**
 * A DP synthetic release of integer-coded columns by privet-synth's AIM (McKenna, Mullins, Sheldon
 * &amp; Miklau, "AIM: an adaptive and iterative mechanism for differentially private synthetic
 * data", VLDB 2022), through its public entry point {@link Synthesizer}. The attacks compare it with
 * raw and k-anonymous releases of the same columns.
 */
public final class AimRelease {
  private AimRelease() {}

  /** The synthetic table and its (ε, δ) guarantee. */
  public record Release(Microdata synthetic, ApproxDp guarantee) {}

  /**
   * Synthesizes {@code columns} of {@code data} (each holding codes 0 … size − 1 of the public
   * {@code domain}) at (ε, δ) with AIM on the all-2-way workload.
   */
  public static Release synthesize(Microdata data, List<String> columns, Domain domain, double epsilon,
      double delta, RandomSource random, Consumer<String> progress) {
    List<Attribute> attrs = new ArrayList<>();
    int[][] codes = new int[columns.size()][];
    for (int i = 0; i < columns.size(); i++) {
      String c = columns.get(i);
      int index = domain.indexOf(c).orElseThrow(() -> new IllegalArgumentException(
          "domain: no attribute named '" + c + "'"));
      attrs.add(Attribute.coded(c, domain.cardinality(index)));
      double[] v = data.column("columns", c).numbers();
      if (v == null) {
        throw new IllegalArgumentException("columns: '" + c + "' must hold integer codes");
      }
      codes[i] = new int[v.length];
      for (int r = 0; r < v.length; r++) {
        codes[i][r] = (int) v[r];
      }
    }
    Domain sub = Domain.of(attrs);
    Synthesizer s = Synthesizer.builder().method(Synthesizer.Method.AIM).epsilon(epsilon).delta(delta)
        .workload(Workload.allKWay(sub, 2)).randomSource(random).progress(progress).build();
    SynthesisResult result = s.synthesize(Table.of(sub, codes));
    Table t = result.synthetic();
    List<Microdata.Column> out = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      int[] col = t.column(i);
      double[] v = new double[col.length];
      for (int r = 0; r < v.length; r++) {
        v[r] = col[r];
      }
      out.add(Microdata.Column.numeric(columns.get(i), v));
    }
    return new Release(Microdata.of(out), s.approxDp());
  }
}
