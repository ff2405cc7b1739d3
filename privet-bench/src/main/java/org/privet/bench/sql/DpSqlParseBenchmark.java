package org.privet.bench.sql;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DatasetDescriptor;
import org.privet.sql.DpSql;
import org.privet.sql.DpStatement;

/**
 * The cost of DP SQL's front end (tokenize, DP clause and named arguments, WHERE parser,
 * JSqlParser, validation, compilation to an engine query) against JSqlParser alone parsing the
 * same query written as plain SQL, in the same run. No data is read.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DpSqlParseBenchmark {
  static final String DP_SQL = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6,"
      + " max_groups_contributed = 2, privacy_unit_column = id) education, COUNT(*) AS n,"
      + " AVG(hours_per_week, contribution_bounds_per_group => (0, 100)) AS hours FROM adult"
      + " WHERE age >= 18 AND sex IN ('Male', 'Female') GROUP BY education ORDER BY n DESC LIMIT 5";
  static final String PLAIN_SQL = "SELECT education, COUNT(*) AS n, AVG(hours_per_week) AS hours"
      + " FROM adult WHERE age >= 18 AND sex IN ('Male', 'Female') GROUP BY education"
      + " ORDER BY n DESC LIMIT 5";

  DatasetCatalog catalog;

  @Setup
  public void setUp() {
    TableSchema schema = new TableSchema(List.of(
        new TableSchema.Column("id", ColumnType.INTEGER, "BIGINT"),
        new TableSchema.Column("age", ColumnType.INTEGER, "BIGINT"),
        new TableSchema.Column("education", ColumnType.STRING, "VARCHAR"),
        new TableSchema.Column("sex", ColumnType.STRING, "VARCHAR"),
        new TableSchema.Column("hours_per_week", ColumnType.INTEGER, "BIGINT")));
    DatasetDescriptor adult = DatasetDescriptor.builder("adult", Source.csv(Path.of("adult.csv")), schema)
        .privacyUnit("id").build();
    catalog = name -> name.equals("adult") ? Optional.of(adult) : Optional.empty();
  }

  @Benchmark
  public DpStatement dpSqlParse() {
    return DpSql.parse(DP_SQL, catalog);
  }

  @Benchmark
  public Statement jsqlParserBaseline() throws JSQLParserException {
    return CCJSqlParserUtil.parse(PLAIN_SQL);
  }
}
