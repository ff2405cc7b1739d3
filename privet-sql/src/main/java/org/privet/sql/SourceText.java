package org.privet.sql;

import java.util.Arrays;

/**
 * The user's query text with a line index, turning character offsets into (line, column) pairs
 * and back. Lines end at {@code \n}, {@code \r\n} or a lone {@code \r}; columns count UTF-16 chars,
 * 1-based. The rewritten text handed to JSqlParser has the same length and the same line breaks as
 * the original (rewrites only blank characters out), so one index serves both.
 */
final class SourceText {
  private final String text;
  private final int[] lineStarts;

  SourceText(String text) {
    this.text = text;
    int[] starts = new int[16];
    int n = 0;
    starts[n++] = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean lineBreak = c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'));
      if (lineBreak) {
        if (n == starts.length) {
          starts = Arrays.copyOf(starts, n * 2);
        }
        starts[n++] = i + 1;
      }
    }
    this.lineStarts = Arrays.copyOf(starts, n);
  }

  String text() {
    return text;
  }

  /** 1-based line of a 0-based offset (offsets past the end map to the end). */
  int line(int offset) {
    int idx = Arrays.binarySearch(lineStarts, Math.min(Math.max(offset, 0), text.length()));
    return idx >= 0 ? idx + 1 : -idx - 1;
  }

  /** 1-based column of a 0-based offset. */
  int column(int offset) {
    int o = Math.min(Math.max(offset, 0), text.length());
    return o - lineStarts[line(o) - 1] + 1;
  }

  /** The offset of a 1-based (line, column) pair, clamped to the text. */
  int offset(int line, int column) {
    int l = Math.min(Math.max(line, 1), lineStarts.length);
    return Math.min(text.length(), lineStarts[l - 1] + Math.max(column, 1) - 1);
  }

  /** A refusal at the given offset. */
  DpSqlException error(int offset, String reason) {
    return new DpSqlException(line(offset), column(offset), reason);
  }
}
