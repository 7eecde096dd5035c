package result

// ProfileTrace is where a change of a measurement went: the
// differential CPU profile of its two sides (pprof's -diff_base, new −
// old, each side divided by the iterations it covers), the functions
// whose time changed most first. chrono history check records one under
// each regression it finds (HistoryChange.Trace), from the profiles the
// store keeps of the runs on either side; package compare makes it
// (compare.Trace.Record).
type ProfileTrace struct {
	// Note says why there is no differential profile (no profiles on a
	// side, profiles that cannot be compared), in one line; the other
	// fields are then empty.
	Note string `json:"note,omitempty"`
	// Unit is the unit of the figures: "nanoseconds" (CPU time) or
	// "count" (profiler samples); each figure is per Per ("run": a
	// command's profiled runs; "iteration": a benchmark's iterations).
	Unit string `json:"unit,omitempty"`
	Per  string `json:"per,omitempty"`
	// BaseIterations and NewIterations are how many iterations (of Per)
	// the old and new side's profiles cover in all.
	BaseIterations float64 `json:"base_iterations,omitempty"`
	NewIterations  float64 `json:"new_iterations,omitempty"`
	// BaseRuns and NewRuns are the store's runs whose profiles were
	// merged on either side (each run weighted equally), in time order;
	// absent outside a history.
	BaseRuns []int64 `json:"base_runs,omitempty"`
	NewRuns  []int64 `json:"new_runs,omitempty"`
	// Resolution is the step of the figures, in Unit per Per: one
	// profiler sample's worth of the coarser side.
	Resolution float64 `json:"resolution,omitempty"`
	// Total is the whole profile's time per Per on either side.
	Total *ProfileChange `json:"total,omitempty"`
	// Funcs are the functions whose flat or cumulative time changed
	// most, the largest flat change first (at most ten), and MoreFuncs
	// counts the others whose time changed.
	Funcs     []ProfileFuncChange `json:"funcs,omitempty"`
	MoreFuncs int                 `json:"more_funcs,omitempty"`
}

// ProfileChange is one figure of a differential profile, per iteration,
// before and after the change.
type ProfileChange struct {
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Delta is After − Before; Share is Delta over the whole profile's
	// change (0 when the total did not change).
	Delta float64 `json:"delta"`
	Share float64 `json:"share"`
}

// ProfileFuncChange is how one function's time per iteration changed:
// Flat in the function itself, Cum in it and what it calls.
type ProfileFuncChange struct {
	Name string        `json:"name"`
	Flat ProfileChange `json:"flat"`
	Cum  ProfileChange `json:"cum"`
}
