package result

import "github.com/chronograph/chronograph/clock"

// The kinds of documents, and of the measurements in them.
const (
	KindCommand  = "command"  // chrono run: whole commands
	KindCounters = "counters" // chrono stat: performance counters of a command
	KindFunction = "function" // package bench: Go functions
	KindSleep    = "sleep"    // chrono sleep: accuracy of waiting mechanisms
	KindLatency  = "latency"  // chrono latency: wake-up latency (cyclictest)
	KindClocks   = "clocks"   // chrono clocks: the clocks of the host
	KindNumbers  = "numbers"  // chrono numbers: a summary of numbers
	KindEnv      = "env"      // chrono env: the environment alone
	KindHistory  = "history"  // chrono history: stored runs over time, change points
	// KindPulses (pulses.go): chrono pulses, timing read from a capture.
)

// KindRun holds the kind-level details of a document: at most one field
// is set, the one of the document's Kind. Each kind's type is defined in
// its own file of this package (command.go, function.go, ...), but the
// clocks kind's, which package clock defines (clock.Host, clock.Measured:
// clock stands alone, and this package holds its outcome as it is).
type KindRun struct {
	Command  *CommandRun  `json:"command,omitempty"`
	Counters *CountersRun `json:"counters,omitempty"`
	Function *FunctionRun `json:"function,omitempty"`
	Sleep    *SleepRun    `json:"sleep,omitempty"`
	Latency  *LatencyRun  `json:"latency,omitempty"`
	Clocks   *clock.Host  `json:"clocks,omitempty"`
	Numbers  *NumbersRun  `json:"numbers,omitempty"`
	Trace    *TraceRun    `json:"trace,omitempty"`
	History  *HistoryRun  `json:"history,omitempty"`
	Pulses   *PulsesRun   `json:"pulses,omitempty"`
}

// KindDetail holds the kind-specific details of one measurement: at most
// one field is set, the one of the document's Kind.
type KindDetail struct {
	Command  *CommandDetail  `json:"command,omitempty"`
	Counters *CountersDetail `json:"counters,omitempty"`
	Function *FunctionDetail `json:"function,omitempty"`
	Sleep    *SleepDetail    `json:"sleep,omitempty"`
	Latency  *LatencyDetail  `json:"latency,omitempty"`
	Clock    *clock.Measured `json:"clock,omitempty"`
	Numbers  *NumbersDetail  `json:"numbers,omitempty"`
	Trace    *TraceDetail    `json:"trace,omitempty"`
	Scope    *ScopeDetail    `json:"scope,omitempty"`
	History  *HistoryDetail  `json:"history,omitempty"`
	Pulses   *PulsesDetail   `json:"pulses,omitempty"`
}
