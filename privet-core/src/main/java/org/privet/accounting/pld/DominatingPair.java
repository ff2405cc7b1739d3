package org.privet.accounting.pld;

/**
 * A mechanism's privacy loss as a dominating pair (P, Q): for every ε, the mechanism's δ(ε) is at
 * most sup<sub>S</sub> P(S) − e<sup>ε</sup>Q(S) (Zhu, Dong, Wang 2022). Each {@link
 * org.privet.accounting.MechanismLoss} states its own pair, either by the tail functions of its
 * privacy loss ({@link LossTails}, for continuous losses) or by its finitely many loss values
 * ({@link LossAtoms}); the {@link PldAccountant} discretises and composes them. Argument:
 * docs/proofs/pld-accountant.md.
 */
public sealed interface DominatingPair permits LossTails, LossAtoms {}
