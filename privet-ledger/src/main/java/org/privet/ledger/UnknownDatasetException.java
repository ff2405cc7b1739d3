package org.privet.ledger;

/** A dataset name that is not registered in the ledger. */
public final class UnknownDatasetException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UnknownDatasetException(String name) {
    super("no dataset named '" + name + "' is registered (see 'privet dataset list')");
  }
}
