package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.accounting.Budget;

class QueryTest {

  private static Query.Builder base() {
    return Query.from("t").privacyUnit("uid").maxRowsPerGroup(1).count("n").epsilon(1);
  }

  private static void assertRejected(String parameter, Runnable r) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
    assertTrue(e.getMessage().contains(parameter), e.getMessage());
  }

  @Test
  void build_validQuery_keepsEverything() {
    Query q = Query.from("t").privacyUnit("uid").maxGroupsContributed(2).maxRowsPerGroup(3)
        .groupBy("g").publicGroups("a", "b").count("n").sum("s", "x", 0, 1)
        .where(Filter.gt("x", 0)).epsilon(1).noise(NoiseKind.LAPLACE).build();
    assertEquals(2, q.maxGroupsContributed());
    assertEquals(3, q.maxRowsPerGroup());
    assertEquals(List.of(List.of("a"), List.of("b")), q.publicGroups().orElseThrow());
    assertEquals(2, q.aggregations().size());
    assertTrue(q.filter().isPresent());
  }

  @Test
  void build_withoutPrivacyUnit_isRejected() {
    assertRejected("privacyUnit", () -> Query.from("t").count("n").epsilon(1).build());
  }

  @Test
  void build_unitColumnWithoutMaxRows_isRejected() {
    assertRejected("maxRowsPerGroup",
        () -> Query.from("t").privacyUnit("u").count("n").epsilon(1).build());
  }

  @Test
  void build_groupingWithoutMaxGroups_isRejected() {
    assertRejected("maxGroupsContributed", () -> base().groupBy("g").epsilonDelta(1, 1e-6).build());
  }

  @Test
  void build_privateSelectionUnderPureBudget_isRejected() {
    assertRejected("budget", () -> base().maxGroupsContributed(1).groupBy("g").build());
  }

  @Test
  void build_privateSelectionUnderPureZcdp_isRejectedNamingTheMissingDelta() {
    assertRejected("delta", () -> base().maxGroupsContributed(1).groupBy("g").rho(1).build());
  }

  @Test
  void build_privateSelectionUnderRhoDelta_isAccepted() {
    Query q = base().maxGroupsContributed(2).groupBy("g").rhoDelta(0.5, 1e-6).build();
    assertTrue(q.budget().isZcdp());
    assertEquals(1e-6, q.budget().delta());
    assertEquals(0.5, q.budget().rho());
  }

  @Test
  void build_thresholdingWithoutPrivateSelection_isRejected() {
    assertRejected("thresholding",
        () -> base().thresholding(Thresholding.GAUSSIAN).epsilonDelta(1, 1e-6).build());
  }

  @Test
  void budget_zcdpWithBadDelta_isRejectedNamingDelta() {
    assertRejected("delta", () -> Budget.zcdp(0.5, 1.0));
    assertRejected("delta", () -> Budget.zcdp(0.5, Double.NaN));
    assertRejected("rho", () -> Budget.zcdp(0, 1e-6));
    assertEquals(Budget.zcdp(0.5), Budget.zcdp(0.5, 0));
  }

  @Test
  void build_gaussianUnderPureBudget_isRejected() {
    assertRejected("noise", () -> base().noise(NoiseKind.GAUSSIAN).build());
  }

  @Test
  void build_duplicateOutputName_isRejected() {
    assertRejected("'n'", () -> base().count("n").build());
  }

  @Test
  void build_publicKeysOfWrongWidth_isRejected() {
    assertRejected("publicGroups", () -> base().maxGroupsContributed(1).groupBy("a", "b")
        .publicGroups("x").build());
  }

  @Test
  void setters_badValues_areRejectedImmediately() {
    assertRejected("epsilon", () -> Query.from("t").epsilon(Double.NaN));
    assertRejected("epsilon", () -> Query.from("t").epsilon(0));
    assertRejected("delta", () -> Query.from("t").epsilonDelta(1, 1));
    assertRejected("rho", () -> Query.from("t").rho(-1));
    assertRejected("lower", () -> Query.from("t").sum("s", "x", 2, 1));
    assertRejected("upper", () -> Query.from("t").mean("m", "x", 0, Double.POSITIVE_INFINITY));
    assertRejected("maxGroupsContributed", () -> Query.from("t").maxGroupsContributed(0));
    assertRejected("maxRowsPerGroup", () -> Query.from("t").maxRowsPerGroup(-1));
    assertRejected("ranks", () -> Query.from("t").quantiles("q", "x", 0, 1, 1.5));
    assertRejected("column", () -> Query.from("t").sum("s", "x; DROP TABLE t", 0, 1));
    assertRejected("literal", () -> Filter.eq("x", new Object()));
    assertRejected("literal", () -> Filter.eq("x", Double.NaN));
  }

  @Test
  void build_eachRowWithBounds_isRejected() {
    assertRejected("maxGroupsContributed", () -> Query.from("t").eachRowIsAUnit()
        .maxGroupsContributed(2).count("n").epsilon(1).build());
  }

  @Test
  void toString_containsNoLiteralValues() {
    Query q = base().where(Filter.eq("name", "secret-name")).build();
    assertTrue(!q.toString().contains("secret-name"), q.toString());
  }
}
