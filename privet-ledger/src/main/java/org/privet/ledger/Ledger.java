package org.privet.ledger;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;

/**
 * The privacy-budget ledger: registered datasets, analysts' shares, and the append-only history of
 * charges. Every release must be preceded by {@link #charge}, which returns only once the charge
 * is durably committed (or throws, charging nothing).
 *
 * <p>Thread-safe; safe across processes sharing a workspace, or a PostgreSQL server across hosts
 * (see {@link LedgerStore}).
 */
public final class Ledger implements AutoCloseable {
  /** The SQLite file inside a workspace folder. */
  public static final String DATABASE_FILE = "ledger.db";

  private static final int MAX_NAME_LENGTH = 128;

  private final LedgerStore store;

  private Ledger(LedgerStore store) {
    this.store = store;
  }

  /** Opens (creating if needed) the embedded SQLite ledger of a workspace folder. */
  public static Ledger open(Path workspace) {
    Objects.requireNonNull(workspace, "workspace");
    return new Ledger(JdbcLedgerStore.sqlite(workspace.resolve(DATABASE_FILE)));
  }

  /**
   * Opens (creating its tables if needed) a ledger shared through a PostgreSQL server, so that
   * curators on several hosts charge one budget.
   */
  public static Ledger open(PostgresLedger server) {
    Objects.requireNonNull(server, "server");
    return new Ledger(JdbcLedgerStore.postgres(server));
  }

  /** A ledger over another store (e.g. a shared database). */
  public static Ledger using(LedgerStore store) {
    return new Ledger(Objects.requireNonNull(store, "store"));
  }

  /** Registers a dataset; its name must be new. */
  public DatasetSpec register(DatasetSpec spec) {
    Objects.requireNonNull(spec, "spec");
    store.register(spec, Instant.now());
    return spec;
  }

  /** The registered dataset of that name. */
  public DatasetSpec dataset(String name) {
    return store.dataset(name).orElseThrow(() -> new UnknownDatasetException(name));
  }

  /** All registered datasets, by name. */
  public List<DatasetSpec> datasets() {
    return store.datasets();
  }

  /**
   * Grants an analyst a share of a dataset's budget (replacing any earlier grant; the history of
   * grants is kept). The share must be in the budget's measure and not exceed the total.
   */
  public Grant grant(String dataset, String analyst, PrivacyLoss share) {
    requireName("analyst", analyst);
    DatasetSpec spec = dataset(dataset);
    DatasetSpec.requirePositiveBudget("share", share);
    if (DatasetSpec.isZcdp(share) != DatasetSpec.isZcdp(spec.budget())) {
      throw new IllegalArgumentException("share must be in the dataset's budget measure ("
          + BudgetRule.describe(spec.budget()) + "), was " + BudgetRule.describe(share));
    }
    if (spec.accountant() == AccountantKind.ZCDP && !DatasetSpec.isZcdp(share) && DatasetSpec.deltaOf(share) == 0) {
      throw new IllegalArgumentException("share needs delta > 0 on a dataset with the zcdp accountant");
    }
    PrivacyLoss asSpend = DatasetSpec.isZcdp(share)
        ? share
        : new ApproxDp(BudgetRule.epsilonOf(share), DatasetSpec.deltaOf(share));
    if (!BudgetRule.fits(asSpend, spec.budget())) {
      throw new IllegalArgumentException("share (" + BudgetRule.describe(share)
          + ") must not exceed the dataset's total (" + BudgetRule.describe(spec.budget()) + ")");
    }
    Grant grant = new Grant(dataset, analyst, share, Instant.now());
    store.grant(grant);
    return grant;
  }

  /**
   * Charges a release to a dataset, durably, before it happens.
   *
   * @param dataset the dataset queried
   * @param analyst who asks
   * @param query the query text (kept in the history)
   * @param cost the privacy losses of everything the query will release
   * @return the committed charge
   * @throws BudgetExceededException if the dataset's total or the analyst's share would be
   *     exceeded; nothing is charged then
   * @throws UnknownDatasetException if the dataset is not registered
   */
  public Charge charge(String dataset, String analyst, String query, List<? extends PrivacyLoss> cost) {
    requireName("analyst", analyst);
    Objects.requireNonNull(query, "query");
    if (cost == null || cost.isEmpty()) {
      throw new IllegalArgumentException("cost must list at least one privacy loss");
    }
    List<PrivacyLoss> costs = new ArrayList<>(cost);
    costs.forEach(LedgerJson::privacyLoss); // rejects measures the store cannot keep, before locking
    return store.appendCharge(dataset, analyst, query, List.copyOf(costs),
        (spec, grants, prior) -> BudgetRule.admit(spec, grants, prior, analyst, costs));
  }

  /** The dataset's charges, oldest first. */
  public List<Charge> history(String dataset) {
    dataset(dataset);
    return store.charges(dataset);
  }

  /** The grants of a dataset, oldest first. */
  public List<Grant> grants(String dataset) {
    dataset(dataset);
    return store.grants(dataset);
  }

  /** What all analysts together have spent of the dataset's total. */
  public BudgetStatus status(String dataset) {
    DatasetSpec spec = dataset(dataset);
    List<Charge> charges = store.charges(dataset);
    List<PrivacyLoss> events = new ArrayList<>();
    charges.forEach(c -> events.addAll(c.cost()));
    return status(spec, Optional.empty(), spec.budget(), events, charges.size());
  }

  /** What one analyst has spent, against their grant (or the total when they have none). */
  public BudgetStatus status(String dataset, String analyst) {
    requireName("analyst", analyst);
    DatasetSpec spec = dataset(dataset);
    List<PrivacyLoss> events = new ArrayList<>();
    int n = 0;
    for (Charge c : store.charges(dataset)) {
      if (c.analyst().equals(analyst)) {
        events.addAll(c.cost());
        n++;
      }
    }
    PrivacyLoss cap = BudgetRule.grantOf(store.grants(dataset), analyst)
        .map(Grant::share).orElse(spec.budget());
    return status(spec, Optional.of(analyst), cap, events, n);
  }

  private static BudgetStatus status(
      DatasetSpec spec, Optional<String> analyst, PrivacyLoss cap, List<PrivacyLoss> events, int n) {
    PrivacyLoss spent = BudgetRule.spent(spec, cap, events);
    return new BudgetStatus(spec.name(), analyst, spec.accountant(), cap, spent,
        BudgetRule.remaining(cap, spent), n);
  }

  /** A budget or spend for people: {@code epsilon=1.0, delta=1.0E-6}, {@code epsilon=1.0}, {@code rho=0.5}. */
  public static String describe(PrivacyLoss loss) {
    return BudgetRule.describe(loss);
  }

  private static void requireName(String parameter, String value) {
    if (value == null || value.isBlank() || value.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException(parameter + " must be a non-empty name of at most "
          + MAX_NAME_LENGTH + " characters");
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
