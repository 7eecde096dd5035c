//go:build !windows

package wintimer

import (
	"errors"
	"runtime"
)

var errNotWindows = errors.New("wintimer: NtQueryTimerResolution is Windows's, not available on " + runtime.GOOS)

func query() (Resolution, error) { return Resolution{}, errNotWindows }
