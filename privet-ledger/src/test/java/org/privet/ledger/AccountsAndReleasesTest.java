package org.privet.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PureDp;

/**
 * Accounts (keys, roles, revocation) and the release records that make server releases
 * exactly-once; on each store.
 */
class AccountsAndReleasesTest extends OnEachStore {

  @Test
  void addAnalyst_freshKeys_have256SecretBitsAndAreDistinct() {
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      String key = ledger.addAnalyst("a" + i, Role.ANALYST).apiKey();
      String[] parts = key.split("\\.");
      assertEquals(3, parts.length, "pvk.<id>.<secret>");
      assertEquals(32, Base64.getUrlDecoder().decode(parts[2]).length, "256-bit secret");
      keys.add(parts[2]);
    }
    assertEquals(20, keys.size());
  }

  @Test
  void authenticate_rightWrongRevokedAndMalformedKeys() {
    String alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
    String bob = ledger.addAnalyst("bob", Role.CURATOR).apiKey();
    assertEquals("alice", ledger.authenticate(alice).orElseThrow().name());
    assertEquals(Role.CURATOR, ledger.authenticate(bob).orElseThrow().role());
    // Same id, one secret character changed.
    char last = alice.charAt(alice.length() - 2);
    String wrong = alice.substring(0, alice.length() - 2) + (last == 'A' ? 'B' : 'A') + alice.charAt(alice.length() - 1);
    assertTrue(ledger.authenticate(wrong).isEmpty());
    for (String bad : new String[] {null, "", "pvk", "pvk..", "Bearer x", alice + "x", "pvk.zzzzzzzzzzzzzzzz.abc"}) {
      assertTrue(ledger.authenticate(bad).isEmpty(), String.valueOf(bad));
    }
    ledger.revokeAnalyst("alice");
    assertTrue(ledger.authenticate(alice).isEmpty(), "revoked");
    assertTrue(ledger.authenticate(bob).isPresent());
    assertThrows(IllegalArgumentException.class, () -> ledger.revokeAnalyst("alice"));
    assertThrows(IllegalArgumentException.class, () -> ledger.addAnalyst("bob", Role.ANALYST));
    // A revoked name is never added again (issue 23: records are kept under names, so a new
    // account would inherit the old one's answers, jobs and history); the old key stays dead.
    assertThrows(IllegalArgumentException.class, () -> ledger.addAnalyst("alice", Role.ANALYST));
    assertThrows(IllegalArgumentException.class, () -> ledger.addAnalyst("ALICE", Role.ANALYST));
    String alice2 = ledger.addAnalyst("alice2", Role.ANALYST).apiKey();
    assertTrue(ledger.authenticate(alice2).isPresent());
    assertTrue(ledger.authenticate(alice).isEmpty());
    List<Analyst> all = ledger.analysts();
    assertEquals(List.of("alice", "bob", "alice2"), all.stream().map(Analyst::name).toList());
    assertFalse(all.get(0).active());
  }

  @Test
  void addAnalyst_keyNeverStoredInClear() throws Exception {
    String key = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
    String secret = key.substring(key.lastIndexOf('.') + 1);
    byte[] raw = Base64.getUrlDecoder().decode(secret);
    ledger.close();
    ledger = where.open();
    String text = where.storedText();
    assertTrue(text.contains("alice"), "the stored text is what the store holds");
    assertFalse(text.contains(secret), "the store holds the key");
    assertFalse(text.contains(new String(raw, StandardCharsets.ISO_8859_1)), "the store holds the raw secret");
    assertFalse(text.contains(java.util.HexFormat.of().formatHex(raw)), "the store holds the hex secret");
    assertTrue(ledger.authenticate(key).isPresent(), "still verifiable from the stored hash");
  }

  private void register() {
    ledger.register(DatasetSpec.builder().name("t").source("/t.csv").privacyUnit(PrivacyUnit.row())
        .budget(new ApproxDp(1.0, 0)).build());
  }

  @Test
  void chargeRelease_duplicateKeyChargesNothing_answerStoredOnce() {
    register();
    Release.Claim claim = new Release.Claim(Optional.of("k1"), "digest-1");
    Charge c = ledger.chargeRelease("t", "alice", "q", List.of(new PureDp(0.25)), claim);
    Release r = ledger.release("alice", "k1").orElseThrow();
    assertEquals(c.id(), r.chargeId());
    assertTrue(r.answer().isEmpty());
    assertThrows(Release.DuplicateKeyException.class,
        () -> ledger.chargeRelease("t", "alice", "q", List.of(new PureDp(0.25)), claim));
    assertEquals(1, ledger.history("t").size(), "the duplicate charged nothing");
    // Another analyst may use the same key; releases without a key never collide.
    ledger.chargeRelease("t", "bob", "q", List.of(new PureDp(0.25)), claim);
    ledger.chargeRelease("t", "bob", "q", List.of(new PureDp(0.25)), new Release.Claim(Optional.empty(), "d"));
    ledger.chargeRelease("t", "bob", "q", List.of(new PureDp(0.125)), new Release.Claim(Optional.empty(), "d"));
    assertThrows(BudgetExceededException.class,
        () -> ledger.chargeRelease("t", "bob", "q", List.of(new PureDp(0.25)), new Release.Claim(Optional.of("k9"), "d")));
    assertTrue(ledger.release("bob", "k9").isEmpty(), "a refused charge leaves no release");

    assertEquals("first", ledger.storeAnswer(c.id(), "first"));
    assertEquals("first", ledger.storeAnswer(c.id(), "second"), "the first stored answer wins");
    assertEquals(Optional.of("first"), ledger.releaseOfCharge(c.id()).orElseThrow().answer());
  }
}
