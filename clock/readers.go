package clock

import "fmt"

// Fast readers of the POSIX clocks.
//
// On linux/amd64 each reads its clock through the kernel's vDSO, as C's
// clock_gettime does: about 20-30 ns with clocksource tsc, and the COARSE
// clocks 3-6 ns (figures of the VMs this was measured on; run
// scripts/clocks-vs-c.sh for this host's, next to C's). The error is
// nil there except for a kernel that lacks the clock (CLOCK_TAI before
// Linux 3.10). Two cases cost a system call instead (0.3-1.5 µs):
//
//   - a host without a vDSO (the kernel did not map one), and
//   - a clocksource the vDSO cannot read (hpet, acpi_pm, kvm-clock
//     without its stable bit): the vDSO then makes the system call
//     itself, in C programs too. `chrono clocks` (Probe) detects this and
//     labels the clock "syscall".
//
// On linux/arm64 (and other Linux architectures) they make the
// clock_gettime system call: there the Go runtime's signal handler could
// not find the goroutine of a signal arriving during a vDSO call made
// outside the runtime (see vdso_linux_other.go). On darwin the clocks darwin has are read through
// libc; the Linux-only clocks (COARSE, BOOTTIME, TAI) and every clock on
// other systems return an error wrapping ErrUnavailable.
//
// Elapsed-time clocks return a time.Duration since an unspecified origin
// (boot, for Linux); subtract two readings of the same clock. Wall clocks
// return nanoseconds since the Unix epoch (time.Unix(0, ns) converts).

//go:noinline
func readError(name string, e int32) error {
	return fmt.Errorf("clock: reading %s: %w", name, errnoError(e))
}
