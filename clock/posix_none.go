//go:build !linux && !darwin

package clock

import (
	"fmt"
	"runtime"
)

// id is -1: there is no clock_gettime here.
func (POSIX) id() int32 { return -1 }

var errNoPOSIX = fmt.Errorf("clock: no POSIX clock_gettime on %s: %w", runtime.GOOS, ErrUnavailable)

func clockGettime(int32) (int64, error) { return 0, errNoPOSIX }
func clockCall(int32) (int64, int32)    { return 0, -1 }
func clockGettimeN(int32, int) int64    { return 0 }
func clockGetres(int32) (int64, error)  { return 0, errNoPOSIX }

func errnoError(int32) error { return errNoPOSIX }
