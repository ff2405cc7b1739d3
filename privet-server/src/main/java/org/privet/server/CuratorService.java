package org.privet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.curator.LedgerBudgetCharger;
import org.privet.curator.LedgerCatalog;
import org.privet.curator.QueryExecution;
import org.privet.curator.QueryRefusedException;
import org.privet.curator.ReleaseJson;
import org.privet.engine.Plan;
import org.privet.engine.PublicSchema;
import org.privet.engine.postgres.PostgresPools;
import org.privet.engine.spi.Backend;
import org.privet.ledger.Analyst;
import org.privet.ledger.BudgetStatus;
import org.privet.ledger.Charge;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.RegisteredSchema;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.ledger.Release;
import org.privet.ledger.Role;
import org.privet.sql.DpStatement;

/**
 * What the server does for an authenticated caller, over the curator's one release path
 * ({@link QueryExecution}) and the ledger. Controllers only translate HTTP into these calls.
 *
 * <p>Visibility: an analyst sees a dataset only if they hold a grant on it; every other name,
 * registered or not, is answered with the same 404 (no existence oracle). The curator sees all.
 *
 * <p>Exactly-once releases ({@link #query}): charge and release record committed together, then
 * compute, then the answer stored (committed), then the response. A retry with the same
 * Idempotency-Key gets the stored answer; a retry after a crash between the charge and the stored
 * answer computes once under the existing charge. Threat model: docs/proofs/threat-model.md.
 */
final class CuratorService {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Ledger ledger;
  private final WorkerPool pool;
  private final ReleaseHooks hooks;
  private final PostgresPools databases;

  /**
   * @param databases the connection pools of table datasets' databases, owned by the server (closed
   *     on shutdown)
   */
  CuratorService(Ledger ledger, WorkerPool pool, ReleaseHooks hooks, PostgresPools databases) {
    this.ledger = ledger;
    this.pool = pool;
    this.hooks = hooks;
    this.databases = databases;
  }

  /** An answer to a release request. */
  record Answer(ObjectNode body, boolean replay, long chargeId) {}

  // ---- visibility

  boolean visible(Analyst who, String registeredName) {
    if (who.role() == Role.CURATOR) {
      return true;
    }
    return ledger.grants(registeredName).stream().anyMatch(g -> g.analyst().equals(who.name()));
  }

  /** The registered name of a dataset the caller may see, else the one 404 for all other names. */
  String requireVisible(Analyst who, String name) {
    if (name == null || name.isBlank()) {
      throw ApiException.badRequest("dataset: the query parameter dataset=NAME is required");
    }
    String registered = ledger.dataset(name).name(); // ignoring case; a clash is refused
    if (!visible(who, registered)) {
      throw ErrorMapper.notFoundDataset();
    }
    return registered;
  }

  /**
   * The backends of registered datasets over {@code files} (table datasets on the server's pools),
   * with connection failures not detailed to the analyst; the caller closes it.
   */
  org.privet.curator.DatasetBackends datasetBackends(Backend files) {
    return databases == null ? new org.privet.curator.DatasetBackends(files, false)
        : new org.privet.curator.DatasetBackends(files, false, databases);
  }

  private QueryExecution execution(Analyst who, Backend backend) {
    return new QueryExecution(ledger, backend, n -> visible(who, n), false, databases);
  }

  // ---- reads

  /**
   * The datasets the caller may see, each with its registered public schema, public metadata and
   * budget view. Everything comes from the ledger: the schema was fixed at registration, so the
   * listing reads no file and connects to no database, and a dataset whose database cannot be
   * reached is listed like any other (its queries are refused before any charge, {@link
   * #execution}). A dataset registered before schemas were fixed has {@code "columns": null}.
   */
  ArrayNode datasets(Analyst who) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (DatasetSpec spec : ledger.datasets()) {
      try {
        if (visible(who, spec.name())) {
          out.add(describe(who, spec));
        }
      } catch (org.privet.ledger.DatasetNameClashException clash) {
        // Two names equal ignoring case (an older ledger): refused everywhere until renamed. The
        // curator sees it listed with the reason; analysts as if it did not exist.
        if (who.role() == Role.CURATOR) {
          out.addObject().put("name", spec.name()).put("nameClash", clash.getMessage());
        }
      }
    }
    return out;
  }

  /** A public schema's columns, {@code [{"name","type"}]}, types by their engine names. */
  private static ArrayNode columns(RegisteredSchema schema) {
    ArrayNode columns = JsonNodeFactory.instance.arrayNode();
    for (RegisteredSchema.Column c : schema.columns()) {
      columns.addObject().put("name", c.name())
          .put("type", PublicSchema.type(c.type()).name().toLowerCase(java.util.Locale.ROOT));
    }
    return columns;
  }

  /** A multi-table dataset's tables (issue 25): name, unit table, public flag, references, columns. */
  private static ArrayNode tables(List<org.privet.ledger.DatasetTable> registered) {
    ArrayNode tables = JsonNodeFactory.instance.arrayNode();
    for (org.privet.ledger.DatasetTable t : registered) {
      ObjectNode table = tables.addObject().put("name", t.name()).put("unitTable", t.unitTable())
          .put("public", t.spec().isPublic());
      ArrayNode refs = table.putArray("references");
      t.spec().references().forEach(r -> refs.addObject().put("column", r.column()).put("table", r.table())
          .put("targetColumn", r.targetColumn()));
      if (!t.spec().referencedBy().isEmpty()) {
        ArrayNode by = table.putArray("referencedBy");
        t.spec().incoming().forEach(r -> by.addObject().put("table", r.table()).put("column", r.column())
            .put("targetColumn", r.targetColumn()));
      }
      table.set("columns", columns(t.schema().orElseThrow()));
    }
    return tables;
  }

  /** One dataset as the caller sees it (built whole before it is listed). */
  private ObjectNode describe(Analyst who, DatasetSpec spec) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("name", spec.name());
    n.put("privacyUnit", spec.privacyUnit().isRow() ? "row" : spec.privacyUnit().columnName().orElseThrow());
    Optional<RegisteredSchema> schema = ledger.schema(spec.name());
    if (schema.isPresent()) {
      n.set("columns", columns(schema.get()));
      List<org.privet.ledger.DatasetTable> registered = ledger.tables(spec.name());
      if (registered.size() > 1 || !registered.get(0).name().equals(spec.name())) {
        n.set("tables", tables(registered));
      }
    } else {
      n.putNull("columns");
    }
    ObjectNode keys = n.putObject("publicKeys");
    spec.publicMetadata().publicKeys().forEach((col, ks) -> ks.forEach(keys.putArray(col)::add));
    ObjectNode bounds = n.putObject("publicBounds");
    spec.publicMetadata().bounds().forEach(
        (col, b) -> bounds.putObject(col).put("lower", b.lower()).put("upper", b.upper()));
    BudgetStatus s = status(who, spec.name());
    ObjectNode budget = n.putObject("budget");
    budget.set("total", LedgerJson.budget(s.total()));
    budget.set("spent", LedgerJson.privacyLoss(s.spent()));
    budget.set("remaining", LedgerJson.privacyLoss(s.remaining()));
    return n;
  }

  private BudgetStatus status(Analyst who, String dataset) {
    return who.role() == Role.CURATOR ? ledger.status(dataset) : ledger.status(dataset, who.name());
  }

  ObjectNode budget(Analyst who, String dataset) {
    return LedgerJson.status(status(who, requireVisible(who, dataset)));
  }

  /**
   * The caller's charges: an analyst's own, numbered as their own ({@link LedgerJson#analystCharges},
   * without the dataset-wide spend); every charge, as recorded, for the curator.
   */
  ArrayNode history(Analyst who, String dataset) {
    List<Charge> charges = ledger.history(requireVisible(who, dataset));
    if (who.role() == Role.CURATOR) {
      return LedgerJson.charges(charges);
    }
    return LedgerJson.analystCharges(charges.stream().filter(c -> c.analyst().equals(who.name())).toList());
  }

  /**
   * A charge as {@code who} may see it (issue 23, item 3): the curator sees the ledger's record; an
   * analyst sees their own charge numbered as their own, without the dataset-wide spend, so nothing
   * in it depends on other analysts' activity.
   */
  ObjectNode chargeView(Analyst who, Charge charge) {
    if (who.role() == Role.CURATOR) {
      return LedgerJson.charge(charge);
    }
    return LedgerJson.analystCharge(charge, ledger.analystChargeNumber(charge));
  }

  /**
   * EXPLAIN text as {@code who} may read it: for an analyst, the dataset's file path (the server's
   * file system) is replaced by the dataset's name. The curator reads it as it is.
   */
  private String readable(Analyst who, String dataset, String text) {
    if (who.role() == Role.CURATOR) {
      return text;
    }
    DatasetSpec spec = ledger.dataset(dataset);
    if (spec.database().isPresent()) {
      return text; // a table name, which the curator's connection resolves; no file path
    }
    String shown = "<dataset " + spec.name() + ">";
    java.nio.file.Path path = java.nio.file.Path.of(spec.source());
    List<String> forms = new java.util.ArrayList<>(List.of(path.toAbsolutePath().normalize().toString(),
        path.toAbsolutePath().toString(), spec.source()));
    try {
      forms.add(path.toRealPath().toString());
    } catch (java.io.IOException | RuntimeException e) {
      // no real path (the file is gone): the other forms are replaced
    }
    if (path.getFileName() != null) {
      forms.add(path.getFileName().toString());
    }
    forms.sort(java.util.Comparator.comparingInt(String::length).reversed());
    String out = text;
    for (String f : forms) {
      if (!f.isEmpty()) {
        out = out.replace(f.replace("'", "''"), shown).replace(f, shown);
      }
    }
    return out;
  }

  // ---- explain and query

  ObjectNode explain(Analyst who, String sql) {
    return pool.call(backend -> {
      try (QueryExecution ex = execution(who, backend)) {
        DpStatement st = ex.parse(sql);
        Plan plan = ex.plan(st);
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        String dataset = ex.datasetOf(st);
        out.put("plan", readable(who, dataset,
            ex.explain(st, who.role() == Role.CURATOR ? null : who.name())));
        ObjectNode cost = out.putObject("cost");
        cost.set("total", LedgerJson.privacyLoss(plan.total()));
        ArrayNode mechanisms = cost.putArray("mechanisms");
        for (Plan.PlannedMechanism m : plan.mechanisms()) {
          ObjectNode mn = mechanisms.addObject();
          mn.put("output", m.cost().output());
          mn.put("purpose", m.cost().purpose());
          mn.put("mechanism", String.valueOf(m.cost().mechanism()));
          mn.set("loss", LedgerJson.privacyLoss(m.cost().loss()));
          putNumber(mn, "sensitivity", m.sensitivity());
          putNumber(mn, "noiseStddev", m.noiseStddev());
          putNumber(mn, "error95", m.error95());
        }
        BudgetStatus s = status(who, dataset);
        cost.set("remaining", LedgerJson.privacyLoss(s.remaining()));
        putSplit(out, plan.split());
        ex.solution(st).ifPresent(sol -> putSolved(out, sol, s.remaining()));
        return out;
      }
    });
  }

  /** The default split EXPLAIN reports (issue 17): rule, selection's share, each output. */
  private static void putSplit(ObjectNode out, org.privet.engine.SplitReport split) {
    if (split == null) {
      return;
    }
    ObjectNode sp = out.putObject("split");
    sp.put("rule", split.rule());
    sp.put("selectionShare", split.selectionShare());
    putNumber(sp, "groupSize", split.groupSize());
    putNumber(sp, "objective", split.objective());
    putNumber(sp, "equalSplitObjective", split.equalSplitObjective());
    ArrayNode outs = sp.putArray("outputs");
    for (org.privet.engine.SplitReport.OutputError o : split.outputs()) {
      ObjectNode on = outs.addObject();
      on.put("output", o.output());
      putNumber(on, "share", o.share());
      putNumber(on, "relativeStddev", o.relativeStddev());
      putNumber(on, "equalSplitRelativeStddev", o.equalSplitRelativeStddev());
    }
  }

  /**
   * A query given by target errors (issue 16): the solved ε or ρ and its charge against the
   * analyst's remaining budget, and each output's target and expected error under it.
   */
  private static void putSolved(ObjectNode out, org.privet.engine.BudgetSolution sol,
      org.privet.accounting.PrivacyLoss remaining) {
    ObjectNode sv = out.putObject("solved");
    sv.put("measure", sol.inRho() ? "rho" : "epsilon");
    sv.put("value", sol.parameter());
    sv.set("cost", LedgerJson.privacyLoss(sol.cost()));
    sv.put("confidence", sol.targets().confidence());
    double left = org.privet.curator.QueryExecution.remainingParameter(remaining, sol.inRho());
    putNumber(sv, "remaining", left);
    if (!Double.isNaN(left)) {
      sv.put("fits", left >= sol.parameter());
    }
    ArrayNode outs = sv.putArray("outputs");
    for (Map.Entry<String, Double> e : sol.errors().entrySet()) {
      ObjectNode on = outs.addObject();
      on.put("output", e.getKey());
      putNumber(on, "target", sol.targets().halfWidths().get(e.getKey()));
      putNumber(on, "expectedError", e.getValue());
    }
  }

  private static void putNumber(ObjectNode n, String field, double v) {
    if (Double.isFinite(v)) {
      n.put(field, v);
    } else {
      n.putNull(field);
    }
  }

  /**
   * A DP SQL release for {@code who}, exactly once per Idempotency-Key. The key covers the whole
   * request body ({@link #requestDigest}), so a retry whose body differs in any member, not only
   * its SQL, is refused (issue 23, item 4).
   *
   * @param body the request body, holding {@code sql}
   * @param idempotencyKey the client's key, if it sent one
   */
  Answer query(Analyst who, JsonNode body, Optional<String> idempotencyKey) {
    String sql = Controllers.sql(body);
    String request = requestDigest("POST /v1/query", body);
    if (idempotencyKey.isPresent()) {
      Optional<Release> prior = ledger.release(who.name(), idempotencyKey.get());
      if (prior.isPresent()) {
        return resume(who, prior.get(), request, sql);
      }
    }
    try {
      return pool.call(backend -> {
        try (QueryExecution ex = execution(who, backend)) {
          DpStatement st = ex.parse(sql);
          if (st.explain()) {
            throw new QueryRefusedException("query refused, nothing charged: EXPLAIN queries go to POST /v1/explain");
          }
          String dataset = ex.datasetOf(st);
          LedgerBudgetCharger charger = LedgerBudgetCharger.forRelease(ledger, dataset, who.name(), sql,
              new Release.Claim(idempotencyKey, request));
          QueryExecution.Outcome outcome = ex.run(st, charger);
          return store(outcome.charge().id(), answer(who, outcome), false);
        }
      });
    } catch (Release.DuplicateKeyException raced) {
      // The same key arrived twice at once; the other request holds the charge.
      Release prior = ledger.release(who.name(), idempotencyKey.orElseThrow()).orElseThrow();
      return resume(who, prior, request, sql);
    }
  }

  /** A retry: the stored answer, or (after a crash) the answer computed once under the existing charge. */
  private Answer resume(Analyst who, Release prior, String request, String sql) {
    if (!prior.request().equals(request)) {
      throw new QueryRefusedException("refused, nothing charged: this Idempotency-Key was already used with a"
          + " different request");
    }
    if (prior.answer().isPresent()) {
      return new Answer(read(prior.answer().get()), true, prior.chargeId());
    }
    return pool.call(backend -> {
      // Re-read: another retry may have stored the answer meanwhile.
      Optional<String> stored = ledger.releaseOfCharge(prior.chargeId()).flatMap(Release::answer);
      if (stored.isPresent()) {
        return new Answer(read(stored.get()), true, prior.chargeId());
      }
      Charge charge = ledger.charge(prior.dataset(), prior.chargeId());
      try (QueryExecution ex = execution(who, backend)) {
        DpStatement st = ex.parseCharged(sql, charge.dataset());
        QueryExecution.Outcome outcome = ex.run(st, LedgerBudgetCharger.underExisting(ledger, charge));
        return store(charge.id(), answer(who, outcome), true);
      }
    });
  }

  /** The answer's JSON, with its charge as the caller may see it ({@link #chargeView}). */
  private ObjectNode answer(Analyst who, QueryExecution.Outcome outcome) {
    ObjectNode json = ReleaseJson.of(outcome);
    json.set("charge", chargeView(who, outcome.charge()));
    return json;
  }

  /** Commits the answer (the first stored wins) and answers what is stored. */
  private Answer store(long chargeId, ObjectNode answer, boolean replay) {
    hooks.computed(chargeId);
    String stored = ledger.storeAnswer(chargeId, LedgerJson.write(answer));
    hooks.stored(chargeId);
    return new Answer(read(stored), replay, chargeId);
  }

  private static ObjectNode read(String json) {
    try {
      return (ObjectNode) JSON.readTree(json);
    } catch (Exception e) {
      throw new IllegalStateException("a stored answer is not JSON");
    }
  }

  /**
   * What an Idempotency-Key binds: the route and the whole JSON body, as parsed (so whitespace
   * between tokens does not count, but every member and value, and their order, does).
   */
  static String requestDigest(String route, JsonNode body) {
    return digest(route + "\n" + body.toString());
  }

  static String digest(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---- curator

  /**
   * Registers a dataset with its public schema: {@code "schema": "name:type,..."} if the body
   * declares one, else inferred from the file now, the curator's act (threat-model.md, "Public
   * schema").
   */
  /**
   * Registers a dataset: its first table (the body as {@code privet dataset show --format json}
   * prints it, with an optional declared {@code schema}), and, with {@code tableName} or {@code
   * tables} (issue 25), a multi-table dataset whole: {@code tableName} names the unit table
   * (default: the dataset's name), {@code tables} lists the further tables as {@code dataset
   * add-table} gives them ({@link LedgerJson#tableRegistration}, each with an optional declared
   * {@code schema}, else inferred now), checked in order by the same rules and key checks, and
   * stored in one transaction with the dataset, or nothing is ({@link LedgerCatalog#register(Ledger,
   * DatasetSpec, RegisteredSchema, String, List)}). A source may be a directory of Parquet part
   * files, checked first as {@code --source DIR} is ({@link #parquetParts}; a table's format then
   * defaults to Parquet). A name in use is refused (400, naming {@code
   * name}) and changes nothing, so a retried registration is never stored twice (no
   * Idempotency-Key needed).
   */
  ObjectNode register(JsonNode body) {
    DatasetSpec built = LedgerJson.registration(body);
    if (built.database().isEmpty()) {
      parquetParts(built.source(), built.format(), "source");
    }
    RegisteredSchema schema = declaredSchema(body, "schema")
        .orElseGet(() -> pool.call(backend -> LedgerCatalog.inferred(built, backend)));
    if (!body.has("tableName") && !body.has("tables")) {
      DatasetSpec spec = ledger.register(built, schema);
      return LedgerJson.dataset(spec, java.util.Optional.of(schema));
    }
    String tableName = body.hasNonNull("tableName") ? text(body, "tableName") : built.name();
    JsonNode given = body.path("tables");
    if (!given.isMissingNode() && !given.isNull() && !given.isArray()) {
      throw new IllegalArgumentException("tables: an array of tables is required");
    }
    if (given.size() > MAX_TABLES) {
      throw new IllegalArgumentException("tables: at most " + MAX_TABLES + " tables");
    }
    List<Ledger.NewTable> tables = new java.util.ArrayList<>();
    for (int i = 0; i < given.size(); i++) {
      JsonNode t = given.get(i);
      if (t.isObject() && !t.hasNonNull("format") && built.database().isEmpty()
          && t.path("source").isTextual() && isDirectory(t.get("source").asText())) {
        t = ((ObjectNode) t).deepCopy().put("format", "parquet"); // as --source DIR on the CLI
      }
      org.privet.ledger.TableSpec table = LedgerJson.tableRegistration(t, built);
      java.nio.file.Path file = table.database().isPresent() ? null : java.nio.file.Path.of(table.source());
      if (file != null && !(file.isAbsolute() && (java.nio.file.Files.isRegularFile(file)
          || java.nio.file.Files.isDirectory(file)))) {
        throw new IllegalArgumentException("tables: source of '" + table.name() + "' must be an absolute"
            + " path to a file on the server's machine (or a directory of Parquet part files)");
      }
      if (file != null) {
        parquetParts(table.source(), table.format(), "tables[" + i + "].source");
      }
      RegisteredSchema fixed = declaredSchema(t, "tables: schema").orElseGet(() -> {
        DatasetSpec source = table.asSource(built);
        return source.database().isPresent() ? LedgerCatalog.inferSchema(source)
            : pool.call(backend -> LedgerCatalog.inferred(source, backend));
      });
      tables.add(new Ledger.NewTable(table, fixed));
    }
    List<org.privet.ledger.DatasetTable> registered = LedgerCatalog.register(ledger, built, schema, tableName, tables);
    ObjectNode out = LedgerJson.dataset(built, java.util.Optional.of(schema));
    out.set("tables", LedgerJson.tables(built, registered));
    return out;
  }

  /**
   * If {@code source} is a directory, the curator's check that it is one table of Parquet part
   * files ({@link org.privet.curator.ParquetParts}, as {@code --source DIR} on the CLI), before
   * anything is stored; its refusal names {@code field}.
   */
  private static void parquetParts(String source, org.privet.ledger.SourceFormat format, String field) {
    if (!isDirectory(source)) {
      return;
    }
    if (format != org.privet.ledger.SourceFormat.PARQUET) {
      throw new IllegalArgumentException(field + ": a directory is read as Parquet part files;"
          + " format " + format.name().toLowerCase(java.util.Locale.ROOT) + " needs a file");
    }
    if (!java.nio.file.Path.of(source).isAbsolute()) {
      throw new IllegalArgumentException(field + ": a directory must be given as an absolute path"
          + " on the server's machine");
    }
    org.privet.curator.ParquetParts.require(java.nio.file.Path.of(source), field);
  }

  private static boolean isDirectory(String source) {
    try {
      return java.nio.file.Files.isDirectory(java.nio.file.Path.of(source));
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  /** The most tables one registration may carry. */
  static final int MAX_TABLES = 64;

  /** A declared schema ({@code "name:type,..."}) in {@code n}'s {@code schema} field, if given. */
  private static Optional<RegisteredSchema> declaredSchema(JsonNode n, String parameter) {
    JsonNode s = n.get("schema");
    if (s == null || s.isNull()) {
      return Optional.empty();
    }
    if (!s.isTextual()) {
      throw new IllegalArgumentException(parameter + ": a string name:type,... is required");
    }
    return Optional.of(LedgerCatalog.registered(PublicSchema.parse(s.asText()), RegisteredSchema.Origin.DECLARED));
  }

  ObjectNode grant(JsonNode body) {
    String dataset = text(body, "dataset");
    String analyst = text(body, "analyst");
    var share = org.privet.curator.Budgets.of(number(body, "epsilon"), number(body, "delta"), number(body, "rho"));
    var g = ledger.grant(ledger.dataset(dataset).name(), analyst, share);
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("dataset", g.dataset()).put("analyst", g.analyst());
    out.set("share", LedgerJson.budget(g.share()));
    out.put("time", g.time().toString());
    return out;
  }

  ObjectNode addAnalyst(JsonNode body) {
    String name = text(body, "name");
    Role role = body.hasNonNull("role") ? Role.parse(body.get("role").asText()) : Role.ANALYST;
    Ledger.NewAnalyst added = ledger.addAnalyst(name, role);
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("name", added.analyst().name()).put("role", role.cliName()).put("apiKey", added.apiKey());
    return out;
  }

  ArrayNode analysts() {
    return LedgerJson.analysts(ledger.analysts());
  }

  void revoke(String name) {
    boolean active = ledger.analysts().stream().anyMatch(a -> a.name().equals(name) && a.active());
    if (!active) {
      throw ApiException.notFound("no active account of that name");
    }
    ledger.revokeAnalyst(name);
  }

  private static String text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw ApiException.badRequest(field + ": a non-empty string is required");
    }
    return v.asText();
  }

  private static Double number(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isNumber()) {
      throw ApiException.badRequest(field + ": must be a number");
    }
    return v.asDouble();
  }
}
