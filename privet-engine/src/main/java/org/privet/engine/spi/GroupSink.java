package org.privet.engine.spi;

/** Receives one group's exact bounded aggregates at a time (results are streamed). */
@FunctionalInterface
public interface GroupSink {
  void accept(GroupAggregate group);
}
