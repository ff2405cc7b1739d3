package org.privet.models;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.privet.testing.Repository;

/**
 * UCI Adult (data/adult-raw, attribution in its README) for the model tests: the public encoding
 * from adult.names (keys) and round public bounds, and row readers for adult.data / adult.test.
 */
final class AdultFixture {
  static final String[] COLUMNS = {"age", "workclass", "fnlwgt", "education", "education_num", "marital_status",
      "occupation", "relationship", "race", "sex", "capital_gain", "capital_loss", "hours_per_week",
      "native_country", "income"};

  /** diffprivlib's five numeric features. */
  static final List<Feature> FIVE = List.of(
      new Feature.Numeric("age", 17, 90),
      new Feature.Numeric("education_num", 1, 16),
      new Feature.Numeric("capital_gain", 0, 99999),
      new Feature.Numeric("capital_loss", 0, 5000),
      new Feature.Numeric("hours_per_week", 1, 99));

  /** All 14 features: 6 numeric, 8 categorical over adult.names' keys (105 coordinates). */
  static final List<Feature> ALL = List.of(
      new Feature.Numeric("age", 17, 90),
      new Feature.Categorical("workclass", keys("Private, Self-emp-not-inc, Self-emp-inc, Federal-gov, Local-gov,"
          + " State-gov, Without-pay, Never-worked")),
      new Feature.Numeric("fnlwgt", 0, 1500000),
      new Feature.Categorical("education", keys("Bachelors, Some-college, 11th, HS-grad, Prof-school, Assoc-acdm,"
          + " Assoc-voc, 9th, 7th-8th, 12th, Masters, 1st-4th, 10th, Doctorate, 5th-6th, Preschool")),
      new Feature.Numeric("education_num", 1, 16),
      new Feature.Categorical("marital_status", keys("Married-civ-spouse, Divorced, Never-married, Separated,"
          + " Widowed, Married-spouse-absent, Married-AF-spouse")),
      new Feature.Categorical("occupation", keys("Tech-support, Craft-repair, Other-service, Sales,"
          + " Exec-managerial, Prof-specialty, Handlers-cleaners, Machine-op-inspct, Adm-clerical,"
          + " Farming-fishing, Transport-moving, Priv-house-serv, Protective-serv, Armed-Forces")),
      new Feature.Categorical("relationship", keys("Wife, Own-child, Husband, Not-in-family, Other-relative,"
          + " Unmarried")),
      new Feature.Categorical("race", keys("White, Asian-Pac-Islander, Amer-Indian-Eskimo, Other, Black")),
      new Feature.Categorical("sex", keys("Female, Male")),
      new Feature.Numeric("capital_gain", 0, 99999),
      new Feature.Numeric("capital_loss", 0, 5000),
      new Feature.Numeric("hours_per_week", 1, 99),
      new Feature.Categorical("native_country", keys("United-States, Cambodia, England, Puerto-Rico, Canada,"
          + " Germany, Outlying-US(Guam-USVI-etc), India, Japan, Greece, South, China, Cuba, Iran, Honduras,"
          + " Philippines, Italy, Poland, Jamaica, Vietnam, Mexico, Portugal, Ireland, France,"
          + " Dominican-Republic, Laos, Ecuador, Taiwan, Haiti, Columbia, Hungary, Guatemala, Nicaragua,"
          + " Scotland, Thailand, Yugoslavia, El-Salvador, Trinadad&Tobago, Peru, Hong, Holand-Netherlands")));

  static final Label.Binary INCOME = new Label.Binary("income", ">50K", "<=50K");

  private AdultFixture() {}

  static List<String> keys(String s) {
    return Arrays.stream(s.split(",")).map(String::trim).toList();
  }

  /** Rows of adult.data or adult.test as field arrays (label's trailing period removed; '?' → null). */
  static List<String[]> read(String file) throws IOException {
    Path p = Repository.root().resolve("data/adult-raw").resolve(file);
    List<String[]> rows = new ArrayList<>();
    for (String line : Files.readAllLines(p)) {
      if (line.isBlank() || line.startsWith("|")) {
        continue;
      }
      String[] f = line.split(",", -1);
      for (int i = 0; i < f.length; i++) {
        f[i] = f[i].trim();
        if (f[i].equals("?")) {
          f[i] = null;
        }
      }
      if (f[14] != null && f[14].endsWith(".")) {
        f[14] = f[14].substring(0, f[14].length() - 1);
      }
      rows.add(f);
    }
    return rows;
  }

  static String[] featureValues(String[] row, FeatureEncoder enc) {
    List<String> cols = enc.columns();
    String[] out = new String[cols.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = row[Arrays.asList(COLUMNS).indexOf(cols.get(i))];
    }
    return out;
  }

  static TrainingSet trainingSet(List<String[]> rows, FeatureEncoder enc) {
    TrainingSet.Builder b = TrainingSet.builder(enc, INCOME, 1);
    for (String[] r : rows) {
      b.add(null, featureValues(r, enc), r[14]);
    }
    return b.build();
  }

  /** The rows as a DuckDB table {@code adult} (numbers as BIGINT, '?' as NULL). */
  static org.privet.engine.duckdb.DuckDbBackend duckDb(List<String[]> rows) {
    org.privet.engine.duckdb.DuckDbBackend duck = org.privet.engine.duckdb.DuckDbBackend.inMemory();
    java.util.Set<String> numbers = java.util.Set.of("age", "fnlwgt", "education_num", "capital_gain",
        "capital_loss", "hours_per_week");
    List<org.privet.engine.spi.ColumnType> types = new ArrayList<>();
    for (String c : COLUMNS) {
      types.add(numbers.contains(c) ? org.privet.engine.spi.ColumnType.INTEGER
          : org.privet.engine.spi.ColumnType.STRING);
    }
    List<List<?>> data = new ArrayList<>();
    for (String[] r : rows) {
      List<Object> row = new ArrayList<>();
      for (int i = 0; i < COLUMNS.length; i++) {
        row.add(r[i] == null ? null : numbers.contains(COLUMNS[i]) ? (Object) Long.parseLong(r[i]) : r[i]);
      }
      data.add(row);
    }
    duck.registerTable("adult", List.of(COLUMNS), types, data);
    return duck;
  }

  static double accuracy(Model m, List<String[]> rows) {
    int ok = 0;
    for (String[] r : rows) {
      if (m.predict(featureValues(r, m.encoder())).value().equals(r[14])) {
        ok++;
      }
    }
    return ok / (double) rows.size();
  }
}
