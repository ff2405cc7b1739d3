package org.privet.bench.engine;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * The whole-process baseline of issue 15: a JVM that opens an in-memory DuckDB, runs {@link
 * EngineBench}'s hand-written minimum-hash bounding (c) over a Parquet file and prints the 1,000
 * group rows as CSV, as {@code privet query --format csv} prints its result. Run it with only the
 * DuckDB JDBC jar besides this class ({@code privet-bench/whole-process.sh}).
 *
 * <p>Usage: {@code MinHashProcess FILE} runs (c) on FILE; {@code MinHashProcess --startup} opens
 * DuckDB and runs {@code SELECT 1} (JVM and DuckDB start-up alone); {@code MinHashProcess
 * --generate ROWS FILE} writes {@link EngineBench}'s table as Parquet.
 */
public final class MinHashProcess {
  private MinHashProcess() {}

  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = c.createStatement()) {
      if (args[0].equals("--generate")) {
        String create = EngineBench.createTable(Long.parseLong(args[1]));
        st.execute("COPY (" + create.substring(create.indexOf("SELECT")) + ") TO '" + args[2]
            + "' (FORMAT PARQUET)");
        return;
      }
      String sql = args[0].equals("--startup") ? "SELECT 1"
          : EngineBench.MIN_HASH_BY_HAND.replace("FROM events", "FROM read_parquet('" + args[0]
              + "')");
      BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out,
          StandardCharsets.UTF_8));
      try (ResultSet rs = st.executeQuery(sql)) {
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          for (int i = 1; i <= n; i++) {
            out.write((i > 1 ? "," : "") + rs.getString(i));
          }
          out.newLine();
        }
      }
      out.flush();
    }
  }
}
