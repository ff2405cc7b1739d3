package org.privet.stattests.proofs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The written privacy arguments and the code point at each other, and every pointer resolves
 * (see {@link ProofLinks} for the rules). Runs over the whole repository from any module's
 * directory; the second and third tests show on a small tree that each kind of broken link is
 * reported and that good links are not.
 */
class ProofLinksTest {

  @Test
  void repository_everyProofLinkResolves() {
    Path root = ProofLinks.repositoryRoot();
    assertTrue(Files.isRegularFile(root.resolve("docs/proofs/accounting.md")), "found the repository");
    List<String> problems = ProofLinks.problems(root);
    assertEquals(List.of(), problems, "broken links between docs/proofs and the code");
  }

  @Test
  void problems_brokenLinks_areEachReported(@TempDir Path root) throws IOException {
    write(root, "m/src/main/java/org/x/Thing.java",
        "package org.x;\n/** See docs/proofs/good.md and docs/proofs/gone.md, also lost.md. */\n"
            + "public final class Thing { static final int LIMIT = 1; record Part() {} void run() {} }\n");
    write(root, "m/src/test/java/org/x/ThingTest.java",
        "package org.x;\nclass ThingTest { void run_always_works() {} }\n");
    write(root, "docs/proofs/good.md",
        "# Good\n\nCode: `org.x.Thing`, `Thing.Part`, `Thing#run`, `LIMIT`, `org.x`, `n`, `T`, `BigDecimal`,\n"
            + "see [bad](missing.md). References: `NotOurs`.\n\n"
            + "1. Step. Tests: `ThingTest#run_always_works` and `ThingTest#run_never_works`.\n\n"
            + "Code: `Nothing`, `org.y.Thing`, `Thing.walk`, `org.z`, `MAXIMUM`.\n");

    List<String> problems = ProofLinks.problems(root);

    assertEquals(
        List.of(
            "m/src/main/java/org/x/Thing.java: cites missing docs/proofs/gone.md",
            "m/src/main/java/org/x/Thing.java: cites missing docs/proofs/lost.md",
            "docs/proofs/good.md: cites missing docs/proofs/missing.md",
            "docs/proofs/good.md: `ThingTest#run_never_works` names no member run_never_works of ThingTest",
            "docs/proofs/good.md: `Nothing` names no declared type",
            "docs/proofs/good.md: `org.y.Thing` is in no package org.y",
            "docs/proofs/good.md: `Thing.walk` names no member walk of Thing",
            "docs/proofs/good.md: `org.z` names no package",
            "docs/proofs/good.md: `MAXIMUM` names no constant in the sources"),
        problems.stream().map(p -> p.replace('\\', '/')).toList());
  }

  @Test
  void problems_consistentTree_isEmpty(@TempDir Path root) throws IOException {
    write(root, "m/src/main/java/org/x/Thing.java",
        "package org.x;\n/** See docs/proofs/good.md. */\npublic final class Thing {}\n");
    write(root, "docs/proofs/good.md", "# Good\n\nCode: `org.x.Thing`.\n");

    assertEquals(List.of(), ProofLinks.problems(root));
  }

  private static void write(Path root, String relative, String text) throws IOException {
    Path p = root.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }
}
