package result

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/internal/excerpt"
	"github.com/chronograph/chronograph/internal/plural"
)

// The views of a history document: the chrono history subcommand that
// made it (HistoryRun.View).
const (
	HistoryViewList   = "list"   // every measurement × metric of the store
	HistoryViewShow   = "show"   // every run of a measurement, all metrics, all machines
	HistoryViewTrend  = "trend"  // a measurement's series with its change points
	HistoryViewCheck  = "check"  // the change points of every series, with verdicts
	HistoryViewExport = "export" // a measurement's series
)

// HistoryRun holds what a history document (chrono history list, show,
// trend, check, export; package history's Store documents) shows and how
// its series were chosen from the store.
type HistoryRun struct {
	// View is one of HistoryViewList, HistoryViewShow, HistoryViewTrend,
	// HistoryViewCheck and HistoryViewExport.
	View string `json:"view"`
	// Store names the store the series were read from: the SQLite file,
	// or PostgreSQL's host:port/database (never a password).
	Store string `json:"store"`
	// Metric, Since, Machine and AnyMachine are the selection asked for
	// (chrono history's --metric, --since, --machine prefix and
	// --any-machine); each absent when not given.
	Metric     string     `json:"metric,omitempty"`
	Since      *time.Time `json:"since,omitempty"`
	Machine    string     `json:"machine,omitempty"`
	AnyMachine bool       `json:"any_machine,omitempty"`
	// Detector is how the change points were found (trend and check);
	// absent for the other views.
	Detector *HistoryDetector `json:"detector,omitempty"`
	// Check holds check's threshold and counts; absent for the other
	// views.
	Check *HistoryCheck `json:"check,omitempty"`
	// AllRuns asks trend's table for a row per run (--all); without it a
	// series of more than 40 runs shows the first run, the runs around
	// each change and the newest 10.
	AllRuns bool `json:"all_runs,omitempty"`
}

// HistoryDetector describes the change-point detection.
type HistoryDetector struct {
	// Method is "e-divisive": E-divisive means over the run medians with
	// a permutation test of each proposed change.
	Method string `json:"method"`
	// Permutations, Significance, MinSegment and Seed are its options
	// (stats.EDivisiveOptions).
	Permutations int     `json:"permutations"`
	Significance float64 `json:"significance"`
	MinSegment   int     `json:"min_segment"`
	Seed         uint64  `json:"seed"`
	// Confidence is the level of each change's ratio interval (0.95).
	Confidence float64 `json:"confidence"`
}

// HistoryCheck is what chrono history check decided over every series.
type HistoryCheck struct {
	// Threshold is the smallest relative change counted as a regression
	// or an improvement (0.05 = 5 %).
	Threshold float64 `json:"threshold"`
	// Checked counts the series checked, Changed those with change
	// points, Regressed those whose newest change is a regression.
	Checked   int `json:"checked"`
	Changed   int `json:"changed"`
	Regressed int `json:"regressed"`
}

// HistoryDetail is one measurement of a history document: a series (the
// runs of one measurement's metric on one machine, or on every machine
// when Merged), whose measurement's one metric holds the run medians in
// time order; or, in a list document, one measurement × metric of the
// store, without metrics.
type HistoryDetail struct {
	// Metric and Unit are the stored metric's name and unit (the
	// measurement's metric has them too).
	Metric string `json:"metric"`
	Unit   string `json:"unit"`
	// Machine is the fingerprint of the machine whose runs the series
	// holds (its Hash "" for runs whose document recorded no
	// environment); absent for a merged series and in list documents.
	Machine *HistoryMachine `json:"machine,omitempty"`
	// Merged is set for a series of the runs of every machine.
	Merged bool `json:"merged,omitempty"`
	// Runs are the runs of the series, in time order: one per value of
	// the measurement's metric.
	Runs []HistoryPoint `json:"runs,omitempty"`
	// Changes are the change points found (trend and check).
	Changes []HistoryChange `json:"changes,omitempty"`
	// Stored describes the measurement × metric in a list document.
	Stored *HistoryStored `json:"stored,omitempty"`
}

// HistoryMachine is a machine fingerprint: the parts of the environment
// that make figures comparable, and their hash.
type HistoryMachine struct {
	// Hash is the first 16 hex digits of the SHA-256 of the parts; ""
	// when the document recorded no environment.
	Hash string `json:"hash"`
	// CPU, Kernel, Go, GOMAXPROCS and Speed (the CPU speed profile:
	// frequency driver, governors, boost, maximum frequencies) are the
	// readable parts; empty when not recorded.
	CPU        string `json:"cpu,omitempty"`
	Kernel     string `json:"kernel,omitempty"`
	Go         string `json:"go,omitempty"`
	GOMAXPROCS int    `json:"gomaxprocs,omitempty"`
	Speed      string `json:"speed,omitempty"`
}

// String describes the machine in one line: its hash and readable parts.
func (m HistoryMachine) String() string {
	if m.Hash == "" {
		return "unknown machine (no environment recorded)"
	}
	var parts []string
	for _, p := range []struct{ k, v string }{{"CPU", m.CPU}, {"kernel", m.Kernel}, {"Go", m.Go}, {"GOMAXPROCS", strconv.Itoa(m.GOMAXPROCS)}, {"speed", m.Speed}} {
		if p.v != "" && p.v != "0" {
			parts = append(parts, p.k+" "+p.v)
		}
	}
	return m.Hash + " (" + strings.Join(parts, ", ") + ")"
}

// HistoryPoint is one stored run of a series.
type HistoryPoint struct {
	// Run is the run's id in the store; Time when it was taken.
	Run  int64     `json:"run"`
	Time time.Time `json:"time"`
	// Commit, Branch and Dirty are the git state of the working directory
	// it was added from; each absent when unknown.
	Commit string `json:"commit,omitempty"`
	Branch string `json:"branch,omitempty"`
	Dirty  *bool  `json:"dirty,omitempty"`
	// Machine is the hash of the run's machine fingerprint ("" when its
	// document recorded no environment); Tags the user's labels.
	Machine string            `json:"machine,omitempty"`
	Tags    map[string]string `json:"tags,omitempty"`
	// N is the number of samples of the run; Values its raw samples of
	// the metric, in the order taken, of which the series' value is the
	// median (absent for a binned metric, whose median was read from its
	// histogram).
	N      int       `json:"n"`
	Values []float64 `json:"values,omitempty"`
}

// HistoryChange is one change point of a series.
type HistoryChange struct {
	// Index is the index in the runs of the first run after the change;
	// BeforeCommit and AfterCommit are the commits of the runs on either
	// side (the range in which it happened), absent when unknown.
	Index        int    `json:"index"`
	BeforeCommit string `json:"before_commit,omitempty"`
	AfterCommit  string `json:"after_commit,omitempty"`
	// MedianBefore and MedianAfter are the medians of the run medians of
	// the segments on either side (up to the neighbouring changes), of
	// RunsBefore and RunsAfter runs.
	MedianBefore float64 `json:"median_before"`
	MedianAfter  float64 `json:"median_after"`
	RunsBefore   int     `json:"runs_before"`
	RunsAfter    int     `json:"runs_after"`
	// Ratio is MedianAfter/MedianBefore, with its bootstrap interval [Lo,
	// Hi] at HistoryDetector.Confidence.
	Ratio float64 `json:"ratio"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	// P is the permutation test's p-value; Q its energy statistic.
	P float64 `json:"p"`
	Q float64 `json:"q"`
	// Verdict is "regression" (the metric got worse by more than
	// HistoryCheck.Threshold and the interval excludes 1; for rates, "/s"
	// units, worse is lower), "improvement" (likewise better), or "no
	// change": package compare's verdicts, as history.Changes decides
	// them.
	Verdict string `json:"verdict"`
	// Exact is set for a change of a deterministic series (every run's
	// samples identical, as exact instruction counts are): found without
	// a test at the run where the value changed, with its exact ratio
	// (Lo = Hi = Ratio, P and Q 0).
	Exact bool `json:"exact,omitempty"`
	// Trace, under a regression, is where its time went: the
	// differential profile of the runs just before and just after the
	// change, from the profiles the store keeps (chrono history add
	// keeps those a document refers to), or a note saying why there is
	// none; absent for other verdicts.
	Trace *ProfileTrace `json:"trace,omitempty"`
}

// HistoryStored is a measurement × metric of the store, in a list
// document.
type HistoryStored struct {
	// Runs counts the runs that hold it, Machines their distinct machine
	// fingerprints; First and Last are when the oldest and newest were
	// taken.
	Runs     int       `json:"runs"`
	Machines int       `json:"machines"`
	First    time.Time `json:"first"`
	Last     time.Time `json:"last"`
}

// Newest returns the newest change point of the series, or nil.
func (h *HistoryDetail) Newest() *HistoryChange {
	if len(h.Changes) == 0 {
		return nil
	}
	return &h.Changes[len(h.Changes)-1]
}

// validate checks what renderers rely on in measurement m of a history
// document: a detail, one run per value of the metric, and change points
// between two runs.
func (h *HistoryDetail) validate(m *Measurement) error {
	if h == nil {
		return fmt.Errorf(`result: measurement %s of the history document has no "detail.history": pass the whole document chrono history wrote`, excerpt.Quote(m.Name))
	}
	if h.Stored != nil {
		return nil // a list entry: no series
	}
	met := m.Metric(m.Primary)
	if met == nil {
		return fmt.Errorf("result: measurement %s of the history document has no primary metric (the run medians)", excerpt.Quote(m.Name))
	}
	if len(met.Values) != len(h.Runs) {
		return fmt.Errorf("result: measurement %s: metric %s has %s for %s (one median per run): the document is damaged or was cut short",
			excerpt.Quote(m.Name), excerpt.Quote(met.Name), plural.Count(len(met.Values), "value"), plural.Count(len(h.Runs), "run"))
	}
	for _, c := range h.Changes {
		if c.Index < 1 || c.Index >= len(h.Runs) {
			return fmt.Errorf("result: measurement %s: a change point at run index %d, outside the series of %s: the document is damaged",
				excerpt.Quote(m.Name), c.Index, plural.Count(len(h.Runs), "run"))
		}
	}
	return nil
}
