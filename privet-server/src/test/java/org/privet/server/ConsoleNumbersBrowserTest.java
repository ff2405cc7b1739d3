package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BudgetFormat;
import org.privet.curator.LedgerCatalog;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.Role;
import org.privet.testing.LongTails;

/**
 * Numbers people read in the web console (issue 22, item 5), in a real headless Chromium against a
 * real server: after realistic spends (ε = 0.1 three times, then 0.2) no page shows a budget with
 * a long float tail, and the console's budgetText rounds exactly as {@link BudgetFormat} does.
 */
class ConsoleNumbersBrowserTest extends LoopbackServerTest {
  static final String COUNT = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = %s) COUNT(*) AS n"
      + " FROM tiny";

  @TempDir static Path dir;
  static String alice;

  @BeforeAll
  static void start() throws IOException {
    Path tiny = dir.resolve("tiny.csv");
    StringBuilder rows = new StringBuilder("a,b\n");
    for (int i = 0; i < 300; i++) {
      rows.append(i % 3).append(',').append(i % 2).append('\n');
    }
    Files.writeString(tiny, rows);
    try (Ledger ledger = Ledger.open(workspace)) {
      LedgerCatalog.register(ledger, DatasetSpec.builder().name("tiny").source(tiny.toString())
          .csv(CsvOptions.DEFAULT).privacyUnit(PrivacyUnit.row()).budget(new ApproxDp(1, 1e-6))
          .build(), java.util.Optional.empty());
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      ledger.grant("tiny", "alice", new ApproxDp(1, 1e-6));
    }
    browser = Browser.startOrSkip();
  }

  private void signIn() {
    browser.open(server.url() + "/#/signin");
    browser.js("sessionStorage.clear()");
    browser.driver.navigate().refresh();
    browser.awaitPage("signin");
    browser.await(By.id("apikey")).sendKeys(alice);
    browser.driver.findElement(By.id("signin")).click();
    browser.awaitPage("datasets");
  }

  private String pageText(String page) {
    browser.js("location.hash = arguments[0]", "#/" + page);
    browser.awaitPage(page);
    return (String) browser.js("return document.body.innerText");
  }

  @Test
  void pages_afterRealisticSpends_noLongFloatTails() {
    for (String e : new String[] {"0.1", "0.1", "0.1", "0.2"}) {
      Api.Response r = api.post("/v1/query", alice,
          Api.JSON.createObjectNode().put("sql", String.format(COUNT, e)).toString());
      assertEquals(200, r.status(), r.text());
    }
    signIn();
    List<String> texts = new ArrayList<>();
    for (String page : List.of("datasets", "budget", "history")) {
      texts.add(pageText(page));
    }
    pageText("query");
    WebElement sql = browser.await(By.id("sql"));
    sql.clear();
    sql.sendKeys(String.format(COUNT, "0.1"));
    browser.driver.findElement(By.id("explain-button")).click();
    texts.add(browser.await(By.id("explain-cost")).getText());
    texts.add((String) browser.js("return document.body.innerText"));
    sql.clear();
    sql.sendKeys(String.format(COUNT, "0.6"));
    browser.driver.findElement(By.id("run-button")).click();
    browser.await(By.cssSelector(".error"));
    texts.add((String) browser.js("return document.body.innerText"));
    for (String t : texts) {
      assertTrue(LongTails.in(t).isEmpty(), LongTails.in(t) + " in\n" + t);
    }
    assertTrue(String.join("\n", texts).contains("spent 0.5 ε"), String.join("\n", texts));
    // The scanner's power: the exact spend the JSON keeps (each charge is just under its ε, so
    // 0.4999999999995), printed raw, is a long tail.
    double spent = api.get("/v1/budget?dataset=tiny", alice).json().path("spent").path("epsilon")
        .asDouble();
    assertFalse(LongTails.in("ε = " + spent).isEmpty(), "raw, the spend " + spent + " is a tail");
  }

  /** budgetUp/budgetDown in the browser against BudgetFormat on fixed and random values. */
  @Test
  void budgetText_matchesBudgetFormat() {
    browser.open(server.url() + "/#/signin");
    browser.awaitPage("signin");
    List<Double> values = new ArrayList<>(List.of(0.5000000000005, 0.4999999999995,
        9.99999999999E-7, 1.0 / 3, -1.0 / 3, 0.1 + 0.2, 0.1, 12345.6, 12345678.0, 1e-4, 1e-6,
        1.9999999999980005, 99999.5, 999999.0, 0.5, 2.0));
    SplittableRandom r = new SplittableRandom(22);
    for (int i = 0; i < 300; i++) {
      values.add(Math.exp(r.nextDouble(-30, 12)));
    }
    @SuppressWarnings("unchecked")
    List<List<String>> got = (List<List<String>>) ((JavascriptExecutor) browser.driver)
        .executeAsyncScript("const vs = arguments[0], done = arguments[arguments.length - 1];"
            + "import('/console/charts.js').then((m) => done(vs.map((v) =>"
            + " [m.budgetUp(v), m.budgetDown(v)])));", values);
    for (int i = 0; i < values.size(); i++) {
      double v = values.get(i);
      assertEquals(BudgetFormat.up(v), got.get(i).get(0), "up " + v);
      assertEquals(BudgetFormat.down(v), got.get(i).get(1), "down " + v);
    }
  }
}
