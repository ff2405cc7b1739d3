#!/usr/bin/env python3
"""Held-out end-to-end accuracy check of the CLI (issue 22, "Done when").

Runs `./privet query --format json` RUNS times for each query below on UCI Adult (the README's
registration, in a temporary PRIVET_HOME), and checks every output against the textbook plan,
computed here from the raw file and independently of the engine: the total epsilon split equally
over the K outputs (K + 1 parts with private partition selection), each output an independent
Laplace measurement, a mean as a sum centred at the range's midpoint plus a count (half each).
Pass: every output's RMSE (pooled over its groups) <= 1.25 x the textbook's, and its reported 95%
intervals cover the exact value in >= 85% of draws.

Usage (from the repository root): python3 privet-bench/scripts/cli_accuracy_check.py [RUNS [QUERIES]]
(QUERIES: comma-separated indexes into QUERIES, default all).
"""
import json
import math
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "data/adult-raw/adult.data")
COLUMNS = ("age,workclass,fnlwgt,education,education_num,marital_status,occupation,relationship,"
           "race,sex,capital_gain,capital_loss,hours_per_week,native_country,income").split(",")

# (sql, epsilon, private selection, outputs: name -> (kind, column, lo, hi))
QUERIES = [
    ("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5, group_selection_strategy = "
     "PUBLIC_GROUPS) sex, AVG(hours_per_week, contribution_bounds_per_group => (0, 100)) AS "
     "mean_hours FROM adult GROUP BY sex", 0.5, False,
     {"mean_hours": ("avg", "hours_per_week", 0, 100)}),
    ("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5, group_selection_strategy = "
     "PUBLIC_GROUPS) sex, COUNT(*) AS n, SUM(hours_per_week, contribution_bounds_per_group => "
     "(0, 100)) AS total_hours, AVG(hours_per_week, contribution_bounds_per_group => (0, 100)) AS "
     "mean_hours FROM adult GROUP BY sex", 0.5, False,
     {"n": ("count", None, 0, 0), "total_hours": ("sum", "hours_per_week", 0, 100),
      "mean_hours": ("avg", "hours_per_week", 0, 100)}),
    ("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6) education, COUNT(*) AS "
     "n, AVG(age, contribution_bounds_per_group => (17, 90)) AS mean_age FROM adult GROUP BY "
     "education", 1.0, True,
     {"n": ("count", None, 0, 0), "mean_age": ("avg", "age", 17, 90)}),
]


def rows():
    with open(DATA) as f:
        for line in f:
            parts = line.rstrip("\n").split(", ")
            if len(parts) == len(COLUMNS):
                yield dict(zip(COLUMNS, parts))


def truth(group_col, outputs):
    """Exact per group: count, and per output the clamped values."""
    groups = {}
    for r in rows():
        g = groups.setdefault(r[group_col], {"n": 0, "values": {}})
        g["n"] += 1
        for name, (kind, col, lo, hi) in outputs.items():
            if col is not None and r[col] != "?":
                g["values"].setdefault(name, []).append(min(hi, max(lo, float(r[col]))))
    return groups


def laplace(rng, scale):
    return scale * (math.log(rng.random()) - math.log(rng.random()))


def textbook_mse(kind, lo, hi, eps_out, n, values, rng, draws=20000):
    if kind == "count":
        return 2 / eps_out ** 2
    if kind == "sum":
        return 2 * (max(abs(lo), abs(hi)) / eps_out) ** 2
    c = (lo + hi) / 2
    s = sum(v - c for v in values)
    m = len(values)
    mean = sum(values) / m
    e = eps_out / 2
    se = 0.0
    for _ in range(draws):
        nn = max(1.0, m + laplace(rng, 1 / e))
        est = min(hi, max(lo, c + (s + laplace(rng, (hi - lo) / 2 / e)) / nn))
        se += (est - mean) ** 2
    return se / draws


def run(cmd, env):
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=True)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    home = tempfile.mkdtemp(prefix="privet-accuracy-")
    env = dict(os.environ, PRIVET_HOME=home)
    run(["./privet", "dataset", "register", "--name", "adult", "--source", DATA, "--no-header",
         "--columns", ",".join(COLUMNS), "--delimiter", ", ", "--null-string", "?",
         "--row-privacy", "--epsilon", "10000", "--delta", "1e-3", "--public-keys",
         "sex=Female,Male"], env)
    rng = random.Random(22)
    ok = True
    chosen = [int(i) for i in sys.argv[2].split(",")] if len(sys.argv) > 2 else range(len(QUERIES))
    for sql, eps, private, outputs in [QUERIES[i] for i in chosen]:
        group_col = sql.split(") ", 1)[1].split(",", 1)[0].strip()
        exact = truth(group_col, outputs)
        eps_out = eps / (len(outputs) + (1 if private else 0))
        se = {k: 0.0 for k in outputs}
        ref = {k: 0.0 for k in outputs}
        hits = {k: 0 for k in outputs}
        draws = {k: 0 for k in outputs}
        mse_cache = {}
        for _ in range(runs):
            out = json.loads(run(["./privet", "query", "--format", "json", sql], env).stdout)
            for row in out["rows"]:
                g = exact[row[group_col]]
                for name, (kind, col, lo, hi) in outputs.items():
                    vals = g["values"].get(name, [])
                    x = g["n"] if kind == "count" else sum(vals) if kind == "sum" \
                        else sum(vals) / len(vals)
                    key = (name, row[group_col])
                    if key not in mse_cache:
                        mse_cache[key] = textbook_mse(kind, lo, hi, eps_out, g["n"], vals, rng)
                    est = row[name]
                    se[name] += (est["value"] - x) ** 2
                    ref[name] += mse_cache[key]
                    hits[name] += 1 if est["lower"] - 1e-9 <= x <= est["upper"] + 1e-9 else 0
                    draws[name] += 1
        for name in outputs:
            ratio = math.sqrt(se[name] / ref[name])
            cover = hits[name] / draws[name]
            good = ratio <= 1.25 and cover >= 0.85
            ok &= good
            print(f"{'PASS' if good else 'FAIL'} {name:12s} RMSE/textbook {ratio:.3f} "
                  f"coverage {hits[name]}/{draws[name]} = {cover:.3f} | {sql[:90]}...")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
