//go:build linux

package clock

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/chronograph/chronograph/internal/kernel"
)

const tscFreqKHzPath = "/sys/devices/system/cpu/cpu0/tsc_freq_khz"

// kernelTSCHz returns the TSC frequency the kernel uses, from (in order)
// /sys/devices/system/cpu/cpu0/tsc_freq_khz (present with some drivers),
// the kernel log (syslog(2), as dmesg reads it; needs CAP_SYSLOG when
// kernel.dmesg_restrict is 1), and the log files /var/log/kern.log and
// /var/log/dmesg. /proc/cpuinfo "cpu MHz" is the current core clock, not
// the TSC frequency, and is not used. The error says why none was readable.
func kernelTSCHz() (KernelTSC, error) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "386" {
		// The kernel's "tsc:" lines describe an x86 TSC; under an
		// emulator (qemu-user) they are the host's, not this counter's.
		return KernelTSC{}, fmt.Errorf("clock: the kernel reports a TSC frequency only on x86; on %s the counter's frequency comes from the hardware (CNTFRQ_EL0 on arm64): %w",
			runtime.GOARCH, ErrUnavailable)
	}
	var why []string
	if b, err := os.ReadFile(tscFreqKHzPath); err == nil {
		s := strings.TrimSpace(string(b))
		if khz, err := strconv.ParseUint(s, 10, 64); err == nil && khz > 0 {
			hz := float64(khz) * 1e3
			return KernelTSC{Hz: hz, From: tscFreqKHzPath, Line: s + " kHz", ResolutionPPM: 500 / hz * 1e6}, nil
		}
		why = append(why, tscFreqKHzPath+" is not a number")
	} else {
		why = append(why, tscFreqKHzPath+" is absent")
	}

	if buf, err := readKernelLog(); err == nil {
		k, ok, err := parseKernelLog(bytes.NewReader(buf), "kernel log (syslog(2), as dmesg)")
		if err == nil && ok {
			return k, nil
		}
		why = append(why, "the kernel log has no \"tsc: Refined TSC clocksource calibration\" or \"tsc: Detected ... MHz\" line (it may have wrapped)")
	} else {
		why = append(why, err.Error())
	}

	for _, path := range []string{"/var/log/kern.log", "/var/log/dmesg"} {
		f, err := os.Open(path)
		if err != nil {
			why = append(why, path+" is not readable")
			continue
		}
		k, ok, err := parseKernelLog(f, path)
		f.Close()
		if err == nil && ok {
			return k, nil
		}
		why = append(why, path+" has no tsc line")
	}
	return KernelTSC{}, fmt.Errorf("clock: the kernel's TSC frequency is not readable: %s (run as root, or with CAP_SYSLOG, to read the kernel log)", strings.Join(why, "; "))
}

// readKernelLog returns the kernel ring buffer, as `dmesg` reads it.
func readKernelLog() ([]byte, error) {
	buf, err := kernel.Log()
	if err != nil {
		if errors.Is(err, unix.EPERM) {
			return nil, fmt.Errorf("the kernel log is restricted (kernel.dmesg_restrict=1 needs CAP_SYSLOG): %w", err)
		}
		return nil, fmt.Errorf("reading the kernel log: %w", err)
	}
	return buf, nil
}

const clocksourceDir = "/sys/devices/system/clocksource/clocksource0/"

// readClocksource returns the kernel's current and available clocksources.
func readClocksource() (Clocksource, error) {
	cur, err := os.ReadFile(clocksourceDir + "current_clocksource")
	if err != nil {
		return Clocksource{}, fmt.Errorf("clock: reading the current clocksource: %w", err)
	}
	cs := Clocksource{Current: strings.TrimSpace(string(cur))}
	if av, err := os.ReadFile(clocksourceDir + "available_clocksource"); err == nil {
		cs.Available = strings.Fields(string(av))
	}
	return cs, nil
}
