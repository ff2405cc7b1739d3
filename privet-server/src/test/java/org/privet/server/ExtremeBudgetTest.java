package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PureDp;
import org.privet.curator.LedgerCatalog;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.RegisteredSchema;
import org.privet.ledger.Role;

/**
 * Issue 23, item 5: EXPLAIN and the run agree on every budget, extreme ones included. Over real
 * HTTP on loopback: for each query, POST /v1/explain and POST /v1/query either both accept, the
 * run charging exactly the cost EXPLAIN quoted, or both refuse with the same code and message,
 * charging nothing. The datasets' totals are as large as a budget may be, so no refusal here is
 * the budget's.
 */
class ExtremeBudgetTest {
  @TempDir static Path dir;
  static PrivetServer server;
  static Api api;
  static String alice;

  /** Every budget a dataset may have: the largest ε, and δ < 1. */
  static final double MAX = org.privet.accounting.Budget.MAX_EPSILON;

  @BeforeAll
  static void start() {
    Path ws = dir.resolve("ws");
    try (Ledger ledger = Ledger.open(ws)) {
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      // One dataset per query, so no query's refusal is the budget's after another's charge.
      List<String> queries = queries();
      DatasetSpec template = DatasetSpec.builder().name("d0").source(Fixture.adultWithId(300).toString())
          .csv(new org.privet.ledger.CsvOptions(true, ",", List.of(), "")).privacyUnit(PrivacyUnit.column("id"))
          .budget(new ApproxDp(MAX, 0.9)).build();
      RegisteredSchema schema;
      try (DuckDbBackend backend = DuckDbBackend.inMemory()) {
        schema = LedgerCatalog.inferred(template, backend);
      }
      for (int i = 0; i < queries.size(); i++) {
        boolean pure = queries.get(i).startsWith("pure:");
        DatasetSpec spec = DatasetSpec.builder().name("d" + i).source(template.source()).csv(template.csv())
            .privacyUnit(template.privacyUnit())
            .budget(pure ? new PureDp(MAX) : new ApproxDp(MAX, 0.9)).build();
        ledger.register(spec, schema);
        ledger.grant(spec.name(), "alice", pure ? new PureDp(MAX) : new ApproxDp(MAX, 0.9));
      }
    }
    server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build());
    api = new Api(server.url());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** Query templates: {@code %s} is the dataset; the prefix "pure:" asks for a pure-ε dataset. */
  static List<String> queries() {
    List<String> out = new ArrayList<>();
    String[] epsilons = {"1e308", "1.7976931348623157e308", "1e300", "1e200", "1e154", "1e100", "1e20",
        "1099511627777", "1099511627776", "1e12", "549755813888", "1e-12", "1e-15", "8.881784197001252e-16",
        "8.8e-16", "1e-100", "1e-300", "4.9e-324"};
    for (String e : epsilons) {
      out.add("pure:SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + e + ") COUNT(*) AS n FROM %s");
      out.add("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + e + ", delta = 1e-6) COUNT(*) AS n,"
          + " AVG(age, contribution_bounds_per_row => (17, 90)) AS a FROM %s");
      out.add("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + e + ", delta = 1e-6,"
          + " noise = GAUSSIAN) COUNT(*) AS n FROM %s");
      out.add("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + e + ", delta = 1e-6)"
          + " education, COUNT(*) AS n FROM %s GROUP BY education");
    }
    for (String d : new String[] {"1e-300", "4.9e-324", "0.4999999"}) {
      out.add("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = " + d + ", noise = GAUSSIAN)"
          + " COUNT(*) AS n FROM %s");
    }
    for (String r : new String[] {"1e308", "1099511627777", "1099511627776", "1e-300"}) {
      out.add("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (rho = " + r + ", delta = 1e-6) COUNT(*) AS n FROM %s");
    }
    return out;
  }

  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> cases() {
    List<String> q = queries();
    return java.util.stream.IntStream.range(0, q.size())
        .mapToObj(i -> org.junit.jupiter.params.provider.Arguments.of(i, q.get(i)));
  }

  /** Both directions occur: the largest ε is accepted by both, one more refused by both. */
  @org.junit.jupiter.api.Test
  void extremes_refusedBeforeTheCharge_byBothAlike() {
    List<String> q = queries();
    int max = q.indexOf("pure:SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1099511627776) COUNT(*) AS n FROM %s");
    int over = q.indexOf("pure:SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1099511627777) COUNT(*) AS n FROM %s");
    String maxSql = String.format(q.get(max).substring(5), "d" + max);
    String overSql = String.format(q.get(over).substring(5), "d" + over);
    assertEquals(200, api.post("/v1/explain", alice, body(maxSql)).status());
    Api.Response refused = api.post("/v1/explain", alice, body(overSql));
    assertEquals(422, refused.status(), refused.text());
    assertTrue(refused.text().contains("epsilon"), refused.text());
    assertTrue(refused.text().contains("2^40"), refused.text());
  }

  private static String body(String sql) {
    return Api.JSON.createObjectNode().put("sql", sql).toString();
  }

  @ParameterizedTest(name = "[{0}] {1}")
  @MethodSource("cases")
  void explainAndRun_agree(int index, String template) {
    String dataset = "d" + index;
    String sql = String.format(template.replaceFirst("^pure:", ""), dataset);
    Api.Response explain = api.post("/v1/explain", alice, body(sql));
    Api.Response run = api.query(alice, sql, null);
    int charges = api.get("/v1/history?dataset=" + dataset, alice).json().size();
    if (explain.status() == 200) {
      assertEquals(200, run.status(), "EXPLAIN accepted, the run did not: " + run.text());
      assertEquals(1, charges);
      // The ledger records each mechanism's loss, or (zCDP parts on a basic-accountant dataset)
      // the query's composed total: either way what EXPLAIN quoted.
      List<JsonNode> mechanisms = new ArrayList<>();
      explain.json().path("cost").path("mechanisms").forEach(m -> mechanisms.add(m.path("loss")));
      List<JsonNode> charged = new ArrayList<>();
      run.json().path("charge").path("cost").forEach(charged::add);
      assertTrue(charged.equals(mechanisms) || charged.equals(List.of(explain.json().path("cost").path("total"))),
          "the run charged " + charged + ", EXPLAIN quoted " + explain.json().path("cost"));
    } else {
      assertEquals(explain.status(), run.status(), "EXPLAIN refused (" + explain.text() + "), the run: "
          + run.text());
      assertEquals(explain.errorCode(), run.errorCode());
      assertEquals(explain.json().path("error").path("message"), run.json().path("error").path("message"));
      assertEquals(0, charges, "a refusal charges nothing");
    }
  }
}
