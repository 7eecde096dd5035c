package counters

import (
	"fmt"
	"os/exec"
)

// Availability says which counters this host can give, and why not.
type Availability struct {
	// Software is true when software events (task-clock, page-faults,
	// ...) can be counted; SoftwareReason says why not.
	Software       bool   `json:"software"`
	SoftwareReason string `json:"software_reason,omitempty"`
	// Hardware is true when hardware events (cycles, instructions) can be
	// counted; HardwareReason says why not. HardwareUserOnly is set when
	// they can be counted in user space only (perf_event_paranoid).
	Hardware         bool   `json:"hardware"`
	HardwareUserOnly bool   `json:"hardware_user_only,omitempty"`
	HardwareReason   string `json:"hardware_reason,omitempty"`
	// Paranoid is kernel.perf_event_paranoid, when ParanoidKnown.
	Paranoid      int  `json:"perf_event_paranoid"`
	ParanoidKnown bool `json:"perf_event_paranoid_known"`
	// UserRead is true when the CPU allows user-space counter reads
	// (cap_user_rdpmc); UserReadReason says why not (or, when true, that
	// chronograph uses read(2) regardless).
	UserRead       bool   `json:"user_rdpmc"`
	UserReadReason string `json:"user_rdpmc_reason"`
	// Valgrind is the path of valgrind, for simulated instruction counts
	// (cachegrind mode); ValgrindReason says why it cannot be used.
	Valgrind       string `json:"valgrind,omitempty"`
	ValgrindReason string `json:"valgrind_reason,omitempty"`
}

// Summary is a one-line description of the availability, for display.
func (a Availability) Summary() string {
	hw := "hardware counters: yes"
	if !a.Hardware {
		hw = "hardware counters: no (" + a.HardwareReason + ")"
	} else if a.HardwareUserOnly {
		hw = "hardware counters: user space only (" + a.HardwareReason + ")"
	}
	sw := "software counters: yes"
	if !a.Software {
		sw = "software counters: no (" + a.SoftwareReason + ")"
	}
	return hw + "; " + sw
}

// Available probes the counters of this host by opening (and closing)
// task-clock and cycles on the calling thread; it counts nothing and
// takes well under a millisecond.
func Available() Availability {
	var a Availability
	if lv, err := paranoidLevel(); err == nil {
		a.Paranoid, a.ParanoidKnown = lv, true
	}
	sw, _ := ParseEvents("task-clock")
	if g, err := OpenThread(sw, Options{}); err != nil {
		a.SoftwareReason = g.failed[0].Reason
		g.Close()
	} else {
		a.Software = true
		g.Close()
	}
	hw, _ := ParseEvents("cycles")
	g, err := OpenThread(hw, Options{})
	if err != nil {
		a.HardwareReason = g.failed[0].Reason
		a.UserReadReason = a.HardwareReason
	} else {
		a.Hardware = true
		m := g.sets[0].members[0]
		if m.userOnly {
			a.HardwareUserOnly = true
			a.HardwareReason = m.note
		}
		a.UserRead, a.UserReadReason = g.userRead()
	}
	g.Close()
	if p, err := exec.LookPath("valgrind"); err == nil {
		a.Valgrind = p
	} else {
		a.ValgrindReason = fmt.Sprintf("valgrind not found (%v): install it (e.g. apt-get install valgrind) for simulated instruction counts", err)
	}
	return a
}
