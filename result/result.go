// Package result defines chronograph's result document: the one versioned
// JSON document that every measurement writes (command benchmarks, Go
// function benchmarks, sleep and latency studies, summaries of numbers) and
// that chrono's subcommands read back. The schema is in docs/result-schema.md.
//
// Every document starts with New(kind, Meta): the program that wrote it
// (ToolFromBuild), its command line and the environment. The measuring
// packages fill in their kind's typed details (KindRun, KindDetail) and
// their samples as metrics (SampleMetric); Encode and WriteFile write it,
// Decode, Unmarshal and ReadFile read and validate it (converting version
// 1 documents and hyperfine's JSON exports), Redact strips what identifies
// a host.
//
// result holds data and converts other versions of it: it does not
// measure, does not compare documents and does not render them (package
// report).
package result

import (
	"time"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/warn"
)

// Schema identifies chronograph result documents.
const Schema = "chronograph.result"

// Version is the schema version this package writes. Readers accept every
// version up to and including it (version 1 documents are converted on
// reading: see Unmarshal) and reject newer ones.
const Version = 2

// Document is a result document.
type Document struct {
	// Schema is always the constant Schema; Version the schema version.
	Schema  string `json:"schema"`
	Version int    `json:"version"`
	// Tool is the program that wrote the document.
	Tool Tool `json:"tool"`
	// Kind says what was measured: "command", "function", "counters",
	// "sleep", "latency", "clocks", "numbers", "env", "trace", "scope", or
	// what a history holds: "history".
	Kind string `json:"kind"`
	// Args is the command line as the tool received it, program name
	// first (e.g. ["chrono", "run", "-N", "true"]).
	Args []string `json:"args,omitempty"`
	// Start and End stamp when the measurement ran (wall clock; elapsed
	// times inside the document come from monotonic clocks).
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// Incomplete is set when the run was interrupted or failed part way:
	// the measurements present are real but fewer than asked for.
	Incomplete bool `json:"incomplete,omitempty"`
	// Environment holds the conditions of the measurement. Every writer
	// sets it; documents read from elsewhere may lack it.
	Environment *env.Host `json:"environment,omitempty"`
	// Measurements holds one entry per thing measured.
	Measurements []Measurement `json:"measurements"`
	// Comparisons holds pairwise comparisons between measurements.
	Comparisons []Comparison `json:"comparisons,omitempty"`
	// Warnings apply to the document as a whole.
	Warnings []warn.Warning `json:"warnings,omitempty"`

	// Kind-level details: the one that matches Kind is set, with the
	// figures of the run as a whole (options, calibrations, overheads).
	Run KindRun `json:"run,omitzero"`
}

// Tool names the program that wrote a document.
type Tool struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	GoVersion string `json:"go_version,omitempty"`
	Revision  string `json:"vcs_revision,omitempty"`
}

// Measurement is one thing measured (a command, a function, a sleep
// mechanism at a duration, ...), with every raw sample.
type Measurement struct {
	// Name identifies the measurement, e.g. the command line or the
	// benchmark name.
	Name string `json:"name"`
	// Parameters are the values of parameters of a scan or sweep.
	Parameters map[string]string `json:"parameters,omitempty"`
	// Primary names the metric that is the main answer (e.g. "wall").
	Primary string `json:"primary"`
	// Metrics are the per-sample series measured, all of equal length
	// (one value per sample), in the order the samples were taken.
	Metrics []Metric `json:"metrics"`
	// Detail holds the kind-specific figures of this measurement: the one
	// that matches the document's Kind is set.
	Detail KindDetail `json:"detail,omitzero"`
	// Warnings apply to this measurement; each says what to do.
	Warnings []warn.Warning `json:"warnings,omitempty"`
	// Incomplete is set when fewer samples were taken than asked for.
	Incomplete bool `json:"incomplete,omitempty"`
	// Profile refers to a CPU profile of this measurement, kept in a
	// file of its own beside the document (see ProfileRef); nil when
	// none was recorded.
	Profile *ProfileRef `json:"profile,omitempty"`
}

// ProfileRef refers to a CPU profile of one measurement: a file in
// pprof's format (gzipped protocol buffer, what runtime/pprof writes and
// go build -pgo and go tool pprof read), kept beside the document rather
// than inside it, so that the tools that read profiles open it as it is
// and a document stays a readable JSON file (a profile is binary and
// often larger than the samples).
type ProfileRef struct {
	// File is the profile's path: relative to the directory of the
	// document that refers to it (a profile written beside it), or
	// absolute. Empty until the profile is written (package profiles,
	// SaveBeside).
	File string `json:"file,omitempty"`
	// Source says how the profile was taken: "runtime/pprof" (package
	// bench: the measured samples only), "cpuprof" (a Go program's own
	// profile, profiles/cpuprof), "perf cpu-clock" (perf record).
	Source string `json:"source"`
	// Samples is the number of profiler samples it holds.
	Samples int64 `json:"samples"`
	// Iterations is what the profile's values are divided by to compare
	// it per iteration: a benchmark's measured iterations, a command's
	// profiled runs. Per says which ("iteration", "run").
	Iterations float64 `json:"iterations"`
	Per        string  `json:"per"`
}

// Metric is one series of raw samples and its summary.
type Metric struct {
	// Name is e.g. "wall", "user", "sys", "max_rss", "cpu", "allocs".
	Name string `json:"name"`
	// Unit is the unit of Values: "ns", "ns/op", "bytes", "count", "1".
	Unit string `json:"unit"`
	// Values holds every raw sample, in the order taken. It is empty when
	// the samples were binned as they were taken (Histogram).
	Values []float64 `json:"values"`
	// Histogram holds the samples binned, in Unit, when they were too many
	// to keep (chrono latency, scope timers); Values is then empty and
	// Summary nil: the histogram carries the exact figures recorded with
	// every sample, and Percentiles are the recorder's.
	Histogram *Histogram `json:"histogram,omitempty"`
	// Exact is set when the values are exact counts of deterministic work,
	// the same on every run of the same code (an instruction count
	// simulated by valgrind that grew exactly linearly and agreed in every
	// repeat): comparisons of an exact metric need no test and use a plain
	// threshold, exact to the unit.
	Exact bool `json:"exact,omitempty"`
	// Resolution is the step of one sample in Unit: the clock's observed
	// tick, getrusage's microsecond, the quantum of input numbers, 1 for
	// counts; 0 when unknown. Renderers print no digit finer than it
	// (unit.Precision).
	Resolution float64 `json:"resolution,omitempty"`
	// Summary summarizes Values.
	Summary *stats.Summary `json:"summary,omitempty"`
	// Percentiles maps a percentile label ("p99") to its value, computed
	// with PercentileMethod (a numpy method name, e.g. "linear").
	Percentiles      map[string]float64 `json:"percentiles,omitempty"`
	PercentileMethod string             `json:"percentile_method,omitempty"`
}

// Comparison compares measurement A against B on one metric.
type Comparison struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Metric string `json:"metric"`
	// Ratio is statistic(A)/statistic(B) (e.g. of medians), with its
	// confidence interval [Lo, Hi] at level Confidence (0.95 = 95 %);
	// the three are absent (0) when the samples are too small for an
	// interval.
	Statistic  string  `json:"statistic"`
	Ratio      float64 `json:"ratio"`
	Lo         float64 `json:"lo,omitempty"`
	Hi         float64 `json:"hi,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	// Test names the significance test ("mann-whitney-u") and P its p-value.
	Test string  `json:"test"`
	P    float64 `json:"p"`
	// Verdict is the plain-language conclusion.
	Verdict string `json:"verdict"`
}

// Metric returns the measurement's metric with the given name, or nil.
func (m *Measurement) Metric(name string) *Metric {
	for i := range m.Metrics {
		if m.Metrics[i].Name == name {
			return &m.Metrics[i]
		}
	}
	return nil
}

// Histogram is a metric's samples in bins: Counts[i] samples fell in
// [Bounds[i], Bounds[i+1]) (so len(Bounds) == len(Counts)+1), in the
// metric's unit; Underflow and Overflow count samples below Bounds[0] and
// at or above the last bound. Bounds increase strictly; bins may differ
// in width (an HDR histogram keeps a bounded relative error), and writers
// leave out empty bins at either end only.
type Histogram struct {
	Bounds    []float64 `json:"bounds"`
	Counts    []int64   `json:"counts"`
	Underflow int64     `json:"underflow,omitempty"`
	Overflow  int64     `json:"overflow,omitempty"`
	// Min, Max and Mean are exact, recorded with every sample (not read
	// from the bins); StdDev (population) too when the recorder kept the
	// sums it needs, else absent.
	Min    float64  `json:"min"`
	Max    float64  `json:"max"`
	Mean   float64  `json:"mean"`
	StdDev *float64 `json:"stddev,omitempty"`
}

// Total is the number of samples in h, under- and overflows included.
func (h *Histogram) Total() int64 {
	t := h.Underflow + h.Overflow
	for _, c := range h.Counts {
		t += c
	}
	return t
}
