// Package stats holds the statistics chronograph reports: summaries of a
// sample, percentiles by every Hyndman-Fan definition, outliers, histograms,
// confidence intervals, two-sample comparison tests, and the change points
// of a series (EDivisive: E-divisive means with a seeded permutation test).
//
// The package is pure: it never reads a clock and never does I/O. Inputs are
// plain float64 samples in whatever unit the caller uses; outputs are in the
// same unit. Functions never modify their input slices unless their doc
// comment says so, and never panic on bad input: an empty sample gives NaN
// (or an error where a function returns one), NaN values are dropped with
// a warning by Summarize, give NaN percentiles (as numpy does), and are an
// error for the two-sample tests.
//
// Comparisons use one rule. MannWhitneyU computes its two-sided p-value
// exactly, from the null distribution of U given the ties, whenever
// na·nb <= 2500 (two samples of 50), and by the
// normal approximation with tie and continuity corrections above; P is
// never below MinPValue, the smallest p samples of those sizes can have.
// A difference is significant at level alpha when P <= alpha
// (MannWhitneyResult.Significant, used by CompareMedians), which is
// possible exactly when MinPValue(na, nb) <= alpha.
// MedianCI is the
// order-statistic interval benchstat uses, with exact binomial coverage
// for every n (see its doc comment for how it differs from benchstat's).
//
// Figures are checked against numpy and scipy (testdata/gen.py writes the
// reference values the tests read): percentiles bit for bit for all nine
// Hyndman-Fan definitions, the rest to 1e-12 relative; exact Mann-Whitney
// p-values with ties against scipy's exact permutation test and an integer
// count. They are compared with golang.org/x/perf's (through go-moremath;
// testdata/genxperf.go writes them) on its own test vectors and random
// samples, and every difference is explained by a test.
//
// stats computes from the values it is given: it never reads a clock,
// does no I/O, does not render figures (package unit has the digits rule,
// package report the layouts) and does not decide what a comparison of
// documents concludes. It imports the HDR histogram and gonum (for the
// Beta distribution of the seeded bootstrap), and nothing of chronograph's
// but package warn and internal helpers.
package stats
