package org.privet.cli.models;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.privet.cli.CsvLayoutOptions;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;
import org.privet.models.Model;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code privet predict}: applies a released model to the analyst's own CSV file. Post-processing
 * of a DP release: nothing is charged and no protected data is read. Writes every input row with a
 * {@code prediction} column and, for classifiers, a {@code probability} column (of the positive
 * class).
 */
@Command(
    name = "predict",
    mixinStandardHelpOptions = true,
    description = {
      "Apply a model written by 'privet train' to a CSV file (post-processing: no budget is spent).",
      "Example: privet predict --model model.json --source new-people.csv --format csv"
    })
public final class PredictCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--model", required = true, paramLabel = "FILE", description = "a model JSON from privet train")
  Path model;

  @Option(names = "--source", required = true, paramLabel = "FILE", description = "the CSV rows to predict")
  Path source;

  @Mixin CsvLayoutOptions layout;

  @Option(names = "--format", defaultValue = "csv", description = "csv | json (default: ${DEFAULT-VALUE})")
  String format;

  @Option(names = "--out", paramLabel = "FILE", description = "write here instead of stdout")
  Path out;

  @Override
  public Integer call() throws IOException {
    String fmt = format.toLowerCase(Locale.ROOT);
    if (!fmt.equals("csv") && !fmt.equals("json")) {
      throw new IllegalArgumentException("--format must be csv or json, was " + format);
    }
    if (!Files.isRegularFile(model)) {
      throw new IllegalArgumentException("--model: " + model + " is not a file");
    }
    if (!Files.isRegularFile(source)) {
      throw new IllegalArgumentException("--source: " + source + " is not a file");
    }
    Model m = Model.read(model);
    Source.CsvFile csv = Source.csv(source.toAbsolutePath());
    if (layout.noHeader()) {
      if (layout.columns().isEmpty()) {
        throw new IllegalArgumentException("--no-header needs --columns");
      }
      csv = csv.withoutHeader(layout.columns());
    }
    csv = csv.withDelimiter(layout.delimiter()).withNullString(layout.nullString());
    List<String> names = new ArrayList<>();
    List<String[]> rows = new ArrayList<>();
    try (DuckDbBackend backend = DuckDbBackend.inMemory()) {
      TableSchema described = backend.describe(csv);
      List<TableSchema.Column> text = new ArrayList<>();
      described.columns().forEach(c -> {
        names.add(c.name());
        text.add(new TableSchema.Column(c.name(), ColumnType.STRING, "VARCHAR"));
      });
      for (String f : m.encoder().columns()) {
        if (!names.contains(f)) {
          throw new IllegalArgumentException("--source: the model's feature " + f + " is not a column of " + source);
        }
      }
      backend.scanText(csv, new TableSchema(text), names, rows::add);
    }
    int[] at = m.encoder().columns().stream().mapToInt(names::indexOf).toArray();
    boolean classifier = m.kind() != Model.Kind.LINEAR_REGRESSION;
    Writer w = out == null ? spec.commandLine().getOut() : Files.newBufferedWriter(out);
    try {
      if (fmt.equals("csv")) {
        List<String> header = new ArrayList<>(names);
        header.add("prediction");
        if (classifier) {
          header.add("probability");
        }
        w.write(csvLine(header));
        for (String[] row : rows) {
          Model.Prediction p = m.predict(pick(row, at));
          List<String> line = new ArrayList<>(java.util.Arrays.asList(row));
          line.add(p.value());
          if (classifier) {
            line.add(String.format(Locale.ROOT, "%.6f", p.probability()));
          }
          w.write(csvLine(line));
        }
      } else {
        ObjectMapper mapper = new ObjectMapper();
        ArrayNode array = mapper.createArrayNode();
        for (String[] row : rows) {
          Model.Prediction p = m.predict(pick(row, at));
          ObjectNode o = array.addObject();
          for (int i = 0; i < names.size(); i++) {
            o.put(names.get(i), row[i]);
          }
          o.put("prediction", p.value());
          if (classifier) {
            o.put("probability", p.probability());
          }
        }
        w.write(mapper.writerWithDefaultPrettyPrinter().writeValueAsString(array));
        w.write("\n");
      }
    } finally {
      if (out != null) {
        w.close();
      } else {
        w.flush();
      }
    }
    if (out != null) {
      PrintWriter o = spec.commandLine().getOut();
      o.printf(Locale.ROOT, "wrote %d predictions to %s%n", rows.size(), out);
      o.flush();
    }
    return 0;
  }

  private static String[] pick(String[] row, int[] at) {
    String[] v = new String[at.length];
    for (int i = 0; i < at.length; i++) {
      v[i] = row[at[i]];
    }
    return v;
  }

  static String csvLine(List<String> values) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      String v = values.get(i);
      if (v == null) {
        continue;
      }
      if (v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")) {
        sb.append('"').append(v.replace("\"", "\"\"")).append('"');
      } else {
        sb.append(v);
      }
    }
    return sb.append('\n').toString();
  }
}
