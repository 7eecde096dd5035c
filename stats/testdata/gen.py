#!/usr/bin/python3
"""Reference values for the stats package, computed with numpy and scipy.

Run with Debian's python (apt-get install python3-numpy python3-scipy; PyPI
is not needed):

    /usr/bin/python3 stats/testdata/gen.py

It rewrites stats/testdata/*.json; the Go tests read those files and need
no Python. Values are written with repr(float) (shortest round-trip form),
so the Go side sees exactly the float64 numpy computed.
"""
import json
import math
from fractions import Fraction
import os
import re
import sys
import warnings

import numpy as np
import scipy
import scipy.stats as st

HERE = os.path.dirname(os.path.abspath(__file__))

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear",
           "median_unbiased", "normal_unbiased"]
PS = [0, 1, 2.5, 10, 25, 33.3, 50, 66.6, 75, 90, 95, 99, 99.9, 100]

# numpy < 2.0 picks the wrong order statistic for closest_observation (H&F
# type 3) when n*q - 1/2 is whole: it rounds to an even 0-based index where
# Hyndman and Fan (1996, p. 362) ask for an even 1-based one. Upstream
# numpy 2.x has the fix (np.floor(index) % 2 == 1); apply the same rule here.
NUMPY_MAJOR = int(np.__version__.split(".")[0])
if NUMPY_MAJOR < 2:
    import numpy.lib.function_base as fb

    def _closest_observation(n, quantiles):
        gamma_fun = lambda gamma, index: (gamma == 0) & (np.floor(index) % 2 == 1)
        return fb._discret_interpolation_to_boundaries((n * quantiles) - 1 - 0.5, gamma_fun)

    fb._QuantileMethods["closest_observation"]["get_virtual_index"] = \
        lambda n, quantiles: _closest_observation(n, quantiles)

rng = np.random.default_rng(20240611)

SAMPLES = {
    "n1": [42.0],
    "n2": [3.0, 7.0],
    "n3": [5.0, 1.0, 3.0],
    "n4": [10.0, 20.0, 30.0, 40.0],
    "n5_unsorted": [9.5, 0.25, 3.0, 7.75, 1.0],
    "ties": [1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 7.0, 7.0, 7.0, 7.0, 10.0],
    "all_equal": [4.0] * 7,
    "negative": [-5.5, -1.25, 0.0, 2.0, -3.0, 8.75, -0.5],
    "random10": [float(x) for x in rng.normal(100, 15, 10)],
    "random101": [float(x) for x in rng.lognormal(3, 0.7, 101)],
    "random1000": [float(x) for x in rng.exponential(2.5e-6, 1000)],
    "latency_ns": [float(x) for x in np.round(rng.gamma(4, 2500, 257))],
}


def dump(name, obj, compact_arrays=False):
    path = os.path.join(HERE, name)
    text = json.dumps(obj, indent=1, allow_nan=False)
    if compact_arrays:
        # one line per array of numbers (the samples)
        text = re.sub(r"\[\s*(-?[0-9][-+0-9.e,\s]*?)\s*\]",
                      lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text)
    with open(path, "w") as f:
        f.write(text + "\n")
    print("wrote", path)


def meta():
    return {"numpy": np.__version__, "scipy": scipy.__version__,
            "python": sys.version.split()[0], "generator": "stats/testdata/gen.py"}


# --- percentiles
pct = {"meta": meta(), "percentiles": PS, "cases": []}
for name, xs in SAMPLES.items():
    vals = {}
    for m in METHODS:
        vals[m] = [float(np.percentile(np.array(xs), p, method=m)) for p in PS]
    pct["cases"].append({"name": name, "xs": xs, "values": vals})
dump("percentiles.json", pct)

# --- summaries
summ = {"meta": meta(), "cases": []}
for name, xs in SAMPLES.items():
    a = np.array(xs)
    mean = float(np.mean(a))
    sd1 = float(np.std(a, ddof=1)) if len(a) > 1 else 0.0
    summ["cases"].append({
        "name": name, "xs": xs,
        "n": len(a), "min": float(a.min()), "max": float(a.max()), "mean": mean,
        "median": float(np.median(a)),
        "stddev_population": float(np.std(a, ddof=0)),
        "stddev_sample": sd1,
        "mad": float(st.median_abs_deviation(a)),
        "q1": float(np.percentile(a, 25)), "q3": float(np.percentile(a, 75)),
        "iqr": float(st.iqr(a)),
        "cv": sd1 / abs(mean) if mean != 0 else 0.0,
    })
dump("summary.json", summ)

# --- two-sample comparisons
def r(xs):
    return [float(x) for x in xs]

PAIRS = {
    "exact_4v4_separated": ([1, 2, 3, 4], [5, 6, 7, 8]),
    "exact_3v3_separated": ([1, 2, 3], [4, 5, 6]),
    "exact_1v1": ([1.5], [0.5]),
    "exact_2v3": ([1.0, 4.0], [2.0, 3.0, 5.0]),
    "exact_5v7": (r(rng.normal(0, 1, 5)), r(rng.normal(0.8, 1, 7))),
    "exact_8v8": (r(rng.normal(10, 2, 8)), r(rng.normal(12, 2, 8))),
    "exact_3v30": (r(rng.normal(0, 1, 3)), r(rng.normal(1, 1, 30))),
    "exact_8v40": (r(rng.normal(0, 1, 8)), r(rng.normal(0.5, 1, 40))),
    "exact_interleaved_6v6": ([1, 3, 5, 7, 9, 11], [2, 4, 6, 8, 10, 12]),
    "ties_small": ([1, 2, 2, 3, 5], [2, 3, 3, 4, 6, 6]),
    "ties_all_equal": ([4, 4, 4], [4, 4, 4, 4]),
    "asym_9v9_separated": (list(range(1, 10)), list(range(10, 19))),
    "asym_30v40": (r(rng.normal(100, 10, 30)), r(rng.normal(104, 12, 40))),
    "asym_ties_50v60": (r(np.round(rng.normal(20, 3, 50))), r(np.round(rng.normal(21, 3, 60)))),
    "asym_identical_20": (r(rng.normal(0, 1, 20)), None),
    "asym_200v150": (r(rng.lognormal(3, 0.5, 200)), r(rng.lognormal(3.1, 0.5, 150))),
    "asym_far_100v100": (r(rng.normal(0, 1, 100)), r(rng.normal(3, 1, 100))),
}
# x/perf's own vectors (go-moremath stats/utest_test.go, benchmath/assumption_test.go).
XP_S1 = [2, 1, 3, 5]
XP_S2 = [12, 11, 13, 15]
XP_S3 = [0, 4, 6, 7]
XP_S4 = [2, 2, 2, 2]
XP_S5 = [1, 1, 1, 1, 1]
XP_L1 = [i * 2 for i in range(500)]
XP_L2 = [i * 2 - 41 for i in range(600)]
XP_L3 = list(XP_L2)
XP_L3[:30] = XP_L1[:30]
PAIRS.update({
    "xperf_s1_s2": (XP_S1, XP_S2),
    "xperf_s2_s1": (XP_S2, XP_S1),
    "xperf_s1_s3": (XP_S1, XP_S3),
    "xperf_s1_s1": (XP_S1, XP_S1),
    "xperf_s1_s4": (XP_S1, XP_S4),
    "xperf_s1_s5": (XP_S1, XP_S5),
    "xperf_s4_s4": (XP_S4, XP_S4),
    "xperf_l1_l2": (XP_L1, XP_L2),
    "xperf_l1_l1": (XP_L1, XP_L1),
    "xperf_l1_l3": (XP_L1, XP_L3),
    "benchmath_3v3_tied": ([-1] * 3, [1] * 3),
    "benchmath_4v4_tied": ([-1] * 4, [1] * 4),
    "benchmath_4v4_mixed": ([1, -1, -1, -1], [-1, 1, 1, 1]),
    "benchmath_all_equal": ([1] * 4, [1] * 4),
    # issue 9's cases: the normal approximation gave 0.047 and 0.013
    "ties_3v3_separated": ([1] * 3, [2] * 3),
    "ties_4v4_separated": ([1] * 4, [2] * 4),
    # lopsided tie patterns: the null distribution of U is not symmetric
    "ties_lopsided_1v2": ([2], [1, 1]),
    "ties_lopsided_1v2_low": ([1], [1, 2]),
    "ties_1v30": ([1], [2] * 30),
    "ties_5v7_rounded": (r(np.round(rng.normal(0, 1, 5))), r(np.round(rng.normal(0.5, 1, 7)))),
    "ties_8v9_rounded": (r(np.round(rng.normal(0, 2, 8))), r(np.round(rng.normal(1, 2, 9)))),
    "ties_10v10_rounded": (r(np.round(rng.normal(0, 2, 10))), r(np.round(rng.normal(1.5, 2, 10)))),
    "ties_25v25_rounded": (r(np.round(rng.normal(10, 3, 25))), r(np.round(rng.normal(12, 3, 25)))),
    "ties_40v40_rounded": (r(np.round(rng.normal(10, 3, 40))), r(np.round(rng.normal(11, 3, 40)))),
    "ties_50v50_rounded": (r(np.round(rng.normal(10, 3, 50))), r(np.round(rng.normal(11.5, 3, 50)))),
    "exact_50v50": (r(rng.normal(0, 1, 50)), r(rng.normal(0.4, 1, 50))),
    "exact_50v50_middle": (r(rng.normal(0, 1, 50)), r(rng.normal(0, 1, 50))),
    "exact_8v300": (r(rng.normal(0, 1, 8)), r(rng.normal(0.7, 1, 300))),
    "asym_8v400": (r(rng.normal(0, 1, 8)), r(rng.normal(0.7, 1, 400))),
    "asym_51v51": (r(rng.normal(0, 1, 51)), r(rng.normal(0.5, 1, 51))),
    # the approximation falls below the smallest attainable p, 2/C(3001, 1)
    "asym_floor_1v3000": ([1], [2] * 3000),
})

EXACT_LIMIT = 2500  # MannWhitneyExactLimit: exact when len(a)*len(b) <= this


def mwu_exact_ties(a, b):
    """Exact two-sided p of the Mann-Whitney test given the ties, in integers.

    Counts the splits of the pooled values into len(a) and len(b) values by
    W = 2U of the first part (a dynamic programme over the groups of equal
    values), then p = min(1, 2 min(P(W <= w), P(W >= w))) as fractions.
    """
    m, n = len(a), len(b)
    vals = sorted(set(a) | set(b))
    sizes = [a.count(v) + b.count(v) for v in vals]
    w_obs = sum(2 * sum(1 for y in b if y < x) + sum(1 for y in b if y == x) for x in a)
    states = {(0, 0): 1}
    placed = 0
    for t in sizes:
        new = {}
        for (k, w), c in states.items():
            for r_ in range(0, min(t, m - k) + 1):
                if placed - k + t - r_ > n:
                    continue
                key = (k + r_, w + r_ * (2 * (placed - k) + t - r_))
                new[key] = new.get(key, 0) + c * math.comb(t, r_)
        states = new
        placed += t
    total = math.comb(m + n, m)
    le = sum(c for (k, w), c in states.items() if k == m and w <= w_obs)
    ge = sum(c for (k, w), c in states.items() if k == m and w >= w_obs)
    assert sum(c for (k, w), c in states.items() if k == m) == total
    p = min(Fraction(1), 2 * min(Fraction(le, total), Fraction(ge, total)))
    return w_obs / 2, float(p)


def mwu_reference(a, b, ties):
    """The p-value MannWhitneyU must give, and which tool it comes from."""
    n1, n2 = len(a), len(b)
    if n1 * n2 > EXACT_LIMIT:
        p = float(st.mannwhitneyu(a, b, use_continuity=True, alternative="two-sided", method="asymptotic").pvalue)
        floor = 2 / math.comb(n1 + n2, n1)
        if p < floor:
            return min(1.0, floor), "asymptotic, raised to 2/C(n1+n2,n1)"
        return p, "scipy mannwhitneyu method=asymptotic"
    if not ties:
        return float(st.mannwhitneyu(a, b, alternative="two-sided", method="exact").pvalue), "scipy mannwhitneyu method=exact"
    _, p = mwu_exact_ties(a, b)
    if min(n1, n2) >= 2 and math.comb(n1 + n2, n1) <= 200000:
        # scipy's exact permutation test with U as the statistic: the same
        # distribution, enumerated split by split.
        def u_stat(x, y, axis):
            return st.mannwhitneyu(x, y, axis=axis, method="asymptotic").statistic
        perm = st.permutation_test((a, b), u_stat, permutation_type="independent", vectorized=True,
                                   n_resamples=np.inf, alternative="two-sided")
        assert abs(perm.pvalue - p) <= 1e-12 * p, (a, b, perm.pvalue, p)
        return p, "scipy permutation_test (exact) = gen.py integer count"
    return p, "gen.py integer count (permutation_test too slow)"


cmp_cases = []
for name, (a, b) in PAIRS.items():
    a = r(a)
    b = list(a) if b is None else r(b)
    mw = st.mannwhitneyu(a, b, use_continuity=True, alternative="two-sided", method="auto")
    n1, n2 = len(a), len(b)
    ties = bool(len(np.unique(a + b)) != n1 + n2)
    p, ref = mwu_reference(a, b, ties)
    case = {"name": name, "a": a, "b": b,
            "mw_u": float(mw.statistic), "mw_p": p, "mw_ref": ref,
            "mw_exact": n1 * n2 <= EXACT_LIMIT, "mw_ties": ties,
            "scipy_auto_p": float(mw.pvalue),
            "hodges_lehmann": float(np.median(np.subtract.outer(np.array(a), np.array(b))))}
    if n1 >= 2 and n2 >= 2 and (np.var(a) > 0 or np.var(b) > 0):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a constant sample
            w = st.ttest_ind(a, b, equal_var=False)
        va, vb = np.var(a, ddof=1) / n1, np.var(b, ddof=1) / n2
        case["welch_t"] = float(w.statistic)
        case["welch_df"] = float((va + vb) ** 2 / (va ** 2 / (n1 - 1) + vb ** 2 / (n2 - 1)))
        case["welch_p"] = float(w.pvalue)
    cmp_cases.append(case)

# Smallest n (equal sizes) at which an exact two-sided test can reach p <= alpha:
# the p-value of two samples that do not overlap at all.
min_n = {}
for alpha in [0.1, 0.05, 0.01, 0.001]:
    n = 1
    while st.mannwhitneyu(list(range(n)), list(range(n, 2 * n)), method="exact").pvalue > alpha:
        n += 1
    min_n[repr(alpha)] = n
dump("compare.json", {"meta": meta(), "cases": cmp_cases, "min_samples_for_significance": min_n}, compact_arrays=True)

# --- special functions and the order-statistic interval of the median
special = {"meta": meta(), "t_sf": [], "norm_sf": [], "median_ci": []}
for df in [1.0, 2.5, 7.3, 30.0, 151.7, 1000.0]:
    for t in [0.0, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0]:
        special["t_sf"].append({"t": t, "df": df, "sf": float(st.t.sf(t, df))})
for z in [-8.0, -3.0, -1.0, -0.3, 0.0, 0.3, 0.7071, 1.0, 1.96, 3.0, 8.0, 20.0]:
    special["norm_sf"].append({"z": z, "sf": float(st.norm.sf(z))})
def median_ci(n, conf):
    """MedianCI's ranks, in integers: go-moremath's QuantileCI walk for q=1/2.

    [l, r) is a range of values of B ~ Binomial(n, 1/2), grown from n//2 by
    the more likely neighbour, the lower one on ties, until P(l <= B < r)
    >= conf; the interval is [x(l), x(r)]. Returns (l, r, coverage), or
    (0, 0, 0.0) when it needs an infinite bound (l = 0 or r = n+1).
    """
    x = n // 2
    mode = math.comb(n, x)
    pm = {x: mode}

    def pmf(k):  # 2^n P(B = k), exact
        if k < 0 or k > n:
            return 0
        k = min(k, n - k)
        if k not in pm:
            j = max(i for i in pm if i >= k)
            while j > k:
                pm[j - 1] = pm[j] * j // (n - j + 1)
                j -= 1
        return pm[k]

    target = Fraction(conf) * 2 ** n
    l, r = x, x + 1
    acc = pmf(x)
    while acc < target:
        lp, rp = pmf(l - 1), pmf(r)
        if lp == 0 and rp == 0:
            break
        if lp >= rp:
            acc += lp
            l -= 1
        else:
            acc += rp
            r += 1
    if acc < target or l < 1 or r > n:
        return 0, 0, 0.0
    cov = Fraction(acc, 2 ** n)
    # scipy's binomial agrees (a check of the integer arithmetic)
    assert abs(float(st.binom.cdf(r - 1, n, 0.5) - st.binom.cdf(l - 1, n, 0.5)) - float(cov)) < 1e-9
    return l, r, float(cov)


for conf in [0.5, 0.8, 0.9, 0.95, 0.99, 0.999]:
    for n in list(range(1, 201)) + [999, 1000, 1001, 10001, 100000]:
        lo, hi, cov = median_ci(n, conf)
        special["median_ci"].append({"n": n, "confidence": conf, "lo": lo, "hi": hi, "coverage": cov})
dump("special.json", special)
