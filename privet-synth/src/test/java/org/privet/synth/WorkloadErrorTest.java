package org.privet.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadErrorTest {
  private static final Domain DOM = Domain.of(List.of(Attribute.coded("a", 2), Attribute.coded("b", 3),
      Attribute.coded("c", 2)));

  @Test
  void evaluate_identicalTables_zero() {
    Table t = Table.of(DOM, new int[][] {{0, 1, 1}, {2, 0, 1}, {1, 1, 0}});
    assertEquals(0.0, WorkloadError.evaluate(t, t, Workload.allKWay(DOM, 2)).average(), 0);
  }

  @Test
  void evaluate_handComputedExample_matches() {
    Table real = Table.of(DOM, new int[][] {{0, 0, 1, 1}, {0, 1, 2, 2}, {0, 0, 0, 1}});
    Table syn = Table.of(DOM, new int[][] {{0, 0}, {0, 0}, {0, 0}});
    // 1-way: a: |1/2-1|+|1/2-0| = 1; b: |1/4-1|+1/4+1/2 = 1.5; c: |3/4-1|+1/4 = 0.5.
    var e = WorkloadError.evaluate(real, syn, Workload.allKWay(DOM, 1));
    assertEquals(1.0, e.perMarginal().get(0).l1(), 1e-12);
    assertEquals(1.5, e.perMarginal().get(1).l1(), 1e-12);
    assertEquals(0.5, e.perMarginal().get(2).l1(), 1e-12);
    assertEquals(1.0, e.average(), 1e-12);
  }

  @Test
  void evaluate_disjointSupport_two() {
    Table x = Table.of(DOM, new int[][] {{0}, {0}, {0}});
    Table y = Table.of(DOM, new int[][] {{1}, {1}, {1}});
    assertEquals(2.0, WorkloadError.evaluate(x, y, Workload.allKWay(DOM, 3)).average(), 1e-12);
  }

  @Test
  void allKWay_counts_matchBinomial() {
    assertEquals(3, Workload.allKWay(DOM, 2).size());
    assertEquals(1, Workload.allKWay(DOM, 3).size());
    assertThrows(IllegalArgumentException.class, () -> Workload.allKWay(DOM, 4));
    assertThrows(IllegalArgumentException.class, () -> Workload.parse("three-way", DOM));
  }

  @Test
  void evaluate_differentDomains_rejected() {
    Table x = Table.of(DOM, new int[][] {{0}, {0}, {0}});
    Domain other = Domain.of(List.of(Attribute.coded("a", 2), Attribute.coded("b", 3), Attribute.coded("z", 2)));
    Table y = Table.of(other, new int[][] {{0}, {0}, {0}});
    assertThrows(IllegalArgumentException.class, () -> WorkloadError.evaluate(x, y, Workload.allKWay(DOM, 1)));
  }
}
