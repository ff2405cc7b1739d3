package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.privet.server.Browser;

/**
 * The README's console quick start, as a new user does it: {@code privet serve --demo} in its own
 * process, open the printed URL in a real headless Chromium, sign in with the printed key, run the
 * demo queries and watch the budget drop by each query's ε.
 */
class ConsoleQuickStartTest {
  static Process serve;
  static String url;
  static String key;
  static Browser browser;

  @BeforeAll
  static void start() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    serve = new ProcessBuilder(java, "-Xmx512m", "-XX:+UseSerialGC", "-cp", cp, PrivetCommand.class.getName(),
        "serve", "--demo", "--port", "0").start();
    BlockingQueue<String> out = lines(serve.getInputStream());
    BlockingQueue<String> err = lines(serve.getErrorStream());
    key = out.poll(120, TimeUnit.SECONDS);
    for (String line = err.poll(120, TimeUnit.SECONDS); line != null; line = err.poll(120, TimeUnit.SECONDS)) {
      if (line.startsWith("privet: serving on ")) {
        url = line.substring("privet: serving on ".length());
        break;
      }
    }
    assertTrue(key != null && url != null, "privet serve --demo printed a key and its URL");
    browser = Browser.startOrSkip();
  }

  private static BlockingQueue<String> lines(java.io.InputStream in) {
    BlockingQueue<String> q = new LinkedBlockingQueue<>();
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          q.add(line);
        }
      } catch (IOException e) {
        // the process ended
      }
    }, "serve-output");
    t.setDaemon(true);
    t.start();
    return q;
  }

  @AfterAll
  static void stop() throws InterruptedException {
    try {
      if (browser != null) {
        browser.close();
      }
    } finally {
      serve.destroy(); // SIGTERM: privet serve stops cleanly
      if (!serve.waitFor(30, TimeUnit.SECONDS)) {
        serve.destroyForcibly();
      }
    }
  }

  static double spent() {
    return Double.parseDouble(browser.present(By.cssSelector("#query-budget .gauge")).getAttribute("data-spent"));
  }

  @Test
  void readmeQuickStart_signInWithThePrintedKey_runTheDemoQueries_budgetDrops() {
    browser.open(url);
    browser.awaitPage("signin");
    browser.await(By.id("apikey")).sendKeys(key);
    browser.driver.findElement(By.id("signin")).click();
    browser.awaitPage("datasets");
    assertEquals(List.of("adult"), browser.driver.findElements(By.cssSelector(".dataset-name")).stream()
        .map(WebElement::getText).toList());
    browser.js("location.hash = '#/query'");
    browser.awaitPage("query");
    double before = spent();
    assertEquals(0.0, before, 0);
    for (int i = 0; i < 3; i++) {
      browser.await(By.id("example-" + i)).click();
      browser.driver.findElement(By.id("run-button")).click();
      double expected = 0.25 * (i + 1);
      browser.wait.until(d -> Math.abs(spent() - expected) < 1e-9);
      assertTrue(browser.present(By.id("result-table")).isDisplayed());
      assertTrue(Browser.text(browser.present(By.id("charge"))).contains("adult"));
    }
    WebElement gauge = browser.present(By.cssSelector("#query-budget .gauge"));
    assertEquals(0.25, Double.parseDouble(gauge.getAttribute("data-remaining")), 1e-9, "ε = 1 share, 0.75 spent");
    browser.screenshots("quickstart-query");
  }
}
