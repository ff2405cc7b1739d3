package org.privet.cli;

import picocli.CommandLine.Option;

/** Shared option: {@code --format table|json|csv}. */
final class FormatOption {
  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: table).",
      converter = FormatConverter.class,
      completionCandidates = FormatCandidates.class)
  OutputFormat format = OutputFormat.TABLE;

  static final class FormatConverter implements picocli.CommandLine.ITypeConverter<OutputFormat> {
    @Override
    public OutputFormat convert(String value) {
      for (OutputFormat f : OutputFormat.values()) {
        if (f.name().equalsIgnoreCase(value)) {
          return f;
        }
      }
      throw new picocli.CommandLine.TypeConversionException(
          "format must be table, json or csv, was '" + value + "'");
    }
  }

  static final class FormatCandidates extends java.util.ArrayList<String> {
    FormatCandidates() {
      super(java.util.List.of("table", "json", "csv"));
    }
  }
}
