package org.privet.curator;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.DatabaseSource;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.DatasetTable;
import org.privet.ledger.TableReference;
import org.privet.ledger.TableSpec;

/**
 * The curator's check, when a table is added to a dataset (issue 25), that each of its references'
 * target columns is a key of its table: no non-NULL value on two rows (a NULL target matches
 * nothing). Joins mean what they say when it holds; privacy does not depend on it
 * (docs/proofs/engine-joins.md, "Keys: meant, not needed for privacy"); the
 * registration rules ({@code TableRules}) check names, schemas and types only, so this reads the
 * data, with the dataset's backend: a file through an in-memory DuckDB against its fixed schema (the
 * typed values a join compares), a PostgreSQL table by one {@code GROUP BY ... HAVING COUNT(*) > 1
 * LIMIT 1} in its database. It is the curator's act, like inferring a schema at registration: its
 * refusal goes to the curator, names the parameter and the column, never a value, and nothing is
 * stored then. A query never runs it (docs/proofs/threat-model.md, "Several tables: registration").
 */
final class ReferenceKeys {
  private ReferenceKeys() {}

  /**
   * Checks every reference of {@code table} (as the ledger spelled it) against its target's data.
   *
   * @param tables the dataset's tables so far, the targets among them
   * @throws IllegalArgumentException naming {@code references} and the column
   */
  static void require(DatasetSpec dataset, List<DatasetTable> tables, TableSpec table,
      Map<String, String> environment) {
    require(dataset, tables, table, java.util.Optional.empty(), environment);
  }

  /**
   * As {@link #require(DatasetSpec, List, TableSpec, Map)}, and, for a public table declared
   * referenced by tables before it ({@link TableSpec#referencedBy}), that each such column of the
   * table itself, read against {@code schema}, is a key.
   *
   * @throws IllegalArgumentException naming {@code references} or {@code referenced-by} and the column
   */
  static void require(DatasetSpec dataset, List<DatasetTable> tables, TableSpec table,
      java.util.Optional<org.privet.ledger.RegisteredSchema> schema, Map<String, String> environment) {
    DatasetTable self = new DatasetTable(table, schema, false);
    for (TableReference r : table.referencedBy()) {
      if (schema.isPresent() && hasDuplicates(dataset, self, r.column(), environment)) {
        throw new IllegalArgumentException("referenced-by: " + table.name() + "." + r.column()
            + " is not a key of " + table.name() + ": it has duplicate values (a reference's target"
            + " column must hold each non-NULL value on one row only); nothing was stored");
      }
    }
    for (TableReference r : table.references()) {
      DatasetTable target = tables.stream().filter(t -> t.name().equals(r.table())).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("references: dataset '" + dataset.name()
              + "' has no table '" + r.table() + "'"));
      if (hasDuplicates(dataset, target, r.targetColumn(), environment)) {
        throw new IllegalArgumentException("references: " + target.name() + "." + r.targetColumn()
            + " is not a key of " + target.name() + ": it has duplicate values (a reference's target"
            + " column must hold each non-NULL value on one row only); nothing was stored");
      }
    }
  }

  private static boolean hasDuplicates(DatasetSpec dataset, DatasetTable target, String column,
      Map<String, String> environment) {
    if (dataset.database().isPresent()) {
      return databaseHasDuplicates(dataset.database().get(), target, column, environment);
    }
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      return db.hasDuplicateValues(LedgerCatalog.source(target.spec().asSource(dataset), target.schema()),
          column);
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException("references: table '" + target.name() + "' cannot be read now"
          + " to check that " + target.name() + "." + column + " is a key; nothing was stored");
    }
  }

  private static boolean databaseHasDuplicates(DatabaseSource db, DatasetTable target, String column,
      Map<String, String> environment) {
    String from = Arrays.stream(target.spec().source().split("\\."))
        .map(ReferenceKeys::quote).collect(Collectors.joining("."));
    String c = quote(column);
    try (Connection conn = new org.postgresql.Driver().connect(db.jdbcUrl(), db.login(environment));
        Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT 1 FROM " + from + " WHERE " + c + " IS NOT NULL GROUP BY "
            + c + " HAVING COUNT(*) > 1 LIMIT 1")) {
      return rs.next();
    } catch (SQLException e) {
      throw new IllegalArgumentException("references: table '" + target.name() + "' cannot be read now"
          + " to check that " + target.name() + "." + column + " is a key (SQL state "
          + e.getSQLState() + "); nothing was stored");
    }
  }

  private static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
