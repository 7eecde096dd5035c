// Package wine says whether this program runs under Wine, the Windows
// compatibility layer chronograph's Windows tests run under in CI: what a
// test or a document shows there is Wine's behaviour, not Windows's (Go's
// time.Now updates coarsely, timer resolution, thread priority and a
// child's CPU times are not real). It is the one place that detects Wine.
package wine

// Version returns Wine's version (as wine --version prints it, "8.0")
// and true when this program is a Windows program running under Wine;
// "", false on real Windows and on every other platform. Wine's ntdll
// exports wine_get_version, Windows's does not.
func Version() (string, bool) { return version() }
