package result

// CountersRun holds the details of a counters document as a whole.
type CountersRun struct{}

// CountersDetail holds the details of one measurement of a counters document.
type CountersDetail struct{}
