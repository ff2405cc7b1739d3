package org.privet.engine.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BackendContractTest;
import org.privet.engine.spi.ColumnType;
import org.privet.testing.TestPostgres;

/** A real PostgreSQL server ({@link TestPostgres}, no mock) runs the backend contract kit. */
class PostgresBackendContractTest extends BackendContractTest {
  private String url;

  @Override
  protected Backend openBackend() {
    url = TestPostgres.server().newDatabase();
    return PostgresBackend.connect(url, new Properties());
  }

  @Override
  protected void register(Backend backend, String name, List<String> columns, List<ColumnType> types,
      List<List<?>> rows) {
    StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(name).append(" (");
    for (int i = 0; i < columns.size(); i++) {
      ddl.append(i > 0 ? ", " : "").append(columns.get(i)).append(switch (types.get(i)) {
        case INTEGER -> " bigint";
        case FLOATING -> " double precision";
        default -> " text";
      });
    }
    String insert = "INSERT INTO " + name + " VALUES (" + "?, ".repeat(columns.size() - 1) + "?)";
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute(ddl.append(')').toString());
      try (PreparedStatement ps = c.prepareStatement(insert)) {
        for (List<?> row : rows) {
          for (int i = 0; i < row.size(); i++) {
            ps.setObject(i + 1, row.get(i));
          }
          ps.addBatch();
        }
        ps.executeBatch();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
