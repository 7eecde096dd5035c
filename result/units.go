package result

// The units a Metric may have. A figure's unit lives in its metric, not in
// its name: "wall" in "ns", not "wall_ns".
const (
	// UnitNs: nanoseconds (durations).
	UnitNs = "ns"
	// UnitNsPerOp: nanoseconds per operation (Go function benchmarks).
	UnitNsPerOp = "ns/op"
	// UnitBytes: bytes (memory sizes).
	UnitBytes = "bytes"
	// UnitBytesPerOp: bytes per operation (allocated memory).
	UnitBytesPerOp = "bytes/op"
	// UnitCount: a number of events (page faults, instructions, context
	// switches).
	UnitCount = "count"
	// UnitCountPerOp: events per operation (allocations, instructions).
	UnitCountPerOp = "count/op"
	// UnitOne: a dimensionless figure (a ratio, IPC, a fraction).
	UnitOne = "1"
	// UnitCPU: the number of a CPU (where a sample ran).
	UnitCPU = "cpu"
	// UnitHz: cycles per second (a frequency).
	UnitHz = "Hz"
)

// units lists every unit a Metric may have, in the order of the schema.
var units = []string{UnitNs, UnitNsPerOp, UnitBytes, UnitBytesPerOp, UnitCount, UnitCountPerOp, UnitOne, UnitCPU, UnitHz}

// ValidUnit reports whether u is one of the Unit constants.
func ValidUnit(u string) bool {
	for _, x := range units {
		if x == u {
			return true
		}
	}
	return false
}
