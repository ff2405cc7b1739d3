package org.privet.ledger;

import java.util.Locale;
import java.util.Objects;
import org.privet.engine.PublicSchema;
import org.privet.engine.spi.ColumnType;

/**
 * A dataset's public schema as the ledger keeps it: fixed once, by the curator, when the dataset is
 * registered (or, for a dataset registered before schemas were kept, once afterwards). Queries are
 * checked against it and the source is read against it ({@code Source.typed}), so no refusal and
 * no failure depends on what the file holds (docs/proofs/threat-model.md, "Public schema").
 *
 * @param schema the columns and their types, in file order
 * @param origin how the curator fixed it
 */
public record RegisteredSchema(PublicSchema schema, Origin origin) {

  /** How the curator fixed a schema. */
  public enum Origin {
    /** Declared by the curator ({@code --schema}). */
    DECLARED,
    /** Inferred from the file as it was when the curator registered it. */
    INFERRED;

    /** Its lower-case name ({@code declared}, {@code inferred}). */
    public String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Origin parse(String text) {
      return valueOf(text.toUpperCase(Locale.ROOT));
    }
  }

  public RegisteredSchema {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(origin, "origin");
  }

  /**
   * Checks that the registration's columns are in the schema: the privacy unit, bounded columns
   * (numeric), public-key columns, and a header-less CSV's column names (the schema's, in order).
   *
   * @throws IllegalArgumentException naming the parameter and the column
   */
  void requireFits(DatasetSpec spec) {
    spec.privacyUnit().columnName().ifPresent(c -> column("privacyUnit", c));
    spec.publicMetadata().bounds().keySet().forEach(c -> {
      if (!column("bounds", c).isNumeric()) {
        throw new IllegalArgumentException("bounds: column '" + c + "' is not numeric in the schema");
      }
    });
    spec.publicMetadata().publicKeys().keySet().forEach(c -> column("publicKeys", c));
    if (spec.format() == SourceFormat.CSV && !spec.csv().header()
        && !spec.csv().columns().equals(schema.names())) {
      throw new IllegalArgumentException("schema must name the CSV's columns " + spec.csv().columns()
          + " in order, was " + schema.names());
    }
  }

  private ColumnType column(String parameter, String name) {
    return schema.column(name).orElseThrow(() -> new IllegalArgumentException(parameter
        + ": column '" + name + "' is not in the schema " + schema.names())).type();
  }
}
