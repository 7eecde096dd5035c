//go:build !linux && !windows

package thread

import (
	"errors"
	"runtime"
)

// errUnsupported says why thread settings are unavailable here.
var errUnsupported = errors.New("thread: CPU affinity, SCHED_FIFO and timer slack are Linux features, not available on " + runtime.GOOS)

// OnMain is false where the main thread cannot be told apart.
func OnMain() bool { return false }

// MaxCPU is the highest CPU number Pin would accept.
const MaxCPU = 1023

// Pin is unavailable off Linux.
func Pin(cpus ...int) error { return errUnsupported }

// Allowed is unavailable off Linux.
func Allowed() ([]int, error) { return nil, errUnsupported }

// SetFIFO is unavailable off Linux.
func SetFIFO(priority int) error { return errUnsupported }

// SetTimerSlack is unavailable off Linux.
func SetTimerSlack(ns int64) error { return errUnsupported }

// TimerSlack is unavailable off Linux.
func TimerSlack() (int64, error) { return 0, errUnsupported }
