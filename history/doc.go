// Package history keeps chronograph's result documents over time and finds
// when a measurement changed.
//
// A Store holds one row per added document (a run: when it was taken, the
// git commit, branch and dirty flag of the working directory, the user's
// tags, the machine's fingerprint, the document itself) and one row per
// measurement and metric of it (its median and raw samples). Series reads
// one measurement's metric back in time order, one point per run, and
// package stats' EDivisive finds its change points (Changes): each with
// its commit range, the ratio of the medians on either side with a
// bootstrap interval, its p-value and a verdict against a threshold
// (package compare's words: compare.Regression, Improvement, NoChange).
// A run may carry the CPU profiles its document refers to (Meta.Profiles:
// their bytes, kept in the store, since the files beside a CI job's
// document do not outlive the job); the store's documents then trace each
// regression to its functions, from the profiles of the runs nearest the
// change on either side (compare.TraceRuns; HistoryChange.Trace).
// Select picks the series of a measurement by a Query (its metric, the
// machines, a start time), and the store's document methods return what
// each view of chrono history shows as a result document of kind history
// (ListDocument, ShowDocument, TrendDocument, CheckDocument,
// ExportDocument): package report renders them, in every format. Open
// creates or upgrades a store; OpenExisting only reads one that exists.
//
// Two backends share one logical schema, created and upgraded by
// versioned migrations (table schema_version): an embedded SQLite file
// (the default, .chrono/history.db in the working directory; pure Go, so
// CGO_ENABLED=0 builds keep working; WAL mode, a busy timeout, BEGIN
// IMMEDIATE for appends) and PostgreSQL for a fleet of CI runners
// (postgres://... addresses; migrations under an advisory lock). Every
// append is one transaction (AddAll adds many documents in one), and every
// query is parameterized.
//
// It stores documents and finds changes; it does not measure and does
// not render.
package history
