package result

// CommandRun holds the details of a command document as a whole.
type CommandRun struct{}

// CommandDetail holds the details of one measurement of a command document.
type CommandDetail struct{}
