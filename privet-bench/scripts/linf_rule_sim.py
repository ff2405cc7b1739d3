#!/usr/bin/env python3
"""Simulates reading rules of the engine's L-infinity estimate (ContributionBoundPass#bound) on the
exact per-customer histograms of R2T's TPC-H queries (written by TpchHistograms.java), against the
oracle's best fixed truncation, at R2T's epsilon = 0.8. Design-time only: the engine's own figures
come from TpchJoinBench and EngineTruncationBench (docs/benchmarks.md, "the L-infinity estimate's
reading rule").

Model: one tree level of C = 20 power-of-two cells (cell j holds n in (2^(j-1), 2^j]), two-sided
geometric noise of scale 1/(share*eps) per cell (L0 = 1); the suffix band of edge j and the cell
band are the one-sided 95% Cornish-Fisher statements of QuantileTree (excess kurtosis 3); the main
count gets geometric noise of scale L/((1-share)*eps) (a SUM: 50*L) and the truncation bias
sum max(n_u - L, 0) (a SUM: the value scaled by L/n, as BoundingPlan's pair sums). The oracle: the
best integer tau of bias + tau*ln2/eps, released with the full eps.

Usage: python3 linf_rule_sim.py DIR... (each DIR holds the .rows files and Q18.joint of one SF)
"""
import math
import sys

import numpy as np

C = 20
EPS = 0.8
Z95 = 1.6448536269514722
rng = np.random.default_rng(1)


def geo(scale, size):
    a = math.exp(-1 / scale)
    return rng.geometric(1 - a, size) - rng.geometric(1 - a, size)


def cf(sd, m, z, kappa=3.0):
    """Cornish-Fisher one-sided quantile of a sum of m unit-weight noises of s.d. sd."""
    if m == 0:
        return 0.0
    k = kappa / m
    return sd * math.sqrt(m) * (z + max(0.0, k * (z ** 3 - 3 * z) / 24))


def estimate(noisy, sd, cell_test):
    if noisy.sum() < 1:
        return 1
    suffix = np.cumsum(noisy[::-1])[::-1]
    for j in range(1, C):
        if not suffix[j] > cf(sd, C - j, Z95):
            k = j
            while cell_test and k < C and noisy[k] > cf(sd, 1, Z95):
                k += 1
            return 2 ** (k - 1)
    return 2 ** (C - 1)


def oracle(values, units):
    best = None
    for tau in range(1, int(values.max()) + 1):
        bias = float(np.sum(units * np.maximum(values - tau, 0)))
        cost = bias + tau * math.log(2) / EPS
        if best is None or cost < best[0]:
            best = (cost, tau, bias)
    noise = geo(best[1] / EPS, 20001)
    return float(np.median(np.abs(noise - best[2]))), best[1]


def ratio(counts, units, bias, per_row, share, cell_test, runs=1501):
    hist = np.zeros(C, dtype=np.int64)
    cells = np.minimum(np.ceil(np.log2(np.maximum(counts, 1))).astype(int), C - 1)
    np.add.at(hist, cells, units)
    scale = 1 / (EPS * share)
    a = math.exp(-1 / scale)
    sd = math.sqrt(2 * a / (1 - a) ** 2)
    errs, ls = [], []
    for _ in range(runs):
        L = estimate(hist + geo(scale, C), sd, cell_test)
        ls.append(L)
        errs.append(abs(geo(L * per_row / (EPS * (1 - share)), 1)[0] - bias(L)))
    return float(np.median(errs)), int(np.median(ls))


RULES = [("suffix, 10%", 0.1, False), ("suffix+cell, 10%", 0.1, True),
         ("suffix+cell, 15%", 0.15, True), ("suffix+cell, 20%", 0.2, True),
         ("suffix+cell, 25%", 0.25, True)]

if __name__ == "__main__":
    print("| data | query | max c_u | tau* | " + " | ".join(r[0] for r in RULES) + " |")
    for d in sys.argv[1:]:
        for q in ["Q3", "Q10", "Q12c", "Q5c", "Q8c", "Q18"]:
            if q == "Q18":
                j = np.loadtxt(f"{d}/Q18.joint", dtype=np.int64, ndmin=2)
                counts, units = j[:, 0], np.ones(len(j), dtype=np.int64)
                orc, tau = oracle(j[:, 1], units)
                bias = lambda L, j=j: float(np.sum(j[:, 1] * np.maximum(j[:, 0] - L, 0) / j[:, 0]))
                per_row = 50
            else:
                h = np.loadtxt(f"{d}/{q}.rows", dtype=np.int64, ndmin=2)
                counts, units = h[:, 0], h[:, 1]
                orc, tau = oracle(counts, units)
                bias = lambda L, h=h: float(np.sum(h[:, 1] * np.maximum(h[:, 0] - L, 0)))
                per_row = 1
            cells = []
            for _, share, cell_test in RULES:
                e, L = ratio(counts, units, bias, per_row, share, cell_test)
                cells.append(f"{e / orc:.2f} ({L})")
            print(f"| {d} | {q} | {counts.max()} | {tau} | " + " | ".join(cells) + " |",
                  flush=True)
