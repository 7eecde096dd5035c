package result

// NumbersRun holds the details of a numbers document as a whole.
type NumbersRun struct{}

// NumbersDetail holds the details of one measurement of a numbers document.
type NumbersDetail struct{}
