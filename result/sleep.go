package result

// SleepRun holds the details of a sleep document as a whole.
type SleepRun struct{}

// SleepDetail holds the details of one measurement of a sleep document.
type SleepDetail struct{}
