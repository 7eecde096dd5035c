package main

import (
	"slices"
	"strings"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/thread"
)

// allowedCPUs returns the CPUs this process may run on (its affinity);
// tests replace it.
var allowedCPUs = thread.Allowed

// parsePin parses the CPU list of a pinning flag (run's and sleep's
// --pin, latency's -a/--affinity) that was given: the kernel's format,
// not empty, no CPU twice, every CPU one that this process may run on,
// as allowedCPUs says (unchecked where it cannot say: off Linux, where
// pinning itself says why it cannot be done). The CPUs come sorted.
func parsePin(flag, s string, given bool) ([]int, error) {
	if !given {
		return nil, nil
	}
	allowed, err := allowedCPUs()
	if err != nil {
		allowed = nil
	}
	return checkCPUList(flag, s, allowed)
}

// checkCPUList is parsePin's check against the CPUs allowed (nil:
// unknown), each refusal a usage error that says what to give.
func checkCPUList(flag, s string, allowed []int) ([]int, error) {
	may := ""
	if allowed != nil {
		may = " (this process may use CPUs " + env.FormatCPUList(allowed) + ")"
	}
	if strings.TrimSpace(s) == "" {
		return nil, usagef("%s %q is not a CPU list: it is empty (an unset variable?); give CPUs like 0,1 or 0-3%s, or leave %s out", flag, s, may, flag)
	}
	cpus, err := env.ParseCPUList(s)
	if err != nil || len(cpus) == 0 {
		return nil, usagef("%s %q is not a CPU list: write CPUs like 0,1 or 0-3%s", flag, s, may)
	}
	// ParseCPUList merges what the parts repeat; a flag's value that
	// names a CPU twice (0,0 or 0-3,2) is a mistake.
	seen := map[int]bool{}
	for part := range strings.SplitSeq(s, ",") {
		xs, _ := env.ParseCPUList(part)
		for _, c := range xs {
			if seen[c] {
				return nil, usagef("%s %q names CPU %d twice: give each CPU once, e.g. %s %s", flag, s, c, flag, env.FormatCPUList(cpus))
			}
			seen[c] = true
		}
	}
	if allowed != nil {
		for _, c := range cpus {
			if !slices.Contains(allowed, c) {
				return nil, usagef("%s %q: this process may not run on CPU %d: it may use CPUs %s (its affinity: see nproc, taskset -p $$); pick CPUs among those", flag, s, c, env.FormatCPUList(allowed))
			}
		}
	}
	return cpus, nil
}
