// Package stats holds the statistics chronograph reports: summaries of a
// sample, percentiles by every Hyndman-Fan definition, outliers, histograms,
// confidence intervals and two-sample comparison tests.
//
// The package is pure: it never reads a clock and never does I/O. Inputs are
// plain float64 samples in whatever unit the caller uses; outputs are in the
// same unit. Functions never modify their input slices unless their doc
// comment says so.
package stats
