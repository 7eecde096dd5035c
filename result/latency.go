package result

// LatencyRun holds the details of a latency document as a whole.
type LatencyRun struct{}

// LatencyDetail holds the details of one measurement of a latency document.
type LatencyDetail struct{}
