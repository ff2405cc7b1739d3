package org.privet.synth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The public domain of a table: its attributes, in order, each with a fixed finite set of codes.
 *
 * <p>The domain is metadata supplied by the data owner and is never derived from the data (doing so
 * would leak, e.g., the maximum of a column). Two JSON formats are read by {@link #load(Path)}:
 *
 * <ul>
 *   <li>the Private-PGM format, an object {@code {"age": 85, "sex": 2, ...}} mapping each column
 *       to its number of integer codes ({@code data/adult-pgm/adult-domain.json});
 *   <li>a declared format for raw tables: {@code {"header": false, "fileColumns": [...],
 *       "attributes": [{"name": "age", "type": "numeric", "lower": 17, "upper": 91, "bins": 37},
 *       {"name": "sex", "type": "categorical", "values": ["Female", "Male"]}, ...]}}. Columns of the
 *       file not listed under {@code attributes} are ignored; {@code fileColumns} names the file's
 *       columns when it has no header row. An attribute may declare {@code "other": VALUE}, the
 *       value that missing or unknown values take when a registered table is read after its
 *       charge ({@link Table#encoder}); the default is the attribute's first value.
 * </ul>
 */
public final class Domain {
  private final List<Attribute> attributes;
  private final boolean header;
  private final List<String> fileColumns;

  private Domain(List<Attribute> attributes, boolean header, List<String> fileColumns) {
    if (attributes.isEmpty()) {
      throw new IllegalArgumentException("domain must have at least one attribute");
    }
    var names = new HashSet<String>();
    for (Attribute a : attributes) {
      if (!names.add(a.name())) {
        throw new IllegalArgumentException("domain declares attribute '" + a.name() + "' twice");
      }
    }
    if (!header && fileColumns.isEmpty()) {
      throw new IllegalArgumentException("fileColumns is required when header is false");
    }
    this.attributes = List.copyOf(attributes);
    this.header = header;
    this.fileColumns = List.copyOf(fileColumns);
  }

  /** A domain over the given attributes, read from CSV files with a header row. */
  public static Domain of(List<Attribute> attributes) {
    return new Domain(attributes, true, List.of());
  }

  /** A domain of Private-PGM-style coded attributes with the given sizes (insertion order kept). */
  public static Domain coded(Map<String, Integer> sizes) {
    var list = new ArrayList<Attribute>();
    sizes.forEach((name, size) -> list.add(Attribute.coded(name, size)));
    return of(list);
  }

  /** Reads a domain file in either JSON format (see the class comment). */
  public static Domain load(Path file) throws IOException {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(Files.readAllBytes(file));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("domain file is not valid JSON: " + file);
    }
    return fromJson(root);
  }

  /** Parses a domain from JSON (see the class comment). */
  public static Domain fromJson(JsonNode root) {
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("domain must be a JSON object");
    }
    if (!root.has("attributes")) {
      var list = new ArrayList<Attribute>();
      for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
        var e = it.next();
        if (!e.getValue().canConvertToInt() || !e.getValue().isIntegralNumber()) {
          throw new IllegalArgumentException("domain size of '" + e.getKey() + "' must be an integer");
        }
        list.add(Attribute.coded(e.getKey(), e.getValue().intValue()));
      }
      return of(list);
    }
    var list = new ArrayList<Attribute>();
    for (JsonNode a : root.get("attributes")) {
      String name = text(a, "name");
      String type = a.has("type") ? a.get("type").asText() : "coded";
      Attribute attribute = switch (type) {
        case "categorical" -> {
          var values = new ArrayList<String>();
          if (!a.has("values") || !a.get("values").isArray()) {
            throw new IllegalArgumentException("categorical attribute '" + name + "' needs a 'values' array");
          }
          a.get("values").forEach(v -> values.add(v.asText()));
          yield Attribute.categorical(name, values);
        }
        case "numeric" ->
            Attribute.numeric(name, number(a, name, "lower"), number(a, name, "upper"), (int) number(a, name, "bins"));
        case "coded" -> Attribute.coded(name, (int) number(a, name, "size"));
        default -> throw new IllegalArgumentException(
            "type of attribute '" + name + "' must be categorical, numeric or coded");
      };
      list.add(a.has("other") ? attribute.withOther(a.get("other").asText()) : attribute);
    }
    boolean header = !root.has("header") || root.get("header").asBoolean();
    var fileColumns = new ArrayList<String>();
    if (root.has("fileColumns")) {
      root.get("fileColumns").forEach(c -> fileColumns.add(c.asText()));
    }
    return new Domain(list, header, fileColumns);
  }

  /**
   * A categorical domain read from the values present in the given CSV files (with headers): for
   * evaluation only. Reading the domain from the data is not private, so a synthesizer must never
   * use this; {@code privet synth evaluate} does when no domain file is given, since comparing a
   * real table with a synthetic one is the data owner's own, non-private view.
   */
  public static Domain inferForEvaluation(List<Path> files) throws IOException {
    List<String> header = null;
    List<java.util.TreeSet<String>> values = new ArrayList<>();
    for (Path f : files) {
      try (var in = Files.newBufferedReader(f)) {
        String head = in.readLine();
        if (head == null || head.isBlank()) {
          throw new IllegalArgumentException("table is empty: " + f.getFileName() + " has no header row");
        }
        var cols = new ArrayList<String>();
        for (String c : Table.split(head)) {
          cols.add(c.strip());
        }
        if (header == null) {
          header = cols;
          for (int i = 0; i < cols.size(); i++) {
            values.add(new java.util.TreeSet<>());
          }
        } else if (!header.equals(cols)) {
          throw new IllegalArgumentException("tables have different columns: " + f.getFileName());
        }
        String line;
        while ((line = in.readLine()) != null) {
          if (line.isBlank()) {
            continue;
          }
          String[] cells = Table.split(line);
          for (int i = 0; i < Math.min(cells.length, values.size()); i++) {
            values.get(i).add(cells[i].strip());
          }
        }
      } catch (java.nio.file.NoSuchFileException e) {
        throw new IllegalArgumentException("file not found: " + f);
      }
    }
    var list = new ArrayList<Attribute>();
    for (int i = 0; i < header.size(); i++) {
      if (values.get(i).isEmpty()) {
        throw new IllegalArgumentException("table is empty");
      }
      list.add(Attribute.categorical(header.get(i), new ArrayList<>(values.get(i))));
    }
    return of(list);
  }

  private static String text(JsonNode a, String field) {
    if (!a.has(field)) {
      throw new IllegalArgumentException("domain attribute is missing '" + field + "'");
    }
    return a.get(field).asText();
  }

  private static double number(JsonNode a, String name, String field) {
    if (!a.has(field) || !a.get(field).isNumber()) {
      throw new IllegalArgumentException("attribute '" + name + "' needs a numeric '" + field + "'");
    }
    return a.get(field).asDouble();
  }

  public List<Attribute> attributes() {
    return attributes;
  }

  public int size() {
    return attributes.size();
  }

  public Attribute attribute(int i) {
    return attributes.get(i);
  }

  /** Number of codes of attribute {@code i}. */
  public int cardinality(int i) {
    return attributes.get(i).size();
  }

  /** The number of codes of every attribute, in order. */
  public int[] cardinalities() {
    return attributes.stream().mapToInt(Attribute::size).toArray();
  }

  /** Index of the attribute with this name, if any. */
  public Optional<Integer> indexOf(String name) {
    for (int i = 0; i < attributes.size(); i++) {
      if (attributes.get(i).name().equals(name)) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  /** Number of cells of the marginal over the given attribute indices (saturating at Long.MAX_VALUE). */
  public long cells(int[] attrs) {
    long c = 1;
    for (int a : attrs) {
      c = Math.multiplyHigh(c, cardinality(a)) != 0 ? Long.MAX_VALUE : c * cardinality(a);
      if (c < 0) {
        return Long.MAX_VALUE;
      }
    }
    return c;
  }

  boolean hasHeader() {
    return header;
  }

  List<String> fileColumns() {
    return fileColumns;
  }

  /** Names of the given attributes, for messages and reports. */
  public String names(int[] attrs) {
    var sb = new StringBuilder();
    for (int a : attrs) {
      sb.append(sb.length() == 0 ? "" : ",").append(attributes.get(a).name());
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Domain d && d.attributes.equals(attributes);
  }

  @Override
  public int hashCode() {
    return Objects.hash(attributes);
  }
}
