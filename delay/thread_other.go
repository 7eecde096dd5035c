//go:build !linux

package delay

// onMainThread reports whether the calling thread is the process's main
// thread. Elsewhere delay changes no thread settings, so it does not
// matter which thread f runs on.
func onMainThread() bool { return false }
