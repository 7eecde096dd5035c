package result

// ClocksRun holds the details of a clocks document as a whole.
type ClocksRun struct{}

// ClockDetail holds the details of one measurement of a clocks document.
type ClockDetail struct{}
