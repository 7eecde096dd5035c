//go:build !linux

package run

// LiveGroupMembers returns nil: listing a process group's members needs
// /proc, which only Linux has here.
func LiveGroupMembers(pgid int) []int { return nil }
