package org.privet.cli.anonymity;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.privet.anonymity.attacks.AdultAttacks;
import org.privet.anonymity.attacks.DifferencingAttack;
import org.privet.anonymity.attacks.HtmlReport;
import org.privet.anonymity.attacks.LinkageAttack;
import org.privet.anonymity.attacks.NetflixAttack;
import org.privet.anonymity.attacks.ReconstructionAttack;
import org.privet.random.RandomSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code privet demo attacks}: why DP, on the bundled UCI Adult data. Runs linkage (attack 1),
 * differencing (attack 3) and reconstruction (attack 4), and the Netflix Prize attack (attack 6, on
 * a synthetic sparse ratings table), prints one table side by side (raw or anonymized data;
 * k-anonymity; DP with its ε) and writes the HTML report with the charts.
 */
@Command(
    name = "attacks",
    mixinStandardHelpOptions = true,
    description = "Why DP: linkage, differencing and reconstruction attacks on the bundled UCI Adult data, and the"
        + " Netflix Prize attack on a synthetic ratings table.")
public final class DemoAttacksCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @Mixin AttackOptions options;

  private static final int RECONSTRUCTION_K = 10;
  private static final int DIFFERENCING_TRIALS = 1000;
  private static final int NETFLIX_USERS = 10_000;

  @Override
  public Integer call() throws IOException {
    PrintWriter o = spec.commandLine().getOut();
    AdultAttacks adult = options.adult();
    double eps = options.epsilon;
    RandomSource random = RandomSource.secure();
    var progress = AttackCommand.progress(spec);
    o.println("Privet demo: the attacks that break anonymization and exact answers, and what DP does");
    o.println("Data: UCI Adult (\"Census Income\"), Kohavi & Becker 1996; UCI ML Repository, doi:10.24432/C5XW20,"
        + " CC BY 4.0 (see data/adult-raw/README.md, data/adult-pgm/README.md)");
    o.println();
    List<LinkageAttack.Outcome> linkage = adult.linkage(eps, 1e-9, random, progress);
    Path ws = Files.createTempDirectory("privet-demo-attacks-");
    DifferencingAttack.Outcome diff;
    try {
      diff = adult.differencing(eps, DIFFERENCING_TRIALS, random, ws, progress);
    } finally {
      deleteTree(ws);
    }
    progress.accept("reconstruction");
    ReconstructionAttack.Outcome rec = adult.reconstruction(256, AttackCommand.RECONSTRUCTION_QUERIES, eps,
        RECONSTRUCTION_K, random);
    ReconstructionAttack.Point big = rec.points().get(rec.points().size() - 1);
    NetflixAttack.Outcome netflix = NetflixAttack.run(NETFLIX_USERS, 8, 2, 14, eps, random, progress);
    NetflixAttack.Row nf = netflix.given();

    String e = HtmlReport.number(eps);
    String[][] rows = {
      {"attack", "raw data", "k-anonymity", "DP (epsilon = " + e + ")"},
      {"1 linkage: people re-identified", HtmlReport.percent(linkage.get(0).reidentifiedRate()),
          "k=2,5,10: " + HtmlReport.percent(linkage.get(1).reidentifiedRate()) + ", "
              + HtmlReport.percent(linkage.get(2).reidentifiedRate()) + ", "
              + HtmlReport.percent(linkage.get(3).reidentifiedRate()),
          "AIM synthetic: " + HtmlReport.percent(linkage.get(4).reidentifiedRate()) + " by chance*"},
      {"3 differencing: attacker's mean |error|", String.format(Locale.ROOT, "%.1g hours", diff.exactMeanAbsError()),
          "same as raw**", String.format(Locale.ROOT, "%.0f hours", diff.dpMeanAbsError())},
      {"4 reconstruction: bits recovered (m=" + big.queries() + ")", HtmlReport.percent(big.exactRecovered()),
          HtmlReport.percent(big.restrictedRecovered()) + " (sets >= " + RECONSTRUCTION_K + ")",
          HtmlReport.percent(big.dpRecovered()) + " (chance " + HtmlReport.percent(0.5) + "-"
              + HtmlReport.percent(rec.majority()) + ")"},
      {"6 Netflix: re-identified (8 ratings)", HtmlReport.percent(nf.anonymized().reidentified()) + "***",
          "n/a (no quasi-identifiers)", HtmlReport.percent(nf.dp().reidentified()) + " (chance "
              + HtmlReport.percent(nf.chance()) + ")"},
    };
    printTable(o, rows);
    o.println();
    o.printf(Locale.ROOT, "*  Synthetic records belong to no one: %s of people are linked by coincidence, and the linked"
        + " value is right %s of the time, vs %s by guessing the commonest value.%n",
        HtmlReport.percent(linkage.get(4).linkedRate()), HtmlReport.percent(linkage.get(4).precision()),
        HtmlReport.percent(linkage.get(4).baseline()));
    o.println("** k-anonymity has no answer for aggregates; its analogue, refusing queries over fewer than k people,"
        + " answers both averages (n and n-1 people), so the exact error stands.");
    o.println("   The ledger: " + diff.refusal());
    o.println("*** Netflix Prize-style release (ids, perturbed ratings) of a SYNTHETIC sparse ratings table; the"
        + " attacker knows 8 ratings, 2 of them wrong, dates +-14 days (the paper: 99%). The DP side is a synthetic"
        + " table from user-level DP histograms.");
    o.println();
    o.print(LinkageAttack.summary(linkage));
    o.println();
    o.print(DifferencingAttack.summary(diff));
    o.println();
    o.print(ReconstructionAttack.summary(rec));
    o.println();
    o.print(NetflixAttack.summary(netflix));
    HtmlReport html = new HtmlReport("Privet: why differential privacy (attacks on UCI Adult)");
    html.paragraph("Data: UCI Adult (Kohavi & Becker 1996), UCI Machine Learning Repository, doi:10.24432/C5XW20,"
        + " CC BY 4.0. Generated by: ./privet demo attacks. Every figure below is from this run.");
    html.table(List.of(rows[0]), Stream.of(rows).skip(1).map(List::of).toList());
    LinkageAttack.report(html, linkage, AttackCommand.LINKAGE_SETUP);
    DifferencingAttack.report(html, diff, AttackCommand.DIFFERENCING_SETUP);
    ReconstructionAttack.report(html, rec, AttackCommand.RECONSTRUCTION_SETUP);
    NetflixAttack.report(html, netflix, NetflixAttackCommand.SETUP);
    o.println();
    options.write(html, "demo", o);
    o.flush();
    return 0;
  }

  private static void printTable(PrintWriter o, String[][] rows) {
    int[] w = new int[rows[0].length];
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        w[i] = Math.max(w[i], r[i].length());
      }
    }
    for (int j = 0; j < rows.length; j++) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < rows[j].length; i++) {
        line.append(String.format(Locale.ROOT, "%-" + w[i] + "s", rows[j][i])).append(i + 1 < rows[j].length ? " | " : "");
      }
      o.println(line.toString().stripTrailing());
      if (j == 0) {
        o.println("-".repeat(line.length()));
      }
    }
  }

  static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A leftover temporary folder is harmless.
    }
  }
}
