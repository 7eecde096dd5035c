//go:build arm64

package clock

// fromCNTFRQ is the Info.Source of a frequency read from the arm64
// CNTFRQ_EL0 register, exact.
const fromCNTFRQ = "cntfrq_el0"

// Implemented in tsc_arm64.s.
func cntvct() uint64
func cntvctOrdered() uint64
func cntfrq() uint64

func tscAvailable() error { return nil }

func tscRead() uint64 { return cntvct() }

func tscReadFenced() uint64 { return cntvctOrdered() }

// tscReadP: arm64 has no RDTSCP equivalent that returns the CPU.
func tscReadP() (uint64, uint32) { return cntvctOrdered(), NoCPU }

// tscInvariant: the Armv8 generic timer runs at the fixed CNTFRQ_EL0
// rate by architecture.
func tscInvariant() (bool, bool) { return true, true }

func cpuid16hMHz() uint32 { return 0 }

// tscHardwareHz returns CNTFRQ_EL0, set by firmware and exact by
// definition of the counter (0 if firmware left it unset).
func tscHardwareHz() (uint64, string) {
	if hz := cntfrq(); hz != 0 {
		return hz, fromCNTFRQ
	}
	return 0, ""
}

func counterSources() []Source {
	return []Source{
		counter{name: "cntvct_el0", desc: "MRS CNTVCT_EL0, unordered", read: cntvct,
			loop: func(n int) (v uint64) {
				for range n {
					v = cntvct()
				}
				return v
			}},
		counter{name: "isb;cntvct_el0", desc: "ISB; MRS CNTVCT_EL0, after earlier instructions", ordered: true, read: cntvctOrdered,
			loop: func(n int) (v uint64) {
				for range n {
					v = cntvctOrdered()
				}
				return v
			}},
	}
}
