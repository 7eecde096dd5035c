package result

// FunctionRun holds the details of a function document as a whole.
type FunctionRun struct{}

// FunctionDetail holds the details of one measurement of a function document.
type FunctionDetail struct{}
