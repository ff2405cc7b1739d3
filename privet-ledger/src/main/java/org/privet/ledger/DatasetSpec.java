package org.privet.ledger;

import java.util.regex.Pattern;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.Budget;
import org.privet.accounting.NeighbouringRelation;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;

/**
 * A registered dataset: where its rows are, what is protected, and how much may be spent on it.
 *
 * <p>Build with {@link #builder()}; every parameter is checked there, before anything is stored.
 *
 * @param name the dataset's name, an SQL identifier (the {@code FROM} of queries)
 * @param source the source location (an absolute file path for CSV and Parquet)
 * @param format the source format
 * @param csv how to read a CSV source (ignored for Parquet)
 * @param privacyUnit the unit of protection
 * @param relation the neighbouring relation the budget is stated under
 * @param budget the total budget, core's {@link Budget} (ε, (ε, δ), ρ, or ρ plus δ, which private
 *     partition selection needs under zCDP): the one model of a budget that the engine, the ledger
 *     and the CLI share
 * @param accountant the accountant composing charges against the budget
 * @param publicMetadata public bounds and key sets
 * @param database for a {@link SourceFormat#POSTGRES} dataset, where the database is (no password);
 *     empty for files. Its {@code source} is then the table or view, {@code name} or
 *     {@code schema.name}
 */
public record DatasetSpec(
    String name,
    String source,
    SourceFormat format,
    CsvOptions csv,
    PrivacyUnit privacyUnit,
    NeighbouringRelation relation,
    Budget budget,
    AccountantKind accountant,
    PublicMetadata publicMetadata,
    java.util.Optional<DatabaseSource> database) {

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

  public DatasetSpec {
    requireIdentifier("name", name);
    if (source == null || source.isBlank()) {
      throw new IllegalArgumentException("source must not be empty");
    }
    requireNonNull("format", format);
    requireNonNull("csv", csv);
    requireNonNull("privacyUnit", privacyUnit);
    requireNonNull("relation", relation);
    requireNonNull("accountant", accountant);
    requireNonNull("publicMetadata", publicMetadata);
    requireNonNull("database", database);
    if ((format == SourceFormat.POSTGRES) != database.isPresent()) {
      throw new IllegalArgumentException("a postgres source needs its database (jdbc-url), and only"
          + " a postgres source has one");
    }
    if (format == SourceFormat.POSTGRES) {
      DatabaseSource.requireTable(source);
    }
    requireNonNull("budget", budget);
    if (budget.isZcdp() && accountant != AccountantKind.ZCDP) {
      throw new IllegalArgumentException("a rho budget needs accountant zcdp, was " + accountant.cliName());
    }
    if (accountant == AccountantKind.ZCDP && !budget.isZcdp() && budget.delta() == 0) {
      throw new IllegalArgumentException(
          "accountant zcdp needs delta > 0 (or a rho budget); use accountant basic for pure DP");
    }
  }

  /** A builder with defaults: add/remove neighbours, the basic accountant, no public metadata. */
  public static Builder builder() {
    return new Builder();
  }

  static String requireIdentifier(String parameter, String value) {
    if (value == null || !IDENTIFIER.matcher(value).matches()) {
      throw new IllegalArgumentException(
          parameter + " must be an identifier (letters, digits, _; at most 64), was " + value);
    }
    return value;
  }

  private static void requireNonNull(String parameter, Object value) {
    if (value == null) {
      throw new IllegalArgumentException(parameter + " must not be null");
    }
  }

  /**
   * Checks that a budget (or grant) is one of the supported measures with ε or ρ in [{@link
   * Budget#MIN_EPSILON}, {@link Budget#MAX_EPSILON}] and returns it as a {@link Budget}.
   */
  static Budget requirePositiveBudget(String parameter, PrivacyLoss budget) {
    try {
      return Budget.of(budget);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(parameter
          + " must be epsilon in [2^-50, 2^40] (with delta in [0, 1)) or rho in [2^-50, 2^40] (with"
          + " delta in [0, 1)), was "
          + budget);
    }
  }

  /** Validating builder for {@link DatasetSpec}. */
  public static final class Builder {
    private String name;
    private String source;
    private SourceFormat format;
    private CsvOptions csv = CsvOptions.DEFAULT;
    private PrivacyUnit privacyUnit;
    private NeighbouringRelation relation = NeighbouringRelation.ADD_REMOVE_ONE;
    private Budget budget;
    private AccountantKind accountant = AccountantKind.BASIC;
    private PublicMetadata publicMetadata = PublicMetadata.NONE;
    private DatabaseSource database;

    private Builder() {}

    public Builder name(String name) {
      this.name = requireIdentifier("name", name);
      return this;
    }

    /** The source; the format follows the extension unless set with {@link #format}. */
    public Builder source(String source) {
      if (source == null || source.isBlank()) {
        throw new IllegalArgumentException("source must not be empty");
      }
      this.source = source;
      return this;
    }

    public Builder format(SourceFormat format) {
      this.format = format;
      return this;
    }

    public Builder csv(CsvOptions csv) {
      this.csv = csv;
      return this;
    }

    public Builder privacyUnit(PrivacyUnit privacyUnit) {
      this.privacyUnit = privacyUnit;
      return this;
    }

    public Builder relation(NeighbouringRelation relation) {
      this.relation = relation;
      return this;
    }

    /** The total budget. */
    public Builder budget(Budget budget) {
      requireNonNull("budget", budget);
      this.budget = budget;
      return this;
    }

    /**
     * The total budget stated by a privacy-loss value ({@link Budget#of}): ε as {@link PureDp},
     * (ε, δ) as {@link ApproxDp} (δ = 0 reads as ε), ρ as {@link Zcdp}, ρ plus δ as {@link
     * ApproxZcdp}.
     */
    public Builder budget(PrivacyLoss budget) {
      return budget(requirePositiveBudget("budget", budget));
    }

    public Builder accountant(AccountantKind accountant) {
      this.accountant = accountant;
      return this;
    }

    public Builder publicMetadata(PublicMetadata publicMetadata) {
      this.publicMetadata = publicMetadata;
      return this;
    }

    /** A table or view in a PostgreSQL database: {@link #source} names it; the format is postgres. */
    public Builder database(DatabaseSource database) {
      this.database = database;
      return this;
    }

    public DatasetSpec build() {
      if (source == null) {
        throw new IllegalArgumentException("source must be set");
      }
      if (privacyUnit == null) {
        throw new IllegalArgumentException("privacyUnit must be set (a column, or each row)");
      }
      if (budget == null) {
        throw new IllegalArgumentException("budget must be set");
      }
      SourceFormat f = format != null ? format
          : database != null ? SourceFormat.POSTGRES : SourceFormat.ofFileName(source);
      return new DatasetSpec(name, source, f, csv, privacyUnit, relation, budget, accountant,
          publicMetadata, java.util.Optional.ofNullable(database));
    }
  }
}
