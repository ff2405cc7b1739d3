/**
 * The privacy loss distribution (PLD) accountant. Public face: {@link
 * org.privet.accounting.pld.PldAccountant} (an {@link org.privet.accounting.Accountant}), the
 * composed {@link org.privet.accounting.pld.PrivacyLossDistribution}, and the {@link
 * org.privet.accounting.pld.DominatingPair} through which each {@link
 * org.privet.accounting.MechanismLoss} states its own privacy loss ({@link
 * org.privet.accounting.pld.LossTails} or {@link org.privet.accounting.pld.LossAtoms}).
 * Discretisation, composition by FFT and the δ/ε read-out are package-private.
 *
 * <p>References: Meiser &amp; Mohammadi 2018; Koskela, Jälkö, Honkela 2020; Doroshenko, Ghazi,
 * Kamath, Kumar, Manurangsi 2022 ("Connect the dots"); Zhu, Dong, Wang 2022 (dominating pairs,
 * subsampling). Argument: docs/proofs/pld-accountant.md.
 */
package org.privet.accounting.pld;
