package result

// A counters document (kind "counters", chrono stat) has one measurement:
// the command, run one or more times. Its metrics hold one value per run,
// in run order:
//
//   - one metric per event counted in every run, named as perf names it
//     ("task-clock", "instructions", "page-faults"; valgrind's simulated
//     instruction count is "instructions" too), in the event's unit ("ns"
//     for task-clock and cpu-clock, else "count"), resolution 1;
//   - "NAME_running" (unit "1") for an event the kernel multiplexed in
//     some run: the fraction of each run it was counted in (1: all of
//     it), by which its count was scaled up;
//   - "wall" (ns, resolution 1): elapsed time of each run on the monotonic
//     clock (under valgrind, the time of the simulation);
//   - "user", "sys" (ns, resolution 1000 on Unix): the run's CPU times
//     from its rusage;
//   - "exit_code" (unit "1"): the run's exit status, -1 when a signal
//     ended it.
//
// An event counted in no run or in only some runs has no metric (its
// values would not line up with the runs): CountersDetail.Events says what
// happened to it, and never records a 0.

// CountersRun holds the details of a counters document as a whole.
type CountersRun struct {
	// Source says where the counts come from: perf_event_open (the
	// command and its descendants, from execve to exit) or valgrind's
	// cachegrind (a simulated CPU with fixed caches, the command and the
	// processes it starts).
	Source string `json:"source"`
	// Events are the events asked for, in order; Runs the number of runs
	// asked for (the metrics hold the runs made).
	Events []string `json:"events"`
	Runs   int      `json:"runs"`
	// ReadCostNs is the mean cost of one read(2) of a counter group on
	// this host, in ns (perf mode; absent when not measured).
	ReadCostNs float64 `json:"read_cost_ns,omitempty"`
	// UserRead says whether the CPU allows user-space counter reads
	// (rdpmc), and UserReadReason why or why not (perf mode).
	UserRead       bool   `json:"user_rdpmc,omitempty"`
	UserReadReason string `json:"user_rdpmc_reason,omitempty"`
	// Interrupted is set when the runs were interrupted (Ctrl-C,
	// SIGTERM): the metrics hold the runs that finished.
	Interrupted bool `json:"interrupted,omitempty"`
}

// CountersDetail holds the details of the measurement of a counters
// document.
type CountersDetail struct {
	// Argv is the command run.
	Argv []string `json:"argv"`
	// Events says, for every event asked for and in that order, whether it
	// was counted.
	Events []CounterEvent `json:"events"`
	// Derived are figures derived from the means (IPC, miss rates, GHz,
	// CPUs utilized), as perf stat prints them.
	Derived []Derived `json:"derived,omitempty"`
}

// The states of a CounterEvent.
const (
	// CounterCounted: counted in every run (its values are the metric of
	// the same name).
	CounterCounted = "counted"
	// CounterPartly: counted in some runs only (left out of the metrics).
	CounterPartly = "partly counted"
	// CounterNotCounted: opened, but never on a counter while enabled.
	CounterNotCounted = "not counted"
	// CounterNotSupported: this host cannot count it (no PMU, no
	// permission, unknown to the CPU).
	CounterNotSupported = "not supported"
)

// CounterEvent is what happened to one event of a counters document.
type CounterEvent struct {
	// Name is perf's name of the event (with ":u" or ":k").
	Name string `json:"name"`
	// State is one of the Counter* constants; CountedRuns how many runs
	// counted it; Reason why the others did not.
	State       string `json:"state"`
	CountedRuns int    `json:"counted_runs"`
	Reason      string `json:"reason,omitempty"`
	// UserOnly is set when the kernel allowed counting user space only.
	UserOnly bool `json:"user_only,omitempty"`
	// Description says what a simulated event counts.
	Description string `json:"description,omitempty"`
}

// upgradeCountersV1 maps the untyped details of a version 1 counters
// document (chrono stat before schema 2) onto CountersRun and
// CountersDetail; cachegrind's "Ir" becomes "instructions", as version 2
// names it.
func upgradeCountersV1(o *documentV1, d *Document) {
	run := &CountersRun{}
	for i, om := range o.Measurements {
		m := &d.Measurements[i]
		det := om.Details
		if det == nil {
			continue
		}
		cd := &CountersDetail{}
		for j := range m.Metrics {
			met := &m.Metrics[j]
			if met.Name == "Ir" {
				met.Name = "instructions"
				if m.Primary == "Ir" {
					m.Primary = "instructions"
				}
			}
			switch met.Name {
			case "wall", "user", "sys":
				continue
			}
			cd.Events = append(cd.Events, CounterEvent{Name: met.Name, State: CounterCounted, CountedRuns: len(met.Values)})
		}
		for _, x := range v1Slice(det["unavailable"]) {
			u, ok := x.(map[string]any)
			if !ok {
				continue
			}
			state := CounterNotSupported
			n := int(v1Number(u["counted_runs"]))
			switch {
			case n > 0:
				state = CounterPartly
			case v1String(u["state"]) == "<not counted>":
				state = CounterNotCounted
			}
			cd.Events = append(cd.Events, CounterEvent{Name: v1String(u["event"]), State: state, CountedRuns: n, Reason: v1String(u["reason"])})
		}
		for _, x := range v1Slice(det["derived"]) {
			if t, ok := x.(map[string]any); ok {
				cd.Derived = append(cd.Derived, Derived{Name: v1String(t["name"]), Value: v1Number(t["value"]), Unit: v1String(t["unit"]),
					Label: v1String(t["label"]), Of: v1String(t["of"])})
			}
		}
		m.Detail.Counters = cd
		if i == 0 {
			run.Source = v1String(det["source"])
			run.Runs = int(v1Number(det["runs"]))
			run.ReadCostNs = v1Number(det["read_cost_ns"])
			run.UserRead, _ = det["user_rdpmc"].(bool)
			run.UserReadReason = v1String(det["user_rdpmc_reason"])
			for _, e := range cd.Events {
				run.Events = append(run.Events, e.Name)
			}
		}
	}
	d.Run.Counters = run
}
