package run

import "fmt"

// UsageError is an error caused by the options or command lines given
// (a bad count, a quoting mistake, a parameter that no command uses), as
// opposed to a failure while measuring. chrono exits with 2 for it.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// usagef returns a *UsageError with a formatted message.
func usagef(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}
