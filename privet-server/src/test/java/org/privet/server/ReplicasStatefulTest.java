package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.ledger.Analyst;
import org.privet.ledger.Charge;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Job;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.ledger.PostgresLedger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.Release;
import org.privet.ledger.Role;
import org.privet.testing.TestPostgres;

/**
 * A model-based (stateful) property test of the server as a deployment (issue 23): two real
 * {@code privet serve} replicas, each a separate JVM ({@link ServerChild} runs {@link
 * TestServerMain}, the same {@link PrivetServer} the CLI starts, on the test classpath, so a
 * SIGKILL is a real one), on loopback, sharing one ledger on a real PostgreSQL server. jqwik draws
 * action sequences: register (with letter-case variants of names), add, grant, revoke and re-add
 * analysts, query (naming the dataset in any letter case), explain, start and poll synthesis
 * jobs, retry with the same Idempotency-Key (and the same key with another body), SIGKILL and
 * restart a replica. A model predicts every answer's status and charge; after every step these
 * invariants are checked:
 *
 * <ol>
 *   <li>every answer has exactly one charge, on the dataset it read (the ledger's release record
 *       under its Idempotency-Key points at a charge on the dataset the model resolves, and the
 *       released count is that dataset's size: every registration gets a file of its own size);
 *   <li>no analyst's answered loss exceeds their grant (the model refuses what would exceed it,
 *       and the server must too);
 *   <li>no response to one analyst changes because of another analyst's activity, checked two
 *       ways. Every answer and every view (budget, history, datasets, EXPLAIN), its noisy values
 *       masked, is recorded under the account's own history (its requests and the curator's
 *       grants to it): the same own history must always get the same response, later in the
 *       sequence (after others acted, after a restart, on the other replica) and in other
 *       sequences. And at the end of a sequence each account's requests are replayed in a world
 *       where it is alone (a fresh ledger, one in-process server, only the curator's acts that
 *       concern it): every masked answer must be the same as in the shared world. Charges and
 *       EXPLAIN must also quote the account's own spending and remaining budget only;
 *   <li>a synthetic table is the same bytes on every replica, for good (its digest is the
 *       ledger's);
 *   <li>the ledger's records equal the model's: datasets, accounts, charges, jobs.
 * </ol>
 *
 * <p>Datasets' totals (ε = 100) never bind (the most all accounts can be granted is below), so
 * nothing one analyst does may change another's answers. A re-added name is a new account: it
 * starts with no grant, no spending and no history (a server may instead refuse to revive a
 * revoked name). Noisy counts are checked against the read dataset's size with Laplace noise of
 * scale at most 4 and a margin of 150 rows: a false failure has probability e^-37.5 per query.
 *
 * <p>Bounded for CI (about two minutes on 2 cores): 4 sequences of at most 24 actions, no
 * shrinking (each shrink step would restart two JVMs), a fixed seed. If PostgreSQL cannot start,
 * the property fails, in CI and everywhere: it never passes with nothing run.
 */
class ReplicasStatefulTest {
  private static final String[] NAMES = {"ann7", "bob7", "cat7"};
  private static final String[] BASES = {"people", "visits"};
  private static final String DOMAIN = "{\"a\": 3, \"b\": 2, \"c\": 4}";
  private static final double TOTAL = 100;
  /** A count more than this far from the read dataset's size means another dataset was read. */
  private static final double MARGIN = 150;
  private static final String LEASE_MS = "5000";

  /** Own history + request -> the response, masked: shared by every sequence of the run. */
  private static final Map<String, String> SEEN = new ConcurrentHashMap<>();
  private static final List<World> OPEN = new ArrayList<>();
  /** How often each interesting case happened, over all sequences. */
  private static final Map<String, Integer> COVERED = new ConcurrentHashMap<>();
  /** Cases every run must reach, or it proves too little (a seed or weights gone bad). */
  private static final List<String> MUST_COVER = List.of("a case variant of a dataset name refused",
      "an account name used before", "an answer beyond the grant refused", "a retry replayed",
      "a retry with another body refused", "a SIGKILL", "a table read on both replicas",
      "an account replayed alone");

  static void covered(String what) {
    COVERED.merge(what, 1, Integer::sum);
  }

  /** Fails the run if it never reached a case it exists to check. */
  @AfterProperty
  void everyCaseReached() {
    System.err.println("ReplicasStatefulTest coverage: " + new TreeMap<>(COVERED));
    for (String what : MUST_COVER) {
      assertTrue(COVERED.getOrDefault(what, 0) > 0, "no sequence reached: " + what + " (" + COVERED + ")");
    }
  }

  @Property(tries = 4, seed = "20261127", shrinking = ShrinkingMode.OFF)
  void replicas_randomActions_budgetJobsAndViewsHold(@ForAll("chains") ActionChain<World> chain)
      throws IOException {
    try {
      chain.withInvariant("ledger equals model", World::ledgerEqualsModel)
          .withInvariant("synthetic tables are the same bytes on every replica", World::tablesEverywhere)
          .withInvariant("views depend on the analyst's own activity only", World::viewsAreOwn)
          .run();
      World last = chain.finalState().orElseThrow();
      last.aloneAnswersAlike();
    } finally {
      synchronized (OPEN) {
        OPEN.forEach(World::close);
        OPEN.clear();
      }
    }
  }

  @Provide
  Arbitrary<ActionChain<World>> chains() {
    return ActionChain.startWith(World::start)
        .withAction(2, new Register())
        .withAction(2, new AddAnalyst())
        .withAction(3, new GrantShare())
        .withAction(1, new Revoke())
        .withAction(8, new QueryAction())
        .withAction(2, new ExplainAction())
        .withAction(3, new SynthStart())
        .withAction(2, new SynthPoll())
        .withAction(3, new Retry())
        .withAction(1, new KillAndRestart())
        .withMaxTransformations(24);
  }

  // ------------------------------------------------------------------ the model

  /** A registered dataset: its exact name, the rows of its file and its registration (JSON). */
  record Dataset(String name, int rows, String registration) {}

  /**
   * One request on an account's tape: a curator's act that concerns the account (registering a
   * dataset it is then granted, the grant), or the account's own request with its masked answer.
   */
  record Exchange(boolean curator, String method, String path, String body, String idempotencyKey,
      String masked) {}

  /** An account: one identity, never revived. */
  static final class Identity {
    final int serial;
    final String name;
    final String key;
    boolean active = true;
    /** What this account did, and the curator's grants to it: its own history. */
    final List<String> log = new ArrayList<>();
    final Map<String, Double> grants = new HashMap<>();
    final Map<String, Double> spent = new HashMap<>();
    final Map<String, Integer> charges = new HashMap<>();
    /** What this account asked and was answered, to replay in a world where it is alone. */
    final List<Exchange> tape = new ArrayList<>();
    final java.util.Set<String> taped = new java.util.HashSet<>();
    final java.util.Set<String> introduced = new java.util.HashSet<>();
    int requests;

    Identity(int serial, String name, String key) {
      this.serial = serial;
      this.name = name;
      this.key = key;
    }

    @Override
    public String toString() {
      return name + "#" + serial;
    }
  }

  /** A charged request: what the ledger must hold for it. */
  record Paid(Identity who, String dataset, double epsilon, String keyHeader, String route) {}

  /** A request sent with an Idempotency-Key, for retries. */
  record Sent(Identity who, String route, String body, String keyHeader, String label, Api.Response first) {}

  /** A synthesis job as the model knows it. */
  static final class JobModel {
    final Identity owner;
    /** The owner's id for the job (their own number for it). */
    final String id;
    /** The curator's id for it (its charge id). */
    final long chargeId;
    final String keyHeader;
    final int killsAtStart;
    String status = "running";
    String bytes;

    JobModel(Identity owner, String id, long chargeId, String keyHeader, int killsAtStart) {
      this.owner = owner;
      this.id = id;
      this.chargeId = chargeId;
      this.keyHeader = keyHeader;
      this.killsAtStart = killsAtStart;
    }
  }

  /** The system under test (two replica processes, one ledger) and its model. */
  static final class World {
    final Path dir;
    final String ledgerUrl;
    final Ledger ledger;
    final String boss;
    final ServerChild[] replicas = new ServerChild[2];
    final Map<String, Dataset> datasets = new LinkedHashMap<>();
    final List<Identity> identities = new ArrayList<>();
    final List<Paid> paid = new ArrayList<>();
    final List<Sent> sent = new ArrayList<>();
    final List<JobModel> jobs = new ArrayList<>();
    int kills;
    int registrations;
    int keys;

    private World(Path dir, String ledgerUrl) {
      this.dir = dir;
      this.ledgerUrl = ledgerUrl;
      this.ledger = Ledger.open(new PostgresLedger(ledgerUrl, Optional.empty(), Optional.empty()));
      this.boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
    }

    static World start() {
      try {
        Path dir = Files.createTempDirectory("privet-stateful");
        World w = new World(dir, TestPostgres.server().newDatabase());
        synchronized (OPEN) {
          OPEN.add(w);
        }
        CompletableFuture<ServerChild> r0 = CompletableFuture.supplyAsync(() -> w.child(0));
        CompletableFuture<ServerChild> r1 = CompletableFuture.supplyAsync(() -> w.child(1));
        w.replicas[0] = r0.join();
        w.replicas[1] = r1.join();
        // A common start, through the API like every step: one dataset, two analysts with equal
        // shares of it (equal own histories, so their answers are compared with each other).
        w.register("people", 0, 0);
        w.addAnalyst("ann7", 1);
        w.addAnalyst("bob7", 0);
        w.grant(w.identities.get(0), w.datasets.get("people"), 2.0, 0);
        w.grant(w.identities.get(1), w.datasets.get("people"), 2.0, 1);
        return w;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private ServerChild child(int i) {
      return ServerChild.start(ledgerUrl, Map.of("PRIVET_TEST_JOB_LEASE_MS", LEASE_MS),
          dir.resolve("replica-" + i), "none", "2", "16");
    }

    Api api(int replica) {
      return new Api(replicas[replica].url());
    }

    List<Identity> active() {
      return identities.stream().filter(i -> i.active).toList();
    }

    Optional<Identity> activeNamed(String name) {
      return identities.stream().filter(i -> i.active && i.name.equals(name)).findFirst();
    }

    /** The registered dataset a name resolves to (SQL identifiers ignore letter case). */
    Optional<Dataset> resolve(String name) {
      return datasets.values().stream().filter(d -> d.name().equalsIgnoreCase(name)).findFirst();
    }

    String newKey(Identity who) {
      return "k" + (++keys) + "-" + who.serial;
    }

    void close() {
      for (ServerChild c : replicas) {
        if (c != null) {
          try {
            c.kill();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
      ledger.close();
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      } catch (IOException | UncheckedIOException e) {
        // A temporary folder left behind; nothing depends on it.
      }
    }

    // ---------------------------------------------------------------- actions

    void register(String base, int variant, int replica) {
      String name = variant(base, variant);
      // Each name's own size, the same in every sequence (so own histories compare across them).
      int rows = 300 * (1 + 3 * List.of(BASES).indexOf(base) + variant);
      registrations++;
      DatasetSpec spec = DatasetSpec.builder().name(name).source(table(rows).toString()).csv(CsvOptions.DEFAULT)
          .privacyUnit(PrivacyUnit.row()).budget(new PureDp(TOTAL)).build();
      Api.Response r = api(replica).post("/v1/datasets", boss, LedgerJson.dataset(spec).toString());
      if (resolve(name).isPresent()) {
        assertTrue(r.status() == 400 || r.status() == 409,
            "a name equal to a registered one ignoring case is refused (issue 23 item 1): " + r.status() + " " + r.text());
        if (!datasets.containsKey(name)) {
          covered("a case variant of a dataset name refused");
        }
      } else {
        assertEquals(201, r.status(), r.text());
        datasets.put(name, new Dataset(name, rows, LedgerJson.dataset(spec).toString()));
      }
    }

    void addAnalyst(String name, int replica) {
      Api.Response r = api(replica).post("/v1/analysts", boss, "{\"name\": \"" + name + "\"}");
      if (activeNamed(name).isPresent()) {
        assertEquals(400, r.status(), "an active name is not added twice: " + r.text());
        return;
      }
      boolean revived = identities.stream().anyMatch(i -> i.name.equalsIgnoreCase(name));
      if (revived) {
        covered("an account name used before");
      }
      if (revived && r.status() != 201) {
        // Refusing a name an account ever had (in any case) is one way never to revive one.
        assertTrue(r.status() == 400 || r.status() == 409, r.text());
        return;
      }
      assertEquals(201, r.status(), r.text());
      identities.add(new Identity(identities.size() + 1, name, r.json().get("apiKey").asText()));
    }

    void grant(Identity who, Dataset d, double epsilon, int replica) {
      String body = "{\"dataset\": \"" + d.name() + "\", \"analyst\": \"" + who.name + "\", \"epsilon\": "
          + epsilon + "}";
      Api.Response r = api(replica).post("/v1/grants", boss, body);
      assertEquals(201, r.status(), r.text());
      if (who.introduced.add(d.name())) {
        who.tape.add(new Exchange(true, "POST", "/v1/datasets", d.registration(), null, null));
      }
      who.tape.add(new Exchange(true, "POST", "/v1/grants", body, null, null));
      who.grants.put(d.name(), epsilon);
      // The dataset's public identity (its registration), so other sequences compare like with like.
      who.log.add("granted " + d.name() + "[" + d.rows() + "] " + epsilon);
    }

    void revoke(Identity who, int replica) {
      Api.Response r = api(replica).send("DELETE", "/v1/analysts/" + who.name, boss, null, Map.of());
      assertEquals(200, r.status(), r.text());
      who.active = false;
      assertEquals(401, api(1 - replica).get("/v1/datasets", who.key).status(), "a revoked key fails everywhere");
    }

    static String countSql(String from, double epsilon) {
      return "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + epsilon + ") COUNT(*) AS n FROM " + from;
    }

    void query(Identity who, String from, double epsilon, int replica) {
      String label = "q" + (++who.requests);
      String keyHeader = newKey(who);
      String body = JsonNodeFactory.instance.objectNode().put("sql", countSql(from, epsilon)).toString();
      String step = "query " + from + " eps=" + epsilon + " key=" + label;
      Api.Response r = own(who, api(replica), "POST", "/v1/query", body, keyHeader, step);
      Optional<Dataset> d = resolve(from).filter(x -> who.grants.containsKey(x.name()));
      if (d.isEmpty()) {
        assertTrue(r.status() == 404 || r.status() == 422, "a dataset without a grant is not found: " + r.text());
      } else if (spent(who, d.get()) + epsilon > who.grants.get(d.get().name()) + 1e-9) {
        assertEquals(409, r.status(), "beyond the grant: refused, " + r.text());
        covered("an answer beyond the grant refused");
      } else {
        assertEquals(200, r.status(), r.text());
        JsonNode charge = r.json().get("charge");
        assertEquals(d.get().name(), charge.get("dataset").asText(), "charged to the dataset it read");
        double n = count(r.json());
        assertTrue(Math.abs(n - d.get().rows()) < MARGIN,
            "the count " + n + " is of " + d.get().name() + " (" + d.get().rows() + " rows)");
        pay(who, d.get(), charged(charge, epsilon), keyHeader, "query");
        sent.add(new Sent(who, "/v1/query", body, keyHeader, label, r));
      }
      who.log.add(step + " -> " + r.status());
    }

    void explain(Identity who, String from, boolean target, int replica) {
      String sql = target
          ? "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (n => 40)) COUNT(*) AS n FROM " + from
          : countSql(from, 0.5);
      Api.Response r = own(who, api(replica), "POST", "/v1/explain",
          JsonNodeFactory.instance.objectNode().put("sql", sql).toString(), null, "explain " + sql);
      Optional<Dataset> d = resolve(from).filter(x -> who.grants.containsKey(x.name()));
      if (d.isEmpty()) {
        assertTrue(r.status() == 404 || r.status() == 422, r.text());
      } else {
        assertEquals(200, r.status(), r.text());
        double left = who.grants.get(d.get().name()) - spent(who, d.get());
        assertEquals(left, r.json().get("cost").get("remaining").get("epsilon").asDouble(), 1e-9,
            "EXPLAIN quotes the caller's remaining budget: " + r.text());
        JsonNode solved = r.json().get("solved");
        if (solved != null && solved.has("remaining")) {
          assertEquals(left, solved.get("remaining").asDouble(), 1e-9, "max_error: the caller's remaining");
        }
      }
    }

    void synthStart(Identity who, String from, int replica) {
      String label = "s" + (++who.requests);
      String keyHeader = newKey(who);
      String body = "{\"dataset\": \"" + from + "\", \"domain\": " + DOMAIN + ", \"epsilon\": 0.5, \"method\": \"mwem\"}";
      String step = "synth " + from + " key=" + label;
      Api.Response r = own(who, api(replica), "POST", "/v1/synth", body, keyHeader, step);
      Optional<Dataset> d = resolve(from).filter(x -> who.grants.containsKey(x.name()));
      if (d.isEmpty()) {
        assertEquals(404, r.status(), r.text());
      } else if (spent(who, d.get()) + 0.5 > who.grants.get(d.get().name()) + 1e-9) {
        assertEquals(409, r.status(), r.text());
      } else {
        assertEquals(202, r.status(), r.text());
        assertEquals(d.get().name(), r.json().get("charge").get("dataset").asText());
        pay(who, d.get(), charged(r.json().get("charge"), 0.5), keyHeader, "synth");
        sent.add(new Sent(who, "/v1/synth", body, keyHeader, label, r));
        jobs.add(new JobModel(who, r.json().get("job").asText(),
            ledger.release(who.name, keyHeader).orElseThrow().chargeId(), keyHeader, kills));
      }
      who.log.add(step + " -> " + r.status());
    }

    /** Polls a job until it settles, on one replica, then reads its table on both. */
    void poll(JobModel job, int replica) throws InterruptedException {
      String key = job.owner.active ? job.owner.key : boss;
      String id = job.owner.active ? job.id : Long.toString(job.chargeId);
      String status = "running";
      for (int i = 0; i < 240 && status.equals("running"); i++) {
        Api.Response s = api(replica).get("/v1/synth/" + id, key);
        assertEquals(200, s.status(), s.text());
        status = s.json().get("status").asText();
        if (status.equals("running")) {
          Thread.sleep(250);
        }
      }
      assertTrue(job.status.equals("running") || job.status.equals(status),
          "a settled job stays settled: was " + job.status + ", now " + status);
      if (status.equals("failed")) {
        assertTrue(kills > job.killsAtStart, "a job fails only if a replica died since it started");
        covered("a job failed with its replica");
      }
      assertFalse(status.equals("running"), "the job settles within a minute");
      job.status = status;
      if (status.equals("done")) {
        String a = api(replica).get("/v1/synth/" + id + "/data", key).text();
        String b = api(1 - replica).get("/v1/synth/" + job.chargeId + "/data", boss).text();
        assertEquals(a, b, "the same table on both replicas");
        covered("a table read on both replicas");
        assertTrue(job.bytes == null || job.bytes.equals(a), "the same table as before");
        job.bytes = a;
      }
    }

    void retry(Sent s, boolean otherBody, int replica) {
      Identity who = s.who();
      String body = otherBody ? s.body().substring(0, s.body().length() - 1) + ", \"note\": \"x\"}" : s.body();
      String step = "retry " + s.label() + (otherBody ? " with another body" : "");
      Api.Response r = own(who, api(replica), "POST", s.route(), body, s.keyHeader(), step);
      if (otherBody) {
        assertEquals(422, r.status(), "the same key with another body is refused (issue 23 item 4): " + r.text());
        covered("a retry with another body refused");
      } else {
        assertEquals(s.first().status(), r.status(), r.text());
        assertTrue(r.json().get("replay").asBoolean(), r.text());
        ObjectNode first = (ObjectNode) s.first().json().deepCopy();
        ObjectNode again = (ObjectNode) r.json().deepCopy();
        first.remove("replay");
        again.remove("replay");
        assertEquals(first, again, "a retry is the first answer, noisy values and all");
        covered("a retry replayed");
      }
      who.log.add(step + " -> " + r.status());
    }

    void killAndRestart(int replica) throws InterruptedException {
      replicas[replica].kill();
      kills++;
      covered("a SIGKILL");
      replicas[replica] = child(replica);
    }

    private void pay(Identity who, Dataset d, double epsilon, String keyHeader, String route) {
      who.spent.merge(d.name(), epsilon, Double::sum);
      who.charges.merge(d.name(), 1, Integer::sum);
      paid.add(new Paid(who, d.name(), epsilon, keyHeader, route));
      assertTrue(spent(who, d) <= who.grants.get(d.name()), "answered loss within the grant");
    }

    /**
     * The ε a charge states: at most the one asked for, and as much up to rounding (a mechanism
     * on a grid may cost a hair less than asked; the ledger charges what it costs).
     */
    private static double charged(JsonNode charge, double asked) {
      double e = 0;
      for (JsonNode c : charge.get("cost")) {
        e += c.get("epsilon").asDouble();
      }
      assertTrue(e <= asked && e >= asked * (1 - 1e-9), "charged " + e + " for epsilon = " + asked);
      return e;
    }

    private static double spent(Identity who, Dataset d) {
      return who.spent.getOrDefault(d.name(), 0.0);
    }

    // ------------------------------------------------------------ invariants

    /**
     * Sends one of an account's own requests, checks its answer against every earlier answer to the
     * same own history and request ({@link #observe}), and puts it on the account's tape (once per
     * own history and request) for the replay alone ({@link #aloneAnswersAlike}).
     */
    private Api.Response own(Identity who, Api api, String method, String path, String body, String idempotencyKey,
        String request) {
      Api.Response r = api.send(method, path, who.key, body,
          idempotencyKey == null ? Map.of() : Map.of("Idempotency-Key", idempotencyKey));
      observe(who, request, r);
      if (who.taped.add(String.join("\n", who.log) + "\n>> " + request)) {
        who.tape.add(new Exchange(false, method, path, body, idempotencyKey, masked(who, r)));
      }
      return r;
    }

    private static String masked(Identity who, Api.Response r) {
      return r.status() + " " + mask(r.text(), who.name);
    }

    /**
     * Invariant 3, counterfactually: each account's tape replayed in a world where it is alone (a
     * fresh ledger on the same PostgreSQL server, one in-process server, only the curator's acts
     * that concern the account) gets the same masked answers. Whatever the others did in the shared
     * world changed nothing this account was answered.
     */
    void aloneAnswersAlike() throws IOException {
      for (Identity who : identities) {
        String url = TestPostgres.server().newDatabase();
        String curator;
        try (Ledger solo = Ledger.open(new PostgresLedger(url, Optional.empty(), Optional.empty()))) {
          curator = solo.addAnalyst("boss", Role.CURATOR).apiKey();
        }
        Path ws = Files.createTempDirectory(dir, "alone");
        try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).build(),
            Ledger.open(new PostgresLedger(url, Optional.empty(), Optional.empty())))) {
          Api api = new Api(server.url());
          Api.Response added = api.post("/v1/analysts", curator, "{\"name\": \"" + who.name + "\"}");
          assertEquals(201, added.status(), added.text());
          String key = added.json().get("apiKey").asText();
          for (Exchange e : who.tape) {
            if (e.curator()) {
              Api.Response r = api.send(e.method(), e.path(), curator, e.body(), Map.of());
              assertEquals(201, r.status(), r.text());
              continue;
            }
            Api.Response r = api.send(e.method(), e.path(), key, e.body(),
                e.idempotencyKey() == null ? Map.of() : Map.of("Idempotency-Key", e.idempotencyKey()));
            assertEquals(e.masked(), masked(who, r), who + " was answered otherwise than if alone: " + e.method()
                + " " + e.path() + " " + e.body());
          }
          covered("an account replayed alone");
        }
      }
    }

    /** Invariant 3: the masked response to this own history and request is always the same. */
    private void observe(Identity who, String request, Api.Response r) {
      ownSpendOnly(who, request, r);
      String key = String.join("\n", who.log) + "\n>> " + request;
      String masked = r.status() + " " + mask(r.text(), who.name);
      String before = SEEN.putIfAbsent(key, masked);
      if (before != null && !before.equals(masked)) {
        fail("a response changed with nothing in " + who + "'s own history to explain it\n  request: "
            + request + "\n  own history: " + who.log + "\n  before: " + before + "\n  now:    " + masked);
      }
    }

    /**
     * Every charge an analyst is shown states their own spending only: a charge's {@code spent},
     * if it has one, is the analyst's ({@code analystSpent}), never the dataset's (issue 23 item 3).
     */
    private static void ownSpendOnly(Identity who, String request, Api.Response r) {
      if (r.status() >= 300 || r.text().isEmpty() || r.text().charAt(0) != '{' && r.text().charAt(0) != '[') {
        return;
      }
      for (JsonNode charge : charges(r.json())) {
        if (charge.has("spent") && charge.has("analystSpent")) {
          assertEquals(charge.get("analystSpent"), charge.get("spent"),
              who + " is shown a spend that is not theirs, on " + request + ": " + charge);
        }
      }
    }

    private static List<JsonNode> charges(JsonNode n) {
      List<JsonNode> out = new ArrayList<>();
      if (n.isArray()) {
        n.forEach(x -> out.addAll(charges(x)));
      } else if (n.isObject()) {
        if (n.has("analystSpent")) {
          out.add(n);
        }
        n.forEach(x -> out.addAll(charges(x)));
      }
      return out;
    }

    void viewsAreOwn() {
      int replica = 0;
      for (Identity who : active()) {
        replica = 1 - replica;
        Api api = api(replica);
        own(who, api, "GET", "/v1/datasets", null, null, "GET /v1/datasets");
        List<String> names = new ArrayList<>(datasets.keySet());
        names.add("nosuch");
        for (String name : names) {
          Api.Response budget = own(who, api, "GET", "/v1/budget?dataset=" + name, null, null, "GET /v1/budget " + name);
          own(who, api, "GET", "/v1/history?dataset=" + name, null, null, "GET /v1/history " + name);
          if (who.grants.containsKey(name)) {
            assertEquals(200, budget.status(), budget.text());
            JsonNode b = budget.json();
            assertEquals(who.grants.get(name), b.get("total").get("epsilon").asDouble(), 1e-12, budget.text());
            assertEquals(who.spent.getOrDefault(name, 0.0), b.get("spent").get("epsilon").asDouble(), 1e-9,
                "an account's spending is its own: " + budget.text());
            assertEquals((int) who.charges.getOrDefault(name, 0), b.get("charges").asInt(), budget.text());
          } else {
            assertEquals(404, budget.status(), "no grant: not found, " + budget.text());
          }
        }
      }
    }

    void tablesEverywhere() {
      for (JobModel job : jobs) {
        if (job.bytes != null) {
          for (int r = 0; r < 2; r++) {
            assertEquals(job.bytes, api(r).get("/v1/synth/" + job.chargeId + "/data", boss).text(),
                "job " + job.chargeId + "'s table on replica " + r);
          }
        }
      }
    }

    void ledgerEqualsModel() {
      assertEquals(new java.util.TreeSet<>(datasets.keySet()),
          new java.util.TreeSet<>(ledger.datasets().stream().map(DatasetSpec::name).toList()), "datasets");
      List<String> accounts = ledger.analysts().stream().filter(a -> a.role() == Role.ANALYST)
          .map(a -> a.name() + (a.active() ? "" : " (revoked)")).toList();
      assertEquals(identities.stream().map(i -> i.name + (i.active ? "" : " (revoked)")).toList(), accounts,
          "accounts");
      Map<String, Integer> expected = new TreeMap<>();
      paid.forEach(p -> expected.merge(p.dataset() + " " + p.who().name + " " + p.epsilon(), 1, Integer::sum));
      Map<String, Integer> actual = new TreeMap<>();
      Map<Long, Charge> byId = new HashMap<>();
      for (String d : datasets.keySet()) {
        for (Charge c : ledger.history(d)) {
          actual.merge(d + " " + c.analyst() + " " + epsilon(c.cost()), 1, Integer::sum);
          byId.put(c.id(), c);
        }
      }
      assertEquals(expected, actual, "the ledger's charges are the model's, one per answer");
      for (Paid p : paid) {
        Release r = ledger.release(p.who().name, p.keyHeader()).orElseThrow(
            () -> new AssertionError("no release under " + p.keyHeader()));
        Charge c = byId.get(r.chargeId());
        assertEquals(p.dataset(), c.dataset(), "the answer's one charge is on the dataset it read");
        assertEquals(p.epsilon(), epsilon(c.cost()), 0.0);
      }
      for (JobModel job : jobs) {
        Job stored = ledger.job(job.chargeId).orElseThrow(() -> new AssertionError("job " + job.id + " has no state"));
        switch (job.status) {
          case "done" -> {
            assertEquals(Job.State.DONE, stored.state());
            assertEquals(Optional.of(Ledger.digest(job.bytes)), stored.outputDigest());
          }
          case "failed" -> assertEquals(Job.State.FAILED, stored.state());
          default -> { }
        }
      }
    }

    private static double epsilon(List<PrivacyLoss> cost) {
      assertEquals(1, cost.size(), cost.toString());
      return ((PureDp) cost.get(0)).epsilon();
    }
  }

  /** The released COUNT of a query answer (a plain number, or an object with its value). */
  static double count(JsonNode answer) {
    JsonNode n = answer.get("rows").get(0).get("n");
    return n.isObject() ? n.get("value").asDouble() : n.asDouble();
  }

  /**
   * A response with what may differ without leaking masked: noisy values (the rows of an answer,
   * the auto bounds), times, and the caller's own name.
   */
  static String mask(String text, String self) {
    JsonNode n;
    try {
      n = Api.JSON.readTree(text);
    } catch (IOException e) {
      return text.replace(self, "<me>");
    }
    return mask(n, self, false).toString();
  }

  private static JsonNode mask(JsonNode n, String self, boolean noisy) {
    if (n.isObject()) {
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        switch (e.getKey()) {
          case "time", "created", "auto_bounds" -> out.put(e.getKey(), "<masked>");
          default -> out.set(e.getKey(), mask(e.getValue(), self, noisy || e.getKey().equals("rows")));
        }
      }
      return out;
    }
    if (n.isArray()) {
      ArrayNode out = JsonNodeFactory.instance.arrayNode();
      n.forEach(x -> out.add(mask(x, self, noisy)));
      return out;
    }
    if (noisy && n.isNumber()) {
      return TextNode.valueOf("#");
    }
    if (n.isTextual()) {
      return TextNode.valueOf(n.asText().replace(self, "<me>"));
    }
    return n;
  }

  /** A name in one letter case: as written, UPPER, or Capitalized. */
  static String variant(String base, int variant) {
    return switch (variant) {
      case 0 -> base;
      case 1 -> base.toUpperCase(Locale.ROOT);
      default -> Character.toUpperCase(base.charAt(0)) + base.substring(1);
    };
  }

  /** A CSV of {@code rows} rows of a = i mod 3, b = i mod 2, c = i mod 4, written once. */
  static synchronized Path table(int rows) {
    Path out = Fixture.repoRoot().resolve("privet-server/target/server-test-data/abc-" + rows + ".csv");
    if (Files.exists(out)) {
      return out;
    }
    StringBuilder sb = new StringBuilder("a,b,c\n");
    for (int i = 0; i < rows; i++) {
      sb.append(i % 3).append(',').append(i % 2).append(',').append(i % 4).append('\n');
    }
    try {
      Files.createDirectories(out.getParent());
      Path tmp = Files.createTempFile(out.getParent(), "abc", ".csv");
      Files.writeString(tmp, sb);
      Files.move(tmp, out, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // -------------------------------------------------------------------- actions

  private static Arbitrary<Integer> replica() {
    return Arbitraries.integers().between(0, 1);
  }

  /** A dataset name as an analyst may write it: a base name in any letter case. */
  private static Arbitrary<String> anyCase() {
    return Combinators.combine(Arbitraries.of(BASES), Arbitraries.integers().between(0, 2))
        .as(ReplicasStatefulTest::variant);
  }

  /** An action by (or on) an active account: possible once there is one. */
  abstract static class ByAnAccount implements Action.Dependent<World> {
    @Override
    public boolean precondition(World w) {
      return !w.active().isEmpty();
    }
  }

  static final class Register implements Action.Independent<World> {
    @Override
    public Arbitrary<Transformer<World>> transformer() {
      return Combinators.combine(Arbitraries.of(BASES), Arbitraries.integers().between(0, 2), replica())
          .as((base, v, r) -> Transformer.mutate("register " + variant(base, v) + " on replica " + r,
              w -> w.register(base, v, r)));
    }
  }

  static final class AddAnalyst implements Action.Independent<World> {
    @Override
    public Arbitrary<Transformer<World>> transformer() {
      return Combinators.combine(Arbitraries.of(NAMES), Arbitraries.of(0, 0, 1, 2), replica())
          .as((base, v, r) -> Transformer.mutate("add analyst " + variant(base, v) + " on replica " + r,
              w -> w.addAnalyst(variant(base, v), r)));
    }
  }

  static final class GrantShare implements Action.Dependent<World> {
    @Override
    public boolean precondition(World w) {
      return !w.active().isEmpty() && !w.datasets.isEmpty();
    }

    @Override
    public Arbitrary<Transformer<World>> transformer(World w) {
      return Combinators.combine(Arbitraries.of(w.active()), Arbitraries.of(List.copyOf(w.datasets.values())),
          Arbitraries.of(1.0, 2.0), replica())
          .as((who, d, e, r) -> Transformer.mutate("grant " + who + " " + e + " of " + d.name() + " on replica " + r,
              x -> x.grant(who, d, e, r)));
    }
  }

  static final class Revoke extends ByAnAccount {
    @Override
    public Arbitrary<Transformer<World>> transformer(World w) {
      return Combinators.combine(Arbitraries.of(w.active()), replica())
          .as((who, r) -> Transformer.mutate("revoke " + who + " on replica " + r, x -> x.revoke(who, r)));
    }
  }

  static final class QueryAction extends ByAnAccount {
    @Override
    public Arbitrary<Transformer<World>> transformer(World w) {
      return Combinators.combine(Arbitraries.of(w.active()), anyCase(), Arbitraries.of(0.25, 0.5), replica())
          .as((who, from, e, r) -> Transformer.mutate(
              "query " + who + " FROM " + from + " epsilon " + e + " on replica " + r, x -> x.query(who, from, e, r)));
    }
  }

  static final class ExplainAction extends ByAnAccount {
    @Override
    public Arbitrary<Transformer<World>> transformer(World w) {
      return Combinators.combine(Arbitraries.of(w.active()), anyCase(), Arbitraries.of(true, false), replica())
          .as((who, from, t, r) -> Transformer.mutate("explain " + who + " FROM " + from
              + (t ? " max_error" : " epsilon") + " on replica " + r, x -> x.explain(who, from, t, r)));
    }
  }

  static final class SynthStart extends ByAnAccount {
    @Override
    public Arbitrary<Transformer<World>> transformer(World w) {
      return Combinators.combine(Arbitraries.of(w.active()), anyCase(), replica())
          .as((who, from, r) -> Transformer.mutate("synth " + who + " FROM " + from + " on replica " + r,
              x -> x.synthStart(who, from, r)));
    }
  }

  static final class SynthPoll implements Action.Dependent<World> {
    @Override
    public boolean precondition(World w) {
      return !w.jobs.isEmpty();
    }

    @Override
    public Arbitrary<Transformer<World>> transformer(World w) {
      return Combinators.combine(Arbitraries.of(List.copyOf(w.jobs)), replica())
          .as((job, r) -> Transformer.mutate("poll job " + job.id + " on replica " + r, x -> {
            try {
              x.poll(job, r);
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
          }));
    }
  }

  static final class Retry implements Action.Dependent<World> {
    @Override
    public boolean precondition(World w) {
      return w.sent.stream().anyMatch(s -> s.who().active);
    }

    @Override
    public Arbitrary<Transformer<World>> transformer(World w) {
      List<Sent> live = w.sent.stream().filter(s -> s.who().active).toList();
      return Combinators.combine(Arbitraries.of(live), Arbitraries.of(false, false, true), replica())
          .as((s, other, r) -> Transformer.mutate("retry " + s.who() + " " + s.label() + " " + s.route()
              + (other ? " with another body" : "") + " on replica " + r, x -> x.retry(s, other, r)));
    }
  }

  static final class KillAndRestart implements Action.Independent<World> {
    @Override
    public Arbitrary<Transformer<World>> transformer() {
      return replica().map(r -> Transformer.mutate("SIGKILL and restart replica " + r, x -> {
        try {
          x.killAndRestart(r);
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }));
    }
  }
}
