package org.privet.engine;

import java.util.regex.Pattern;

/** Validation of identifiers (table and column names); names are metadata, never data values. */
final class Names {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_\\-.]{0,127}");

  private Names() {}

  static String requireIdentifier(String parameter, String name) {
    if (name == null || !IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException(parameter
          + " must be an identifier (letters, digits, '_', '-', '.'; starting with a letter or '_'), was "
          + (name == null ? "null" : "'" + name + "'"));
    }
    return name;
  }
}
