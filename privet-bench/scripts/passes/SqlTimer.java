import java.nio.file.*;
import java.sql.*;
import java.util.*;

/** Usage: java -cp duckdb_jdbc.jar SqlTimer.java DBFILE SQLFILE ROUNDS [threads]. SQLFILE: blocks "-- name\nSQL" separated by lines ";;". A block named "setup..." runs once, before timing (statements split at ";\n"); the others are timed, interleaved, medians printed with the ratio to the first. Scratch timer for issue 25 design measurements (docs/benchmarks.md). */
public class SqlTimer {
  public static void main(String[] a) throws Exception {
    Connection c = DriverManager.getConnection("jdbc:duckdb:" + a[0]);
    Statement s = c.createStatement();
    s.execute("SET threads = " + (a.length > 3 ? a[3] : "2"));
    String text = Files.readString(Path.of(a[1]));
    List<String> names = new ArrayList<>(), sqls = new ArrayList<>();
    for (String block : text.split("\n;;\n")) {
      block = block.trim();
      if (block.isEmpty()) continue;
      int nl = block.indexOf('\n');
      String name = block.substring(0, nl).replace("--", "").trim();
      String sql = block.substring(nl + 1).trim();
      if (name.startsWith("setup")) { for (String x : sql.split(";\n")) if (!x.isBlank()) s.execute(x); continue; }
      names.add(name); sqls.add(sql);
    }
    int rounds = Integer.parseInt(a[2]);
    double[][] t = new double[sqls.size()][rounds];
    String[] first = new String[sqls.size()];
    for (int r = -1; r < rounds; r++) {
      for (int i = 0; i < sqls.size(); i++) {
        long t0 = System.nanoTime();
        StringBuilder out = new StringBuilder();
        for (String part : sqls.get(i).split(";\n")) {
          if (part.isBlank()) continue;
          if (s.execute(part)) {
            try (ResultSet rs = s.getResultSet()) {
              int n = rs.getMetaData().getColumnCount(); int rows = 0;
              while (rs.next()) { if (rows++ < 3) { for (int j = 1; j <= n; j++) out.append(rs.getString(j)).append(j < n ? "," : ";"); } }
              out.append(" [" + rows + " rows]");
            }
          }
        }
        if (r >= 0) t[i][r] = (System.nanoTime() - t0) / 1e9; else first[i] = out.toString();
      }
    }
    double base = -1;
    for (int i = 0; i < sqls.size(); i++) {
      Arrays.sort(t[i]); double med = t[i][rounds / 2];
      if (base < 0) base = med;
      String o = first[i]; if (o.length() > 150) o = o.substring(0, 150);
      System.out.printf(Locale.ROOT, "%-40s %8.4f s  %6.2f x   %s%n", names.get(i), med, med / base, o);
    }
  }
}
