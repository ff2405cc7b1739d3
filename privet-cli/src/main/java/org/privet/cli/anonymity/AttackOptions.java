package org.privet.cli.anonymity;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.privet.anonymity.attacks.AdultAttacks;
import org.privet.anonymity.attacks.HtmlReport;
import picocli.CommandLine.Option;

/** Shared options of the attacks: the bundled Adult data, the ε of the DP side, the HTML report. */
final class AttackOptions {
  @Option(names = "--data", paramLabel = "DIR",
      description = "Folder holding adult-raw and adult-pgm (default: the bundled data/ next to the privet launcher).")
  Path data;

  @Option(names = "--epsilon", defaultValue = "1",
      description = "Total epsilon of the DP side (default: ${DEFAULT-VALUE}).")
  double epsilon;

  @Option(names = "--out", paramLabel = "FILE.html",
      description = "Where to write the self-contained HTML report (default: ${DEFAULT-VALUE}).")
  Path out;

  AdultAttacks adult() throws IOException {
    if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException("--epsilon must be a positive number");
    }
    return new AdultAttacks(data != null ? data : AdultAttacks.locate(jarFolder()));
  }

  Path out(String name) {
    return out != null ? out : Path.of("privet-attack-" + name + ".html");
  }

  void write(HtmlReport report, String name, PrintWriter o) throws IOException {
    Path file = out(name);
    report.write(file);
    o.println("HTML report: " + file.toAbsolutePath());
  }

  static Path jarFolder() {
    try {
      return org.privet.cli.JarLocation.path();
    } catch (IllegalStateException e) {
      return Path.of("").toAbsolutePath();
    }
  }
}
