package org.privet.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * A small SQL tokenizer that respects string literals, quoted identifiers and comments. It is used
 * to find and parse the {@code WITH DIFFERENTIAL_PRIVACY OPTIONS (...)} clause and the
 * {@code name => (lo, hi)} named arguments, which JSqlParser does not understand, and to give exact
 * positions for a few refusals. It never interprets anything inside a string literal or comment.
 */
final class SqlTokenizer {
  private static final String[] TWO_CHAR_SYMBOLS = {"=>", "<=", ">=", "<>", "!=", "||", "::", "->"};

  private SqlTokenizer() {}

  static List<SqlToken> tokenize(SourceText source) {
    String s = source.text();
    List<SqlToken> out = new ArrayList<>();
    int i = 0;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-') {
        while (i < n && s.charAt(i) != '\n' && s.charAt(i) != '\r') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
        int close = s.indexOf("*/", i + 2);
        if (close < 0) {
          throw source.error(i, "unterminated comment");
        }
        i = close + 2;
      } else if (c == '\'') {
        int end = closeQuote(s, i, '\'');
        if (end < 0) {
          throw source.error(i, "unterminated string literal");
        }
        out.add(new SqlToken(SqlToken.Kind.STRING, s.substring(i, end), i, end));
        i = end;
      } else if (c == '"' || c == '`') {
        int end = closeQuote(s, i, c);
        if (end < 0) {
          throw source.error(i, "unterminated quoted identifier");
        }
        if (end - i <= 2) {
          throw source.error(i, "empty quoted identifier");
        }
        out.add(new SqlToken(SqlToken.Kind.QUOTED_ID, s.substring(i, end), i, end));
        i = end;
      } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(s.charAt(i + 1)))) {
        int end = numberEnd(s, i);
        out.add(new SqlToken(SqlToken.Kind.NUMBER, s.substring(i, end), i, end));
        i = end;
      } else if (Character.isLetter(c) || c == '_') {
        int end = i + 1;
        while (end < n && (Character.isLetterOrDigit(s.charAt(end)) || s.charAt(end) == '_' || s.charAt(end) == '$')) {
          end++;
        }
        out.add(new SqlToken(SqlToken.Kind.WORD, s.substring(i, end), i, end));
        i = end;
      } else {
        int len = 1;
        for (String sym : TWO_CHAR_SYMBOLS) {
          if (s.startsWith(sym, i)) {
            len = 2;
            break;
          }
        }
        out.add(new SqlToken(SqlToken.Kind.SYMBOL, s.substring(i, i + len), i, i + len));
        i += len;
      }
    }
    return out;
  }

  /** The offset just past the closing quote (doubled quotes are escapes), or -1. */
  private static int closeQuote(String s, int open, char q) {
    int i = open + 1;
    while (i < s.length()) {
      if (s.charAt(i) == q) {
        if (i + 1 < s.length() && s.charAt(i + 1) == q) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return -1;
  }

  private static int numberEnd(String s, int start) {
    int i = start;
    int n = s.length();
    while (i < n && Character.isDigit(s.charAt(i))) {
      i++;
    }
    if (i < n && s.charAt(i) == '.') {
      i++;
      while (i < n && Character.isDigit(s.charAt(i))) {
        i++;
      }
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      int j = i + 1;
      if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-')) {
        j++;
      }
      if (j < n && Character.isDigit(s.charAt(j))) {
        i = j;
        while (i < n && Character.isDigit(s.charAt(i))) {
          i++;
        }
      }
    }
    return i;
  }
}
