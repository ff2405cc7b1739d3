package org.privet.anonymity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A table of person records held in memory for anonymization and the attacks: named columns,
 * each numeric (ordered, compared by value) or categorical (compared by label).
 *
 * <p>This is raw microdata: it never leaves the curator's machine except as a generalized table
 * ({@link GeneralizedTable}), which carries <b>no</b> formal privacy guarantee. Immutable as long as
 * callers treat the column arrays they read as read-only (they are not copied on access).
 */
public final class Microdata {

  /**
   * One column: {@code numbers} for a numeric column (no NaN), {@code labels} for a categorical one
   * (a missing value is the label {@link #MISSING}).
   */
  public record Column(String name, double[] numbers, String[] labels) {
    public Column {
      Objects.requireNonNull(name, "name");
      if ((numbers == null) == (labels == null)) {
        throw new IllegalArgumentException("column '" + name + "' must be numeric or categorical");
      }
    }

    public boolean numeric() {
      return numbers != null;
    }

    public int size() {
      return numeric() ? numbers.length : labels.length;
    }

    /** The cell as text (numbers without a trailing ".0" when integral). */
    public String text(int row) {
      return numeric() ? Generalization.number(numbers[row]) : labels[row];
    }

    /** A numeric column. */
    public static Column numeric(String name, double[] values) {
      for (double v : values) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
          throw new IllegalArgumentException("column '" + name + "': numeric values must be finite");
        }
      }
      return new Column(name, values.clone(), null);
    }

    /** A categorical column; null labels become {@link #MISSING}. */
    public static Column categorical(String name, String[] values) {
      String[] copy = values.clone();
      for (int i = 0; i < copy.length; i++) {
        if (copy[i] == null) {
          copy[i] = MISSING;
        }
      }
      return new Column(name, null, copy);
    }

    /** This column read as categorical (numbers become their text). */
    public Column asCategorical() {
      if (!numeric()) {
        return this;
      }
      String[] l = new String[numbers.length];
      for (int i = 0; i < l.length; i++) {
        l[i] = Generalization.number(numbers[i]);
      }
      return new Column(name, null, l);
    }
  }

  /** The label of a missing categorical value. */
  public static final String MISSING = "NULL";

  private final Map<String, Column> columns;
  private final int rows;

  private Microdata(Map<String, Column> columns, int rows) {
    this.columns = columns;
    this.rows = rows;
  }

  /** A table of the given columns (all of one length, distinct names). */
  public static Microdata of(List<Column> columns) {
    Map<String, Column> map = new LinkedHashMap<>();
    int rows = columns.isEmpty() ? 0 : columns.get(0).size();
    for (Column c : columns) {
      if (c.size() != rows) {
        throw new IllegalArgumentException("column '" + c.name() + "' has another length than the others");
      }
      if (map.put(c.name(), c) != null) {
        throw new IllegalArgumentException("column '" + c.name() + "' appears twice");
      }
    }
    return new Microdata(map, rows);
  }

  public int rows() {
    return rows;
  }

  public List<String> names() {
    return List.copyOf(columns.keySet());
  }

  /** The named column, or empty. */
  public Optional<Column> find(String name) {
    return Optional.ofNullable(columns.get(name));
  }

  /** The named column. @throws IllegalArgumentException naming {@code parameter} if absent */
  public Column column(String parameter, String name) {
    Column c = columns.get(name);
    if (c == null) {
      throw new IllegalArgumentException(parameter + ": no column named '" + name + "' (columns: "
          + String.join(", ", columns.keySet()) + ")");
    }
    return c;
  }

  /** A copy where the named columns are categorical. */
  public Microdata withCategorical(List<String> names) {
    List<Column> out = new ArrayList<>();
    for (Column c : columns.values()) {
      out.add(names.contains(c.name()) ? c.asCategorical() : c);
    }
    return of(out);
  }

  /** The rows at the given indices, in that order. */
  public Microdata select(int[] rowIndices) {
    List<Column> out = new ArrayList<>();
    for (Column c : columns.values()) {
      if (c.numeric()) {
        double[] v = new double[rowIndices.length];
        for (int i = 0; i < v.length; i++) {
          v[i] = c.numbers()[rowIndices[i]];
        }
        out.add(new Column(c.name(), v, null));
      } else {
        String[] v = new String[rowIndices.length];
        for (int i = 0; i < v.length; i++) {
          v[i] = c.labels()[rowIndices[i]];
        }
        out.add(new Column(c.name(), null, v));
      }
    }
    return of(out);
  }

  /** The first {@code n} rows (all if fewer). */
  public Microdata head(int n) {
    int[] idx = new int[Math.min(n, rows)];
    Arrays.setAll(idx, i -> i);
    return select(idx);
  }
}
