package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

/**
 * Mutated corpus queries (characters deleted, duplicated or replaced by SQL-significant text) must
 * either compile or be refused with a {@link DpSqlException} whose position lies inside the text:
 * never another exception, never a hang. Runs on the parser only (no data).
 */
class DpSqlFuzzTest {
  private static final DatasetCatalog CATALOG;
  private static final List<String> SEEDS;
  private static final List<String> INSERTS = List.of("(", ")", ",", "'", "\"", "`", "=>", "=", "--",
      "/*", "*/", ";", "\n", "\t", " SELECT ", " WITH ", " OPTIONS ", " DISTINCT ", " JOIN ", " IN ",
      " NULL ", " AND ", " OR ", " NOT ", " LIMIT ", " GROUP BY ", " ORDER BY ", "*", "-", "1e400",
      "99999999999999999999", "id", "contribution_bounds_per_row => (0, 1)", "é", "\u0000");

  static {
    TableSchema schema = new TableSchema(List.of(
        new TableSchema.Column("id", ColumnType.INTEGER, "BIGINT"),
        new TableSchema.Column("age", ColumnType.INTEGER, "BIGINT"),
        new TableSchema.Column("education", ColumnType.STRING, "VARCHAR"),
        new TableSchema.Column("sex", ColumnType.STRING, "VARCHAR"),
        new TableSchema.Column("race", ColumnType.STRING, "VARCHAR"),
        new TableSchema.Column("workclass", ColumnType.STRING, "VARCHAR"),
        new TableSchema.Column("occupation", ColumnType.STRING, "VARCHAR"),
        new TableSchema.Column("income", ColumnType.STRING, "VARCHAR"),
        new TableSchema.Column("native_country", ColumnType.STRING, "VARCHAR"),
        new TableSchema.Column("capital_gain", ColumnType.INTEGER, "BIGINT"),
        new TableSchema.Column("hours_per_week", ColumnType.INTEGER, "BIGINT")));
    DatasetDescriptor adult = DatasetDescriptor.builder("adult", Source.csv(Path.of("a.csv")), schema)
        .privacyUnit("id").publicBounds("age", 17, 90)
        .publicKeys("sex", List.of("Female", "Male"))
        .publicKeys("race", List.of("White", "Black")).build();
    CATALOG = name -> name.equalsIgnoreCase("adult") ? Optional.of(adult) : Optional.empty();
    SEEDS = CorpusFile.all("valid").map(CorpusFile::sql).filter(s -> !s.contains("adult_rows")).toList();
  }

  @Provide
  Arbitrary<String> mutatedQueries() {
    Arbitrary<String> seed = Arbitraries.of(SEEDS);
    Arbitrary<Integer> kind = Arbitraries.integers().between(0, 2);
    Arbitrary<Double> where = Arbitraries.doubles().between(0, 1);
    Arbitrary<Integer> length = Arbitraries.integers().between(1, 12);
    Arbitrary<String> insert = Arbitraries.of(INSERTS);
    Arbitrary<String> once = Combinators.combine(seed, kind, where, length, insert)
        .as(DpSqlFuzzTest::mutate);
    return Combinators.combine(once, kind, where, length, insert).as(DpSqlFuzzTest::mutate);
  }

  private static String mutate(String s, int kind, double where, int length, String insert) {
    int at = (int) (where * s.length());
    int end = Math.min(s.length(), at + length);
    return switch (kind) {
      case 0 -> s.substring(0, at) + s.substring(end);
      case 1 -> s.substring(0, end) + s.substring(at);
      default -> s.substring(0, at) + insert + s.substring(end);
    };
  }

  @Property(tries = 400, seed = "20261126")
  void parse_mutatedQuery_compilesOrRefusesWithPositionInsideText(@ForAll("mutatedQueries") String sql) {
    try {
      DpSql.parse(sql, CATALOG);
    } catch (DpSqlException e) {
      SourceText text = new SourceText(sql);
      int offset = text.offset(e.line(), e.column());
      assertTrue(e.line() >= 1 && e.column() >= 1 && offset <= sql.length()
          && text.line(offset) == e.line() && text.column(offset) == e.column(),
          "position outside the text: " + e.getMessage());
      assertTrue(!e.reason().isBlank());
    }
  }
}
