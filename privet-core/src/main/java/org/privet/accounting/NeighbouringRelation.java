package org.privet.accounting;

/**
 * Which pairs of datasets count as neighbours: the unit of protection is always explicit.
 *
 * <p>Sensitivities and privacy losses are stated relative to one of these. A replacement is one removal followed
 * by one addition, so an ε-DP guarantee under {@link #ADD_REMOVE_ONE} gives 2ε under
 * {@link #REPLACE_ONE} by group privacy, and sensitivities differ accordingly (e.g. a count has
 * sensitivity 1 under add/remove and 0 under replace, a sum over [L, U] has max(|L|,|U|) under
 * add/remove and U − L under replace).
 */
public enum NeighbouringRelation {
  /** Datasets differ by adding or removing all records of one privacy unit (unbounded DP). */
  ADD_REMOVE_ONE,
  /** Datasets have the same size and differ in the records of one privacy unit (bounded DP). */
  REPLACE_ONE
}
