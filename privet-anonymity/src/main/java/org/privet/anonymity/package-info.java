/**
 * k-anonymity and its relatives, as the contrast to differential privacy: releases with <b>no</b>
 * formal guarantee, charged to no budget, each output marked as such.
 *
 * <ul>
 *   <li>{@link org.privet.anonymity.Mondrian}: strict multidimensional partitioning (LeFevre, DeWitt
 *       &amp; Ramakrishnan, "Mondrian Multidimensional K-Anonymity", ICDE 2006), optionally with
 *       distinct ℓ-diversity.
 *   <li>{@link org.privet.anonymity.FullDomainGeneralization}: full-domain generalization with
 *       suppression over user hierarchies (Samarati, IEEE TKDE 2001; Sweeney, IJUFKS 2002), the
 *       exhaustive lattice optimum that Incognito (LeFevre et al., SIGMOD 2005) and Flash (Kohlmayer
 *       et al., 2012) find with pruning; numeric columns get interval hierarchies automatically.
 *   <li>{@link org.privet.anonymity.AnonymityCheck}: k and class sizes, distinct ℓ-diversity
 *       (Machanavajjhala et al., TKDD 2007), t-closeness by Earth Mover's Distance (Li, Li &amp;
 *       Venkatasubramanian, ICDE 2007), generalized information loss (Iyengar, KDD 2002),
 *       discernibility (Bayardo &amp; Agrawal, ICDE 2005) and marginal workload error.
 *   <li>{@link org.privet.anonymity.TableReader}: input through DuckDB, as every Privet source.
 * </ul>
 *
 * <p>Why none of this is privacy: k-anonymity "pretends the released table is the only dataset in
 * the world". The attacks in {@link org.privet.anonymity.attacks} show, on real data, what linkage,
 * homogeneity, background knowledge, differencing, reconstruction and membership inference do to
 * anonymized data and exact answers, and that DP bounds them.
 */
package org.privet.anonymity;
