// Package warn defines chronograph's one warning type: a condition that
// weakens a measurement, kept as data from the package that notices it
// (stats, env, bench, run, delay, ...) all the way into the result
// document and every rendering of it.
//
// A Warning carries a stable Code that programs can match, a Severity,
// a Message that says what was seen, and Next, the step that fixes or
// avoids it. Messages and steps are one line each, lowercase, without a
// final period.
//
// warn only holds warnings: it does not decide when a condition is worth
// one (the package that sees it does) or print them (package report),
// and it imports nothing but the standard library.
package warn

import "strings"

// Severity says how much a warning matters.
type Severity string

const (
	// Warn: the condition spoils or may spoil the figures.
	Warn Severity = "warning"
	// Note: worth knowing, but the figures stand.
	Note Severity = "note"
)

// Warning is a condition that weakens a result.
type Warning struct {
	// Code is a stable, machine-readable identifier, e.g. "outliers",
	// "governor", "cpu-speed-differs".
	Code string `json:"code"`
	// Severity is Warn or Note.
	Severity Severity `json:"severity"`
	// Message says what was seen.
	Message string `json:"message"`
	// Next says what to do about it; empty only when nothing can be done.
	Next string `json:"next,omitempty"`
}

// New returns a Warning of severity Warn.
func New(code, message, next string) Warning {
	return Warning{Code: code, Severity: Warn, Message: message, Next: next}
}

// NewNote returns a Warning of severity Note.
func NewNote(code, message, next string) Warning {
	return Warning{Code: code, Severity: Note, Message: message, Next: next}
}

// String is the warning as one line: the message, then the next step
// after a semicolon.
func (w Warning) String() string {
	if w.Next == "" {
		return w.Message
	}
	return w.Message + "; " + w.Next
}

// Error returns String, so that a Warning can travel as an error.
func (w Warning) Error() string { return w.String() }

// Has reports whether ws holds a warning with the given code.
func Has(ws []Warning, code string) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}

// Dedup returns ws without repeats (same code and message), in order.
func Dedup(ws []Warning) []Warning {
	var out []Warning
	seen := map[string]bool{}
	for _, w := range ws {
		k := w.Code + "\x00" + strings.TrimSpace(w.Message)
		if !seen[k] {
			seen[k] = true
			out = append(out, w)
		}
	}
	return out
}
