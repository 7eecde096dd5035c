//go:build !linux

package run

// LiveGroupMembers returns nil: listing a process group's members needs
// /proc, which only Linux has here.
func LiveGroupMembers(pgid int) []int { return nil }

// selfPeakRSS returns -1: not needed off Linux (see procs_linux.go).
func selfPeakRSS() int64 { return -1 }
