//go:build linux

package run

import (
	"os"
	"strconv"
	"strings"
)

// LiveGroupMembers returns the pids of the processes in process group
// pgid that are alive (not zombies), from /proc. It lets tests and callers
// check that a benchmark left no process behind.
func LiveGroupMembers(pgid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// selfPeakRSS returns this process's peak RSS (VmHWM) in bytes, or -1.
// Linux accounts the parent's peak RSS to a child started with vfork
// (CLONE_VM, as Go's os.StartProcess does) in the child's ru_maxrss, so
// a child's max RSS at or below this value may be the parent's, not its own.
func selfPeakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			if n, err := strconv.ParseInt(f[0], 10, 64); err == nil && len(f) == 2 && f[1] == "kB" {
				return n * 1024
			}
		}
	}
	return -1
}
