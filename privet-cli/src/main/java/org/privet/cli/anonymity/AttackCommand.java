package org.privet.cli.anonymity;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.privet.anonymity.attacks.AdultAttacks;
import org.privet.anonymity.attacks.DifferencingAttack;
import org.privet.anonymity.attacks.HomogeneityAttack;
import org.privet.anonymity.attacks.HtmlReport;
import org.privet.anonymity.attacks.LinkageAttack;
import org.privet.anonymity.attacks.MembershipAttack;
import org.privet.anonymity.attacks.ReconstructionAttack;
import org.privet.random.RandomSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code privet attack ...}: the attacks that break anonymization and exact answers, run on the
 * bundled UCI Adult data, each with a text summary and a self-contained HTML report.
 */
@Command(
    name = "attack",
    mixinStandardHelpOptions = true,
    description = "Run an attack on the bundled UCI Adult data: raw vs k-anonymous vs DP.",
    subcommands = {
      AttackCommand.Linkage.class,
      AttackCommand.Homogeneity.class,
      AttackCommand.Differencing.class,
      AttackCommand.Reconstruction.class,
      AttackCommand.Membership.class,
      NetflixAttackCommand.class,
    })
public final class AttackCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  static final String LINKAGE_SETUP = "Released: adult-pgm's 48,842 people with quasi-identifiers "
      + String.join(", ", AdultAttacks.LINKAGE_QIS) + " and the sensitive " + AdultAttacks.LINKAGE_SENSITIVE
      + "; the attacker's public register holds everyone's name and quasi-identifiers. A released record"
      + " consistent with exactly one person is linked to them, and the attacker claims its sensitive"
      + " value. A DP synthetic record belongs to no one: its links are coincidences, and their precision"
      + " is what population statistics give (compare 'guess the commonest value').";

  static final String DIFFERENCING_SETUP = "hours_per_week of adult-raw's 32,561 people. The attacker knows"
      + " the head count n and the target's row, asks AVG over everyone and AVG over everyone but the"
      + " target, and computes n*avg1 - (n-1)*avg2. The DP curator is Privet's engine on DuckDB, each"
      + " trial with a fresh budget of epsilon split over the two averages (values clamped to [0, 100]).";

  static final String RECONSTRUCTION_SETUP = "The secret: income > 50K of adult-raw's first 256 people."
      + " The attacker asks m random subset counts and solves least squares (Dinur-Nissim 2003). The"
      + " k-anonymity analogue for aggregates, refusing query sets under k people, does not help:"
      + " random subsets are large. The DP answers spend epsilon in total through privet-core's accountant.";

  static final int[] RECONSTRUCTION_QUERIES = {64, 128, 256, 512, 1024};

  @Command(name = "linkage", mixinStandardHelpOptions = true,
      description = "Attack 1: join releases (raw, k-anonymous k=2,5,10, DP synthetic AIM) with a public register.")
  static final class Linkage implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin AttackOptions options;

    @Override
    public Integer call() throws IOException {
      PrintWriter o = spec.commandLine().getOut();
      List<LinkageAttack.Outcome> r = options.adult().linkage(options.epsilon, 1e-9, RandomSource.secure(),
          progress(spec));
      o.print(LinkageAttack.summary(r));
      HtmlReport html = new HtmlReport("Privet attack: linkage");
      LinkageAttack.report(html, r, LINKAGE_SETUP);
      options.write(html, "linkage", o);
      o.flush();
      return 0;
    }
  }

  @Command(name = "differencing", mixinStandardHelpOptions = true,
      description = "Attack 3: two averages differing by one person, exact vs through the DP curator.")
  static final class Differencing implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin AttackOptions options;

    @Option(names = "--trials", defaultValue = "1000", description = "Trials (default: ${DEFAULT-VALUE}).")
    int trials;

    @Override
    public Integer call() throws IOException {
      if (trials < 1 || trials > 100_000) {
        throw new IllegalArgumentException("--trials must be in [1, 100000]");
      }
      PrintWriter o = spec.commandLine().getOut();
      AdultAttacks adult = options.adult();
      Path ws = Files.createTempDirectory("privet-attack-");
      try {
        DifferencingAttack.Outcome r = adult.differencing(options.epsilon, trials, RandomSource.secure(), ws,
            progress(spec));
        o.print(DifferencingAttack.summary(r));
        HtmlReport html = new HtmlReport("Privet attack: differencing");
        DifferencingAttack.report(html, r, DIFFERENCING_SETUP);
        options.write(html, "differencing", o);
      } finally {
        DemoAttacksCommand.deleteTree(ws);
      }
      o.flush();
      return 0;
    }
  }

  @Command(name = "reconstruction", mixinStandardHelpOptions = true,
      description = "Attack 4: Dinur-Nissim reconstruction from random subset counts, exact vs DP.")
  static final class Reconstruction implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin AttackOptions options;

    @Option(names = "--k", defaultValue = "10",
        description = "Least query-set size of the restricted exact curator (default: ${DEFAULT-VALUE}).")
    int k;

    @Override
    public Integer call() throws IOException {
      PrintWriter o = spec.commandLine().getOut();
      ReconstructionAttack.Outcome r = options.adult().reconstruction(256, RECONSTRUCTION_QUERIES, options.epsilon, k,
          RandomSource.secure());
      o.print(ReconstructionAttack.summary(r));
      HtmlReport html = new HtmlReport("Privet attack: reconstruction");
      ReconstructionAttack.report(html, r, RECONSTRUCTION_SETUP);
      options.write(html, "reconstruction", o);
      o.flush();
      return 0;
    }
  }

  static final String HOMOGENEITY_SETUP = "adult-raw's 32,561 people anonymized by Mondrian. Income behind"
      + " quasi-identifiers " + String.join(", ", AdultAttacks.HOMOGENEITY_QIS) + "; occupation behind "
      + String.join(", ", AdultAttacks.BACKGROUND_QIS) + ". The attacker knows the target's"
      + " quasi-identifiers, finds their class and reads its sensitive values; with background knowledge"
      + " they also rule out max(1, l-1) wrong values for the target.";

  static final String MEMBERSHIP_SETUP = "adult-pgm's 48,842 people, all 14 attributes one-hot. Each trial"
      + " releases the attribute-value counts of a pool of people with or without the target; the"
      + " attacker compares the target with the pool and with the population (Homer et al. 2008).";

  @Command(name = "homogeneity", mixinStandardHelpOptions = true,
      description = "Attack 2: learn sensitive values from k-anonymous classes, with and without l-diversity.")
  static final class Homogeneity implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin AttackOptions options;

    @Option(names = "--k", defaultValue = "5", description = "k of the releases (default: ${DEFAULT-VALUE}).")
    int k;

    @Override
    public Integer call() throws IOException {
      if (k < 1) {
        throw new IllegalArgumentException("--k must be at least 1");
      }
      PrintWriter o = spec.commandLine().getOut();
      List<HomogeneityAttack.Outcome> r = options.adult().homogeneity(k);
      o.print(HomogeneityAttack.summary(r));
      HtmlReport html = new HtmlReport("Privet attack: homogeneity and background knowledge");
      HomogeneityAttack.report(html, r, HOMOGENEITY_SETUP);
      options.write(html, "homogeneity", o);
      o.flush();
      return 0;
    }
  }

  @Command(name = "membership", mixinStandardHelpOptions = true,
      description = "Attack 5: membership inference from exact vs DP marginals, ROC against the DP bound.")
  static final class Membership implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin AttackOptions options;

    @Option(names = "--pool", defaultValue = "20", description = "People per released pool (default: ${DEFAULT-VALUE}).")
    int pool;

    @Option(names = "--trials", defaultValue = "500", description = "Trials each way (default: ${DEFAULT-VALUE}).")
    int trials;

    @Override
    public Integer call() throws IOException {
      if (pool < 2 || trials < 1 || trials > 100_000) {
        throw new IllegalArgumentException("--pool must be at least 2 and --trials in [1, 100000]");
      }
      PrintWriter o = spec.commandLine().getOut();
      MembershipAttack.Outcome r = options.adult().membership(pool, options.epsilon, trials, RandomSource.secure());
      o.print(MembershipAttack.summary(r));
      HtmlReport html = new HtmlReport("Privet attack: membership inference");
      MembershipAttack.report(html, r, MEMBERSHIP_SETUP);
      options.write(html, "membership", o);
      o.flush();
      return 0;
    }
  }

  static java.util.function.Consumer<String> progress(CommandLine.Model.CommandSpec spec) {
    PrintWriter err = spec.commandLine().getErr();
    return s -> {
      err.println("privet attack: " + s);
      err.flush();
    };
  }
}
