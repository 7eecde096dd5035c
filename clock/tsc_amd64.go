//go:build amd64

package clock

import (
	"errors"

	"github.com/chronograph/chronograph/internal/cpuid"
)

// Implemented in tsc_amd64.s.
func rdtsc() uint64
func rdtscFenced() uint64
func rdtscp() (ticks uint64, aux uint32)

// x86 holds the CPUID facts this package uses, read once.
type x86 struct {
	maxLeaf, maxExt uint32
	tsc             bool // CPUID 1 EDX[4]
	rdtscp          bool // CPUID 0x80000001 EDX[27]
	invariant       bool // CPUID 0x80000007 EDX[8]
	invariantKnown  bool
	crystalHz       uint32 // CPUID 0x15 ECX
	ratioNum        uint32 // CPUID 0x15 EBX
	ratioDen        uint32 // CPUID 0x15 EAX
	baseMHz         uint32 // CPUID 0x16 EAX
}

// facts is read once at package initialization (CPUID costs ~100 ns, far
// more in a VM, where it traps to the hypervisor), so that TSC, TSCFenced
// and TSCP cost a load and a branch on top of the instruction.
var facts = readX86()

func cpuFacts() *x86 { return &facts }

func readX86() x86 {
	var f x86
	f.maxLeaf, _, _, _ = cpuid.Read(0, 0)
	if f.maxLeaf >= 1 {
		_, _, _, edx := cpuid.Read(1, 0)
		f.tsc = edx&(1<<4) != 0
	}
	if f.maxLeaf >= 0x15 {
		f.ratioDen, f.ratioNum, f.crystalHz, _ = cpuid.Read(0x15, 0)
	}
	if f.maxLeaf >= 0x16 {
		eax, _, _, _ := cpuid.Read(0x16, 0)
		f.baseMHz = eax & 0xffff
	}
	f.maxExt, _, _, _ = cpuid.Read(0x80000000, 0)
	if f.maxExt >= 0x80000001 {
		_, _, _, edx := cpuid.Read(0x80000001, 0)
		f.rdtscp = edx&(1<<27) != 0
	}
	if f.maxExt >= 0x80000007 {
		_, _, _, edx := cpuid.Read(0x80000007, 0)
		f.invariant, f.invariantKnown = edx&(1<<8) != 0, true
	}
	return f
}

func tscAvailable() error {
	if !cpuFacts().tsc {
		return errors.New("clock: this CPU has no timestamp counter (CPUID 1 EDX[4] is clear)")
	}
	return nil
}

func tscRead() uint64 {
	if !facts.tsc {
		return 0
	}
	return rdtsc()
}

func tscReadFenced() uint64 {
	if !facts.tsc {
		return 0
	}
	return rdtscFenced()
}

func tscReadP() (uint64, uint32) {
	if !facts.tsc {
		return 0, NoCPU
	}
	if !facts.rdtscp {
		return rdtscFenced(), NoCPU
	}
	t, aux := rdtscp()
	return t, aux & 0xfff
}

func tscInvariant() (bool, bool) {
	f := cpuFacts()
	return f.invariant, f.invariantKnown
}

func cpuid16hMHz() uint32 { return cpuFacts().baseMHz }

// tscHardwareHz returns the frequency CPUID leaf 0x15 states exactly
// (crystal Hz * EBX / EAX), or 0 when any of the three is zero, as on AMD
// CPUs and in most virtual machines.
func tscHardwareHz() (uint64, string) {
	f := cpuFacts()
	if f.crystalHz == 0 || f.ratioNum == 0 || f.ratioDen == 0 {
		return 0, ""
	}
	return uint64(f.crystalHz) * uint64(f.ratioNum) / uint64(f.ratioDen), fromCPUID15h
}

func counterSources() []Source {
	f := cpuFacts()
	var err error
	if !f.tsc {
		err = tscAvailable()
	}
	rdtscpErr := err
	if err == nil && !f.rdtscp {
		rdtscpErr = errors.New("clock: this CPU has no RDTSCP instruction (CPUID 0x80000001 EDX[27] is clear)")
	}
	return []Source{
		counter{name: "rdtsc", desc: "RDTSC, unordered", err: err, read: rdtsc,
			loop: func(n int) (v uint64) {
				for range n {
					v = rdtsc()
				}
				return v
			}},
		counter{name: "lfence;rdtsc", desc: "LFENCE;RDTSC, after earlier instructions", ordered: true, err: err, read: rdtscFenced,
			loop: func(n int) (v uint64) {
				for range n {
					v = rdtscFenced()
				}
				return v
			}},
		counter{name: "rdtscp", desc: "RDTSCP, ordered, with the CPU id", ordered: true, err: rdtscpErr,
			read: func() uint64 { t, _ := rdtscp(); return t },
			loop: func(n int) (v uint64) {
				for range n {
					v, _ = rdtscp()
				}
				return v
			}},
	}
}
