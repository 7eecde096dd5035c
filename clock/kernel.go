package clock

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// KernelTSC is the TSC frequency the kernel reports.
type KernelTSC struct {
	// Hz is the frequency in ticks per second.
	Hz float64 `json:"hz"`
	// From says where the figure was read (a file or the kernel log).
	From string `json:"from"`
	// Line is the text the figure was parsed from, without the spaces
	// around it.
	Line string `json:"line"`
	// ResolutionPPM is half a unit of the last printed digit, relative to
	// Hz: the figure cannot be trusted to better than that.
	ResolutionPPM float64 `json:"resolution_ppm"`
}

// Clocksource is the kernel's clock source for timekeeping.
type Clocksource struct {
	// Current is the clocksource in use ("tsc", "kvm-clock", "hpet", ...).
	Current string `json:"current"`
	// Available lists the clocksources the kernel could switch to.
	Available []string `json:"available"`
}

var (
	refinedRE = regexp.MustCompile(`tsc: Refined TSC clocksource calibration: ([0-9]+)\.([0-9]+) MHz`)
	// syslogPrefix is the "<6>" priority that syslog(2) puts before each line.
	syslogPrefix = regexp.MustCompile(`^<[0-9]+>`)
	detectedRE   = regexp.MustCompile(`tsc: Detected ([0-9]+)\.([0-9]+) MHz`)
)

// parseKernelLog finds the kernel's TSC frequency in kernel log text: the
// last "tsc: Refined TSC clocksource calibration: X MHz" line if any (the
// final figure the kernel uses), else the last "tsc: Detected X MHz" line
// (the early figure, final when the frequency is known from the
// hardware or the hypervisor). ok is false when neither is present.
func parseKernelLog(r io.Reader, from string) (k KernelTSC, ok bool, err error) {
	var refined, detected KernelTSC
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := syslogPrefix.ReplaceAllString(sc.Text(), "")
		if m := refinedRE.FindStringSubmatch(line); m != nil {
			if v, ok := mhzToTSC(m[1], m[2], line, from); ok {
				refined = v
			}
		} else if m := detectedRE.FindStringSubmatch(line); m != nil {
			if v, ok := mhzToTSC(m[1], m[2], line, from); ok {
				detected = v
			}
		}
	}
	if err := sc.Err(); err != nil {
		return KernelTSC{}, false, fmt.Errorf("clock: reading %s: %w", from, err)
	}
	if refined.Hz != 0 {
		return refined, true, nil
	}
	return detected, detected.Hz != 0, nil
}

// mhzToTSC turns "2445" "432" (MHz) into Hz without float rounding of the
// digits.
func mhzToTSC(whole, frac, line, from string) (KernelTSC, bool) {
	if len(frac) > 6 {
		frac = frac[:6]
	}
	digits, err := strconv.ParseUint(whole+frac, 10, 64)
	if err != nil || digits == 0 {
		return KernelTSC{}, false
	}
	scale := 1e6
	for range len(frac) {
		scale /= 10
	}
	hz := float64(digits) * scale
	return KernelTSC{Hz: hz, From: from, Line: strings.TrimSpace(line), ResolutionPPM: scale / 2 / hz * 1e6}, true
}
