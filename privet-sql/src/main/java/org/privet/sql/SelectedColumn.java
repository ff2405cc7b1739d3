package org.privet.sql;

/**
 * One item of the SELECT list: a GROUP BY column or a DP aggregate call.
 *
 * @param name the output column name (alias, column name or call text)
 * @param groupKeyIndex index of the GROUP BY column it shows, or −1 for a call
 * @param call the aggregate call, or null for a group key
 * @param callText the call as written (for ORDER BY on a call), or null
 */
record SelectedColumn(String name, int groupKeyIndex, AggregateCall call, String callText) {}
