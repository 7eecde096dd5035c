//go:build !linux

package bench

// threadUsage is unavailable on this platform.
func threadUsage() (usage, bool) { return usage{}, false }
