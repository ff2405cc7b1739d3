/**
 * The attacks that break anonymization and exact answers, as reproducible experiments with a text
 * summary and a self-contained HTML report ({@link org.privet.anonymity.attacks.HtmlReport}):
 *
 * <ol>
 *   <li>{@link org.privet.anonymity.attacks.LinkageAttack}: re-identification by joining a release
 *       with a public register (Sweeney 2002), on raw, k-anonymous and DP synthetic (AIM) releases;
 *   <li>{@link org.privet.anonymity.attacks.HomogeneityAttack}: homogeneity and background knowledge
 *       against k-anonymity and ℓ-diversity (Machanavajjhala et al. 2007);
 *   <li>{@link org.privet.anonymity.attacks.DifferencingAttack}: two averages differing by one person,
 *       exact and through the DP curator (engine, budget charger, ledger);
 *   <li>{@link org.privet.anonymity.attacks.ReconstructionAttack}: Dinur–Nissim reconstruction from
 *       subset counts (PODS 2003), exact and with DP answers through the accountant;
 *   <li>{@link org.privet.anonymity.attacks.MembershipAttack}: membership inference from marginals
 *       (Homer et al. 2008), with its ROC against the DP bound TPR ≤ e^ε·FPR + δ;
 *   <li>{@link org.privet.anonymity.attacks.NetflixAttack}: re-identification of sparse records from a
 *       few approximate ratings (Narayanan &amp; Shmatikov 2008, Scoreboard-RH) on a synthetic
 *       ratings table ({@link org.privet.anonymity.attacks.SparseRatings}), against a Prize-style
 *       anonymized release and a user-level DP synthetic release.
 * </ol>
 *
 * <p>{@link org.privet.anonymity.attacks.AdultAttacks} runs them on the bundled UCI Adult data. All
 * randomness comes from the caller's {@link org.privet.random.RandomSource} (the CSPRNG in the CLI;
 * seeded sources in tests only). The DP sides use Privet's own mechanisms, accountants, engine and
 * ledger: nothing here restates a privacy claim. What those guarantees imply for each attack, and
 * what the tests assert: docs/proofs/attack-bounds.md.
 */
package org.privet.anonymity.attacks;
