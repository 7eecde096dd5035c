//go:build !linux

package counters

import (
	"errors"
	"runtime"
)

var errNoPerf = errors.New("counters: hardware and software counters need Linux perf_event_open; not available on " + runtime.GOOS)

func sysOpen(attrSpec, int) (int, uint64, error) { return -1, 0, errNoPerf }
func sysGroupIoctl(int, ioctlOp) error           { return errNoPerf }
func sysRead(int, []byte) (int, error)           { return 0, errNoPerf }
func sysClose(int) error                         { return nil }
func isPermissionError(error) bool               { return false }
func openErrorReason(_ Event, err error) string  { return err.Error() }
func paranoidLevel() (int, error)                { return 0, errNoPerf }
func rdpmcStatus(int) (bool, string) {
	return false, "perf_event_open is Linux only; not available on " + runtime.GOOS
}
