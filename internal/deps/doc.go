// Package deps holds no code: its test checks which modules each of
// chronograph's packages links (go list -deps), so that the packages a
// program imports to measure stay light — no plotting, PDF, database or
// browser code in a benchmark binary — and the heavy ones (report,
// history) keep to their own jobs. See DESIGN.md's layout.
package deps
