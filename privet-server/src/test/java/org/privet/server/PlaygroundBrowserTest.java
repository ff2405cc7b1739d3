package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.PoissonSubsampled;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.RdpAccountant;
import org.privet.accounting.ZcdpAccountant;
import org.privet.mechanisms.FrequencyEstimate;
import org.privet.mechanisms.RandomizedResponse;

/**
 * The playground in a real headless Chromium, without signing in: the randomized-response and
 * composition charts render, and the numbers in their table fallbacks are privet-core's own (the
 * library is called here directly and compared exactly).
 */
class PlaygroundBrowserTest extends LoopbackServerTest {

  @BeforeAll
  static void openPlayground() {
    browser = Browser.startOrSkip();
    browser.open(server.url() + "/#/playground");
    browser.awaitPage("playground");
  }

  /** The table fallback of a chart: one list of data-value numbers per row (read in one script, never stale). */
  @SuppressWarnings("unchecked")
  static List<List<Double>> rows(String chart) {
    List<List<String>> raw = (List<List<String>>) browser.js("return Array.from(document.querySelectorAll("
        + "\"figure[data-chart='\" + arguments[0] + \"'] table tbody tr\")).map(tr => Array.from(tr.querySelectorAll('td'))"
        + ".map(td => td.getAttribute('data-value')))", chart);
    List<List<Double>> out = new ArrayList<>();
    for (List<String> r : raw) {
      List<Double> row = new ArrayList<>();
      r.forEach(v -> row.add(v == null ? null : Double.valueOf(v)));
      out.add(row);
    }
    return out;
  }

  static void submit(String formId) {
    browser.driver.findElement(By.cssSelector("#" + formId + " button[type=submit]")).click();
  }

  static void set(String id, String value) {
    WebElement e = browser.driver.findElement(By.id(id));
    e.clear();
    e.sendKeys(value);
  }

  @Test
  void randomizedResponse_eachPointIsTheLibrarysEstimate_withItsInterval() {
    set("rr-epsilon", "2");
    set("rr-truth", "0.25");
    set("rr-maxn", "5000");
    submit("rr-form");
    browser.wait.until(d -> {
      List<List<Double>> r = rows("rr-chart");
      return r.size() == 9 && r.get(8).get(0) == 5000.0; // n = 10, 20, 50, ..., 2000, 5000
    });
    RandomizedResponse rr = RandomizedResponse.builder().epsilon(2).build();
    assertEquals(rr.truthProbability(), Double.parseDouble(browser.await(By.id("rr-summary")).getAttribute("data-truth-probability")), 0);
    for (List<Double> row : rows("rr-chart")) {
      long n = row.get(0).longValue();
      // The displayed estimate is the library's estimate for exactly one count of "yes" answers;
      // find it (the estimate increases with the count) and compare the interval exactly.
      long lo = 0;
      long hi = n;
      while (lo < hi) {
        long mid = (lo + hi) >>> 1;
        if (rr.estimateFrequency(mid, n, 0.05).estimate() < row.get(1)) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      FrequencyEstimate e = rr.estimateFrequency(lo, n, 0.05);
      assertEquals(e.estimate(), row.get(1), 0, "n=" + n);
      assertEquals(e.interval().lower(), row.get(2), 0, "n=" + n);
      assertEquals(e.interval().upper(), row.get(3), 0, "n=" + n);
      assertEquals(0.25, row.get(4), 0, "the truth line");
    }
    assertEquals(9, browser.driver.findElements(By.cssSelector("figure[data-chart='rr-chart'] .points circle")).size());
    assertEquals(27, browser.driver.findElements(By.cssSelector("figure[data-chart='rr-chart'] .errbars line")).size());
    browser.screenshots("playground-rr", "pg-rr");
  }

  @Test
  void composition_fiveAccountantsOnOneChart_samplingSliderByKeyboard_numbersAreTheLibrarys() {
    new Select(browser.driver.findElement(By.id("co-mechanism"))).selectByValue("gaussian");
    set("co-param", "2");
    set("co-maxk", "200");
    WebElement rate = browser.driver.findElement(By.id("co-rate"));
    rate.sendKeys(Keys.HOME); // 0.01
    for (int i = 0; i < 9; i++) {
      rate.sendKeys(Keys.ARROW_RIGHT);
    }
    assertEquals("0.1", browser.driver.findElement(By.id("co-rate-value")).getText());
    // Moving the slider redraws the chart by itself (debounced), with the other inputs as they stand.
    browser.wait.until(d -> {
      List<List<Double>> r = rows("co-chart");
      return "false".equals(d.findElement(By.id("co-out")).getAttribute("aria-busy"))
          && !r.isEmpty() && r.get(r.size() - 1).get(0) == 200.0
          && String.valueOf(browser.js("return document.querySelector(\"figure[data-chart='co-chart'] figcaption\").textContent"))
              .contains("sampling rate 0.1)");
    });
    @SuppressWarnings("unchecked")
    List<String> headers = (List<String>) browser.js("return Array.from(document.querySelectorAll("
        + "\"figure[data-chart='co-chart'] thead th\")).map(th => th.textContent)");
    assertEquals(List.of("runs k", "basic", "advanced", "zCDP", "RDP", "PLD"), headers);
    assertEquals(5, browser.driver.findElements(By.cssSelector("figure[data-chart='co-chart'] path.series")).size());
    PrivacyLoss event = new PoissonSubsampled(new MechanismLoss.Gaussian(2), 0.1);
    for (List<Double> row : rows("co-chart")) {
      int k = row.get(0).intValue();
      List<PrivacyLoss> events = Collections.nCopies(k, event);
      assertEquals(new RdpAccountant().compose(events, 1e-5).epsilon(), row.get(4), 0, "RDP at k=" + k);
      Double pld = row.get(5); // computed up to k = 200 in the open playground
      assertTrue(pld != null || k > 200, "PLD at k=" + k);
      if (pld != null) {
        assertTrue(pld <= row.get(4) * 1.02, "PLD is at least about as tight as RDP at k=" + k);
        assertTrue(row.get(1) >= pld, "basic composition is never tighter than PLD at k=" + k);
      }
    }
    // zCDP has no reading of a subsampled Gaussian: no curve, and the reason is shown.
    List<List<Double>> r = rows("co-chart");
    if (r.get(0).get(3) == null) {
      assertTrue(Browser.text(browser.present(By.id("co-out"))).contains("zCDP:"));
    } else {
      assertEquals(ZcdpAccountant.INSTANCE.compose(List.of(event), 1e-5).epsilon(), r.get(0).get(3), 0);
    }
    browser.screenshots("playground-composition", "pg-composition");
  }

  @Test
  void neighboursAndSelection_render_andEveryViewIsReachableByKeyboard() {
    browser.wait.until(d -> !rows("nb-density").isEmpty() && !rows("se-chart").isEmpty() && !rows("ht-chart").isEmpty());
    new Select(browser.driver.findElement(By.id("nb-mechanism"))).selectByValue("gaussian");
    set("nb-epsilon", "1");
    set("nb-delta", "0.001");
    browser.driver.findElement(By.id("nb-delta")).sendKeys(Keys.ENTER); // keyboard submit
    browser.wait.until(d -> Browser.text(d.findElement(By.id("nb-summary"))).contains("δ spent"));
    double profile = MechanismLoss.Gaussian.analyticDelta(1, 1,
        org.privet.mechanisms.GaussianMechanism.builder().epsilon(1).delta(0.001).sensitivity(1).build().sigma());
    assertEquals(profile, Double.parseDouble(browser.driver.findElement(By.id("nb-summary")).getAttribute("data-profile-delta")), 0);
    assertTrue(browser.driver.findElements(By.cssSelector("figure[data-chart='nb-density'] rect.shade")).size() >= 1,
        "the Gaussian's delta region is shaded");
    for (String id : List.of("rr-form", "nb-form", "co-form", "se-form")) {
      for (WebElement control : browser.driver.findElements(By.cssSelector("#" + id + " input, #" + id + " select"))) {
        String cid = control.getAttribute("id");
        assertEquals(1, browser.driver.findElements(By.cssSelector("label[for='" + cid + "']")).size(), "label for " + cid);
      }
    }
    browser.screenshots("playground-neighbours", "pg-neighbours");
    browser.screenshots("playground-test", "pg-test");
    browser.screenshots("playground-selection", "pg-selection");
    browser.screenshots("playground", null);
  }
}
