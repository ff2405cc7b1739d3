package org.privet.server;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium (Debian's chromium and chromium-driver) driven by Selenium, for the
 * console's browser tests. One per test class. Without /usr/bin/chromedriver the tests are skipped,
 * except in CI (env CI=true), where a missing browser is a failure: .ci/run installs it.
 */
public final class Browser implements AutoCloseable {
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final List<Dimension> SIZES = List.of(new Dimension(1280, 800), new Dimension(390, 844));

  public final ChromeDriver driver;
  public final WebDriverWait wait;
  private final Path profile;

  private Browser(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
    this.wait = new WebDriverWait(driver, Duration.ofSeconds(60));
    this.wait.ignoring(StaleElementReferenceException.class); // pages re-render as answers arrive
  }

  /** Starts Chromium, or skips the calling test class when it is not installed (fails in CI). */
  public static Browser startOrSkip() {
    if (!Files.isExecutable(CHROMEDRIVER) || !Files.isExecutable(CHROMIUM)) {
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail("CI=true but " + CHROMEDRIVER + " or " + CHROMIUM + " is missing: .ci/run installs chromium and chromium-driver");
      }
      Assumptions.abort("no chromium/chromedriver installed (apt-get install -y chromium chromium-driver)");
    }
    try {
      Path profile = Files.createTempDirectory("privet-chromium-");
      ChromeOptions o = new ChromeOptions();
      o.setBinary(CHROMIUM.toFile());
      o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--disable-dev-shm-usage", "--window-size=1280,800", "--user-data-dir=" + profile);
      ChromeDriverService service = new ChromeDriverService.Builder()
          .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
      Path downloads = Files.createDirectories(profile.resolve("downloads"));
      o.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(),
          "download.prompt_for_download", false));
      ChromeDriver driver = new ChromeDriver(service, o);
      driver.executeCdpCommand("Browser.setDownloadBehavior", Map.of("behavior", "allow", "downloadPath", downloads.toString()));
      return new Browser(driver, profile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Where the browser saves downloads. */
  public Path downloads() {
    return profile.resolve("downloads");
  }

  public void open(String url) {
    driver.get(url);
  }

  /** Waits for the page (data-page on main) to finish loading. */
  public void awaitPage(String page) {
    wait.until(d -> page.equals(d.findElement(By.id("main")).getAttribute("data-page"))
        && "false".equals(d.findElement(By.id("main")).getAttribute("aria-busy")));
  }

  public WebElement await(By by) {
    return wait.until(ExpectedConditions.visibilityOfElementLocated(by));
  }

  public WebElement present(By by) {
    return wait.until(ExpectedConditions.presenceOfElementLocated(by));
  }

  public Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /** The full text of an element, hidden or not (e.g. a closed table fallback). */
  public static String text(WebElement e) {
    return e.getAttribute("textContent");
  }

  /**
   * Saves target/screenshots/NAME-WxH.png with the viewport at each size (1280×800 desktop, 390×844
   * phone, emulated exactly through the DevTools protocol), and NAME-WxH-full.png with the whole page.
   */
  public void screenshots(String name) {
    screenshots(name, null);
  }

  /** As {@link #screenshots(String)}, with the element of id {@code scrollTo} scrolled into view. */
  public void screenshots(String name, String scrollTo) {
    try {
      Path dir = Path.of("target", "screenshots");
      Files.createDirectories(dir);
      for (Dimension size : SIZES) {
        boolean phone = size.getWidth() < 600;
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", size.getWidth(),
            "height", size.getHeight(), "deviceScaleFactor", 1, "mobile", phone));
        if (scrollTo == null) {
          js("window.scrollTo(0, 0)");
        } else {
          js("document.getElementById(arguments[0]).scrollIntoView()", scrollTo);
        }
        js("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))");
        String file = name + "-" + size.getWidth() + "x" + size.getHeight();
        save(dir.resolve(file + ".png"), driver.executeCdpCommand("Page.captureScreenshot", Map.of("format", "png")));
        save(dir.resolve(file + "-full.png"), driver.executeCdpCommand("Page.captureScreenshot",
            Map.of("format", "png", "captureBeyondViewport", true)));
      }
      driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void save(Path file, Map<String, Object> capture) throws IOException {
    Files.write(file, Base64.getDecoder().decode((String) capture.get("data")));
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      try (var walk = Files.walk(profile)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // a leftover temp profile is harmless
      }
    }
  }
}
