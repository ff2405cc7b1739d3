package org.privet.engine.spi;

import java.util.List;

/**
 * Receives the kept groups of one privacy unit at a time, after L0 bounding ({@link
 * Backend#keptGroups}): at most L0 distinct group keys, each a list of the group columns' values.
 * No unit identity is handed over; the engine only needs which groups each unit kept.
 */
@FunctionalInterface
public interface UnitGroupsSink {
  void accept(List<List<Object>> groups);
}
