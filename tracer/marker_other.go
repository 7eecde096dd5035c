//go:build !linux

package tracer

import (
	"fmt"
	"runtime"
)

// markerPaths is empty: tracefs exists on Linux only.
var markerPaths []string

var errNoTracefs = fmt.Errorf("tracer: trace_marker (tracefs) is Linux only; %s has none", runtime.GOOS)
