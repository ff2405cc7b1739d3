package org.privet.cli.data;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code privet data tpch}: writes the TPC-H tables as CSV files (header row) generated in Java by
 * {@link TpchCsv}, deterministically: the same scale factor gives the same bytes. Progress and the
 * licence note go to stderr; the files written are listed on stdout.
 */
@Command(
    name = "tpch",
    mixinStandardHelpOptions = true,
    description = {
      "Write TPC-H tables as CSV files with a header row (generated in Java by io.trino.tpch, a port",
      "of the TPC's dbgen; deterministic). Not TPC-H benchmark results: see README.txt written next",
      "to the files.",
      "Example: privet data tpch --scale-factor 0.01 --out data/tpch"
    })
public final class DataTpchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--scale-factor", required = true, paramLabel = "SF",
      description = "TPC-H scale factor, in (0, " + TpchCsv.MAX_SCALE_FACTOR + "]: 1 is about 1 GB"
          + " of CSV (6 million line items), 0.01 about 10 MB.")
  double scaleFactor;

  @Option(names = "--out", required = true, paramLabel = "DIR",
      description = "Directory to write <table>.csv into (created if absent).")
  Path out;

  @Option(names = "--tables", split = ",", paramLabel = "TABLE",
      description = "Tables to write (default: all eight: ${DEFAULT-VALUE}).",
      defaultValue = "customer,orders,lineitem,nation,region,part,supplier,partsupp")
  List<String> tables;

  @Option(names = "--force", description = "Overwrite CSV files that already exist in DIR.")
  boolean force;

  @Override
  public Integer call() throws IOException {
    TpchCsv.checkScaleFactor(scaleFactor);
    List<String> names = new ArrayList<>();
    for (String t : tables) {
      names.add(TpchCsv.tableName(t));
    }
    if (!force) {
      for (String t : names) {
        if (Files.exists(out.resolve(t + ".csv"))) {
          throw new IllegalArgumentException("--out: " + out.resolve(t + ".csv")
              + " exists (use --force to overwrite it)");
        }
      }
    }
    Files.createDirectories(out);
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    for (String t : names) {
      long start = System.nanoTime();
      Path file = out.resolve(t + ".csv");
      long rows = TpchCsv.write(t, scaleFactor, file);
      err.printf(Locale.ROOT, "privet: %s: %,d rows in %.1f s%n", t, rows,
          (System.nanoTime() - start) / 1e9);
      err.flush();
      stdout.println(file);
    }
    Files.writeString(out.resolve("README.txt"), TpchCsv.notice(scaleFactor));
    err.println("privet: " + TpchCsv.ATTRIBUTION);
    err.flush();
    stdout.flush();
    return 0;
  }
}
