/**
 * Offline mode: differentially private synthetic data, and its evaluation.
 *
 * <p>Public face: {@link org.privet.synth.Domain} and {@link org.privet.synth.Attribute} (public
 * metadata), {@link org.privet.synth.Table} (loading through a declared domain),
 * {@link org.privet.synth.Workload} and {@link org.privet.synth.WorkloadError} (the utility measure),
 * {@link org.privet.synth.Synthesizer} (validating builder; AIM or MWEM) and
 * {@link org.privet.synth.EvaluationReport} (HTML with inline SVG).
 *
 * <p>Generators and their sources:
 *
 * <ul>
 *   <li>AIM: R. McKenna, B. Mullins, D. Sheldon, G. Miklau, "AIM: An Adaptive and Iterative
 *       Mechanism for Differentially Private Synthetic Data", VLDB 2022 (arXiv:2201.12677);
 *   <li>estimation: R. McKenna, D. Sheldon, G. Miklau, "Graphical-model based estimation and
 *       inference for differential privacy" (Private-PGM), ICML 2019; MST: R. McKenna, G. Miklau,
 *       D. Sheldon, "Winning the NIST Contest: A scalable and general approach to differentially
 *       private synthetic data", JPC 2021;
 *   <li>MWEM: M. Hardt, K. Ligett, F. McSherry, "A Simple and Practical Algorithm for
 *       Differentially Private Data Release", NeurIPS 2012;
 *   <li>noise: C. Canonne, G. Kamath, T. Steinke, "The Discrete Gaussian for Differential Privacy",
 *       NeurIPS 2020; accounting: M. Bun, T. Steinke, "Concentrated Differential Privacy", TCC 2016;
 *       M. Cesar, R. Rogers, "Bounding, Concentrating, and Truncating: Unifying Privacy Loss
 *       Composition for Data Analytics", ALT 2021 (exponential mechanism as ε²/8-zCDP).
 * </ul>
 *
 * <p>The privacy argument for the whole pipeline is in {@code docs/proofs/synthetic-data.md}.
 */
package org.privet.synth;
