//go:build unix && !darwin

package run

// maxRSSUnit converts ru_maxrss to bytes: Linux and the BSDs report KiB.
const maxRSSUnit = 1024
