package org.privet.ledger;

import java.util.Locale;
import org.privet.accounting.Accountant;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.ZcdpAccountant;

/**
 * The accountant that composes a dataset's charges. The choice is fixed at registration, so the
 * budget arithmetic of a dataset never changes under its analysts.
 */
public enum AccountantKind {
  /** Basic sequential composition: ε's and δ's add (Dwork &amp; Roth 2014, Thm. 3.16). */
  BASIC("basic"),
  /**
   * zCDP composition: ρ's add (Bun &amp; Steinke 2016, Lemma 2.3), converted to (ε, δ) at the
   * dataset's δ (Prop. 1.3); tight for many Gaussian-noise releases.
   */
  ZCDP("zcdp");

  private final String cliName;

  AccountantKind(String cliName) {
    this.cliName = cliName;
  }

  /** The name used on the command line and in the store. */
  public String cliName() {
    return cliName;
  }

  /** A fresh accountant of this kind. */
  public Accountant accountant() {
    return switch (this) {
      case BASIC -> new BasicAccountant();
      case ZCDP -> new ZcdpAccountant();
    };
  }

  /** Parses {@code basic} or {@code zcdp} (case-insensitive). */
  public static AccountantKind parse(String name) {
    if (name != null) {
      for (AccountantKind k : values()) {
        if (k.cliName.equals(name.toLowerCase(Locale.ROOT))) {
          return k;
        }
      }
    }
    throw new IllegalArgumentException("accountant must be one of basic, zcdp; was " + name);
  }
}
