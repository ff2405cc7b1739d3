package org.privet.sql;

import java.util.List;

/**
 * A literal value in the {@code OPTIONS (...)} list: a number, a string, an identifier, a boolean,
 * NULL, a parenthesised tuple of values, or (inside a tuple) a named value {@code name => value}
 * (kind NAMED: {@code text} the name, {@code items} the one value). {@code offset} is where it
 * starts in the user's text.
 */
record OptionValue(Kind kind, String text, double number, List<OptionValue> items, int offset) {

  enum Kind {
    NUMBER,
    STRING,
    IDENTIFIER,
    BOOLEAN,
    NULL,
    TUPLE,
    NAMED
  }

  OptionValue {
    items = List.copyOf(items);
  }

  /** The value as a public group key component: a Long, Double, String, Boolean or null. */
  Object asKey() {
    return switch (kind) {
      case NUMBER -> isIntegral() ? (Object) (long) number : (Object) number;
      case STRING, IDENTIFIER -> text;
      case BOOLEAN -> Boolean.parseBoolean(text);
      case NULL -> null;
      case TUPLE, NAMED -> throw new IllegalStateException(kind.name());
    };
  }

  boolean isIntegral() {
    return kind == Kind.NUMBER
        && Double.isFinite(number)
        && number == Math.rint(number)
        && Math.abs(number) < 0x1p53;
  }

  String describe() {
    return switch (kind) {
      case NUMBER -> "number";
      case STRING -> "string";
      case IDENTIFIER -> "identifier";
      case BOOLEAN -> "boolean";
      case NULL -> "NULL";
      case TUPLE -> "tuple";
      case NAMED -> "named value";
    };
  }
}
