package org.privet.sql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import org.privet.engine.Source;
import org.privet.engine.plan.Relation;
import org.privet.engine.spi.TableSchema;
import org.privet.sql.DatasetDescriptor.Reference;
import org.privet.sql.DatasetDescriptor.TableDescriptor;

/**
 * Binds the FROM of a query over a multi-table dataset (issue 25): its tables, their joins ({@code
 * JOIN ... ON a = b}, {@code USING (c)}, or {@code a = b} in WHERE after a comma), and the
 * privacy unit of every joined row, <em>derived</em> from the registered references and never
 * taken from the analyst. The result is a {@link Relation} plan (scans, joins, a projection to the
 * columns the query may name) that the engine reads as one {@link Source.Relational} source, and a
 * view of the dataset whose schema is that plan's.
 *
 * <p>Rules, each decided from the query text and the dataset's public descriptor only, and
 * refused naming the SQL position (argued in {@code docs/proofs/engine-joins.md}):
 *
 * <ul>
 *   <li>Joins are INNER or LEFT, on column equalities only.
 *   <li>A private table joins the private tables before it only along a reference (this table's
 *       reference column = the referenced key, or the reverse): every joined row then has exactly
 *       one unit. A private table appears twice only in a self-join whose copies meet on the unit
 *       (each copy capped per unit before the join: {@link #selfJoinAll}; LEFT joins where a
 *       padded row keeps the unit of the preserved side: {@link #leftJoinRules}); a self-join on
 *       anything else is refused.
 *   <li>Public tables join anything on any equality; their columns are public (group keys from
 *       them are public groups).
 *   <li>The unit: the private table closest to the unit table (the one whose reference toward the
 *       unit leaves the query) carries it; if that table is not the unit table, the engine adds the
 *       reference joins from it toward the unit table itself, and the unit is the last reference
 *       column's value. If that table is LEFT-joined (a LEFT join toward the unit), the nearest
 *       private table that is never padded carries it instead, so a padded row keeps the unit of
 *       its preserved side's reference chain ({@link #unitCarrier}); with none, refused.
 * </ul>
 */
final class JoinBinder {
  private final SelectBinder binder;
  private final SourceText src;
  private final PreparedQuery pq;
  private DatasetDescriptor dataset;
  private String unitName;
  private int derivedCount;
  private int unitScans;
  private final List<TableRef> tables = new ArrayList<>();
  /** Output name of each (alias, column), keyed by lower-case "alias\0column". */
  private final Map<String, String> outputNames = new LinkedHashMap<>();
  private final List<Edge> whereEdges = new ArrayList<>();
  /** Per lower-case USING column, the tables it joins: unqualified, it names the first (SQL). */
  private final Map<String, List<TableRef>> usingMerged = new java.util.HashMap<>();
  /** Token ranges [start, end) of the WHERE conjuncts that are filters, not join conditions. */
  private final List<int[]> filterRanges = new ArrayList<>();
  private Relation.Project plan;
  private String unitDerivation;
  private DatasetDescriptor view;

  /**
   * One table of the query: a table of the dataset, or a derived table over one (its visible
   * columns are its SELECT items; the table's own columns ride along hidden, for the references).
   */
  static final class TableRef {
    private final String alias;
    private final TableDescriptor table;
    private final int at;
    private final int index;
    private Relation node;
    private String unit;
    private final String hiddenPrefix;
    private final Map<String, TableSchema.Column> visible = new LinkedHashMap<>();
    private final Map<String, String> logical = new java.util.HashMap<>();
    private final Map<String, String> source = new java.util.HashMap<>();

    TableRef(String alias, TableDescriptor table, int at, int index, Relation node, String hiddenPrefix) {
      this.alias = alias;
      this.table = table;
      this.at = at;
      this.index = index;
      this.node = node;
      this.hiddenPrefix = hiddenPrefix;
    }

    void addVisible(TableSchema.Column c, String logicalName, String tableColumn) {
      String k = c.name().toLowerCase(Locale.ROOT);
      visible.put(k, c);
      logical.put(k, logicalName);
      if (tableColumn != null) {
        source.put(k, tableColumn);
      }
    }

    String alias() {
      return alias;
    }

    TableDescriptor table() {
      return table;
    }

    int at() {
      return at;
    }

    int index() {
      return index;
    }

    Relation node() {
      return node;
    }

    /** The plan's name of this (private) table's unit column, once attached. */
    String unit() {
      return unit;
    }

    /** This table's rows as the joins read them, and the plan's name of their unit column. */
    void withUnit(Relation withUnit, String unitColumn) {
      this.node = withUnit;
      this.unit = unitColumn;
    }

    /** The rows before {@link #withUnit} joined the key's unit, its reference column and keys. */
    private Relation beforeKeyUnit;
    private String keyColumn;
    private Relation.KeyUnit keyUnit;

    void keyUnitJoined(Relation before, String column, Relation.KeyUnit keys) {
      this.beforeKeyUnit = before;
      this.keyColumn = column;
      this.keyUnit = keys;
    }

    boolean isPublic() {
      return table.isPublic();
    }

    /** A visible column, ignoring case. */
    Optional<TableSchema.Column> column(String name) {
      return Optional.ofNullable(visible.get(name.toLowerCase(Locale.ROOT)));
    }

    List<TableSchema.Column> columns() {
      return List.copyOf(visible.values());
    }

    /** The plan's name of visible column {@code name}. */
    String logical(String name) {
      return logical.get(name.toLowerCase(Locale.ROOT));
    }

    /** The table column a visible column keeps, or null for a computed one. */
    String sourceOf(String name) {
      return source.get(name.toLowerCase(Locale.ROOT));
    }

    /** The plan's name of the table's own column {@code tableColumn} (exact), visible or not. */
    String hidden(String tableColumn) {
      return hiddenPrefix + tableColumn;
    }
  }

  /** A join condition: {@code a.column = b.column}, written at {@code at}. */
  private record Edge(TableRef a, TableSchema.Column ac, TableRef b, TableSchema.Column bc, int at) {
    TableRef other(TableRef t) {
      return a == t ? b : a;
    }
  }

  /** How one table joins the ones before it. */
  private record Step(TableRef table, Relation.JoinKind kind, List<Edge> edges, boolean comma) {}

  private JoinBinder(SelectBinder binder) {
    this.binder = binder;
    this.src = binder.src;
    this.pq = binder.pq;
  }

  /** Binds the FROM of {@code ps} (its first item written at {@code firstAt}). */
  static JoinBinder bind(SelectBinder binder, PlainSelect ps, FromResolver resolver, int firstAt) {
    JoinBinder j = new JoinBinder(binder);
    j.bindAll(ps, resolver, firstAt);
    return j;
  }

  /** The dataset as the rest of the compiler sees it: the plan as its one source. */
  DatasetDescriptor view() {
    return view;
  }

  /** The plan (scans, joins, projection). */
  Relation.Project plan() {
    return plan;
  }

  /** The derivation of the unit, as EXPLAIN shows it. */
  String unitDerivation() {
    return unitDerivation;
  }

  /**
   * When the unit is read from the preserved side of a LEFT join toward the unit table ({@link
   * #unitCarrier}), the written name of the column holding it ({@code alias.column}), if visible;
   * else empty. The registered unit name then names the padded table's column.
   */
  Optional<String> unitReadFromPreservedSide() {
    return Optional.ofNullable(preservedUnitColumn);
  }

  private String preservedUnitColumn;

  /** The WHERE conjuncts that are row filters (token ranges), after the join conditions left. */
  List<int[]> filterRanges() {
    return filterRanges;
  }

  /** Whether output column {@code name} comes from a public table. */
  boolean isPublicColumn(String name) {
    for (TableRef t : tables) {
      for (TableSchema.Column c : t.columns()) {
        if (t.isPublic() && name.equals(outputName(t, c))) {
          return true;
        }
      }
    }
    return false;
  }

  /** The public table and column behind output column {@code name}, if it is public. */
  Optional<Map.Entry<TableDescriptor, String>> publicSource(String name) {
    for (TableRef t : tables) {
      for (TableSchema.Column c : t.columns()) {
        if (t.isPublic() && name.equals(outputName(t, c)) && t.sourceOf(c.name()) != null) {
          return Optional.of(Map.entry(t.table(), t.sourceOf(c.name())));
        }
      }
    }
    return Optional.empty();
  }

  private void bindAll(PlainSelect ps, FromResolver resolver, int firstAt) {
    fromTable((Table) ps.getFromItem(), resolver, firstAt);
    if (unitName == null) {
      throw src.error(firstAt, "dataset '" + dataset.name() + "' has one row per privacy unit:"
          + " joins and derived tables need a privacy unit column");
    }
    List<Join> joins = ps.getJoins() == null ? List.of() : ps.getJoins();
    List<Step> steps = new ArrayList<>();
    for (Join j : joins) {
      FromItem item = j.getFromItem();
      int at = binder.at(item, pq.offsetOfWord("JOIN", pq.selectOffset()));
      if (item instanceof ParenthesedSelect) {
        throw src.error(at, "subqueries in FROM are not supported in a join; join the tables"
            + " themselves and filter in WHERE");
      }
      if (!(item instanceof Table t)) {
        throw src.error(at, "a join must name a table of dataset '" + dataset.name() + "'");
      }
      if (j.isRight() || j.isFull() || j.isCross() || j.isNatural() || j.isSemi() || j.isApply()
          || j.isStraight() || j.isWindowJoin()) {
        throw src.error(at, "only INNER and LEFT joins are supported (write a RIGHT join as a LEFT"
            + " join with the tables swapped; name the join columns instead of NATURAL)");
      }
      if (t.getSampleClause() != null || t.getPivot() != null || t.getUnPivot() != null
          || t.getIndexHint() != null) {
        throw src.error(at, "unsupported clause after the table name");
      }
      TableRef ref = fromTable(t, resolver, at);
      boolean hasOn = j.getOnExpressions() != null && !j.getOnExpressions().isEmpty();
      boolean hasUsing = j.getUsingColumns() != null && !j.getUsingColumns().isEmpty();
      List<Edge> edges = new ArrayList<>();
      if (hasOn) {
        onOfLeft = j.isLeft();
        for (Expression e : j.getOnExpressions()) {
          if (j.isLeft()) {
            leftOn(e, ref, edges);
          } else {
            onEdges(e, ref, edges);
          }
        }
      }
      if (hasUsing) {
        for (Column c : j.getUsingColumns()) {
          edges.add(usingEdge(c, ref, binder.at(c, at)));
        }
      }
      if (j.isSimple() && (hasOn || hasUsing)) {
        throw src.error(at, "a comma join takes its condition in WHERE");
      }
      if (!j.isSimple() && !hasOn && !hasUsing) {
        throw src.error(at, "JOIN needs ON or USING with the join columns");
      }
      steps.add(new Step(ref, j.isLeft() ? Relation.JoinKind.LEFT : Relation.JoinKind.INNER, edges,
          j.isSimple()));
    }
    for (TableRef t : tables) {
      if (!t.isPublic()) {
        attachUnit(t);
      }
    }
    splitWhere(steps);
    this.steps = steps;
    if (isSelfJoin()) {
      assembleSelfJoin();
      return;
    }
    List<TableRef> dropLater = brokenKeysAfterJoins(steps);
    Relation rel = joinAll(steps);
    for (TableRef t : dropLater) {
      rel = new Relation.DropBrokenKeys(rel, t.keyColumn, t.keyUnit);
    }
    TableRef carrier = unitCarrier(steps);
    deriveUnit(rel, carrier, carrier == topTable() ? "" : " (read from '" + carrier.alias()
        + "', the preserved side of the LEFT join toward the unit: a padded row keeps it)");
    if (carrier != topTable()) {
      for (TableSchema.Column c : carrier.columns()) {
        if (carrier.logical(c.name()).equals(carrier.unit())) {
          preservedUnitColumn = carrier.alias() + "." + c.name();
        }
      }
      if (preservedUnitColumn == null) {
        preservedUnitColumn = "";
      }
    }
  }

  /**
   * The private table whose attached unit ({@link #attachUnit}) is the unit of every joined row,
   * without a self-join: the query's top table ({@link #topTable}) unless it is LEFT-joined (it
   * may then be padded, its unit NULL); else the private table nearest the unit table among
   * those never padded (the first table and the INNER-joined ones: the plan joins in written
   * order when a LEFT join is present, and a row of an INNER-joined table is a real row), the
   * first written on a tie. Every private row of a joined row that is not padded carries the
   * same unit (node 4 of docs/proofs/engine-joins.md), so on the rows where the top is not padded
   * this is the top's unit; on a padded row it is the unit of its reference chain, exactly as the
   * carrier's table queried alone attributes it (a row whose chain is broken has no unit and is
   * dropped before the join, as there). With every private table LEFT-joined (a public table
   * first) no table carries a unit on every row: refused, naming the first private table
   * (docs/proofs/engine-joins.md, "LEFT joins toward the unit").
   */
  private TableRef unitCarrier(List<Step> steps) {
    TableRef top = topTable();
    java.util.Set<TableRef> padded = java.util.Collections.newSetFromMap(
        new java.util.IdentityHashMap<>());
    for (Step st : steps) {
      if (st.kind() == Relation.JoinKind.LEFT) {
        padded.add(st.table());
      }
    }
    if (!padded.contains(top)) {
      return top;
    }
    TableRef best = null;
    int bestDepth = Integer.MAX_VALUE;
    for (TableRef t : tables) {
      if (t.isPublic() || padded.contains(t)) {
        continue;
      }
      int depth = t.table() == dataset.tables().get(0) ? 0
          : dataset.unitPath(t.table().name()).orElseThrow().size();
      if (depth < bestDepth) {
        best = t;
        bestDepth = depth;
      }
    }
    if (best == null) {
      TableRef first = tables.stream().filter(t -> !t.isPublic()).findFirst().orElseThrow();
      throw src.error(first.at(), "private table '" + first.alias() + "' is LEFT-joined to public"
          + " tables only, and every private table of this query is LEFT-joined: a padded row would"
          + " have no privacy unit; write a private table first and LEFT JOIN the public tables to"
          + " it");
    }
    return best;
  }

  /** The joins as written, kept to rebuild a self-join's plan with its cap. */
  private List<Step> steps;
  /**
   * A self-join's cap per unit on each side of a join on the unit (see {@link #capSelfJoins}); 0
   * until chosen: the largest for the number of copies ({@link Relation.UnitCap#maxRowsPerCopy}).
   */
  private long selfJoinCap;
  /** A self-join's number of copies (private tables joined on the unit), once assembled. */
  private int selfJoinCopies;
  /**
   * The salt of the self-join caps' row hash: public and fixed, so that a statement's plan (and
   * its EXPLAIN) is a function of the statement and the descriptor only. Privacy does not rest on
   * it: the cap is a unit-local function of each unit's rows whatever the salt (a fixed unit-local
   * map sends neighbours to neighbours; docs/proofs/r2t-truncation.md, "Self-joins").
   */
  static final long SELF_JOIN_SALT = 0x5e1f_7013_ca9L;

  /** Whether a private table of the dataset appears twice in FROM (a self-join). */
  boolean isSelfJoin() {
    for (int i = 0; i < tables.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (!tables.get(i).isPublic() && tables.get(i).table() == tables.get(j).table()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The number k of copies of a self-join (each a chain of private tables along references,
   * joined to the others on the unit): a function of the statement and the descriptor only; 0
   * without a self-join.
   */
  int selfJoinCopies() {
    return isSelfJoin() ? selfJoinCopies : 0;
  }

  /**
   * Rebuilds a self-join's plan and view with {@code m} rows per unit kept on each side of the
   * joins on the unit ({@link Relation.UnitCap}); {@code m} is public, chosen by the caller from
   * the statement (at least the largest truncation threshold the query can use). No effect
   * without a self-join. The output columns and their names do not change.
   */
  void capSelfJoins(long m) {
    if (!isSelfJoin()) {
      return;
    }
    if (m < 1) {
      throw new IllegalArgumentException("self-join cap must be positive");
    }
    this.selfJoinCap = m;
    assembleSelfJoin();
  }

  private void assembleSelfJoin() {
    TableRef[] top = new TableRef[1];
    long[] m = new long[1];
    Relation rel = selfJoinAll(top, m);
    deriveUnit(rel, top[0], "");
    this.unitDerivation = unitDerivation + "; self-join: each side of a join on the unit keeps at"
        + " most " + m[0] + " row(s) per unit (" + selfJoinCopies + " copies: at most "
        + Relation.UnitCap.MAX_JOINED_ROWS_PER_UNIT + " joined rows per unit)";
  }

  /**
   * A self-join (docs/proofs/r2t-truncation.md, "Self-joins"), INNER or LEFT. The private
   * tables fall into <em>copies</em>: tables joined along references that are not on the unit
   * (a chain such as lineitem–orders), each private table of the dataset at most once per copy.
   * Copies are joined to each other only on the privacy unit: one key pair equates the unit
   * columns of two tables (the unit table's unit column, or a direct child's reference to it),
   * so a row of unit w meets only rows of unit w. Each copy, joined, keeps at most {@link
   * #selfJoinCap} rows per unit ({@link Relation.UnitCap}) before the joins on the unit; public
   * tables are joined last. Each join keeps its written kind: within a copy, a copy to the copies
   * before it (its first table's), a public table. The unit of a joined row is the first copy's
   * ({@code top[0]}): the first copy is never LEFT-joined, and its top table never padded ({@link
   * #leftJoinRules}, {@link #leftJoinWithinCopy}), so a padded row has the preserved side's unit.
   */
  private Relation selfJoinAll(TableRef[] top, long[] cap) {
    List<Edge> pool = new ArrayList<>();
    java.util.Map<TableRef, Step> stepOf = new java.util.IdentityHashMap<>();
    for (Step st : steps) {
      pool.addAll(st.edges());
      stepOf.put(st.table(), st);
    }
    pool.addAll(whereEdges);
    boolean anyLeft = steps.stream().anyMatch(st -> st.kind() == Relation.JoinKind.LEFT);
    List<Edge> used = new ArrayList<>();
    List<List<TableRef>> copies = new ArrayList<>();
    List<Relation> copyRel = new ArrayList<>();
    // per copy, how it joins the copies before it: its first table's written join
    List<Relation.JoinKind> copyKind = new ArrayList<>();
    java.util.Map<TableRef, Integer> copyOf = new java.util.IdentityHashMap<>();
    for (TableRef t : tables) {
      if (t.isPublic()) {
        continue;
      }
      Step own = stepOf.get(t);
      Relation.JoinKind kind = own == null ? Relation.JoinKind.INNER : own.kind();
      if (anyLeft) {
        leftJoinRules(t, kind, own, stepOf, copies);
      }
      List<Edge> along = new ArrayList<>();
      java.util.Set<Integer> to = new java.util.TreeSet<>();
      for (Edge e : pool) {
        if ((e.a() == t || e.b() == t) && copyOf.containsKey(e.other(t)) && isAlong(e)
            && !isUnitEdge(e)) {
          along.add(e);
          to.add(copyOf.get(e.other(t)));
        }
      }
      if (to.isEmpty()) {
        copyOf.put(t, copies.size());
        copies.add(new ArrayList<>(List.of(t)));
        copyRel.add(t.node());
        copyKind.add(kind);
        continue;
      }
      if (to.size() > 1) {
        throw src.error(t.at(), "private table '" + t.alias() + "' is joined along references to"
            + " two copies of a self-join; join each copy's tables to that copy only, and the copies"
            + " to each other on the privacy unit");
      }
      int c = to.iterator().next();
      if (anyLeft) {
        leftJoinWithinCopy(t, kind, own, along, copies.get(c), copyKind.get(c));
      }
      for (TableRef o : copies.get(c)) {
        if (o.table() == t.table()) {
          throw src.error(t.at(), "private table '" + t.table().name() + "' appears twice in one"
              + " chain of references ('" + o.alias() + "' and '" + t.alias() + "'); join its"
              + " copies to each other on the privacy unit instead" + unitSuggestion(t, o));
        }
      }
      List<Relation.Join.Key> keys = new ArrayList<>();
      for (Edge e : pool) {
        if ((e.a() == t || e.b() == t) && copyOf.get(e.other(t)) != null
            && copyOf.get(e.other(t)) == c && !used.contains(e)) {
          keys.add(key(e, t));
          used.add(e);
        }
      }
      copyRel.set(c, new Relation.Join(kind, copyRel.get(c), t.node(), keys,
          Relation.JoinRole.ALONG_REFERENCE));
      copies.get(c).add(t);
      copyOf.put(t, c);
    }
    if (copies.isEmpty()) {
      topTable(); // refuses a query without a private table
    }
    Relation rel = null;
    List<TableRef> joined = new ArrayList<>();
    selfJoinCopies = copies.size();
    cap[0] = selfJoinCap > 0 ? selfJoinCap : Relation.UnitCap.maxRowsPerCopy(Math.max(1,
        copies.size()));
    for (int c = 0; c < copies.size(); c++) {
      List<TableRef> copy = copies.get(c);
      TableRef copyTop = copyTop(copy);
      Relation capped = new Relation.UnitCap(copyRel.get(c), copyTop.unit(), cap[0],
          SELF_JOIN_SALT);
      if (c == 0) {
        top[0] = copyTop;
        rel = capped;
        joined.addAll(copy);
        continue;
      }
      List<Relation.Join.Key> keys = new ArrayList<>();
      boolean onUnit = false;
      for (Edge e : pool) {
        TableRef in = copy.contains(e.a()) ? e.a() : copy.contains(e.b()) ? e.b() : null;
        if (in != null && joined.contains(e.other(in)) && !used.contains(e)) {
          keys.add(key(e, in));
          used.add(e);
          onUnit |= isUnitEdge(e);
        }
      }
      if (!onUnit) {
        TableRef first = copy.get(0);
        throw src.error(first.at(), "private table '" + first.alias() + "' can be joined to the"
            + " private tables before it only along a registered reference or, in a self-join, on"
            + " the privacy unit" + unitSuggestion(first, top[0]) + ": any other join could give a"
            + " row two privacy units");
      }
      rel = new Relation.Join(copyKind.get(c), rel, capped, keys, Relation.JoinRole.UNIT);
      joined.addAll(copy);
    }
    // Public tables: each, in written order, once it has a condition with the tables joined so
    // far (a public table may be joined through another public one written after it); with a LEFT
    // join in the query, only once every table its own ON names is joined (so that a LEFT join's
    // keys are exactly its ON).
    List<TableRef> pending = new ArrayList<>(tables.stream().filter(TableRef::isPublic).toList());
    while (!pending.isEmpty()) {
      TableRef next = pending.stream().filter(t -> pool.stream().anyMatch(e -> !used.contains(e)
          && (e.a() == t || e.b() == t) && joined.contains(e.other(t)))
          && (!anyLeft || stepOf.get(t) == null || stepOf.get(t).edges().stream()
              .allMatch(e -> joined.contains(e.other(t))))).findFirst().orElse(null);
      if (next == null) {
        TableRef t = pending.get(0);
        throw src.error(t.at(), "table '" + t.alias() + "' is not joined to the other tables: give"
            + " a join condition (column = column)");
      }
      List<Relation.Join.Key> keys = new ArrayList<>();
      for (Edge e : pool) {
        if ((e.a() == next || e.b() == next) && joined.contains(e.other(next)) && !used.contains(e)) {
          keys.add(key(e, next));
          used.add(e);
        }
      }
      rel = new Relation.Join(stepOf.get(next) == null ? Relation.JoinKind.INNER
          : stepOf.get(next).kind(), rel, next.node(), keys, Relation.JoinRole.PUBLIC);
      joined.add(next);
      pending.remove(next);
    }
    for (Edge e : pool) {
      if (!used.contains(e)) {
        throw src.error(e.at(), "this condition compares two tables joined elsewhere; put it in the"
            + " join's ON");
      }
    }
    return rel;
  }

  /**
   * The rules of a LEFT join in a self-join query, for private table {@code t} (written with
   * {@code kind}, its own ON {@code own}, null for the first table), checked before it joins a
   * copy. The plan joins each copy's tables, then the copies in the order of their first tables,
   * then the public tables; these rules make that order give the rows the written order gives,
   * and every padded row take its unit from the preserved side (docs/proofs/r2t-truncation.md,
   * "Self-joins", "LEFT joins"). From the statement and the descriptor only; each refusal names
   * the SQL position.
   */
  private void leftJoinRules(TableRef t, Relation.JoinKind kind, Step own,
      java.util.Map<TableRef, Step> stepOf, List<List<TableRef>> copies) {
    if (own == null) {
      return;
    }
    if (kind == Relation.JoinKind.LEFT && copies.isEmpty()) {
      throw src.error(t.at(), "private table '" + t.alias() + "' is LEFT-joined to public tables"
          + " only: a padded row would have no privacy unit; write a private table first and"
          + " LEFT JOIN the public tables to it");
    }
    for (Edge e : own.edges()) {
      TableRef x = e.other(t);
      Step xs = stepOf.get(x);
      if (x.isPublic() && kind == Relation.JoinKind.LEFT) {
        throw src.error(e.at(), "the LEFT join of private table '" + t.alias() + "' may compare"
            + " only private tables' columns in its ON in a self-join; '" + x.alias() + "' is"
            + " public: join it in its own ON");
      }
      if (x.isPublic() && xs != null && xs.kind() == Relation.JoinKind.LEFT) {
        throw src.error(e.at(), "this condition names '" + x.alias() + "', a LEFT-joined public"
            + " table; in a self-join a private table's ON may not name a LEFT-joined public"
            + " table (put the condition in that table's own ON)");
      }
    }
  }

  /**
   * The rules of a LEFT join in a self-join query for private table {@code t} joining {@code
   * copy} along a reference ({@code along}: its key pairs along references to that copy), whose
   * first table joined the copies before it with {@code copyKind}: a LEFT join within a copy goes
   * from a parent to its child (the copy's top, which carries the copy's unit, stays on the
   * preserved side); a table joining a copy that was itself LEFT-joined is LEFT-joined too (an
   * INNER join there would drop the copy's padded rows, which the plan, joining a copy's tables
   * before the copies, does not do); and its ON compares tables of its copy (and public tables)
   * only.
   */
  private void leftJoinWithinCopy(TableRef t, Relation.JoinKind kind, Step own, List<Edge> along,
      List<TableRef> copy, Relation.JoinKind copyKind) {
    if (kind == Relation.JoinKind.LEFT) {
      for (Edge e : along) {
        TableRef x = e.other(t);
        TableSchema.Column tc = e.a() == t ? e.ac() : e.bc();
        TableSchema.Column xc = e.a() == t ? e.bc() : e.ac();
        if (isParentReference(x, xc, t, tc)) {
          throw src.error(t.at(), "'" + t.alias() + "' is LEFT-joined toward the privacy unit"
              + " ('" + x.alias() + "' references it): in a self-join a padded row would take its"
              + " unit from the missing side; LEFT JOIN a child to its parent only (or write JOIN)");
        }
      }
    }
    if (copyKind == Relation.JoinKind.LEFT && kind != Relation.JoinKind.LEFT) {
      throw src.error(t.at(), "'" + t.alias() + "' joins '" + copy.get(0).alias() + "', which is"
          + " LEFT-joined on the privacy unit: write LEFT JOIN here too (an inner join here would"
          + " drop its padded rows, which a self-join's plan does not express)");
    }
    if (own == null) {
      return;
    }
    for (Edge e : own.edges()) {
      TableRef x = e.other(t);
      if (!x.isPublic() && !copy.contains(x)) {
        throw src.error(e.at(), "this condition names '" + x.alias() + "', which is not in the"
            + " chain of references '" + t.alias() + "' joins; in a self-join with a LEFT join, join"
            + " a table along its reference in its ON and the copies to each other on the privacy"
            + " unit");
      }
    }
  }

  /** The join key of edge {@code e} with {@code n} on the new (right) side. */
  private static Relation.Join.Key key(Edge e, TableRef n) {
    TableRef other = e.other(n);
    TableSchema.Column nc = e.a() == n ? e.ac() : e.bc();
    TableSchema.Column oc = e.a() == n ? e.bc() : e.ac();
    return new Relation.Join.Key(other.logical(oc.name()), n.logical(nc.name()));
  }

  /** Whether {@code e} joins two private tables along a registered reference (either way). */
  private boolean isAlong(Edge e) {
    return !e.a().isPublic() && !e.b().isPublic()
        && (isParentReference(e.a(), e.ac(), e.b(), e.bc())
            || isParentReference(e.b(), e.bc(), e.a(), e.ac()));
  }

  /** Whether {@code e} equates the unit columns of two private tables. */
  private boolean isUnitEdge(Edge e) {
    return !e.a().isPublic() && !e.b().isPublic() && unitColumn(e.a()).isPresent()
        && unitColumn(e.b()).isPresent()
        && unitColumn(e.a()).get().equalsIgnoreCase(e.a().sourceOf(e.ac().name()) + "")
        && unitColumn(e.b()).get().equalsIgnoreCase(e.b().sourceOf(e.bc().name()) + "");
  }

  /**
   * The column of private table {@code t} that holds its rows' unit: the unit table's unit column,
   * or a direct child's reference to it; empty deeper (the unit is then its key's, not a column).
   */
  private Optional<String> unitColumn(TableRef t) {
    TableDescriptor unitTable = dataset.tables().get(0);
    if (t.table() == unitTable) {
      return Optional.of(unitTable.column(unitName).orElseThrow().name());
    }
    Optional<Reference> r = t.table().parentIn(dataset);
    return r.isPresent() && dataset.table(r.get().table()).orElseThrow() == unitTable
        ? Optional.of(r.get().column()) : Optional.empty();
  }

  /** " (a.u = b.u)" when both tables have a visible unit column, else "". */
  private String unitSuggestion(TableRef a, TableRef b) {
    Optional<String> ua = unitColumn(a);
    Optional<String> ub = unitColumn(b);
    if (ua.isEmpty() || ub.isEmpty() || a.column(ua.get()).isEmpty() || b.column(ub.get()).isEmpty()) {
      return "";
    }
    return " (" + a.alias() + "." + ua.get() + " = " + b.alias() + "." + ub.get() + ")";
  }

  /** The table of a copy whose parent is not in the copy (its tables are distinct). */
  private TableRef copyTop(List<TableRef> copy) {
    for (TableRef t : copy) {
      Optional<Reference> parent = t.table().parentIn(dataset);
      if (parent.isEmpty() || copy.stream()
          .noneMatch(o -> o.table().name().equalsIgnoreCase(parent.get().table()))) {
        return t;
      }
    }
    throw new IllegalStateException("a copy without a top table");
  }

  /**
   * The private tables whose key's unit ({@link #attachUnit}) is a filter only, checked after the
   * joins instead ({@link Relation.DropBrokenKeys}): every table but the one the unit is read from
   * ({@link #topTable}), when every join is INNER. Such a table's parent is in the query (it is not
   * the top) and joined to it along its reference (private tables join along references, which
   * form a tree), INNER: each joined row's key is held by the parent table, so dropping the rows
   * whose key is broken after the joins keeps exactly the rows that the INNER join with the key's
   * unit before them keeps (selection commutes with INNER joins). The database then plans the
   * query's joins as without the check (issue 25's time; docs/proofs/engine-joins.md, "Keys").
   * Their rows go back to those before the join with the key's unit.
   */
  private List<TableRef> brokenKeysAfterJoins(List<Step> steps) {
    List<TableRef> out = new ArrayList<>();
    if (steps.stream().anyMatch(st -> st.kind() != Relation.JoinKind.INNER)
        || tables.stream().allMatch(TableRef::isPublic)) {
      return out; // (a query without a private table is refused after the joins, as before)
    }
    TableRef top = topTable();
    for (TableRef t : tables) {
      if (t != top && !t.isPublic() && t.keyUnit != null) {
        t.node = t.beforeKeyUnit;
        out.add(t);
      }
    }
    return out;
  }

  /**
   * The query's private table nearest the unit table: its reference toward the unit leaves the
   * query (unique: the private tables are connected along references, checked per join).
   */
  private TableRef topTable() {
    List<TableRef> priv = tables.stream().filter(t -> !t.isPublic()).toList();
    if (priv.isEmpty()) {
      throw src.error(tables.get(0).at(), "a DP query needs a private table of dataset '"
          + dataset.name() + "'; these tables are all public");
    }
    TableRef top = null;
    for (TableRef t : priv) {
      Optional<Reference> parent = t.table().parentIn(dataset);
      boolean parentInQuery = parent.isPresent() && priv.stream()
          .anyMatch(o -> o.table().name().equalsIgnoreCase(parent.get().table()));
      if (!parentInQuery) {
        top = t;
      }
    }
    return top;
  }

  /** A FROM table: a derived table (WITH item or subquery) by its name, else the dataset's. */
  private TableRef fromTable(Table t, FromResolver resolver, int at) {
    String name = SelectBinder.unquote(t.getName());
    String written = t.getAlias() != null ? SelectBinder.unquote(t.getAlias().getName()) : null;
    PreparedQuery.Derived d = t.getSchemaName() == null ? pq.derived(name) : null;
    TableRef ref;
    if (d != null) {
      ref = derivedTable(written != null ? written : name, d, resolver, d.cte() ? at : d.at());
    } else {
      FromResolver.Resolved r = binder.resolveTable(resolver, t, at);
      ref = plainTable(written != null ? written : r.table().name(), r.table(), at);
    }
    if (dataset == null) {
      dataset = resolver.dataset().orElseThrow();
      unitName = dataset.privacyUnit().orElse(null);
    }
    return addTable(ref);
  }

  private TableRef plainTable(String alias, TableDescriptor table, int at) {
    Relation.Scan scan = new Relation.Scan(alias, table.source(), table.schema(), table.isPublic());
    TableRef ref = new TableRef(alias, table, at, tables.size(), scan, alias + ".");
    table.schema().columns().forEach(c -> ref.addVisible(c, scan.name(c.name()), c.name()));
    return ref;
  }

  /**
   * A derived table: scan, the table's columns by their names, its WHERE, its computed columns,
   * then its items (visible, {@code alias.name}) and the table's columns (hidden, {@code
   * alias.#column}, for the references and the unit).
   */
  private TableRef derivedTable(String alias, PreparedQuery.Derived d, FromResolver resolver, int at) {
    DerivedTableParser.Parsed p = DerivedTableParser.parse(pq, d, (q, n, pos) -> {
      if (q == null && pq.derived(n) != null) {
        throw src.error(pos, "a derived table reads a table of the dataset, not another derived"
            + " table");
      }
      try {
        return resolver.resolve(q, n).table();
      } catch (FromResolver.Refusal e) {
        throw src.error(pos, e.getMessage());
      }
    }, t -> {
      DatasetDescriptor ds = resolver.dataset().orElseThrow();
      return t == ds.tables().get(0) ? ds.privacyUnit().orElse(null) : null;
    });
    TableDescriptor t = p.table();
    Relation.Scan scan = new Relation.Scan("__in" + derivedCount++, t.source(), t.schema(), t.isPublic());
    Relation rel = new Relation.Project(scan, t.schema().columns().stream()
        .map(c -> new Relation.Project.Output(c.name(), scan.name(c.name()))).toList());
    if (p.filter() != null) {
      rel = new Relation.Select(rel, p.filter());
    }
    List<String> computed = new ArrayList<>();
    for (DerivedTableParser.Item it : p.items()) {
      if (it.expr() != null) {
        String n = "__e" + computed.stream().filter(java.util.Objects::nonNull).count();
        rel = new Relation.Compute(rel, n, it.expr());
        computed.add(n);
      } else {
        computed.add(null);
      }
    }
    List<Relation.Project.Output> outputs = new ArrayList<>();
    for (int i = 0; i < p.items().size(); i++) {
      DerivedTableParser.Item it = p.items().get(i);
      outputs.add(new Relation.Project.Output(alias + "." + it.name(),
          it.column() != null ? it.column() : computed.get(i)));
    }
    t.schema().columns().forEach(c -> outputs.add(new Relation.Project.Output(alias + ".#" + c.name(),
        c.name())));
    Relation.Project node = new Relation.Project(rel, outputs);
    TableRef ref = new TableRef(alias, t, at, tables.size(), node, alias + ".#");
    for (DerivedTableParser.Item it : p.items()) {
      TableSchema.Column type = node.schema().column(alias + "." + it.name()).orElseThrow();
      ref.addVisible(new TableSchema.Column(it.name(), type.type(), type.nativeType()),
          alias + "." + it.name(), it.column());
    }
    return ref;
  }

  private TableRef addTable(TableRef ref) {
    String alias = ref.alias();
    int at = ref.at();
    TableDescriptor table = ref.table();
    for (TableRef other : tables) {
      if (other.alias().equalsIgnoreCase(alias)) {
        throw src.error(at, "the name '" + alias + "' is used for two tables in FROM; give each an"
            + " alias of its own");
      }
    }
    if (alias.startsWith("__") && pq.derived(alias) == null) {
      throw src.error(at, "table aliases starting with '__' are reserved");
    }
    tables.add(ref);
    return ref;
  }

  /**
   * A LEFT join's ON: its column equalities are join keys ({@link #onEdges}); a conjunct that is
   * not (a filter such as {@code o2.o_orderdate > DATE '1997-01-01'}) may name only the LEFT-joined
   * table {@code right}, and filters its rows before the join ({@code A LEFT JOIN B ON k AND p(B)}
   * keeps the rows of {@code A LEFT JOIN (SELECT * FROM B WHERE p) ON k}: a left row is padded when
   * no row of B both matches and passes; a per-row filter, node 2 of docs/proofs/engine-joins.md).
   * The filter is parsed from the statement's tokens by the WHERE grammar ({@link FilterParser}).
   */
  private void leftOn(Expression e, TableRef right, List<Edge> out) {
    List<Expression> conjuncts = new ArrayList<>();
    topConjuncts(e, conjuncts);
    if (conjuncts.stream().allMatch(JoinBinder::isEqualities)) {
      onEdges(e, right, out);
      return;
    }
    List<int[]> ranges = onConjunctRanges(right);
    if (ranges == null || ranges.size() != conjuncts.size()) {
      onEdges(e, right, out); // refused there, naming the conjunct that is not an equality
      return;
    }
    for (int i = 0; i < conjuncts.size(); i++) {
      if (isEqualities(conjuncts.get(i))) {
        onEdges(conjuncts.get(i), right, out);
        continue;
      }
      int[] r = ranges.get(i);
      org.privet.engine.Filter f = FilterParser.parse(src, pq.tokens(), r[0], r[1],
          new FilterParser.ColumnResolver() {
            @Override
            public FilterParser.ResolvedColumn resolve(String written, int at) {
              TableSchema.Column c = right.column(written).orElseThrow(() -> src.error(at,
                  "a filter in a LEFT join's ON may name only the LEFT-joined table '"
                      + right.alias() + "'; '" + written + "' is not its column (filter the other"
                      + " tables in WHERE)"));
              String logical = right.logical(c.name());
              TableSchema.Column n = right.node().schema().column(logical).orElseThrow();
              return new FilterParser.ResolvedColumn(logical, n.type(), n);
            }

            @Override
            public FilterParser.ResolvedColumn resolveQualified(String qualifier, String written,
                int at) {
              if (!qualifier.equalsIgnoreCase(right.alias())) {
                throw src.error(at, "a filter in a LEFT join's ON may name only the LEFT-joined"
                    + " table '" + right.alias() + "', not '" + qualifier + "' (filter the other"
                    + " tables in WHERE)");
              }
              return resolve(written, at);
            }
          }, right.table() == dataset.tables().get(0) ? unitName : null);
      right.node = new Relation.Select(right.node(), f);
    }
  }

  /** The conjuncts of a top-level AND chain (parenthesised groups kept whole). */
  private static void topConjuncts(Expression e, List<Expression> out) {
    if (e instanceof AndExpression and) {
      topConjuncts(and.getLeftExpression(), out);
      topConjuncts(and.getRightExpression(), out);
    } else {
      out.add(e);
    }
  }

  /** Whether {@code e} is column equalities joined by AND (possibly parenthesised). */
  private static boolean isEqualities(Expression e) {
    if (e instanceof AndExpression and) {
      return isEqualities(and.getLeftExpression()) && isEqualities(and.getRightExpression());
    }
    if (e instanceof net.sf.jsqlparser.expression.Parenthesis p) {
      return isEqualities(p.getExpression());
    }
    return e instanceof EqualsTo eq && eq.getLeftExpression() instanceof Column
        && eq.getRightExpression() instanceof Column;
  }

  /**
   * The token ranges [start, end) of the top-level AND conjuncts of the ON that follows table
   * {@code right} (its tokens up to the next join, WHERE, GROUP BY... or comma at its depth), or
   * null if it cannot be delimited.
   */
  private List<int[]> onConjunctRanges(TableRef right) {
    List<SqlToken> tk = pq.tokens();
    int i = pq.tokenAt(right.at());
    if (i < 0) {
      return null;
    }
    int depth = 0;
    for (; i < tk.size(); i++) {
      SqlToken t = tk.get(i);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth = Math.max(0, depth - 1); // (a derived table's position may be inside its body)
      } else if (depth == 0 && t.isWord("ON")) {
        break;
      }
    }
    int start = i + 1;
    if (start >= tk.size()) {
      return null;
    }
    List<int[]> out = new ArrayList<>();
    int from = start;
    depth = 0;
    int k = start;
    for (; k < tk.size(); k++) {
      SqlToken t = tk.get(k);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        if (--depth < 0) {
          break;
        }
      } else if (depth == 0 && (t.isSymbol(",") || t.isSymbol(";") || endsOn(t))) {
        break;
      } else if (depth == 0 && t.isWord("AND") && !betweenAnd(tk, from, k)) {
        out.add(new int[] {from, k});
        from = k + 1;
      }
    }
    out.add(new int[] {from, k});
    return out;
  }

  private static boolean endsOn(SqlToken t) {
    return t.kind() == SqlToken.Kind.WORD && switch (t.text().toUpperCase(Locale.ROOT)) {
      case "JOIN", "LEFT", "RIGHT", "INNER", "FULL", "CROSS", "NATURAL", "OUTER", "WHERE", "GROUP",
          "HAVING", "ORDER", "LIMIT", "OFFSET", "QUALIFY", "WINDOW", "UNION", "EXCEPT", "INTERSECT",
          "USING" -> true;
      default -> false;
    };
  }

  /** Whether the ON being read is a LEFT join's (for the advice on a filter written there). */
  private boolean onOfLeft;

  /** ON: a conjunction of column equalities, each joining the new table to an earlier one. */
  private void onEdges(Expression e, TableRef right, List<Edge> out) {
    if (e instanceof AndExpression and) {
      onEdges(and.getLeftExpression(), right, out);
      onEdges(and.getRightExpression(), right, out);
      return;
    }
    if (e instanceof net.sf.jsqlparser.expression.Parenthesis p) {
      onEdges(p.getExpression(), right, out);
      return;
    }
    int at = binder.at(e, pq.selectOffset());
    if (!(e instanceof EqualsTo eq) || !(eq.getLeftExpression() instanceof Column l)
        || !(eq.getRightExpression() instanceof Column r)) {
      throw src.error(at, "a join condition must be column = column, joined by AND; filter rows in"
          + (onOfLeft ? " a derived table (LEFT JOIN (SELECT * FROM t WHERE ...) AS alias ON ...):"
              + " a WHERE filter on the LEFT-joined table would drop its padded rows" : " WHERE"));
    }
    ColumnRef a = lookUp(qualifier(l), SelectBinder.unquote(l.getColumnName()), binder.at(l, at),
        right.index() + 1);
    ColumnRef b = lookUp(qualifier(r), SelectBinder.unquote(r.getColumnName()), binder.at(r, at),
        right.index() + 1);
    out.add(edge(a, b, at));
  }

  private Edge usingEdge(Column c, TableRef right, int at) {
    String name = SelectBinder.unquote(c.getColumnName());
    TableSchema.Column rc = right.column(name).orElseThrow(() -> src.error(at,
        "USING column '" + name + "' is not a column of '" + right.alias() + "'"));
    List<TableRef> holders = tables.subList(0, right.index()).stream()
        .filter(t -> t.column(name).isPresent()).toList();
    if (holders.size() != 1) {
      throw src.error(at, "USING column '" + name + "' must be a column of exactly one earlier table"
          + (holders.isEmpty() ? "" : " (it is in " + aliases(holders) + "); write ON instead"));
    }
    TableRef l = holders.get(0);
    List<TableRef> merged = usingMerged.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>());
    if (!merged.contains(l)) {
      merged.add(l);
    }
    merged.add(right);
    return edge(new ColumnRef(l, l.column(name).orElseThrow()), new ColumnRef(right, rc), at);
  }

  private Edge edge(ColumnRef a, ColumnRef b, int at) {
    if (a.table() == b.table()) {
      throw src.error(at, "a join condition must compare columns of two different tables");
    }
    if (a.column().type() != b.column().type()
        && !(a.column().type().isNumeric() && b.column().type().isNumeric())) {
      throw src.error(at, "join columns '" + a.column().name() + "' and '" + b.column().name()
          + "' have types that cannot be compared");
    }
    return new Edge(a.table(), a.column(), b.table(), b.column(), at);
  }

  private static String qualifier(Column c) {
    return c.getTable() == null || c.getTable().getName() == null ? null
        : SelectBinder.unquote(c.getTable().getName());
  }

  /** A column of one of the query's tables. */
  record ColumnRef(TableRef table, TableSchema.Column column) {}

  /** Resolves a written column among the first {@code visible} tables. */
  private ColumnRef lookUp(String qualifier, String name, int at, int visible) {
    List<TableRef> scope = tables.subList(0, Math.min(visible, tables.size()));
    if (qualifier != null) {
      TableRef t = scope.stream().filter(x -> x.alias().equalsIgnoreCase(qualifier)).findFirst()
          .or(() -> scope.stream().filter(x -> x.table().name().equalsIgnoreCase(qualifier))
              .reduce((x, y) -> null))
          .orElseThrow(() -> src.error(at, "'" + qualifier + "' is not a table of this query"
              + " (its tables: " + aliases(scope) + ")"));
      TableSchema.Column c = t.column(name).orElseThrow(() -> src.error(at,
          "unknown column '" + name + "' in table '" + t.alias() + "'"));
      return new ColumnRef(t, c);
    }
    List<TableRef> holders = scope.stream().filter(t -> t.column(name).isPresent()).toList();
    if (holders.isEmpty()) {
      throw src.error(at, "unknown column '" + name + "' in tables " + aliases(scope));
    }
    List<TableRef> merged = usingMerged.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    if (holders.size() > 1 && merged.containsAll(holders)) {
      return new ColumnRef(merged.get(0), merged.get(0).column(name).orElseThrow());
    }
    if (holders.size() > 1) {
      throw src.error(at, "column '" + name + "' is in tables " + aliases(holders)
          + "; qualify it (e.g. " + holders.get(0).alias() + "." + name + ")");
    }
    return new ColumnRef(holders.get(0), holders.get(0).column(name).orElseThrow());
  }

  private static String aliases(List<TableRef> ts) {
    return ts.stream().map(TableRef::alias).collect(Collectors.joining(", "));
  }

  /**
   * WHERE: its top-level AND conjuncts of the form {@code column = column} over two tables are join
   * conditions; the others are row filters. Join conditions in WHERE may not touch a LEFT-joined
   * table (they would turn the LEFT join into an inner one silently).
   */
  private void splitWhere(List<Step> steps) {
    if (pq.whereStart() < 0) {
      return;
    }
    List<SqlToken> tk = pq.tokens();
    List<int[]> conjuncts = new ArrayList<>();
    int depth = 0;
    int start = pq.whereStart();
    boolean topOr = false;
    for (int i = pq.whereStart(); i < pq.whereEnd(); i++) {
      SqlToken t = tk.get(i);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && t.isWord("OR")) {
        topOr = true;
      } else if (depth == 0 && t.isWord("AND") && !betweenAnd(tk, start, i)) {
        conjuncts.add(new int[] {start, i});
        start = i + 1;
      }
    }
    conjuncts.add(new int[] {start, pq.whereEnd()});
    if (topOr) {
      filterRanges.add(new int[] {pq.whereStart(), pq.whereEnd()});
      return;
    }
    for (int[] c : conjuncts) {
      Edge e = whereEdge(tk, c[0], c[1]);
      if (e == null) {
        filterRanges.add(c);
        continue;
      }
      for (Step s : steps) {
        if (s.kind() == Relation.JoinKind.LEFT && (s.table() == e.a() || s.table() == e.b())) {
          throw src.error(e.at(), "a join condition in WHERE cannot involve the LEFT-joined table '"
              + s.table().alias() + "'; put it in the LEFT JOIN's ON");
        }
      }
      whereEdges.add(e);
    }
  }

  /** Whether the AND at {@code i} closes a {@code BETWEEN x AND y} begun in this conjunct. */
  private static boolean betweenAnd(List<SqlToken> tk, int start, int i) {
    int betweens = 0;
    int ands = 0;
    int depth = 0;
    for (int k = start; k < i; k++) {
      SqlToken t = tk.get(k);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && t.isWord("BETWEEN")) {
        betweens++;
      } else if (depth == 0 && t.isWord("AND")) {
        ands++;
      }
    }
    return betweens > ands;
  }

  /** {@code ref = ref} over two different tables of the query, or null. */
  private Edge whereEdge(List<SqlToken> tk, int from, int to) {
    int[] pos = {from};
    String[] left = columnTokens(tk, pos, to);
    if (left == null || pos[0] >= to || !tk.get(pos[0]).isSymbol("=")) {
      return null;
    }
    pos[0]++;
    int rightAt = pos[0] < to ? tk.get(pos[0]).start() : 0;
    String[] right = columnTokens(tk, pos, to);
    if (right == null || pos[0] != to) {
      return null;
    }
    int at = tk.get(from).start();
    ColumnRef a = lookUp(left[0], left[1], at, tables.size());
    ColumnRef b = lookUp(right[0], right[1], rightAt, tables.size());
    if (a.table() == b.table()) {
      return null; // a filter comparing two columns of one table: refused by the filter parser
    }
    return edge(a, b, at);
  }

  /** {qualifier or null, name} of an identifier or {@code id.id} at pos, advancing it; or null. */
  private static String[] columnTokens(List<SqlToken> tk, int[] pos, int to) {
    int i = pos[0];
    if (i >= to || !isId(tk.get(i)) || isKeywordLiteral(tk.get(i))) {
      return null;
    }
    if (i + 2 < to + 1 && i + 1 < to && tk.get(i + 1).isSymbol(".")) {
      if (i + 2 >= to || !isId(tk.get(i + 2))) {
        return null;
      }
      pos[0] = i + 3;
      return new String[] {tk.get(i).identifier(), tk.get(i + 2).identifier()};
    }
    if (i + 1 < to && tk.get(i + 1).isSymbol("(")) {
      return null;
    }
    pos[0] = i + 1;
    return new String[] {null, tk.get(i).identifier()};
  }

  private static boolean isId(SqlToken t) {
    return t.kind() == SqlToken.Kind.WORD || t.kind() == SqlToken.Kind.QUOTED_ID;
  }

  private static boolean isKeywordLiteral(SqlToken t) {
    return t.kind() == SqlToken.Kind.WORD && switch (t.text().toUpperCase(Locale.ROOT)) {
      case "TRUE", "FALSE", "NULL", "DATE", "NOT", "EXISTS", "CASE", "SELECT" -> true;
      default -> false;
    };
  }

  /**
   * Joins the tables: the first, then each in written order (a comma-joined table whose WHERE
   * condition names a later table waits until that one is joined; only without LEFT joins, where
   * inner joins commute). Each join is classified: along a reference, or with a public table.
   */
  private Relation joinAll(List<Step> steps) {
    boolean anyLeft = steps.stream().anyMatch(s -> s.kind() == Relation.JoinKind.LEFT);
    List<TableRef> joined = new ArrayList<>();
    joined.add(tables.get(0));
    Relation rel = tables.get(0).node();
    List<Step> pending = new ArrayList<>(steps);
    List<Edge> unused = new ArrayList<>(whereEdges);
    while (!pending.isEmpty()) {
      Step next = null;
      List<Edge> keys = null;
      for (Step s : pending) {
        List<Edge> k = new ArrayList<>(s.edges());
        for (Edge e : unused) {
          if ((e.a() == s.table() && joined.contains(e.b())) || (e.b() == s.table() && joined.contains(e.a()))) {
            k.add(e);
          }
        }
        if (!k.isEmpty()) {
          next = s;
          keys = k;
          break;
        }
        if (anyLeft || !s.comma()) {
          break; // written order
        }
      }
      if (next == null) {
        Step s = pending.get(0);
        throw src.error(s.table().at(), "table '" + s.table().alias() + "' is not joined to the"
            + " tables before it: give a join condition (column = column)");
      }
      pending.remove(next);
      unused.removeAll(keys);
      rel = join(rel, joined, next, keys);
      joined.add(next.table());
    }
    if (!unused.isEmpty()) {
      // a WHERE equality between two tables already joined: an extra key, as a filter it cannot be
      // expressed; refuse rather than drop it
      Edge e = unused.get(0);
      throw src.error(e.at(), "this condition compares two tables joined elsewhere; put it in the"
          + " join's ON");
    }
    return rel;
  }

  private Relation join(Relation rel, List<TableRef> joined, Step step, List<Edge> edges) {
    TableRef n = step.table();
    List<Relation.Join.Key> keys = new ArrayList<>();
    for (Edge e : edges) {
      TableRef other = e.other(n);
      if (!joined.contains(other)) {
        throw src.error(e.at(), "this condition names '" + other.alias() + "', which is joined later;"
            + " a join's ON may name only tables before it");
      }
      TableSchema.Column nc = e.a() == n ? e.ac() : e.bc();
      TableSchema.Column oc = e.a() == n ? e.bc() : e.ac();
      keys.add(new Relation.Join.Key(other.logical(oc.name()), n.logical(nc.name())));
    }
    boolean privateBefore = joined.stream().anyMatch(t -> !t.isPublic());
    Relation.JoinRole role = Relation.JoinRole.PUBLIC;
    if (!n.isPublic() && privateBefore) {
      boolean along = false;
      for (Edge e : edges) {
        TableRef other = e.other(n);
        TableSchema.Column nc = e.a() == n ? e.ac() : e.bc();
        TableSchema.Column oc = e.a() == n ? e.bc() : e.ac();
        if (!other.isPublic() && (isParentReference(n, nc, other, oc) || isParentReference(other, oc, n, nc))) {
          along = true;
        }
      }
      if (!along) {
        throw src.error(n.at(), "private table '" + n.alias() + "' can be joined to the private"
            + " tables before it only along a registered reference" + suggestion(n, joined)
            + ": any other join could give a row two privacy units");
      }
      role = Relation.JoinRole.ALONG_REFERENCE;
    }
    return new Relation.Join(step.kind(), rel, n.node(), keys, role);
  }

  /** Whether {@code child.cc} is child's reference toward the unit, to {@code parent.pc}. */
  private boolean isParentReference(TableRef child, TableSchema.Column cc, TableRef parent,
      TableSchema.Column pc) {
    Optional<Reference> r = child.table().parentIn(dataset);
    String childColumn = child.sourceOf(cc.name());
    String parentColumn = parent.sourceOf(pc.name());
    return r.isPresent() && childColumn != null && parentColumn != null
        && r.get().table().equalsIgnoreCase(parent.table().name())
        && r.get().column().equalsIgnoreCase(childColumn)
        && r.get().targetColumn().equalsIgnoreCase(parentColumn);
  }

  private String suggestion(TableRef n, List<TableRef> joined) {
    for (TableRef o : joined) {
      Optional<Reference> r = n.table().parentIn(dataset);
      if (r.isPresent() && r.get().table().equalsIgnoreCase(o.table().name())) {
        return " (" + n.alias() + "." + r.get().column() + " = " + o.alias() + "." + r.get().targetColumn() + ")";
      }
      Optional<Reference> back = o.table().parentIn(dataset);
      if (back.isPresent() && back.get().table().equalsIgnoreCase(n.table().name())) {
        return " (" + o.alias() + "." + back.get().column() + " = " + n.alias() + "." + back.get().targetColumn() + ")";
      }
    }
    return "";
  }

  /**
   * Attaches to private table {@code t} the unit of each of its rows: the unit table's unit
   * column; for a child of the unit table, its reference column (which names the unit column);
   * deeper, the unit of its reference's key ({@link #keyUnit}), joined INNER so that only the rows
   * whose key's parent rows (in the whole parent table) all have one and the same unit are kept.
   * So a row meeting parents of two units, or a parent without a unit, is dropped even when a
   * reference's target is not a key, and the joins along references then join rows of one unit
   * only ({@code docs/proofs/engine-joins.md}, "Keys").
   */
  private void attachUnit(TableRef t) {
    TableDescriptor unitTable = dataset.tables().get(0);
    Relation node = t.node();
    String unit;
    if (t.table() == unitTable) {
      unit = t.hidden(unitTable.column(unitName).orElseThrow().name());
    } else {
      Reference r = t.table().parentIn(dataset).orElseThrow();
      String column = t.hidden(t.table().column(r.column()).orElseThrow().name());
      if (dataset.table(r.table()).orElseThrow() == unitTable) {
        unit = column;
      } else {
        org.privet.engine.spi.ColumnType type = unitTable.column(unitName).orElseThrow().type();
        if (type == org.privet.engine.spi.ColumnType.BOOLEAN || type == org.privet.engine.spi.ColumnType.OTHER) {
          // the unit of a key is MIN(unit) = MAX(unit) over its rows: an ordered type on every backend
          throw src.error(t.at(), "table '" + t.alias() + "' reaches the privacy unit through '"
              + r.table() + "', which needs a unit column of an ordered type (integer, decimal,"
              + " string, date or time); '" + unitName + "' is " + type.name().toLowerCase(Locale.ROOT));
        }
        Relation.KeyUnit m = keyUnit(r);
        t.keyUnitJoined(node, column, m);
        node = new Relation.Join(Relation.JoinKind.INNER, node, m,
            List.of(new Relation.Join.Key(column, m.keyName())), Relation.JoinRole.ALONG_REFERENCE);
        unit = m.unitName();
      }
    }
    t.withUnit(node, unit);
  }

  /**
   * The keys of reference {@code r}'s target (a private table other than the unit table) whose
   * rows all have one unit, with it: from all that table's rows and their own units (recursively,
   * LEFT-joined, so a row without a unit has NULL and its key is left out).
   */
  private Relation.KeyUnit keyUnit(Reference r) {
    TableDescriptor unitTable = dataset.tables().get(0);
    TableDescriptor p = dataset.table(r.table()).orElseThrow();
    String alias = "__unit" + ++unitScans;
    Relation.Scan scan = new Relation.Scan(alias, p.source(), p.schema(), false);
    Reference up = p.parentIn(dataset).orElseThrow();
    String upColumn = scan.name(p.column(up.column()).orElseThrow().name());
    Relation rows = scan;
    String unit = upColumn;
    if (dataset.table(up.table()).orElseThrow() != unitTable) {
      Relation.KeyUnit m = keyUnit(up);
      rows = new Relation.Join(Relation.JoinKind.LEFT, scan, m,
          List.of(new Relation.Join.Key(upColumn, m.keyName())), Relation.JoinRole.ALONG_REFERENCE);
      unit = m.unitName();
    }
    return new Relation.KeyUnit(rows, scan.name(p.column(r.targetColumn()).orElseThrow().name()), unit,
        alias + ".#key", alias + ".#unit");
  }

  /**
   * The unit: carried by {@code top} ({@link #unitCarrier}: the query's private table nearest the
   * unit table unless that one may be padded), read from the unit attached to its rows ({@link
   * #attachUnit}); {@code note} is appended to the derivation EXPLAIN shows.
   */
  private void deriveUnit(Relation rel, TableRef top, String note) {
    TableDescriptor unitTable = dataset.tables().get(0);
    String unitColumn = top.unit();
    List<String> path = new ArrayList<>();
    if (top.table() == unitTable) {
      path.add(top.alias() + "." + unitName);
    } else {
      List<Reference> refs = dataset.unitPath(top.table().name()).orElseThrow();
      TableDescriptor atTable = top.table();
      path.add(top.alias());
      for (int i = 0; i < refs.size() - 1; i++) {
        Reference r = refs.get(i);
        TableDescriptor target = dataset.table(r.table()).orElseThrow();
        path.add(atTable.name() + "." + r.column() + " -> " + target.name() + "." + r.targetColumn()
            + " (join added)");
        atTable = target;
      }
      Reference last = refs.get(refs.size() - 1);
      path.add(atTable.name() + "." + last.column() + " = " + unitTable.name() + "." + last.targetColumn() + " (the unit)");
    }
    this.unitDerivation = String.join(", ", path) + note;
    // Output names: a column keeps its name when no other table of the query has it; the registered
    // unit name is reserved for the unit.
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (TableRef t : tables) {
      for (TableSchema.Column c : t.columns()) {
        counts.merge(c.name().toLowerCase(Locale.ROOT), 1, Integer::sum);
      }
    }
    List<Relation.Project.Output> outputs = new ArrayList<>();
    java.util.Set<String> used = new java.util.HashSet<>();
    used.add(unitName.toLowerCase(Locale.ROOT));
    outputs.add(new Relation.Project.Output(unitName, unitColumn));
    for (TableRef t : tables) {
      for (TableSchema.Column c : t.columns()) {
        String logical = t.logical(c.name());
        if (logical.equals(unitColumn)) {
          outputNames.put(key(t, c), unitName);
          continue;
        }
        String name = counts.get(c.name().toLowerCase(Locale.ROOT)) == 1 ? c.name()
            : t.alias() + "_" + c.name();
        while (used.contains(name.toLowerCase(Locale.ROOT))) {
          name = t.alias() + "_" + name;
        }
        used.add(name.toLowerCase(Locale.ROOT));
        outputNames.put(key(t, c), name);
        outputs.add(new Relation.Project.Output(name, logical));
      }
    }
    this.plan = new Relation.Project(rel, outputs);
    DatasetDescriptor.Builder b = DatasetDescriptor.builder(dataset.name(),
        new Source.Relational(plan, unitDerivation), plan.schema()).privacyUnit(unitName);
    for (TableRef t : tables) {
      if (t.table() != unitTable) {
        continue;
      }
      for (TableSchema.Column c : t.columns()) {
        String col = t.sourceOf(c.name());
        String out = outputNames.get(key(t, c));
        if (col != null && dataset.publicBounds().containsKey(col) && c.type().isNumeric()) {
          DatasetDescriptor.ColumnBounds bounds = dataset.publicBounds().get(col);
          b.publicBounds(out, bounds.lower(), bounds.upper());
        }
        if (col != null && dataset.publicKeys().containsKey(col)) {
          b.publicKeys(out, dataset.publicKeys().get(col));
        }
      }
    }
    this.view = b.build();
  }

  private static String key(TableRef t, TableSchema.Column c) {
    return t.alias().toLowerCase(Locale.ROOT) + "\0" + c.name().toLowerCase(Locale.ROOT);
  }

  private String outputName(TableRef t, TableSchema.Column c) {
    return outputNames.get(key(t, c));
  }

  /** A written column (qualified or not) as a column of the plan's output. */
  FilterParser.ResolvedColumn resolve(String qualifier, String name, int at) {
    ColumnRef r = lookUp(qualifier, name, at, tables.size());
    String out = outputName(r.table(), r.column());
    TableSchema.Column c = view.schema().column(out).orElseThrow();
    return new FilterParser.ResolvedColumn(c.name(), c.type(), c);
  }
}
