//go:build darwin

package run

// maxRSSUnit converts ru_maxrss to bytes: darwin reports bytes.
const maxRSSUnit = 1
