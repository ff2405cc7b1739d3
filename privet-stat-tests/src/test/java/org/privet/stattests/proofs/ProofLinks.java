package org.privet.stattests.proofs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks the links between the written privacy arguments ({@code docs/proofs/*.md}) and the code,
 * in both directions, by reading the source tree as text:
 *
 * <ul>
 *   <li>every {@code .md} file that a Java source cites (a path under {@code docs/}, or a bare
 *       file name, which must be a proof or a top-level file) exists;
 *   <li>every {@code .md} file that a proof cites exists;
 *   <li>every name in a proof's link paragraph (the paragraph that starts with {@code Code:},
 *       {@code Tests:}, {@code Contract:}, {@code Scope:} or {@code Covers}, up to its
 *       {@code Reference(s):} or {@code Claim:} part) resolves: {@code org.privet.x} to a package,
 *       {@code org.privet.x.Type} and {@code Type} to a type declared in some module's
 *       {@code src/main/java} or {@code src/test/java} (or a {@code java.*} type),
 *       {@code Type.member} / {@code Type#member} to a word of a file that declares {@code Type},
 *       and an upper-case constant to a word of some source file.
 * </ul>
 *
 * <p>Single letters and single lower-case words in backticks are mathematics or prose, not links,
 * and are skipped, and so are this checker's own sources (its test cites broken links on purpose). The checker is a plain function of a directory so that its own test can run it
 * on a small tree with known breakage.
 */
final class ProofLinks {
  private static final Pattern TYPE_DECLARATION =
      Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z]\\w*)");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
  private static final Pattern MD_REFERENCE = Pattern.compile("([\\w./-]*?)([\\w][\\w-]*\\.md)\\b");
  private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");
  private static final Pattern LINK_PARAGRAPH_START =
      Pattern.compile("^\\s*(?:[-*]\\s+|\\d+\\.\\s+)?(?:Code:|Tests?:|Contract:|Scope:|Covers\\b)");
  private static final Pattern LINK_INSIDE = Pattern.compile("\\b(?:Code:|Tests?:|Contract:)");
  private static final Pattern LINK_PARAGRAPH_END = Pattern.compile("\\b(?:References?:|Claim:)");
  private static final Pattern JAVA_NAME = Pattern.compile("[A-Za-z_]\\w*(?:[.#][A-Za-z_]\\w*)*");
  private static final Pattern CONSTANT = Pattern.compile("[A-Z][A-Z0-9_]+");
  private static final Pattern WORD = Pattern.compile("\\w+");
  private static final Set<String> SELF = Set.of("ProofLinks.java", "ProofLinksTest.java");

  /**
   * Proofs that code already cites while they are being written on another branch: a citation of
   * one of these is not reported while the file is missing (once it exists nothing is special about
   * it). Keep this list empty except for that window. threat-model.md: issue 10, branch
   * hostile-engine.
   */
  static final Set<String> PENDING = Set.of();

  private final Path root;
  private final Path proofs;
  /** Declared type name (top-level or nested) → the source files that declare it. */
  private final Map<String, List<Path>> typeFiles = new HashMap<>();
  private final Set<String> packages = new HashSet<>();
  private final Map<Path, Set<String>> words = new HashMap<>();
  private final Set<String> allWords = new HashSet<>();
  private final List<Path> javaFiles = new ArrayList<>();

  private ProofLinks(Path root) {
    this.root = root;
    this.proofs = root.resolve("docs/proofs");
    index();
  }

  /** All broken links under the repository {@code root}, one readable line each (empty if none). */
  static List<String> problems(Path root) {
    return new ProofLinks(root).check();
  }

  /** The repository root: the nearest ancestor of the working directory with docs/proofs. */
  static Path repositoryRoot() {
    return org.privet.testing.Repository.root();
  }

  private void index() {
    try (Stream<Path> all = Files.walk(root)) {
      all.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> isSource(root.relativize(p)))
          .forEach(javaFiles::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (Path file : javaFiles) {
      String text = read(file);
      Matcher pkg = PACKAGE.matcher(text);
      if (pkg.find()) {
        packages.add(pkg.group(1));
      }
      Matcher m = TYPE_DECLARATION.matcher(text);
      while (m.find()) {
        typeFiles.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(file);
      }
      String name = file.getFileName().toString();
      typeFiles.computeIfAbsent(name.substring(0, name.length() - 5), k -> new ArrayList<>()).add(file);
      Set<String> w = new HashSet<>();
      Matcher wm = WORD.matcher(text);
      while (wm.find()) {
        w.add(wm.group());
      }
      words.put(file, w);
      allWords.addAll(w);
    }
  }

  /** A module's own source: MODULE/src/main|test/java/..., not build output or other trees. */
  private static boolean isSource(Path relative) {
    for (Path part : relative) {
      String s = part.toString();
      if (s.equals("target") || s.startsWith(".")) {
        return false;
      }
    }
    String unix = relative.toString().replace('\\', '/');
    return unix.contains("/src/main/java/") || unix.contains("/src/test/java/");
  }

  private List<String> check() {
    List<String> out = new ArrayList<>();
    for (Path file : javaFiles) {
      if (!SELF.contains(file.getFileName().toString())) {
        checkMarkdownReferences(file, read(file), out);
      }
    }
    List<Path> proofFiles;
    try (Stream<Path> s = Files.list(proofs)) {
      proofFiles = s.filter(p -> p.toString().endsWith(".md")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (Path proof : proofFiles) {
      String text = read(proof);
      checkMarkdownReferences(proof, text, out);
      checkLinkParagraphs(proof, text, out);
    }
    return out;
  }

  private void checkMarkdownReferences(Path file, String text, List<String> out) {
    Matcher m = MD_REFERENCE.matcher(text);
    while (m.find()) {
      String dir = m.group(1);
      String name = m.group(2);
      String where = root.relativize(file) + ": ";
      int docs = dir.lastIndexOf("docs/");
      if (docs >= 0) {
        boolean pending = dir.endsWith("docs/proofs/") && PENDING.contains(name);
        if (!pending && !Files.isRegularFile(root.resolve(dir.substring(docs)).resolve(name))) {
          out.add(where + "cites missing " + dir.substring(docs) + name);
        }
      } else if (dir.isEmpty() || dir.startsWith("./")) {
        // A bare name: a proof beside a proof; from code, a proof unless it is a top-level file.
        boolean exists =
            Files.isRegularFile(proofs.resolve(name))
                || (!file.startsWith(proofs) && Files.isRegularFile(root.resolve(name)))
                || PENDING.contains(name);
        if (!exists) {
          out.add(where + "cites missing docs/proofs/" + name);
        }
      }
    }
  }

  private void checkLinkParagraphs(Path proof, String text, List<String> out) {
    String[] lines = text.split("\n", -1);
    StringBuilder paragraph = null;
    for (String line : lines) {
      if (line.isBlank() || line.startsWith("#")) {
        if (paragraph != null) {
          checkNames(proof, paragraph.toString(), out);
          paragraph = null;
        }
        continue;
      }
      if (paragraph == null && LINK_PARAGRAPH_START.matcher(line).find()) {
        paragraph = new StringBuilder(line);
      } else if (paragraph == null && LINK_INSIDE.matcher(line).find()) {
        Matcher inside = LINK_INSIDE.matcher(line);
        inside.find();
        paragraph = new StringBuilder(line.substring(inside.start()));
      } else if (paragraph != null) {
        paragraph.append(' ').append(line);
      }
    }
    if (paragraph != null) {
      checkNames(proof, paragraph.toString(), out);
    }
  }

  private void checkNames(Path proof, String paragraph, List<String> out) {
    Matcher end = LINK_PARAGRAPH_END.matcher(paragraph);
    String links = end.find() ? paragraph.substring(0, end.start()) : paragraph;
    Matcher m = BACKTICKED.matcher(links);
    while (m.find()) {
      String name = m.group(1).trim();
      if (name.endsWith(".md") || !JAVA_NAME.matcher(name).matches()) {
        continue;
      }
      String problem = resolve(name);
      if (problem != null) {
        out.add(root.relativize(proof) + ": `" + name + "` " + problem);
      }
    }
  }

  /** Null if {@code name} resolves, else why not. */
  private String resolve(String name) {
    String[] parts = name.split("[.#]");
    int i = 0;
    StringBuilder pkg = new StringBuilder();
    while (i < parts.length && Character.isLowerCase(parts[i].charAt(0))) {
      pkg.append(pkg.length() == 0 ? "" : ".").append(parts[i]);
      i++;
    }
    if (i == parts.length) {
      if (parts.length == 1) {
        return null; // a lower-case word: prose or mathematics, not a link
      }
      return packages.contains(pkg.toString()) || hasSubpackage(pkg.toString()) ? null : "names no package";
    }
    if (pkg.length() > 0 && !packages.contains(pkg.toString())) {
      return "is in no package " + pkg;
    }
    String type = parts[i];
    if (parts.length == 1 && type.length() == 1) {
      return null; // a single letter: mathematics
    }
    if (parts.length == 1 && CONSTANT.matcher(type).matches()) {
      return allWords.contains(type) ? null : "names no constant in the sources";
    }
    List<Path> declaring = typeFiles.getOrDefault(type, List.of());
    if (pkg.length() > 0) {
      String dir = pkg.toString().replace('.', '/');
      declaring = declaring.stream().filter(p -> p.getParent().toString().replace('\\', '/').endsWith(dir)).toList();
    }
    if (declaring.isEmpty()) {
      if (pkg.length() == 0 && parts.length == 1 && isJdkType(type)) {
        return null;
      }
      return "names no declared type";
    }
    for (int j = i + 1; j < parts.length; j++) {
      String member = parts[j];
      if (declaring.stream().noneMatch(f -> words.get(f).contains(member))) {
        return "names no member " + member + " of " + type;
      }
    }
    return null;
  }

  private boolean hasSubpackage(String pkg) {
    return packages.stream().anyMatch(p -> p.startsWith(pkg + "."));
  }

  private static boolean isJdkType(String simpleName) {
    for (String pkg : new String[] {"java.lang.", "java.math.", "java.util.", "java.security."}) {
      try {
        Class.forName(pkg + simpleName, false, ProofLinks.class.getClassLoader());
        return true;
      } catch (ClassNotFoundException e) {
        // try the next package
      }
    }
    return false;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
