//go:build linux

package tracer

import "errors"

// markerPaths are where tracefs's trace_marker is usually found.
var markerPaths = []string{"/sys/kernel/tracing/trace_marker", "/sys/kernel/debug/tracing/trace_marker"}

var errNoTracefs = errors.New("tracer: no trace_marker path given")
