// Package compare decides whether measurements differ, and by how much:
// the ratio of two medians with its confidence interval and the
// Mann-Whitney U test, the paired ratios of interleaved rounds, Holm's
// correction over the metrics of a regression gate, and the verdicts
// (Regression, Improvement, NoChange, Undecided) with their plain
// conclusions. It compares documents (Documents, GateDocuments), the
// commands of one command document (CommandDocument) and the rounds of
// an in-process comparison (PairedRounds), and two samples alone
// (Medians).
//
// Every figure is computed from the samples, never from verdicts or
// comparisons a document stores; the same samples and seed give the
// same result. One rule for small samples holds everywhere
// (TooFewForCI): with fewer values than the interval of a median needs,
// a ratio has no interval and a difference is never called significant.
//
// compare does not render (package report lays its results out), does
// not store (package history) and does not measure; the statistics
// themselves are package stats'.
package compare
