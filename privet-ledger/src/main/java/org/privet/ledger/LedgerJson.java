package org.privet.ledger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.Budget;
import org.privet.accounting.NeighbouringRelation;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;

/**
 * The JSON form of ledger values, used both by the store and by {@code --format json} output, so
 * that what scripts read is what the ledger keeps. Doubles are written in their shortest
 * round-tripping form, so a stored cost reads back bit for bit.
 */
public final class LedgerJson {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private LedgerJson() {}

  /**
   * {@code {"measure":"pure","epsilon":…}}, {@code "approx"} with δ, {@code "zcdp"} with ρ, or
   * {@code "approx-zcdp"} with ρ and δ (δ-approximate ρ-zCDP).
   */
  public static ObjectNode privacyLoss(PrivacyLoss loss) {
    ObjectNode n = MAPPER.createObjectNode();
    if (loss instanceof PureDp p) {
      n.put("measure", "pure").put("epsilon", p.epsilon());
    } else if (loss instanceof ApproxDp a) {
      n.put("measure", "approx").put("epsilon", a.epsilon()).put("delta", a.delta());
    } else if (loss instanceof Zcdp z) {
      n.put("measure", "zcdp").put("rho", z.rho());
    } else if (loss instanceof ApproxZcdp z) {
      n.put("measure", "approx-zcdp").put("rho", z.rho()).put("delta", z.delta());
    } else {
      throw new IllegalArgumentException("the ledger cannot store privacy loss " + loss);
    }
    return n;
  }

  /** A privacy loss read back from {@link #privacyLoss} (e.g. a server's answer). */
  public static PrivacyLoss readPrivacyLossOf(JsonNode n) {
    return readPrivacyLoss(n);
  }

  static PrivacyLoss readPrivacyLoss(JsonNode n) {
    String measure = n.path("measure").asText();
    return switch (measure) {
      case "pure" -> new PureDp(n.get("epsilon").asDouble());
      case "approx" -> new ApproxDp(n.get("epsilon").asDouble(), n.get("delta").asDouble());
      case "zcdp" -> new Zcdp(n.get("rho").asDouble());
      case "approx-zcdp" -> new ApproxZcdp(n.get("rho").asDouble(), n.get("delta").asDouble());
      default -> throw new IllegalStateException("unknown privacy measure in the ledger: " + measure);
    };
  }

  /**
   * A budget (a dataset's total, a grant, a status's total) in the form of {@link #privacyLoss} of
   * {@link Budget#loss}: the ledger's on-disk form from before budgets were core's {@link Budget},
   * unchanged.
   */
  public static ObjectNode budget(Budget budget) {
    return privacyLoss(budget.loss());
  }

  /**
   * A budget read back from {@link #budget}, or from a ledger written before budgets were core's
   * {@link Budget} ({@link Budget#of}: {@code "approx"} with δ = 0, as older ledgers stored
   * {@code --epsilon E}, reads as the same pure ε, which composes, admits and remains alike).
   */
  static Budget readBudget(JsonNode n) {
    return DatasetSpec.requirePositiveBudget("budget", readPrivacyLoss(n));
  }

  static ArrayNode privacyLosses(List<? extends PrivacyLoss> losses) {
    ArrayNode a = MAPPER.createArrayNode();
    losses.forEach(l -> a.add(privacyLoss(l)));
    return a;
  }

  static List<PrivacyLoss> readPrivacyLosses(JsonNode a) {
    List<PrivacyLoss> out = new ArrayList<>();
    a.forEach(n -> out.add(readPrivacyLoss(n)));
    return out;
  }

  /** A dataset's registration. */
  public static ObjectNode dataset(DatasetSpec spec) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("name", spec.name());
    n.put("source", spec.source());
    n.put("format", spec.format().name().toLowerCase(java.util.Locale.ROOT));
    n.set("csv", csv(spec.csv()));
    if (spec.privacyUnit().isRow()) {
      n.putNull("privacyUnit");
    } else {
      n.put("privacyUnit", spec.privacyUnit().columnName().orElseThrow());
    }
    n.put("relation", spec.relation().name());
    n.set("budget", budget(spec.budget()));
    n.put("accountant", spec.accountant().cliName());
    ObjectNode bounds = n.putObject("bounds");
    spec.publicMetadata().bounds().forEach(
        (col, b) -> bounds.putArray(col).add(b.lower()).add(b.upper()));
    ObjectNode keys = n.putObject("publicKeys");
    spec.publicMetadata().publicKeys().forEach((col, ks) -> {
      ArrayNode a = keys.putArray(col);
      ks.forEach(a::add);
    });
    spec.database().ifPresent(d -> n.set("database", database(d)));
    return n;
  }

  private static ObjectNode csv(CsvOptions o) {
    ObjectNode csv = MAPPER.createObjectNode();
    csv.put("header", o.header());
    csv.put("delimiter", o.delimiter());
    o.columns().forEach(csv.putArray("columns")::add);
    csv.put("nullString", o.nullString());
    return csv;
  }

  private static ObjectNode database(DatabaseSource d) {
    ObjectNode db = MAPPER.createObjectNode();
    db.put("jdbcUrl", d.jdbcUrl());
    d.user().ifPresent(u -> db.put("user", u));
    d.passwordEnv().ifPresent(v -> db.put("passwordEnv", v));
    d.passwordFile().ifPresent(f -> db.put("passwordFile", f));
    return db;
  }

  /**
   * A dataset registration from its JSON (the form {@link #dataset} writes, as shown by
   * {@code privet dataset show --format json}); malformed input is an IllegalArgumentException.
   */
  public static DatasetSpec registration(JsonNode n) {
    try {
      return readDataset(n);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("dataset: not a registration (expected the JSON of"
          + " 'privet dataset show --format json': name, source, format, csv, privacyUnit, relation,"
          + " budget, accountant, bounds, publicKeys)");
    }
  }

  static DatasetSpec readDataset(JsonNode n) {
    Map<String, ColumnBounds> bounds = new LinkedHashMap<>();
    n.path("bounds").fields().forEachRemaining(
        e -> bounds.put(e.getKey(), new ColumnBounds(e.getValue().get(0).asDouble(), e.getValue().get(1).asDouble())));
    Map<String, List<String>> keys = new LinkedHashMap<>();
    n.path("publicKeys").fields().forEachRemaining(e -> {
      List<String> ks = new ArrayList<>();
      e.getValue().forEach(k -> ks.add(k.asText()));
      keys.put(e.getKey(), ks);
    });
    JsonNode unit = n.get("privacyUnit");
    CsvOptions csvOptions = readCsv(n.get("csv"));
    return new DatasetSpec(
        n.get("name").asText(),
        n.get("source").asText(),
        SourceFormat.valueOf(n.get("format").asText().toUpperCase(java.util.Locale.ROOT)),
        csvOptions,
        unit == null || unit.isNull() ? PrivacyUnit.row() : PrivacyUnit.column(unit.asText()),
        NeighbouringRelation.valueOf(n.get("relation").asText()),
        readBudget(n.get("budget")),
        AccountantKind.parse(n.get("accountant").asText()),
        new PublicMetadata(bounds, keys),
        readDatabase(n.get("database")));
  }

  private static CsvOptions readCsv(JsonNode csv) {
    List<String> columns = new ArrayList<>();
    csv.path("columns").forEach(c -> columns.add(c.asText()));
    return new CsvOptions(csv.get("header").asBoolean(), csv.get("delimiter").asText(), columns,
        csv.get("nullString").asText());
  }

  private static java.util.Optional<DatabaseSource> readDatabase(JsonNode db) {
    if (db == null || db.isNull()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(new DatabaseSource(db.get("jdbcUrl").asText(), text(db, "user"),
        text(db, "passwordEnv"), text(db, "passwordFile")));
  }

  private static java.util.Optional<String> text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? java.util.Optional.empty() : java.util.Optional.of(v.asText());
  }

  /**
   * A table of a multi-table dataset, as the ledger keeps it: {@code name}, {@code source}, {@code
   * format}, {@code csv}, {@code database} (for a PostgreSQL table), {@code references} (each
   * {@code {"column":…,"table":…,"targetColumn":…}}), {@code public}, and for a public table that
   * tables added before it reference, {@code referencedBy} (each as {@link TableSpec#referencedBy}).
   */
  public static ObjectNode table(TableSpec t) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("name", t.name());
    n.put("source", t.source());
    n.put("format", t.format().name().toLowerCase(java.util.Locale.ROOT));
    n.set("csv", csv(t.csv()));
    t.database().ifPresent(d -> n.set("database", database(d)));
    ArrayNode refs = n.putArray("references");
    t.references().forEach(r -> refs.addObject().put("column", r.column()).put("table", r.table())
        .put("targetColumn", r.targetColumn()));
    n.put("public", t.isPublic());
    if (!t.referencedBy().isEmpty()) {
      ArrayNode by = n.putArray("referencedBy");
      t.referencedBy().forEach(r -> by.addObject().put("column", r.column()).put("table", r.table())
          .put("targetColumn", r.targetColumn()));
    }
    return n;
  }

  /**
   * A table registered with {@code dataset} by the server's {@code POST /v1/datasets} ({@code
   * tables}), as {@code dataset add-table} gives one: {@code name}, {@code source} (a file, or
   * {@code SCHEMA.TABLE} of the dataset's database), optional {@code format} ({@code csv}, {@code
   * parquet}, {@code postgres}; default from the dataset's database or the file name) and {@code
   * csv} (default: header line, comma), {@code references} and {@code referencedBy} (each {@code
   * "COLUMN=TABLE.COLUMN"} or {@code {"column","table","targetColumn"}}), {@code public} (default
   * false). Its schema is not read here.
   *
   * @throws IllegalArgumentException naming the field
   */
  public static TableSpec tableRegistration(JsonNode n, DatasetSpec dataset) {
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException("tables: each table is a JSON object (name, source, references"
          + " or public)");
    }
    for (String f : List.of("name", "source")) {
      if (!n.path(f).isTextual() || n.path(f).asText().isBlank()) {
        throw new IllegalArgumentException("tables: " + f + ": a non-empty string is required");
      }
    }
    SourceFormat format;
    try {
      format = n.hasNonNull("format") ? SourceFormat.valueOf(n.get("format").asText().toUpperCase(java.util.Locale.ROOT))
          : dataset.database().isPresent() ? SourceFormat.POSTGRES : SourceFormat.ofFileName(n.get("source").asText());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("tables: format must be csv, parquet or postgres");
    }
    CsvOptions csv;
    try {
      csv = n.hasNonNull("csv") ? readCsv(n.get("csv")) : CsvOptions.DEFAULT;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("tables: csv must be {header, delimiter, columns, nullString}");
    }
    if (n.has("public") && !n.get("public").isBoolean()) {
      throw new IllegalArgumentException("tables: public must be true or false");
    }
    return new TableSpec(n.get("name").asText(), n.get("source").asText(), format, csv,
        format == SourceFormat.POSTGRES ? dataset.database() : java.util.Optional.empty(),
        references(n.get("references"), "references"), n.path("public").asBoolean(false),
        references(n.get("referencedBy"), "referencedBy"));
  }

  private static List<TableReference> references(JsonNode a, String field) {
    List<TableReference> out = new ArrayList<>();
    if (a == null || a.isNull()) {
      return out;
    }
    if (!a.isArray()) {
      throw new IllegalArgumentException("tables: " + field + " must be an array");
    }
    for (JsonNode r : a) {
      if (r.isTextual()) {
        out.add(TableReference.parse(r.asText()));
      } else if (r.isObject() && r.path("column").isTextual() && r.path("table").isTextual()
          && r.path("targetColumn").isTextual()) {
        out.add(new TableReference(r.get("column").asText(), r.get("table").asText(), r.get("targetColumn").asText()));
      } else {
        throw new IllegalArgumentException("tables: " + field + ": each is \"COLUMN=TABLE.COLUMN\" or"
            + " {\"column\", \"table\", \"targetColumn\"}");
      }
    }
    return out;
  }

  static TableSpec readTable(JsonNode n) {
    List<TableReference> refs = new ArrayList<>();
    n.path("references").forEach(r -> refs.add(new TableReference(r.get("column").asText(),
        r.get("table").asText(), r.get("targetColumn").asText())));
    List<TableReference> by = new ArrayList<>();
    n.path("referencedBy").forEach(r -> by.add(new TableReference(r.get("column").asText(),
        r.get("table").asText(), r.get("targetColumn").asText())));
    return new TableSpec(n.get("name").asText(), n.get("source").asText(),
        SourceFormat.valueOf(n.get("format").asText().toUpperCase(java.util.Locale.ROOT)),
        readCsv(n.get("csv")), readDatabase(n.get("database")), refs, n.path("public").asBoolean(), by);
  }

  /**
   * A dataset's tables as {@code dataset show --format json} prints them: each as {@link #table},
   * with its {@code schema} (null if none was fixed) and {@code privacyUnit}: the unit column for
   * the unit table, {@code "references"} for a private table that reaches it through references,
   * null for a public table (and for each-row units).
   */
  public static ArrayNode tables(DatasetSpec dataset, List<DatasetTable> tables) {
    ArrayNode a = MAPPER.createArrayNode();
    for (DatasetTable t : tables) {
      ObjectNode n = table(t.spec());
      if (t.unitTable()) {
        dataset.privacyUnit().columnName().ifPresentOrElse(c -> n.put("privacyUnit", c),
            () -> n.putNull("privacyUnit"));
      } else if (t.spec().isPublic()) {
        n.putNull("privacyUnit");
      } else {
        n.put("privacyUnit", "references");
      }
      if (t.schema().isPresent()) {
        n.set("schema", schema(t.schema().get()));
      } else {
        n.putNull("schema");
      }
      a.add(n);
    }
    return a;
  }

  /**
   * A public schema: {@code {"columns":[{"name":…,"type":…}],"origin":"declared"|"inferred"}}.
   */
  public static ObjectNode schema(RegisteredSchema s) {
    ObjectNode n = MAPPER.createObjectNode();
    ArrayNode columns = n.putArray("columns");
    s.columns().forEach(c -> columns.addObject().put("name", c.name()).put("type", c.type()));
    n.put("origin", s.origin().cliName());
    return n;
  }

  static RegisteredSchema readSchema(JsonNode n) {
    List<RegisteredSchema.Column> columns = new ArrayList<>();
    n.get("columns").forEach(c -> columns.add(
        new RegisteredSchema.Column(c.get("name").asText(), c.get("type").asText())));
    return new RegisteredSchema(columns, RegisteredSchema.Origin.parse(n.get("origin").asText()));
  }

  /**
   * A dataset's registration with its public schema ({@code "schema": null} for a dataset
   * registered before schemas were kept), as {@code dataset show} and {@code dataset list} print it.
   */
  public static ObjectNode dataset(DatasetSpec spec, java.util.Optional<RegisteredSchema> schema) {
    ObjectNode n = dataset(spec);
    if (schema.isPresent()) {
      n.set("schema", schema(schema.get()));
    } else {
      n.putNull("schema");
    }
    return n;
  }

  /**
   * One charge as its analyst sees it (issue 23, item 3): {@code id} is the analyst's own number
   * for it on the dataset (1 for their first charge there), and the dataset-wide {@code spent} is
   * left out; everything else as in {@link #charge}. Nothing in it depends on other analysts.
   *
   * @param number the analyst's own number of the charge ({@link Ledger#analystChargeNumber})
   */
  public static ObjectNode analystCharge(Charge c, long number) {
    ObjectNode n = charge(c);
    n.put("id", number);
    n.remove("spent");
    return n;
  }

  /**
   * An analyst's charges as they see them ({@link #analystCharge}), numbered 1, 2, … oldest first.
   *
   * @param mine the charges of one analyst on one dataset, oldest first
   */
  public static ArrayNode analystCharges(List<Charge> mine) {
    ArrayNode a = MAPPER.createArrayNode();
    for (int i = 0; i < mine.size(); i++) {
      a.add(analystCharge(mine.get(i), i + 1));
    }
    return a;
  }

  /** One charge of the history, as the curator sees it. */
  public static ObjectNode charge(Charge c) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("id", c.id());
    n.put("dataset", c.dataset());
    n.put("analyst", c.analyst());
    n.put("time", c.time().toString());
    n.put("query", c.query());
    n.set("cost", privacyLosses(c.cost()));
    n.set("spent", privacyLoss(c.spent()));
    n.set("analystSpent", privacyLoss(c.analystSpent()));
    return n;
  }

  /** A history as a JSON array, oldest first. */
  public static ArrayNode charges(List<Charge> charges) {
    ArrayNode a = MAPPER.createArrayNode();
    charges.forEach(c -> a.add(charge(c)));
    return a;
  }

  /** A budget status. */
  public static ObjectNode status(BudgetStatus s) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("dataset", s.dataset());
    if (s.analyst().isPresent()) {
      n.put("analyst", s.analyst().get());
    } else {
      n.putNull("analyst");
    }
    n.put("accountant", s.accountant().cliName());
    n.set("total", budget(s.total()));
    n.set("spent", privacyLoss(s.spent()));
    n.set("remaining", privacyLoss(s.remaining()));
    n.put("charges", s.charges());
    return n;
  }

  /** A budget status read back from {@link #status} (e.g. a server's answer). */
  public static BudgetStatus readStatus(JsonNode n) {
    JsonNode analyst = n.get("analyst");
    return new BudgetStatus(n.get("dataset").asText(),
        analyst == null || analyst.isNull() ? java.util.Optional.empty() : java.util.Optional.of(analyst.asText()),
        AccountantKind.parse(n.get("accountant").asText()), readBudget(n.get("total")),
        readPrivacyLoss(n.get("spent")), readPrivacyLoss(n.get("remaining")), n.get("charges").asInt());
  }

  /** A history read back from {@link #charges} (e.g. a server's answer). */
  public static List<Charge> readCharges(JsonNode a) {
    List<Charge> out = new ArrayList<>();
    a.forEach(n -> out.add(readCharge(n)));
    return out;
  }

  /**
   * One charge read back from {@link #charge}, or from {@link #analystCharge} (an analyst's view,
   * which has no dataset-wide spend: {@link Charge#spent} is then the analyst's own spend).
   */
  public static Charge readCharge(JsonNode n) {
    PrivacyLoss analystSpent = readPrivacyLoss(n.get("analystSpent"));
    return new Charge(n.get("id").asLong(), n.get("dataset").asText(), n.get("analyst").asText(),
        readTime(n.get("time").asText()), n.get("query").asText(), readPrivacyLosses(n.get("cost")),
        n.hasNonNull("spent") ? readPrivacyLoss(n.get("spent")) : analystSpent, analystSpent);
  }

  /** Accounts as JSON (names, roles, times; never keys). */
  public static ArrayNode analysts(List<Analyst> analysts) {
    ArrayNode a = MAPPER.createArrayNode();
    for (Analyst x : analysts) {
      ObjectNode n = a.addObject();
      n.put("name", x.name());
      n.put("role", x.role().cliName());
      n.put("created", x.created().toString());
      if (x.revoked().isPresent()) {
        n.put("revoked", x.revoked().get().toString());
      } else {
        n.putNull("revoked");
      }
    }
    return a;
  }

  /** Compact JSON text of a node. */
  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Indented JSON text of a node. */
  public static String writePretty(JsonNode node) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static JsonNode read(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("corrupt JSON in the ledger store", e);
    }
  }

  static Instant readTime(String text) {
    return Instant.parse(text);
  }
}
