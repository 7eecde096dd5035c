package result

import "github.com/chronograph/chronograph/warn"

// A command document (kind "command", chrono run) has one measurement per
// command benchmarked. Its metrics hold one value per timing run that
// completed, in the order the runs were made:
//
//   - "wall" (ns, resolution 1): elapsed time from just before the start to
//     just after the reaping, on the monotonic clock, minus the median
//     overhead when it is subtracted (clamped at 0); "wall_raw" holds the
//     measured times then. The primary metric.
//   - "user", "sys" (ns, resolution 1000 on Unix: rusage has microseconds):
//     the run's own CPU times (its rusage from wait4), corrected like wall;
//     "user_raw", "sys_raw" when corrected.
//   - "max_rss" (bytes; resolution 1024 on Linux, whose rusage counts KiB),
//     "minor_faults", "major_faults", "vol_cs", "invol_cs" (count): the
//     run's rusage; absent where the platform gives no per-child rusage
//     (CommandRun.Unavailable says so).
//   - "exit_code" (unit "1"): the run's exit status, -1 when a signal ended
//     it; "signal" (unit "1"): the number of the signal that ended each
//     run (0 for a run that exited), present only when a signal ended
//     some run.
//   - "cpu" (unit "cpu"): the CPU the run was pinned to, with --pin.
//   - one metric per counted event or probe figure (CommandDetail.Probes),
//     in the event's unit ("ns" for task-clock and cpu-clock, else
//     "count"), corrected like wall when the overhead is subtracted
//     ("NAME_raw" holds the counts then), and "NAME_running" (unit "1")
//     when the kernel multiplexed the event in some run: the fraction of
//     each run it was counted in (1: all of it), by which its count was
//     scaled.
//
// Runs killed by --timeout have no values in the metrics (their times are
// CommandDetail.TimedOut). Comparisons between the commands are recomputed
// from these samples by every reader (package report).

// CommandRun holds the details of a command document as a whole: how the
// benchmark was run, the overhead runs, and what could not be measured.
type CommandRun struct {
	// Order is the order of the runs ("sequential", "interleaved",
	// "random"); Seed seeds the random order and the bootstrap intervals
	// of the comparisons.
	Order string `json:"order"`
	Seed  uint64 `json:"seed"`
	// Shell is the shell command lines ran through, with its arguments up
	// to the command line (["sh", "-c"]); absent with -N.
	Shell []string `json:"shell,omitempty"`
	// Runs, MinRuns, MaxRuns and Warmup are the run counts asked for (0:
	// not given), TimeBudgetNs the time budget per command, TimeoutNs the
	// timeout of one run (0: none), Precision the target half-width of the
	// median's interval as a fraction of the median (0: none).
	Runs         int     `json:"runs,omitempty"`
	MinRuns      int     `json:"min_runs,omitempty"`
	MaxRuns      int     `json:"max_runs,omitempty"`
	Warmup       int     `json:"warmup,omitempty"`
	TimeBudgetNs int64   `json:"time_budget_ns,omitempty"`
	TimeoutNs    int64   `json:"timeout_ns,omitempty"`
	Precision    float64 `json:"precision,omitempty"`
	// Pin lists the CPUs the runs were pinned to, each run to one of them
	// in turn (the "cpu" metric says which).
	Pin []int `json:"pin,omitempty"`
	// IgnoreFailure is set when runs that exit non-zero were kept (-i);
	// IgnoreExitCodes lists the exit codes kept when only some were
	// (--ignore-failure=1,2; a run killed by signal N has code 128+N).
	IgnoreFailure   bool  `json:"ignore_failure,omitempty"`
	IgnoreExitCodes []int `json:"ignore_exit_codes,omitempty"`
	// Reference names the measurement the others are compared with (the
	// --reference command, benchmarked first, by its name); absent: the
	// fastest by median.
	Reference string `json:"reference,omitempty"`
	// Sort and TimeUnit are how the text and Markdown renderings were
	// asked to order the commands ("command", "mean-time", "median") and
	// in which time unit ("ns", "us", "ms", "s") to print them; readers
	// render the document the same way unless told otherwise.
	Sort     string `json:"sort,omitempty"`
	TimeUnit string `json:"time_unit,omitempty"`
	// Style is "hyperfine" when the text adds hyperfine's summary of the
	// comparison ("2.00 ± 0.05 times faster than", ratio of means) to
	// chrono's (--style hyperfine); absent otherwise.
	Style string `json:"style,omitempty"`
	// Simulated is set when no command was run (--debug-mode, for tests):
	// every run took the seconds its `sleep SECONDS` command names, on a
	// simulated clock. Such a document measures nothing.
	Simulated bool `json:"simulated,omitempty"`
	// Overhead is the start-up cost of the shell (or, with -N, of a
	// trivial program), measured interleaved with the runs.
	Overhead *CommandOverhead `json:"overhead,omitempty"`
	// Counters names the events counted in every run (--counters), in the
	// order asked, and where the counts come from.
	Counters *CommandCounters `json:"counters,omitempty"`
	// Unavailable lists the figures that were not measured, with the
	// reason: rusage figures on platforms without a per-child rusage,
	// events the host cannot count. They are never recorded as 0.
	Unavailable []Unavailable `json:"unavailable,omitempty"`
	// OwnCPU is chrono's own CPU time (user + system of all its threads,
	// getrusage RUSAGE_SELF, microsecond resolution) from the first
	// process started to the last reaped, for all commands together,
	// children excluded; absent where it cannot be read.
	OwnCPU *OwnCPU `json:"own_cpu,omitempty"`
	// ParentPeakRSSBytes is chrono's own peak RSS after the runs (Linux):
	// a child's max RSS at or below it may be chrono's memory counted for
	// the child (vfork). Absent where unknown.
	ParentPeakRSSBytes int64 `json:"parent_peak_rss_bytes,omitempty"`
	// Interrupted is set when the benchmark was interrupted (Ctrl-C,
	// SIGTERM); Error holds the failure that stopped it, if any.
	Interrupted bool   `json:"interrupted,omitempty"`
	Error       string `json:"error,omitempty"`
}

// CommandOverhead is the measured start-up overhead of a command
// benchmark.
type CommandOverhead struct {
	// Kind is "shell" (the shell with an empty command) or "spawn" (a
	// trivial program, true, with -N); Command is what was run.
	Kind    string `json:"kind"`
	Command string `json:"command"`
	// Subtracted says whether the median of each metric was subtracted
	// from the commands' runs (always for the shell; with
	// --subtract-spawn for spawn).
	Subtracted bool `json:"subtracted"`
	// Metrics are the overhead runs' "wall", "user", "sys" (ns) and
	// counters, one value per overhead run, in the order taken.
	Metrics []Metric `json:"metrics,omitempty"`
	// Unavailable gives the reason when it could not be measured.
	Unavailable string `json:"unavailable,omitempty"`
}

// Metric returns the overhead's metric with the given name, or nil.
func (o *CommandOverhead) Metric(name string) *Metric {
	for i := range o.Metrics {
		if o.Metrics[i].Name == name {
			return &o.Metrics[i]
		}
	}
	return nil
}

// CommandCounters describes the events counted in every run of a command
// benchmark.
type CommandCounters struct {
	// Events are the events asked for, in order; those counted in every
	// run of a command are metrics of its measurement.
	Events []string `json:"events"`
	// Source says where the counts come from (perf_event_open, the child
	// and its descendants from execve to exit).
	Source string `json:"source"`
}

// Unavailable is a figure that was not measured, and why.
type Unavailable struct {
	// Name is the metric or event.
	Name string `json:"name"`
	// Reason says why, and what would make it measurable.
	Reason string `json:"reason"`
	// Runs is how many runs lacked it, when some did and some did not
	// (0: every run).
	Runs int `json:"runs,omitempty"`
}

// OwnCPU is the CPU time a tool spent itself while starting and reaping
// processes.
type OwnCPU struct {
	// Ns is the CPU time (user + system of all threads) in ns, with the
	// microsecond resolution of getrusage; Processes the number of
	// processes started in that time.
	Ns        int64 `json:"ns"`
	Processes int   `json:"processes"`
}

// CommandDetail holds the details of one command of a command document.
type CommandDetail struct {
	// CommandLine is the command line after parameter substitution (the
	// measurement's name is the -n name when one was given); Argv the
	// argument list executed.
	CommandLine string   `json:"command_line"`
	Argv        []string `json:"argv"`
	// UnusedParameters names the parameters (of Measurement.Parameters)
	// that the command line does not contain; the measurement's name
	// ends with their values, as hyperfine names such commands:
	// "make (branch = main)".
	UnusedParameters []string `json:"unused_parameters,omitempty"`
	// Complete is set when the command has all the runs asked for.
	Complete bool `json:"complete"`
	// TimedOut lists the runs killed by the timeout: they have no values
	// in the metrics.
	TimedOut []TimedOutRun `json:"timed_out,omitempty"`
	// PrecisionReached says, with a precision target, whether the median's
	// interval got within it; absent without a target.
	PrecisionReached *bool `json:"precision_reached,omitempty"`
	// CPUsDiffer is set when the runs were pinned to several CPUs and the
	// wall medians of two of them (3 runs or more each) differ by more
	// than 5 %: the median's interval then spans every CPU's.
	CPUsDiffer bool `json:"cpus_differ,omitempty"`
	// Probes names the metrics that hold counted events (or figures of a
	// library user's probe), in order.
	Probes []string `json:"probes,omitempty"`
	// Derived are figures derived from the probes' means (IPC, miss
	// rates, CPUs utilized), as perf stat prints them.
	Derived []Derived `json:"derived,omitempty"`
}

// TimedOutRun is a run killed by the timeout.
type TimedOutRun struct {
	// Iteration is the run's index among the command's timing runs;
	// WallNs how long it ran before it was killed.
	Iteration int   `json:"iteration"`
	WallNs    int64 `json:"wall_ns"`
}

// Derived is a figure computed from the means of counts, such as
// instructions per cycle.
type Derived struct {
	// Name identifies it ("ipc", "branch_miss_rate", "cpus_utilized");
	// Value is the figure in Unit ("1" for ratios, "fraction" for rates
	// in [0, 1], "GHz", "CPUs").
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// Uncertainty is the half-width of its ~95 % interval, propagated from
	// the means' (0 when unknown: a single run).
	Uncertainty float64 `json:"uncertainty,omitempty"`
	// Label describes it as perf stat does ("insn per cycle"); Of names
	// the event it is shown next to.
	Label string `json:"label"`
	Of    string `json:"of"`
}

// upgradeCommandV1 maps the untyped details of a version 1 command
// document (chrono run before schema 2) onto CommandRun and
// CommandDetail, and drops the environment's warnings that version 1
// copied into the document's.
func upgradeCommandV1(o *documentV1, d *Document) {
	run := &CommandRun{}
	for i, om := range o.Measurements {
		m := &d.Measurements[i]
		det := om.Details
		if det == nil {
			continue
		}
		cd := &CommandDetail{CommandLine: v1String(det["command_line"]), Argv: v1Strings(det["argv"]), Complete: !om.Incomplete,
			Probes: v1Strings(det["counters"])}
		if b, ok := det["cpus_differ"].(bool); ok {
			cd.CPUsDiffer = b
		}
		for _, x := range v1Slice(det["timed_out_runs"]) {
			if t, ok := x.(map[string]any); ok {
				cd.TimedOut = append(cd.TimedOut, TimedOutRun{Iteration: int(v1Number(t["iteration"])), WallNs: int64(v1Number(t["wall_ns"]))})
			}
		}
		if p, ok := det["precision"].(map[string]any); ok {
			reached, _ := p["reached"].(bool)
			cd.PrecisionReached = &reached
			run.Precision = v1Number(p["target"])
		}
		for _, x := range v1Slice(det["counters_derived"]) {
			if t, ok := x.(map[string]any); ok {
				cd.Derived = append(cd.Derived, Derived{Name: v1String(t["name"]), Value: v1Number(t["value"]), Unit: v1String(t["unit"]),
					Label: v1String(t["label"]), Of: v1String(t["of"])})
			}
		}
		// Each run's CPU (--pin), when no run timed out (run_cpus is
		// indexed by the run's iteration, timeouts included).
		if cpus := v1Slice(det["run_cpus"]); len(cpus) > 0 && len(cd.TimedOut) == 0 {
			if w := m.Metric("wall"); w != nil && len(cpus) >= len(w.Values) {
				cm := Metric{Name: "cpu", Unit: UnitCPU, Resolution: 1}
				for j := range w.Values {
					cm.Values = append(cm.Values, v1Number(cpus[j]))
				}
				m.Metrics = append(m.Metrics, cm)
			}
		}
		m.Detail.Command = cd
		if i > 0 {
			continue
		}
		// The benchmark's own figures, repeated in every measurement.
		run.Order, run.Seed = v1String(det["order"]), uint64(v1Number(det["seed"]))
		run.ParentPeakRSSBytes = int64(v1Number(det["parent_peak_rss_bytes"]))
		if oc, ok := det["own_cpu"].(map[string]any); ok {
			run.OwnCPU = &OwnCPU{Ns: int64(v1Number(oc["ns"])), Processes: int(v1Number(oc["processes"]))}
		}
		for _, kind := range []string{"shell", "spawn"} {
			ov, ok := det[kind+"_overhead"].(map[string]any)
			if !ok {
				continue
			}
			sub, _ := ov["subtracted"].(bool)
			co := &CommandOverhead{Kind: kind, Command: v1String(ov["command"]), Subtracted: sub, Unavailable: v1String(ov["unavailable"])}
			if ws := v1Slice(ov["wall_values_ns"]); len(ws) > 0 {
				w := Metric{Name: "wall", Unit: UnitNs}
				for _, x := range ws {
					w.Values = append(w.Values, v1Number(x))
				}
				co.Metrics = []Metric{w}
			}
			run.Overhead = co
		}
		if src := v1String(det["counters_source"]); src != "" {
			run.Counters = &CommandCounters{Source: src, Events: cd.Probes}
		}
	}
	d.Run.Command = run
	if d.Environment != nil {
		env := map[string]bool{}
		for _, w := range d.Environment.Warnings {
			env[w.Message] = true
		}
		var ws []warn.Warning
		for _, w := range d.Warnings {
			if !env[w.Message] {
				ws = append(ws, w)
			}
		}
		d.Warnings = ws
	}
}

func v1String(v any) string {
	s, _ := v.(string)
	return s
}

func v1Number(v any) float64 {
	f, _ := v.(float64)
	return f
}

func v1Slice(v any) []any {
	s, _ := v.([]any)
	return s
}

func v1Strings(v any) []string {
	var out []string
	for _, x := range v1Slice(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
