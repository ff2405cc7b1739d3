package org.privet.cli.anonymity;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.privet.anonymity.attacks.HtmlReport;
import org.privet.anonymity.attacks.NetflixAttack;
import org.privet.random.RandomSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code privet attack netflix}: attack 6, the Netflix Prize de-anonymization (Narayanan &amp;
 * Shmatikov 2008) on a synthetic sparse ratings table, against a Prize-style anonymized release and
 * a user-level DP synthetic release ({@link NetflixAttack}).
 */
@Command(
    name = "netflix",
    mixinStandardHelpOptions = true,
    description =
        "Attack 6: re-identify sparse records from a few approximately known ratings (Netflix"
            + " Prize), anonymized vs DP synthetic release, on a synthetic ratings table.")
public final class NetflixAttackCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--users",
      defaultValue = "10000",
      description = "Users of the synthetic table, 20 to 200000 (default: ${DEFAULT-VALUE}).")
  int users;

  @Option(
      names = "--known",
      defaultValue = "8",
      description =
          "Ratings of the target the attacker knows, 1 to 10 (default: ${DEFAULT-VALUE}).")
  int known;

  @Option(
      names = "--wrong",
      defaultValue = "2",
      description =
          "How many of the known ratings are wrong, 0 to known-1 (default: ${DEFAULT-VALUE}).")
  int wrong;

  @Option(
      names = "--days",
      defaultValue = "14",
      description = "The known dates' error in days, 0 to 365 (default: ${DEFAULT-VALUE}).")
  int days;

  @Option(
      names = "--epsilon",
      defaultValue = "1",
      description = "Epsilon of the DP synthetic release, per user (default: ${DEFAULT-VALUE}).")
  double epsilon;

  @Option(
      names = "--format",
      defaultValue = "table",
      description =
          "table (the sweep K = 2..8 and an HTML report) or json (the K given) (default:"
              + " ${DEFAULT-VALUE}).")
  String format;

  @Option(
      names = "--out",
      paramLabel = "FILE.html",
      description =
          "Where to write the HTML report (default: privet-attack-netflix.html; with --format json,"
              + " only if given).")
  Path out;

  static final String SETUP =
      "A SYNTHETIC sparse ratings table (user, item, stars, date) with the Netflix Prize's shape:"
          + " heavy-tailed item popularity and user activity, a long tail of rarely rated items"
          + " (the real data cannot be shipped). The attacker knows K of a target's ratings, stars"
          + " to +-1 and dates to +-D days, W of them wrong, and runs Scoreboard-RH (Narayanan &"
          + " Shmatikov 2008): each record's score sums 1/log(support) over the known items it"
          + " matches; the best record is named only if it stands out, (best - second)/sigma >="
          + " 1.5, else the attacker abstains. The anonymized release is the Prize's: random ids,"
          + " 5% of ratings deleted, 5% re-starred, 10% moved by up to a week, 3% inserted. The DP"
          + " release is synthetic records drawn from noisy item, (stars, month) and activity"
          + " histograms, user-level epsilon-DP. Chance: the same attack for people not in the"
          + " table.";

  @Override
  public Integer call() throws IOException {
    if (users < 20 || users > 200_000) {
      throw new IllegalArgumentException("--users must be in [20, 200000]");
    }
    if (known < 1 || known > 10 || wrong < 0 || wrong >= known) {
      throw new IllegalArgumentException("--known must be in [1, 10] and --wrong in [0, known-1]");
    }
    if (days < 0 || days > 365) {
      throw new IllegalArgumentException("--days must be in [0, 365]");
    }
    if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException("--epsilon must be a positive number");
    }
    if (!format.equals("table") && !format.equals("json")) {
      throw new IllegalArgumentException("--format must be table or json");
    }
    PrintWriter o = spec.commandLine().getOut();
    NetflixAttack.Outcome r =
        NetflixAttack.run(
            users,
            known,
            wrong,
            days,
            epsilon,
            RandomSource.secure(),
            AttackCommand.progress(spec));
    HtmlReport html = new HtmlReport("Privet attack: the Netflix Prize");
    NetflixAttack.report(html, r, SETUP);
    if (format.equals("json")) {
      o.println(json(r).toPrettyString());
      if (out != null) {
        html.write(out);
      }
    } else {
      o.print(NetflixAttack.summary(r));
      Path file = out != null ? out : Path.of("privet-attack-netflix.html");
      html.write(file);
      o.println("HTML report: " + file.toAbsolutePath());
    }
    o.flush();
    return 0;
  }

  /** {@code {"anonymized": {...}, "dp": {...}}} for the K and W given. */
  static ObjectNode json(NetflixAttack.Outcome r) {
    ObjectMapper m = new ObjectMapper();
    ObjectNode root = m.createObjectNode();
    NetflixAttack.Row g = r.given();
    ObjectNode a = shares(root.putObject("anonymized"), g.anonymized(), g, r);
    a.put("release", "ids, ratings deleted, perturbed and inserted (Prize-style)");
    ObjectNode d = shares(root.putObject("dp"), g.dp(), g, r);
    d.put("chance", g.chance());
    d.put("epsilon", r.spent().epsilon());
    d.put("delta", r.spent().delta());
    d.put("records", r.dpRecords());
    d.put("release", "synthetic records from noisy histograms, user-level DP");
    return root;
  }

  private static ObjectNode shares(
      ObjectNode n, NetflixAttack.Shares s, NetflixAttack.Row g, NetflixAttack.Outcome r) {
    n.put("known", g.known());
    n.put("wrongRatings", g.wrongRatings());
    n.put("days", r.days());
    n.put("targets", s.targets());
    n.put("reidentified", s.reidentified());
    n.put("wrong", s.wrong());
    n.put("abstained", s.abstained());
    return n;
  }
}
