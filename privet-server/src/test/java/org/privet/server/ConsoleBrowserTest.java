package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PureDp;
import org.privet.curator.LedgerCatalog;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.PublicMetadata;
import org.privet.ledger.Role;

/**
 * The web console in a real headless Chromium against a real server on loopback: sign-in and
 * sign-out, datasets, explain then run, the budget gauge and burn-down moving by exactly the charge,
 * refusals, isolation between analysts, curator pages, and attacker-controlled names staying inert.
 * Screenshots of every page go to target/screenshots/ at 1280×800 and 390×844.
 */
class ConsoleBrowserTest extends LoopbackServerTest {
  /** Markup that would run script if the console ever inserted a server value as HTML. */
  static final String XSS_IMG = "<img src=x onerror=window.__xss=1>";
  static final String XSS_SCRIPT = "<script>window.__xss=2</script>";
  // Dataset and column names must be identifiers since schemas are fixed at registration, so a
  // dataset with such names is refused; markup still reaches the pages through public keys,
  // analyst names, SQL text in the history and refusal messages quoting the request.
  static final String XSS_ANALYST = "<img src=x onerror=window.__xss=3>";

  static final String MEAN_HOURS = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.25, group_selection_strategy = PUBLIC_GROUPS)\n"
      + "  sex, AVG(hours_per_week, contribution_bounds_per_group => (0, 100)) AS mean_hours\n"
      + "FROM adult GROUP BY sex";

  @TempDir static Path dir;
  static String root;
  static String alice;
  static String bob;
  static String mallory;

  @BeforeAll
  static void start() throws IOException {
    // The server is already running on the empty workspace; the curator's setup goes through the
    // ledger beside it (it is safe under concurrent processes), as `privet analyst add` would.
    Path xss = dir.resolve("xss.csv");
    Files.writeString(xss, "label,amount\nA,1\nB,2\n", StandardCharsets.UTF_8);
    try (Ledger ledger = Ledger.open(workspace)) {
      DatasetSpec adult = DatasetSpec.builder().name("adult").source(Fixture.rawAdult().toString())
          .csv(new CsvOptions(false, ", ", Fixture.COLUMNS, "?")).privacyUnit(PrivacyUnit.row())
          .budget(new ApproxDp(3, 1e-5))
          .publicMetadata(new PublicMetadata(Map.of(), Map.of("sex", List.of("Female", "Male")))).build();
      LedgerCatalog.register(ledger, adult, Optional.empty());
      DatasetSpec markup = DatasetSpec.builder().name("xss").source(xss.toString())
          .csv(new CsvOptions(true, ",", List.of(), "")).privacyUnit(PrivacyUnit.row()).budget(new PureDp(1))
          .publicMetadata(new PublicMetadata(Map.of(), Map.of("label", List.of(XSS_SCRIPT, XSS_IMG)))).build();
      LedgerCatalog.register(ledger, markup, Optional.empty());
      Path tiny = dir.resolve("tiny.csv");
      StringBuilder rows = new StringBuilder("a,b,c\n");
      for (int i = 0; i < 300; i++) {
        rows.append(i % 3).append(',').append(i % 2).append(',').append(i % 4).append('\n');
      }
      Files.writeString(tiny, rows);
      DatasetSpec small = DatasetSpec.builder().name("tiny").source(tiny.toString()).csv(CsvOptions.DEFAULT)
          .privacyUnit(PrivacyUnit.row()).budget(new PureDp(4)).build();
      LedgerCatalog.register(ledger, small, Optional.empty());
      root = ledger.addAnalyst("root", Role.CURATOR).apiKey();
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      bob = ledger.addAnalyst("bob", Role.ANALYST).apiKey();
      mallory = ledger.addAnalyst(XSS_ANALYST, Role.ANALYST).apiKey();
      ledger.grant("adult", "alice", new ApproxDp(2, 1e-5));
      ledger.grant("adult", "bob", new ApproxDp(0.5, 1e-6));
      ledger.grant("adult", XSS_ANALYST, new PureDp(0.2));
      ledger.grant("tiny", "alice", new PureDp(2));
    }
    browser = Browser.startOrSkip();
  }

  // ---- helpers

  /** A fresh load of the sign-in page with nothing in the tab's storage. */
  void signInPage() {
    browser.open(server.url() + "/#/signin");
    browser.js("sessionStorage.clear()");
    browser.driver.navigate().refresh();
    browser.awaitPage("signin");
  }

  void signIn(String key) {
    signInPage();
    WebElement input = browser.await(By.id("apikey"));
    input.sendKeys(key);
    browser.driver.findElement(By.id("signin")).click();
    browser.awaitPage("datasets");
  }

  void goTo(String page) {
    browser.js("location.hash = arguments[0]", "#/" + page);
    browser.awaitPage(page);
  }

  JsonNode budget(String key) {
    Api.Response r = api.get("/v1/budget?dataset=adult", key);
    assertEquals(200, r.status(), r.text());
    return r.json();
  }

  static double epsilon(JsonNode loss) {
    return loss.get("epsilon").asDouble();
  }

  WebElement gauge(By scope) {
    return browser.present(scope).findElement(By.className("gauge"));
  }

  /** Every control on the page has its own label (keyboard and screen-reader users can reach and name it). */
  void assertLabelled() {
    Object unlabelled = browser.js("return Array.from(document.querySelectorAll('main input, main select, main textarea'))"
        + ".filter(c => !c.id || !document.querySelector('label[for=\"' + c.id + '\"]')).map(c => c.outerHTML)");
    assertEquals(List.of(), unlabelled);
  }

  void assertInert() {
    assertNull(browser.js("return window.__xss === undefined ? null : window.__xss"), "injected markup ran");
    assertEquals(0L, browser.js("return document.querySelectorAll('main img, main script, main iframe').length"));
  }

  // ---- flows

  @Test
  void signIn_wrongKeyShowsTheServersMessage_keyStaysInTheTab_signOutForgetsIt() {
    signInPage();
    browser.await(By.id("apikey")).sendKeys("not-a-key");
    browser.driver.findElement(By.id("signin")).click();
    WebElement message = browser.await(By.cssSelector("#signin-result .error .message"));
    String expected = api.get("/v1/datasets", "not-a-key").json().get("error").get("message").asText();
    assertEquals(expected, message.getText());
    browser.screenshots("signin-refused");

    // Keyboard only: the key field has the focus after a Tab from the page heading, Enter submits.
    signInPage();
    browser.js("document.querySelector('main h2').focus()");
    browser.driver.switchTo().activeElement().sendKeys(Keys.TAB);
    assertEquals("apikey", browser.driver.switchTo().activeElement().getAttribute("id"));
    browser.driver.switchTo().activeElement().sendKeys(alice, Keys.ENTER);
    browser.awaitPage("datasets");
    assertEquals(alice, browser.js("return sessionStorage.getItem('privet.apiKey')"));
    assertEquals(null, browser.js("return localStorage.getItem('privet.apiKey')"));
    assertEquals("", browser.js("return document.cookie"));
    assertFalse(browser.driver.getCurrentUrl().contains(alice), "the key never goes into a URL");
    browser.driver.findElement(By.id("signout")).click();
    browser.awaitPage("signin");
    assertNull(browser.js("return sessionStorage.getItem('privet.apiKey')"));
    assertTrue(browser.driver.findElements(By.id("signout")).isEmpty());
    browser.screenshots("signin");
  }

  @Test
  void datasets_analystSeesOnlyGrantedOnes_withSchemaAndTheirShare() {
    signIn(alice);
    List<WebElement> cards = browser.driver.findElements(By.cssSelector("#dataset-list .dataset"));
    assertEquals(List.of("adult", "tiny"), cards.stream().map(c -> c.findElement(By.className("dataset-name")).getText()).sorted().toList());
    cards = cards.stream().filter(c -> c.getAttribute("data-dataset").equals("adult")).toList();
    String schema = Browser.text(cards.get(0).findElement(By.className("schema")));
    for (String column : Fixture.COLUMNS) {
      assertTrue(schema.contains(column), column);
    }
    assertTrue(schema.contains("Female, Male"), "public keys shown");
    JsonNode b = budget(alice);
    WebElement g = cards.get(0).findElement(By.className("gauge"));
    assertEquals(epsilon(b.get("total")), Double.parseDouble(g.getAttribute("data-total")), 0);
    assertEquals(epsilon(b.get("spent")), Double.parseDouble(g.getAttribute("data-spent")), 0);
    browser.screenshots("datasets");
  }

  static final String MAX_ERROR = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (n => 50, mean_hours => 0.5),"
      + " confidence = 0.95, min_count = 10000, group_selection_strategy = PUBLIC_GROUPS)\n"
      + "  sex, COUNT(*) AS n, AVG(hours_per_week, contribution_bounds_per_row => (0, 100)) AS mean_hours\n"
      + "FROM adult GROUP BY sex";

  /**
   * Issue 16: EXPLAIN of a max_error query shows the solved ε against the analyst's remaining
   * budget and each output's target and expected error, the same numbers as POST /v1/explain,
   * and charges nothing.
   */
  @Test
  void explainMaxError_showsSolvedCostAgainstRemainingAndEachOutputsError() {
    signIn(alice);
    goTo("query");
    WebElement sql = browser.await(By.id("sql"));
    sql.clear();
    sql.sendKeys(MAX_ERROR);
    int chargesBefore = budget(alice).get("charges").asInt();
    browser.driver.findElement(By.id("explain-button")).click();
    WebElement cost = browser.await(By.id("solved-cost"));
    JsonNode direct = api.send("POST", "/v1/explain", alice,
        Api.JSON.createObjectNode().put("sql", MAX_ERROR).toString(), Map.of()).json();
    JsonNode solved = direct.get("solved");
    assertEquals("epsilon", solved.get("measure").asText());
    double eps = solved.get("value").asDouble();
    assertTrue(eps > 0 && eps < 2, direct.toString());
    assertEquals(eps, Double.parseDouble(cost.getAttribute("data-value")), 0);
    double remaining = epsilon(budget(alice).get("remaining"));
    assertEquals(remaining, Double.parseDouble(cost.getAttribute("data-remaining")), 1e-12);
    assertTrue(cost.getText().contains("it fits"), cost.getText());
    assertEquals("true", browser.await(By.id("explain-solved")).getAttribute("data-fits"));
    // Each output: its target and its expected error (within the target), as the API says.
    List<WebElement> rows = browser.await(By.id("solved-table")).findElements(By.cssSelector("tbody tr"));
    assertEquals(2, rows.size());
    for (int i = 0; i < 2; i++) {
      JsonNode o = solved.get("outputs").get(i);
      List<WebElement> cells = rows.get(i).findElements(By.tagName("td"));
      assertEquals(o.get("output").asText(), cells.get(0).getText());
      assertEquals(o.get("target").asDouble(), Double.parseDouble(cells.get(1).getAttribute("data-value")), 0);
      double err = Double.parseDouble(cells.get(2).getAttribute("data-value"));
      assertEquals(o.get("expectedError").asDouble(), err, 0);
      assertTrue(err > 0 && err <= o.get("target").asDouble(), o.toString());
    }
    // The split the solver chose, with each output's share.
    assertTrue(browser.await(By.id("explain-split")).getText().contains("solved for the target errors"));
    assertEquals(2, browser.await(By.id("split-table")).findElements(By.cssSelector("tbody tr")).size());
    assertEquals(chargesBefore, budget(alice).get("charges").asInt(), "explain charges nothing");
    assertLabelled();
    browser.screenshots("query-explain-max-error");
  }

  @Test
  void explainThenRun_tableAndErrorBars_gaugeAndBurnDownMoveByExactlyTheCharge() {
    signIn(alice);
    goTo("query");
    WebElement sql = browser.await(By.id("sql"));
    sql.clear();
    sql.sendKeys(MEAN_HOURS);
    int chargesBefore = budget(alice).get("charges").asInt();
    double spentBefore = epsilon(budget(alice).get("spent"));
    assertEquals(spentBefore, Double.parseDouble(gauge(By.id("query-budget")).getAttribute("data-spent")), 0);

    browser.driver.findElement(By.id("explain-button")).click();
    WebElement plan = browser.await(By.id("explain-table"));
    assertTrue(Browser.text(plan).contains("mean_hours"));
    assertTrue(browser.await(By.id("explain-cost")).getText().contains("ε = 0.25"));
    assertEquals(chargesBefore, budget(alice).get("charges").asInt(), "explain charges nothing");
    assertLabelled();
    browser.screenshots("query-explain");

    browser.driver.findElement(By.id("run-button")).click();
    WebElement table = browser.await(By.id("result-table"));
    List<WebElement> rows = table.findElements(By.cssSelector("tbody tr"));
    assertEquals(2, rows.size());
    List<WebElement> estimates = table.findElements(By.cssSelector(".estimate"));
    WebElement chart = browser.present(By.cssSelector("figure[data-chart='ci-mean_hours']"));
    assertEquals(2, chart.findElements(By.cssSelector("g.errbar")).size());
    List<WebElement> chartCells = chart.findElements(By.cssSelector("table tbody tr"));
    for (int i = 0; i < 2; i++) {
      List<WebElement> cells = chartCells.get(i).findElements(By.tagName("td"));
      assertEquals(estimates.get(i).getAttribute("data-value"), cells.get(1).getAttribute("data-value"));
      assertEquals(estimates.get(i).getAttribute("data-lower"), cells.get(2).getAttribute("data-value"));
      assertEquals(estimates.get(i).getAttribute("data-upper"), cells.get(3).getAttribute("data-value"));
      double v = Double.parseDouble(estimates.get(i).getAttribute("data-value"));
      assertTrue(Double.parseDouble(estimates.get(i).getAttribute("data-lower")) <= v
          && v <= Double.parseDouble(estimates.get(i).getAttribute("data-upper")));
    }
    long chargeId = Long.parseLong(browser.await(By.id("charge")).getAttribute("data-charge-id"));
    JsonNode history = api.get("/v1/history?dataset=adult", alice).json();
    JsonNode charge = history.get(history.size() - 1);
    assertEquals(chargeId, charge.get("id").asLong());
    double cost = 0;
    for (JsonNode part : charge.get("cost")) {
      cost += part.get("epsilon").asDouble(); // basic composition: the parts' epsilons add
    }
    assertEquals(0.25, cost, 1e-9);
    // The gauge moved by exactly the charge, and agrees with the server.
    browser.wait.until(d -> Double.parseDouble(gauge(By.id("query-budget")).getAttribute("data-spent")) != spentBefore);
    WebElement g = gauge(By.id("query-budget"));
    double spentAfter = Double.parseDouble(g.getAttribute("data-spent"));
    assertEquals(epsilon(charge.get("analystSpent")), spentAfter, 0);
    assertEquals(spentBefore + cost, spentAfter, 1e-12);
    assertEquals(epsilon(budget(alice).get("remaining")), Double.parseDouble(g.getAttribute("data-remaining")), 1e-12);
    browser.screenshots("query-run");

    goTo("budget");
    WebElement burn = browser.present(By.cssSelector("figure[data-chart='burndown'] table"));
    List<WebElement> points = burn.findElements(By.cssSelector("tbody tr"));
    double last = Double.parseDouble(points.get(points.size() - 1).findElements(By.tagName("td")).get(1).getAttribute("data-value"));
    double previous = Double.parseDouble(points.get(points.size() - 2).findElements(By.tagName("td")).get(1).getAttribute("data-value"));
    assertEquals(cost, previous - last, 1e-12, "the burn-down's last step is the charge");
    assertEquals(epsilon(budget(alice).get("remaining")), last, 1e-12);
    assertLabelled();
    browser.screenshots("budget");

    goTo("history");
    String historyText = Browser.text(browser.present(By.id("history-table")));
    assertTrue(historyText.contains("AVG(hours_per_week"), historyText);
    browser.screenshots("history");
  }

  @Test
  void refusal_highlightsLineAndColumn_andNothingIsCharged() {
    String bad = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5)\n  COUNT(*) AS people\nFROM adult\nWHERE no_such_column > 3";
    Api.Response direct = api.send("POST", "/v1/explain", alice, Api.JSON.createObjectNode().put("sql", bad).toString(), Map.of());
    assertEquals(422, direct.status(), direct.text());
    assertTrue(direct.json().get("error").has("line"), direct.text());
    int line = direct.json().get("error").get("line").asInt();
    int column = direct.json().get("error").get("column").asInt();
    int chargesBefore = budget(alice).get("charges").asInt();

    signIn(alice);
    goTo("query");
    WebElement sql = browser.await(By.id("sql"));
    sql.clear();
    sql.sendKeys(bad);
    browser.driver.findElement(By.id("run-button")).click();
    WebElement refusal = browser.await(By.id("refusal"));
    assertEquals("at line " + line + ", column " + column, refusal.findElement(By.className("position")).getText());
    assertEquals("Nothing was charged.", refusal.findElement(By.className("nothing-charged")).getText());
    assertEquals(String.valueOf(line), refusal.findElement(By.cssSelector(".line.bad")).getAttribute("data-line"));
    long expectedOffset = bad.lines().limit(line - 1).mapToLong(l -> l.length() + 1).sum() + column - 1;
    assertEquals(expectedOffset, ((Number) browser.js("return document.getElementById('sql').selectionStart")).longValue());
    assertEquals(chargesBefore, budget(alice).get("charges").asInt(), "a refusal charges nothing");
    browser.screenshots("query-refused");
  }

  @Test
  void analystA_neverSeesAnalystBsHistory() {
    String bobsQuery = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.1)\n  COUNT(*) AS bobs_private_count\nFROM adult";
    Api.Response bobs = api.query(bob, bobsQuery, null);
    assertEquals(200, bobs.status(), bobs.text());
    signIn(alice);
    goTo("history");
    String page = Browser.text(browser.present(By.id("main")));
    assertFalse(page.contains("bobs_private_count"), "alice sees bob's query");
    for (WebElement row : browser.driver.findElements(By.cssSelector("#history-table tbody tr"))) {
      assertEquals("alice", row.findElements(By.tagName("td")).get(2).getText());
    }
    goTo("budget");
    assertFalse(Browser.text(browser.present(By.id("main"))).contains("bob"));

    signIn(root); // the curator sees everyone's charges, and the burn-down per analyst
    goTo("history");
    assertTrue(Browser.text(browser.present(By.id("history-table"))).contains("bobs_private_count"));
    goTo("budget");
    assertTrue(Browser.text(browser.present(By.cssSelector("figure[data-chart='burndown']"))).contains("spent by bob"));
    browser.screenshots("budget-curator");
  }

  @Test
  void attackerControlledNames_stayInert() {
    // An analyst's SQL (recorded in the history the curator reads) carrying markup.
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.1)\n  COUNT(*) AS n\nFROM adult\nWHERE workclass = '" + XSS_IMG + "'";
    Api.Response mallorys = api.query(mallory, sql, null);
    assertEquals(200, mallorys.status(), mallorys.text());
    signIn(root);
    // Public keys (category values) with markup, in the schema table.
    String text = Browser.text(browser.present(By.id("dataset-list")));
    assertTrue(text.contains(XSS_IMG) && text.contains(XSS_SCRIPT), "shown as text");
    assertInert();
    browser.screenshots("datasets-curator");
    goTo("history");
    assertTrue(Browser.text(browser.present(By.id("history-table"))).contains(XSS_IMG));
    assertTrue(Browser.text(browser.present(By.id("history-table"))).contains(XSS_ANALYST));
    assertInert();
    goTo("curator");
    assertTrue(Browser.text(browser.present(By.id("analysts-table"))).contains(XSS_ANALYST));
    assertInert();
    // A dataset and columns named with markup: the registration is refused, and the refusal (which
    // may quote the name) is shown as text.
    WebElement reg = browser.await(By.id("register-json"));
    String registration = "{\"name\": \"" + XSS_IMG + "\", \"source\": \"x.csv\", \"format\": \"csv\","
        + " \"csv\": {\"header\": false, \"delimiter\": \",\", \"columns\": [\"" + XSS_IMG + "\", \"" + XSS_SCRIPT.replace("/", "\\/") + "\"],"
        + " \"nullString\": \"\"}, \"privacyUnit\": null, \"relation\": \"ADD_REMOVE_ONE\","
        + " \"budget\": {\"measure\": \"pure\", \"epsilon\": 1}, \"accountant\": \"basic\", \"bounds\": {},"
        + " \"publicKeys\": {\"" + XSS_IMG + "\": [\"" + XSS_IMG + "\"]}}";
    browser.js("arguments[0].value = arguments[1]", reg, registration);
    browser.driver.findElement(By.cssSelector("#register-form button[type=submit]")).click();
    WebElement refused = browser.await(By.cssSelector("#register-result .error"));
    assertTrue(refused.getText().startsWith("bad_request") || refused.getText().startsWith("refused"), refused.getText());
    assertInert();
    assertTrue(api.get("/v1/datasets", root).json().findValuesAsText("name").stream().noneMatch(n -> n.contains("<")));
    goTo("query");
    WebElement editor = browser.await(By.id("sql"));
    editor.clear();
    editor.sendKeys("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.1)\n  COUNT(*) AS n\nFROM xss\nWHERE \"" + XSS_IMG + "\" = '" + XSS_SCRIPT + "' AND " + XSS_IMG);
    browser.driver.findElement(By.id("explain-button")).click();
    browser.await(By.cssSelector("#query-output .refusal, #query-output .error, #explain-table"));
    assertInert();
    browser.screenshots("query-markup-refused");
    goTo("budget");
    assertInert();
  }

  @Test
  void synthJob_runsToADownload_withTheSyntheticDatasOwnMarginals_chargedOnce() {
    double spentBefore = epsilon(api.get("/v1/budget?dataset=tiny", alice).json().get("spent"));
    signIn(alice);
    goTo("synth");
    new Select(browser.await(By.id("synth-dataset"))).selectByValue("tiny");
    new Select(browser.driver.findElement(By.id("synth-method"))).selectByValue("mwem");
    WebElement eps = browser.driver.findElement(By.id("synth-epsilon"));
    eps.clear();
    eps.sendKeys("0.5");
    browser.js("arguments[0].value = arguments[1]", browser.driver.findElement(By.id("synth-domain")), "{\"a\": 3, \"b\": 2, \"c\": 4}");
    assertLabelled();
    browser.driver.findElement(By.id("synth-start")).click();
    WebElement download = browser.await(By.id("synth-download"));
    assertTrue(download.getAttribute("href").startsWith("blob:"));
    String job = browser.present(By.id("synth-job")).getAttribute("data-job");
    Api.Response data = api.get("/v1/synth/" + job + "/data", alice);
    assertEquals(200, data.status(), data.text());
    download.click();
    Path file = browser.downloads().resolve("synthetic-" + job + ".csv");
    browser.wait.until(d -> Files.isRegularFile(file));
    browser.wait.until(d -> {
      try {
        return Files.readString(file).equals(data.text());
      } catch (IOException e) {
        return false;
      }
    });
    // The 1-way marginal of a, computed by the page from the synthetic CSV only.
    List<String> lines = data.text().lines().filter(l -> !l.isBlank()).toList();
    List<String> values = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)[0]).toList();
    for (List<String> row : tableRows("marginal-1")) {
      long count = values.stream().filter(v -> v.equals(row.get(0))).count();
      assertEquals((double) count / values.size(), Double.parseDouble(row.get(1)), 1e-12, row.toString());
    }
    new Select(browser.driver.findElement(By.id("marginal-b"))).selectByVisibleText("b");
    long distinctA = values.stream().distinct().count(); // the synthetic table's own values of a
    browser.wait.until(d -> tableRows("marginal-2").size() == distinctA);
    double total = 0;
    for (List<String> row : tableRows("marginal-2")) {
      for (String cell : row.subList(1, row.size())) {
        total += Double.parseDouble(cell);
      }
    }
    assertEquals(1.0, total, 1e-9, "the 2-way marginal's fractions add up to one");
    double spentAfter = epsilon(api.get("/v1/budget?dataset=tiny", alice).json().get("spent"));
    assertEquals(spentBefore + 0.5, spentAfter, 1e-12, "the synthesis is charged once, its epsilon");
    assertTrue(browser.driver.findElements(By.id("compare-real")).isEmpty(),
        "an analyst is never offered the comparison with the real data");
    browser.screenshots("synth");
  }

  /**
   * The curator, and only the curator, compares a synthetic table with the real one: the page
   * shows the per-marginal errors and the real against the synthetic 1-way fractions, exactly the
   * server's numbers (the real fractions of a = i mod 3 are 1/3 each), and charges nothing more.
   */
  @Test
  void synthJob_curatorComparesWithTheRealData_analystsCannot() {
    signIn(root);
    goTo("synth");
    new Select(browser.await(By.id("synth-dataset"))).selectByValue("tiny");
    new Select(browser.driver.findElement(By.id("synth-method"))).selectByValue("mwem");
    WebElement eps = browser.driver.findElement(By.id("synth-epsilon"));
    eps.clear();
    eps.sendKeys("0.25");
    browser.js("arguments[0].value = arguments[1]", browser.driver.findElement(By.id("synth-domain")), "{\"a\": 3, \"b\": 2, \"c\": 4}");
    browser.driver.findElement(By.id("synth-start")).click();
    browser.await(By.id("synth-download"));
    String job = browser.present(By.id("synth-job")).getAttribute("data-job");
    int charges = api.get("/v1/history?dataset=tiny", root).json().size();
    browser.await(By.id("compare-real")).click();
    browser.await(By.id("compare-summary"));
    JsonNode server = api.get("/v1/synth/" + job + "/comparison", root).json();
    List<List<String>> bars = tableRows("compare-1");
    assertEquals(3, bars.size(), "one row per value of a");
    for (int v = 0; v < 3; v++) {
      assertEquals(1.0 / 3, Double.parseDouble(bars.get(v).get(1)), 1e-12, "real fraction of a = " + v);
      assertEquals(server.get("attributes").get(0).get("synthetic").get(v).asDouble(),
          Double.parseDouble(bars.get(v).get(2)), 1e-12, "synthetic fraction of a = " + v);
    }
    assertEquals(403, api.get("/v1/synth/" + job + "/comparison", alice).status(), "analysts never see it");
    assertEquals(charges, api.get("/v1/history?dataset=tiny", root).json().size(), "the comparison charges nothing");
    browser.screenshots("synth-comparison");
  }

  /** A chart's table fallback as text cells (data-value where present). */
  @SuppressWarnings("unchecked")
  List<List<String>> tableRows(String chart) {
    return (List<List<String>>) browser.js("return Array.from(document.querySelectorAll(\"figure[data-chart='\" + arguments[0]"
        + " + \"'] table tbody tr\")).map(tr => Array.from(tr.querySelectorAll('td')).map(td => td.getAttribute('data-value') || td.textContent))", chart);
  }

  @Test
  void curator_addsAnAnalyst_theKeyIsShownOnce_andRevokes() {
    signIn(root);
    goTo("curator");
    browser.await(By.id("analyst-name")).sendKeys("carol");
    browser.driver.findElement(By.cssSelector("#analyst-form button[type=submit]")).click();
    String key = browser.await(By.id("new-key")).getText();
    assertEquals(200, api.get("/v1/datasets", key).status(), "the shown key works");
    assertLabelled();
    browser.screenshots("curator-new-key");
    browser.driver.findElement(By.cssSelector(".newkey button")).click();
    browser.awaitPage("curator");
    assertFalse(Browser.text(browser.present(By.id("main"))).contains(key), "the key is shown once only");
    browser.present(By.cssSelector("button[data-revoke='carol']")).click();
    browser.wait.until(d -> {
      try {
        d.switchTo().alert().accept();
        return true;
      } catch (org.openqa.selenium.NoAlertPresentException e) {
        return false;
      }
    });
    browser.wait.until(d -> d.findElements(By.cssSelector("button[data-revoke='carol']")).isEmpty());
    assertEquals(401, api.get("/v1/datasets", key).status(), "a revoked key fails from the next request on");
    browser.screenshots("curator");
  }
}
