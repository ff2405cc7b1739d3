package org.privet.engine.spi;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.privet.engine.Source;
import org.privet.engine.plan.Relation;

/**
 * A relational source for the backends' describe tests: orders ⋈ customer (along the reference)
 * ⋈ nation (public) ⋈ orders again (the same table scanned twice), projected to the customer's
 * unit and the nation's name. Columns: orders (okey, uid), customer (uid, nat), nation (nat,
 * name).
 */
public final class JoinScans {
  private JoinScans() {}

  /** A backend's {@code registerTable(name, columns, types, rows)}. */
  public interface Registrar {
    void register(String name, List<String> columns, List<ColumnType> types,
        List<List<?>> rows);
  }

  /** Registers the three tables, named {@code prefix} + orders, customer, nation. */
  public static void register(Registrar r, String prefix) {
    r.register(prefix + "orders", List.of("okey", "uid"), List.of(ColumnType.INTEGER,
        ColumnType.INTEGER), List.of(Arrays.asList(1L, 1L), Arrays.asList(2L, 2L)));
    r.register(prefix + "customer", List.of("uid", "nat"), List.of(ColumnType.INTEGER,
        ColumnType.INTEGER), List.of(Arrays.asList(1L, 0L), Arrays.asList(2L, 1L)));
    r.register(prefix + "nation", List.of("nat", "name"), List.of(ColumnType.INTEGER,
        ColumnType.STRING), List.of(Arrays.asList(0L, "a"), Arrays.asList(1L, "b")));
  }

  /**
   * @param describe the backend's describe (the scans' schemas, read when the plan is built)
   */
  public static Source.Relational ordersCustomerNationOrders(Function<Source, TableSchema> describe,
      Source orders, Source customer, Source nation) {
    Relation.Scan o = new Relation.Scan("o", orders, describe.apply(orders), false);
    Relation.Scan c = new Relation.Scan("c", customer, describe.apply(customer), false);
    Relation.Scan n = new Relation.Scan("n", nation, describe.apply(nation), true);
    Relation.Scan o2 = new Relation.Scan("o2", orders, describe.apply(orders), false);
    Relation oc = new Relation.Join(Relation.JoinKind.INNER, o, c,
        List.of(new Relation.Join.Key("o.uid", "c.uid")), Relation.JoinRole.ALONG_REFERENCE);
    Relation ocn = new Relation.Join(Relation.JoinKind.INNER, oc, n,
        List.of(new Relation.Join.Key("c.nat", "n.nat")), Relation.JoinRole.PUBLIC);
    Relation all = new Relation.Join(Relation.JoinKind.INNER, ocn, o2,
        List.of(new Relation.Join.Key("o.okey", "o2.okey")), Relation.JoinRole.ALONG_REFERENCE);
    return new Source.Relational(new Relation.Project(all, List.of(
        new Relation.Project.Output("uid", "c.uid"), new Relation.Project.Output("name", "n.name"))),
        "c.uid");
  }
}
