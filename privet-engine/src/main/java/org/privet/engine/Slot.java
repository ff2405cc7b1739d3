package org.privet.engine;

/**
 * Number formatting kept under its old name for {@link PartitionSelection} (owned elsewhere);
 * planned releases are {@link Release}s. Merge note: replace {@code Slot.fmt} by
 * {@link MechanismSpec#fmt} there and delete this class.
 */
final class Slot {
  private Slot() {}

  static String fmt(double v) {
    return MechanismSpec.fmt(v);
  }
}
