package org.privet.engine.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.privet.engine.Filter;
import org.privet.engine.Source;
import org.privet.engine.spi.FilterSql;
import org.privet.engine.spi.SqlDialect;
import org.privet.engine.spi.TableSchema;

/**
 * Renders the nodes of a {@link Relation} below the truncation (scan, filter, project, join) as one
 * SQL subquery, written once for every SQL backend and spelled by its {@link SqlDialect}: the FROM
 * of the {@link org.privet.engine.spi.BoundingPlan}. Each node is a parenthesised SELECT with an
 * alias of its own; a scan reads its source as the backend spells it ({@code from}).
 *
 * <p>Names inside the subquery: a column whose name is a plain identifier of at most 60 characters
 * keeps it; any other ({@code alias.column} of a scan) gets a short name {@code __c<k>}, so no
 * database truncates or mis-reads it (PostgreSQL keeps 63 bytes of an identifier). The outermost
 * node must be a {@link Relation.Project} of plain names: the bounding plan reads those.
 *
 * <p>Semantics are standard SQL shared by DuckDB, PostgreSQL and Spark: {@code =} in ON never
 * matches NULL; LEFT JOIN keeps an unmatched left row once with NULL right columns; WHERE keeps rows
 * whose condition is true ({@link FilterSql}).
 */
public final class RelationSql {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,59}");
  private final SqlDialect d;
  private final Function<Source, String> from;
  private final KeyFacts facts;
  private final Map<String, String> physical = new HashMap<>();
  /** Per node, the columns read above it (null: render every column). */
  private final Map<Relation, java.util.Set<String>> needed = new java.util.IdentityHashMap<>();
  private int aliases;

  private RelationSql(SqlDialect d, Function<Source, String> from, KeyFacts facts) {
    this.d = d;
    this.from = from;
    this.facts = facts;
  }

  /**
   * What a backend's database guarantees about a scanned table (public metadata it enforces, such
   * as a declared PRIMARY KEY or UNIQUE key and a NOT NULL column; never data, never the analyst's
   * word): used to drop the per-key unit check where it can find nothing ({@code
   * docs/proofs/engine-joins.md}, "Keys the database guarantees").
   */
  @FunctionalInterface
  public interface KeyFacts {
    /** Nothing is known: every check is rendered. */
    KeyFacts NONE = (source, key, unit) -> false;

    /**
     * Whether the database guarantees, for every state of {@code source} it accepts, that no two
     * rows hold the same non-NULL value of column {@code key} and that column {@code unit} is
     * never NULL (a false answer is always safe).
     */
    boolean uniqueKeyWithUnit(Source source, String key, String unit);

    /**
     * One question the renderer asks of {@link #uniqueKeyWithUnit} (a {@link Relation.KeyUnit}
     * over a scan of a plain table, its key and unit named as the table names them).
     */
    record Question(Source.Table source, String key, String unit) {}

    /**
     * The questions rendering {@code relation} asks, each once, in plan order: a backend can read
     * every answer in one statement (with its scan check, before the charge) and answer from them.
     */
    static List<Question> questions(Relation relation) {
      java.util.LinkedHashSet<Question> out = new java.util.LinkedHashSet<>();
      collect(relation, out);
      return List.copyOf(out);
    }

    private static void collect(Relation r, java.util.Set<Question> out) {
      if (r instanceof Relation.KeyUnit k) {
        question(k).ifPresent(out::add);
      }
      r.inputs().forEach(in -> collect(in, out));
    }

    /** A map's answers; a question not in it is answered false (the check is rendered). */
    static KeyFacts of(java.util.Map<Question, Boolean> answers) {
      Map<Question, Boolean> copy = Map.copyOf(answers);
      return (source, key, unit) -> source instanceof Source.Table t
          && copy.getOrDefault(new Question(t, key, unit), false);
    }
  }

  /**
   * The question {@code k} asks when its input is a scan of a plain table whose key and unit are
   * two of the scan's own columns; empty otherwise (the check is rendered without asking).
   */
  private static java.util.Optional<KeyFacts.Question> question(Relation.KeyUnit k) {
    if (!(k.input() instanceof Relation.Scan s) || !(s.source() instanceof Source.Table t)) {
      return java.util.Optional.empty();
    }
    String prefix = s.alias() + ".";
    if (!k.key().startsWith(prefix) || !k.unit().startsWith(prefix)) {
      return java.util.Optional.empty();
    }
    String key = k.key().substring(prefix.length());
    String unit = k.unit().substring(prefix.length());
    if (s.table().column(key).isEmpty() || s.table().column(unit).isEmpty()
        || !s.name(key).equals(k.key()) || !s.name(unit).equals(k.unit())) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(new KeyFacts.Question(t, key, unit));
  }

  /**
   * The plan as a parenthesised subquery.
   *
   * @param relation a plan whose root is a {@link Relation.Project} to plain names, with no
   *     {@link Relation.Truncate} or {@link Relation.Aggregate} (the bounding plan does those)
   * @param dialect the backend's spelling
   * @param from how the backend names a scanned source in FROM (a quoted name, a file reader)
   */
  public static String render(Relation relation, SqlDialect dialect, Function<Source, String> from) {
    check(relation);
    return new RelationSql(dialect, from, KeyFacts.NONE).node(relation);
  }

  private static void check(Relation relation) {
    if (!(relation instanceof Relation.Project p)) {
      throw new IllegalArgumentException("a rendered plan must end in a projection to final names");
    }
    for (Relation.Project.Output o : p.outputs()) {
      if (!PLAIN.matcher(o.name()).matches()) {
        throw new IllegalArgumentException("output column '" + o.name() + "' is not a plain name");
      }
    }
  }

  /**
   * {@link #render(Relation, SqlDialect, Function)} of only the plan's output columns {@code read}
   * (those a statement over it names: unit, groups, measures, filter), each node reading only what
   * the nodes above it read plus its own keys, predicates and expressions: the same rows, with
   * fewer columns for the database to bind (issue 25: planning a 30-column three-table plan cost
   * more than running it at TPC-H SF 0.1).
   *
   * @param read output names of {@code relation}'s root projection (unknown names are ignored; at
   *     least one column is always kept, since a SELECT needs one)
   */
  public static String render(Relation relation, SqlDialect dialect, Function<Source, String> from,
      java.util.Set<String> read) {
    return render(relation, dialect, from, read, KeyFacts.NONE);
  }

  /**
   * {@link #render(Relation, SqlDialect, Function, java.util.Set)} with what the database
   * guarantees about its tables ({@link KeyFacts}): a {@link Relation.KeyUnit} or {@link
   * Relation.DropBrokenKeys} over a scan whose key is guaranteed unique and whose unit is
   * guaranteed non-NULL has no broken key, and is rendered without its aggregate.
   *
   * @param read as above, or null: every column (as {@link #render(Relation, SqlDialect,
   *     Function)} renders them)
   */
  public static String render(Relation relation, SqlDialect dialect, Function<Source, String> from,
      java.util.Set<String> read, KeyFacts facts) {
    check(relation);
    RelationSql r = new RelationSql(dialect, from, facts);
    if (read != null) {
      r.need(relation, read);
    }
    return r.node(relation);
  }

  /**
   * Whether {@code k}'s input is a scan whose key the database guarantees unique and whose unit
   * column it guarantees non-NULL: then every non-NULL key is held by one row, with a unit, and no
   * key is broken (KeyUnit keeps every non-NULL key with its row's unit).
   */
  private boolean guaranteed(Relation.KeyUnit k) {
    return question(k).map(q -> facts.uniqueKeyWithUnit(q.source(), q.key(), q.unit()))
        .orElse(false);
  }


  /** Records that {@code cols} of {@code r}'s output are read, and what its inputs must give. */
  private void need(Relation r, java.util.Set<String> cols) {
    java.util.Set<String> n = needed.computeIfAbsent(r, k -> new java.util.HashSet<>());
    n.addAll(cols);
    java.util.Set<String> in = new java.util.HashSet<>();
    if (r instanceof Relation.Project p) {
      for (Relation.Project.Output o : kept(p)) {
        in.add(o.column());
      }
      need(p.input(), in);
    } else if (r instanceof Relation.Select f) {
      in.addAll(n);
      in.addAll(FilterSql.columns(f.predicate()));
      need(f.input(), in);
    } else if (r instanceof Relation.Compute c) {
      in.addAll(n);
      in.remove(c.name());
      exprColumns(c.expr(), in);
      need(c.input(), in);
    } else if (r instanceof Relation.Join j) {
      java.util.Set<String> left = new java.util.HashSet<>();
      java.util.Set<String> right = new java.util.HashSet<>();
      for (String c : n) {
        (j.left().schema().column(c).isPresent() ? left : right).add(c);
      }
      for (Relation.Join.Key k : j.keys()) {
        left.add(k.left());
        right.add(k.right());
      }
      need(j.left(), left);
      need(j.right(), right);
    } else if (r instanceof Relation.UnitCap c) {
      // the hash reads the whole row, whatever is read above: every pass chooses the same rows
      c.input().schema().columns().forEach(col -> in.add(col.name()));
      need(c.input(), in);
    } else if (r instanceof Relation.KeyUnit k) {
      need(k.input(), java.util.Set.of(k.key(), k.unit()));
    } else if (r instanceof Relation.DropBrokenKeys b) {
      in.addAll(n);
      in.add(b.column());
      need(b.input(), in);
      need(b.keys(), java.util.Set.of(b.keys().keyName(), b.keys().unitName()));
    }
  }

  /** A projection's outputs that are read (all when not pruned; at least the first). */
  private List<Relation.Project.Output> kept(Relation.Project p) {
    java.util.Set<String> n = needed.get(p);
    if (n == null) {
      return p.outputs();
    }
    List<Relation.Project.Output> out = p.outputs().stream().filter(o -> n.contains(o.name()))
        .toList();
    return out.isEmpty() ? List.of(p.outputs().get(0)) : out;
  }

  private static void exprColumns(Expr e, java.util.Set<String> out) {
    if (e instanceof Expr.Column c) {
      out.add(c.name());
    } else if (e instanceof Expr.Arith a) {
      exprColumns(a.left(), out);
      exprColumns(a.right(), out);
    } else if (e instanceof Expr.Negate n) {
      exprColumns(n.operand(), out);
    }
  }

  private String name(String logical) {
    if (PLAIN.matcher(logical).matches() && !logical.startsWith("__c")) {
      return logical;
    }
    return physical.computeIfAbsent(logical, k -> "__c" + physical.size());
  }

  private String q(String logical) {
    return d.quote(name(logical));
  }

  private String alias() {
    return "__r" + aliases++;
  }

  private String node(Relation r) {
    if (r instanceof Relation.Scan s) {
      List<String> cols = new ArrayList<>();
      java.util.Set<String> n = needed.get(s);
      for (TableSchema.Column c : s.table().columns()) {
        if (n == null || n.contains(s.name(c.name()))) {
          cols.add(d.quote(c.name()) + " AS " + q(s.name(c.name())));
        }
      }
      if (cols.isEmpty()) { // nothing read above (a count): one column, the first
        TableSchema.Column c = s.table().columns().get(0);
        cols.add(d.quote(c.name()) + " AS " + q(s.name(c.name())));
      }
      return "(SELECT " + String.join(", ", cols) + " FROM " + from.apply(s.source()) + " AS "
          + alias() + ")";
    } else if (r instanceof Relation.Select f) {
      TableSchema renamed = renamed(f.input().schema());
      return "(SELECT * FROM " + node(f.input()) + " AS " + alias() + " WHERE "
          + FilterSql.render(renamed(f.predicate()), renamed, d) + ")";
    } else if (r instanceof Relation.Project p) {
      List<String> cols = new ArrayList<>();
      for (Relation.Project.Output o : kept(p)) {
        cols.add(q(o.column()) + " AS " + q(o.name()));
      }
      return "(SELECT " + String.join(", ", cols) + " FROM " + node(p.input()) + " AS " + alias() + ")";
    } else if (r instanceof Relation.Compute c) {
      if (needed.get(c) != null && !needed.get(c).contains(c.name())) {
        return node(c.input()); // not read above: not computed
      }
      TableSchema in = renamed(c.input().schema());
      return "(SELECT *, " + expr(c.expr(), in) + " AS " + q(c.name()) + " FROM " + node(c.input())
          + " AS " + alias() + ")";
    } else if (r instanceof Relation.Join j) {
      String l = alias();
      String rt = alias();
      String left = node(j.left());
      String right = node(j.right());
      List<String> on = new ArrayList<>();
      for (Relation.Join.Key k : j.keys()) {
        on.add(l + "." + q(k.left()) + " = " + rt + "." + q(k.right()));
      }
      return "(SELECT * FROM " + left + " AS " + l + (j.kind() == Relation.JoinKind.LEFT ? " LEFT" : "")
          + " JOIN " + right + " AS " + rt + " ON " + String.join(" AND ", on) + ")";
    } else if (r instanceof Relation.UnitCap c) {
      List<String> all = new ArrayList<>();
      List<String> out = new ArrayList<>();
      List<String> order = new ArrayList<>();
      java.util.Set<String> n = needed.get(c);
      for (TableSchema.Column col : c.input().schema().columns()) {
        all.add(q(col.name()));
        if (col.type() != org.privet.engine.spi.ColumnType.OTHER) {
          order.add(q(col.name()));
        }
        if (n == null || n.contains(col.name())) {
          out.add(q(col.name()));
        }
      }
      if (out.isEmpty()) {
        out.add(all.get(0));
      }
      String in = node(c.input());
      String a = alias();
      String b = alias();
      // Per unit, the rows ranked by the salted hash of the whole row, ties by every column of an
      // ordered type (rows still tied agree on every such value: which of them stays does not
      // change the rows kept, up to SQL equality); the first m stay.
      order.add(0, d.saltedHash(all, c.salt()));
      return "(SELECT " + String.join(", ", out) + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY "
          + q(c.unitColumn()) + " ORDER BY " + String.join(", ", order) + ") AS __privet_rn FROM "
          + in + " AS " + a + ") AS " + b + " WHERE " + b + ".__privet_rn <= " + c.maxRows() + ")";
    } else if (r instanceof Relation.KeyUnit k) {
      String in = node(k.input());
      String u = q(k.unit());
      if (guaranteed(k)) {
        // One row per non-NULL key, with a unit: the rows GROUP BY ... HAVING keeps, as they are
        // (a NULL key's group never meets a join on the key).
        return "(SELECT " + q(k.key()) + " AS " + q(k.keyName()) + ", " + u + " AS "
            + q(k.unitName()) + " FROM " + in + " AS " + alias() + " WHERE " + q(k.key())
            + " IS NOT NULL)";
      }
      return "(SELECT " + q(k.key()) + " AS " + q(k.keyName()) + ", MIN(" + u + ") AS "
          + q(k.unitName()) + " FROM " + in + " AS " + alias() + " GROUP BY " + q(k.key())
          + " HAVING COUNT(*) = COUNT(" + u + ") AND MIN(" + u + ") = MAX(" + u + "))";
    } else if (r instanceof Relation.DropBrokenKeys b) {
      if (guaranteed(b.keys())) {
        return node(b.input()); // no broken key: nothing to drop
      }
      String l = alias();
      String in = node(b.input());
      Relation.KeyUnit k = b.keys();
      String rows = node(k.input());
      String ra = alias();
      String bad = alias();
      String key = q(k.key());
      String u = q(k.unit());
      // The broken keys (NOT of KeyUnit's HAVING: never NULL, since COUNT(*) = COUNT(u) is false
      // when a unit is NULL), then a left anti-join: the rows without a broken key.
      return "(SELECT " + l + ".* FROM " + in + " AS " + l + " LEFT JOIN (SELECT " + key
          + " AS __k FROM " + rows + " AS " + ra + " WHERE " + key + " IS NOT NULL GROUP BY " + key
          + " HAVING NOT (COUNT(*) = COUNT(" + u + ") AND MIN(" + u + ") = MAX(" + u + "))) AS "
          + bad + " ON " + l + "." + q(b.column()) + " = " + bad + ".__k WHERE " + bad
          + ".__k IS NULL)";
    }
    throw new IllegalArgumentException(r.describe() + " is rendered by the bounding plan, not here");
  }

  /** NULL for NULL or NaN, else x clamped to ±2^500: total on every backend (Expr). */
  private String bounded(String x) {
    String b = d.dbl(Math.scalb(1.0, Expr.LOG2_BOUND));
    String nb = d.dbl(-Math.scalb(1.0, Expr.LOG2_BOUND));
    return "(CASE WHEN " + x + " IS NULL OR " + d.isNaN(x) + " THEN NULL ELSE LEAST(GREATEST(" + x
        + ", " + nb + "), " + b + ") END)";
  }

  private String expr(Expr e, TableSchema in) {
    if (e instanceof Expr.Column c) {
      return bounded(d.asDouble(FilterSql.column(in, name(c.name()))));
    } else if (e instanceof Expr.Number n) {
      return d.dbl(n.value());
    } else if (e instanceof Expr.Negate n) {
      return "(-" + expr(n.operand(), in) + ")";
    }
    Expr.Arith a = (Expr.Arith) e;
    return bounded("(" + expr(a.left(), in) + " " + a.op() + " " + expr(a.right(), in) + ")");
  }

  private TableSchema renamed(TableSchema s) {
    List<TableSchema.Column> cols = new ArrayList<>();
    for (TableSchema.Column c : s.columns()) {
      cols.add(new TableSchema.Column(name(c.name()), c.type(), c.nativeType()));
    }
    return new TableSchema(cols);
  }

  private Filter renamed(Filter f) {
    if (f instanceof Filter.Compare c) {
      return new Filter.Compare(name(c.column()), c.op(), c.literal());
    } else if (f instanceof Filter.In in) {
      return new Filter.In(name(in.column()), in.literals());
    } else if (f instanceof Filter.IsNull n) {
      return new Filter.IsNull(name(n.column()));
    } else if (f instanceof Filter.And a) {
      return new Filter.And(a.operands().stream().map(this::renamed).toList());
    } else if (f instanceof Filter.Or o) {
      return new Filter.Or(o.operands().stream().map(this::renamed).toList());
    }
    return new Filter.Not(renamed(((Filter.Not) f).operand()));
  }
}
