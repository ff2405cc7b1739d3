#!/usr/bin/env python3
"""False raises of the engine's L-infinity estimate (ContributionBoundPass#read), simulated: how
often the read lands above the data's largest power of two, with the suffix statement at 95% (the
rule before) and at 99.9% with a window of 3 cells at 99% (now; the cells' statement stays at
95%), and the median / mean error
ratio against the oracle's truncation on R2T's TPC-H histograms (written by TpchHistograms.java).
Design-time only; the engine's own figures come from ContributionBoundFalseRaiseTest and
TpchJoinBench (docs/benchmarks.md, "the L-infinity estimate's false raises").

Model as linf_rule_sim.py: one tree level of C = 20 power-of-two cells, two-sided geometric noise
of scale 1/(share*eps) per cell (L0 = 1), Cornish-Fisher one-sided bands (excess kurtosis 3).

Usage: python3 linf_false_raise_sim.py [DIR...]   (DIR: the .rows files of one scale factor)
"""
import math
import sys
from statistics import NormalDist

import numpy as np

C = 20
rng = np.random.default_rng(7)


def geo(scale, size):
    a = math.exp(-1 / scale)
    return rng.geometric(1 - a, size) - rng.geometric(1 - a, size)


def z(gamma):
    return NormalDist().inv_cdf(1 - gamma)


def cf(sd, m, zz, kappa=3.0):
    k = kappa / m
    return sd * math.sqrt(m) * (zz + max(0.0, k * (zz ** 3 - 3 * zz) / 24))


def read(noisy, sd, suffix_gamma, window_gamma=None, cell_gamma=0.05, w=3):
    """The exponent k of L = 2^k: bottom-up scan (suffix, and the window of w cells unless
    window_gamma is None), then the cells one at a time."""
    if noisy.sum() < 1:
        return 0
    s = np.cumsum(noisy[::-1])[::-1]
    for j in range(1, C):
        m = min(w, C - j)
        window = window_gamma is not None and noisy[j:j + m].sum() > cf(sd, m, z(window_gamma))
        if not s[j] > cf(sd, C - j, z(suffix_gamma)) and not window:
            k = j
            while k < C and noisy[k] > cf(sd, 1, z(cell_gamma)):
                k += 1
            return k - 1
    return C - 1


def hist_of(counts, units):
    h = np.zeros(C, dtype=np.int64)
    cells = np.minimum(np.ceil(np.log2(np.maximum(counts, 1))).astype(int), C - 1)
    np.add.at(h, cells, units)
    return h


def sd_of(scale):
    a = math.exp(-1 / scale)
    return math.sqrt(2 * a / (1 - a) ** 2)


RULES = [("suffix 95% (before)", 0.05, None), ("suffix 99.9% + window 99% (now)", 0.001, 0.01),
         ("suffix 95% + window 99% (the test's power check)", 0.05, 0.01)]

if __name__ == "__main__":
    # 300 units with 1..10 rows (30 each), eps = 1, share 0.2: K = 4 (L = 16 is right).
    scale = 1 / (1.0 * 0.2)
    counts = np.concatenate([np.full(30, n) for n in range(1, 11)])
    h = hist_of(counts, np.ones_like(counts))
    draws = [geo(scale, C) for _ in range(200000)]
    for name, g, gw in RULES:
        ks = np.array([read(h + d, sd_of(scale), g, gw) for d in draws])
        print(f"{name}: P[L>16] {np.mean(ks > 4):.4f}  P[L>32] {np.mean(ks > 5):.5f}  "
              f"P[L>=2^10] {np.mean(ks >= 10):.5f}  P[L>=2^15] {np.mean(ks >= 15):.5f}")
    eps, share = 0.8, 0.2
    scale = 1 / (eps * share)
    for d in sys.argv[1:]:
        for q in ["Q3", "Q10", "Q12c", "Q5c", "Q8c", "Q18"]:
            rows = np.loadtxt(f"{d}/{q}.rows", dtype=np.int64, ndmin=2)
            n, units = rows[:, 0], rows[:, 1]
            best = min((float(np.sum(units * np.maximum(n - t, 0))) + t * math.log(2) / eps, t)
                       for t in range(1, int(n.max()) + 1))
            tau = best[1]
            bias_t = float(np.sum(units * np.maximum(n - tau, 0)))
            oracle = float(np.median(np.abs(geo(tau / eps, 20001) - bias_t)))
            hist = hist_of(n, units)
            noise = [geo(scale, C) for _ in range(3001)]
            cells = []
            for name, g, gw in RULES[:2]:
                errs, ls = [], []
                for x in noise:
                    lim = 2 ** read(hist + x, sd_of(scale), g, gw)
                    bias = float(np.sum(units * np.maximum(n - lim, 0)))
                    errs.append(abs(geo(lim / (eps * (1 - share)), 1)[0] - bias))
                    ls.append(lim)
                cells.append(f"{np.median(errs) / oracle:.2f} / {np.mean(errs) / oracle:.1f} "
                             f"(max L {max(ls)})")
            print(f"| {d} | {q} | {n.max()} | " + " | ".join(cells) + " |", flush=True)
