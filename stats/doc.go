// Package stats holds the statistics chronograph reports: summaries of a
// sample, percentiles by every Hyndman-Fan definition, outliers, histograms,
// confidence intervals and two-sample comparison tests.
//
// The package is pure: it never reads a clock and never does I/O. Inputs are
// plain float64 samples in whatever unit the caller uses; outputs are in the
// same unit. Functions never modify their input slices unless their doc
// comment says so, and never panic on bad input: an empty sample gives NaN
// (or an error where a function returns one), NaN values are dropped with
// a warning by Summarize, give NaN percentiles (as numpy does), and are an
// error for the two-sample tests.
//
// Figures are checked against numpy and scipy (testdata/gen.py writes the
// reference values the tests read): percentiles bit for bit for all nine
// Hyndman-Fan definitions, the rest to 1e-12 relative.
package stats
