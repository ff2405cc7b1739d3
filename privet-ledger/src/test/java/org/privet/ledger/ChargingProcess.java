package org.privet.ledger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PureDp;

/**
 * A child process for the multi-process tests: charges {@code epsilon} to a dataset again and
 * again, and after each charge has committed "releases" an answer by appending
 * {@code <chargeId> <analyst> <n>} to a file. Stops at the first refusal or after {@code max}
 * charges. Prints {@code ready} once the ledger is open. Writes are single small {@code write} calls, which survive a SIGKILL of this process
 * (the kernel holds them); a line without its newline is a torn release and does not count.
 *
 * <p>Arguments: ledger dataset analyst epsilon max releasedFile, where ledger is a workspace folder
 * or a PostgreSQL JDBC URL ({@link TestLedger#address()}).
 */
public final class ChargingProcess {
  private ChargingProcess() {}

  public static void main(String[] args) throws IOException {
    String workspace = args[0];
    String dataset = args[1];
    String analyst = args[2];
    double epsilon = Double.parseDouble(args[3]);
    int max = Integer.parseInt(args[4]);
    Path released = Path.of(args[5]);
    try (Ledger ledger = TestLedger.open(workspace)) {
      System.out.println("ready");
      System.out.flush();
      for (int n = 0; n < max; n++) {
        Charge c;
        try {
          c = ledger.charge(dataset, analyst, "query " + analyst + " #" + n, List.of(new PureDp(epsilon)));
        } catch (BudgetExceededException e) {
          System.out.println("refused after " + n);
          return;
        }
        Files.write(released, (c.id() + " " + analyst + " " + n + "\n").getBytes(StandardCharsets.UTF_8),
            StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
      }
      System.out.println("done " + max);
    }
  }
}
