package org.privet.anonymity;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.privet.engine.Source;

/** The bundled UCI Adult data (data/adult-raw, see its README for source and licence), for tests. */
final class AdultFixture {
  static final List<String> COLUMNS = List.of("age", "workclass", "fnlwgt", "education",
      "education_num", "marital_status", "occupation", "relationship", "race", "sex",
      "capital_gain", "capital_loss", "hours_per_week", "native_country", "income");

  private AdultFixture() {}

  static Path adultData() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path c = p.resolve("data/adult-raw/adult.data");
      if (Files.isRegularFile(c)) {
        return c;
      }
    }
    throw new IllegalStateException("data/adult-raw/adult.data not found");
  }

  static Source.CsvFile source() {
    return Source.csv(adultData()).withoutHeader(COLUMNS).withDelimiter(", ").withNullString("?");
  }
}
