package org.privet.server;

/**
 * Points in a release between its committed charge and its response, where crash tests stop the
 * server process (they block here and the test sends SIGKILL). Production uses {@link #NONE}.
 */
interface ReleaseHooks {
  ReleaseHooks NONE = new ReleaseHooks() {};

  /** The charge is committed and the answer computed, but not stored. */
  default void computed(long chargeId) {}

  /** The answer is stored (committed), not yet sent. */
  default void stored(long chargeId) {}

  /** A synthesis job paid by this charge has computed its table, not yet stored it. */
  default void jobComputed(long chargeId) {}
}
