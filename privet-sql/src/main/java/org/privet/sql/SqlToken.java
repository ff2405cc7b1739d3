package org.privet.sql;

/**
 * One lexical token of the user's query: its kind, its exact text, and its span in the original
 * text ({@code start} inclusive, {@code end} exclusive).
 */
record SqlToken(Kind kind, String text, int start, int end) {

  enum Kind {
    /** An unquoted identifier or keyword. */
    WORD,
    /** A {@code "double-quoted"} or {@code `back-quoted`} identifier. */
    QUOTED_ID,
    /** A {@code 'single-quoted'} string literal. */
    STRING,
    /** An unsigned numeric literal. */
    NUMBER,
    /** An operator or punctuation. */
    SYMBOL
  }

  /** True for an unquoted word equal (ignoring case) to {@code keyword}. */
  boolean isWord(String keyword) {
    return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
  }

  /** True for the given symbol. */
  boolean isSymbol(String symbol) {
    return kind == Kind.SYMBOL && text.equals(symbol);
  }

  /** An identifier's name: unquoted words as written, quoted ones without quotes or escapes. */
  String identifier() {
    if (kind == Kind.QUOTED_ID) {
      char q = text.charAt(0);
      return text.substring(1, text.length() - 1).replace(String.valueOf(q) + q, String.valueOf(q));
    }
    return text;
  }

  /** A string literal's value, without quotes, with {@code ''} unescaped. */
  String stringValue() {
    return text.substring(1, text.length() - 1).replace("''", "'");
  }
}
