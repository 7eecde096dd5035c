package env

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// signatureCPUID answers CPUID like a guest whose leaf 0x40000000 carries
// the given 12-byte vendor signature.
func signatureCPUID(sig string) func(leaf, sub uint32) (eax, ebx, ecx, edx uint32) {
	return func(leaf, sub uint32) (eax, ebx, ecx, edx uint32) {
		switch leaf {
		case 1:
			return 0, 0, 1 << 31, 0
		case 0x40000000:
			b := []byte(sig)
			return 0x40000001, binary.LittleEndian.Uint32(b[0:]), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
		}
		return 0, 0, 0, 0
	}
}

func TestHypervisorSources(t *testing.T) {
	pvmLog := "<6>[    0.000000] Linux version 6.6.0\n<6>[    0.000000] Hypervisor detected: PVM\n<6>[    0.000008] clocksource: kvm-clock: mask\n"
	tests := []struct {
		name         string
		sig          string
		log          string
		logErr       error
		vendor, from string
		other        []string
		reason       string
	}{
		// The host of the report: the kernel said PVM, CPUID said bhyve.
		{name: "kernel and cpuid disagree", sig: "bhyve bhyve ", log: pvmLog,
			vendor: "PVM", from: "kernel log", other: []string{"bhyve (from cpuid 0x40000000)"}},
		{name: "kernel and cpuid agree", sig: "KVMKVMKVM\x00\x00\x00", log: "[    0.000000] Hypervisor detected: KVM\n",
			vendor: "KVM", from: "kernel log"},
		{name: "kernel log restricted", sig: "KVMKVMKVM\x00\x00\x00", logErr: errors.New("env: reading the kernel log: operation not permitted"),
			vendor: "KVM", from: "cpuid 0x40000000"},
		{name: "kernel log wrapped", sig: "Microsoft Hv", log: "[ 9999.1] eth0: link up\n",
			vendor: "Microsoft Hyper-V", from: "cpuid 0x40000000"},
		{name: "Xen HVM and xen", sig: "XenVMMXenVMM", log: "Hypervisor detected: Xen HVM\n",
			vendor: "Xen HVM", from: "kernel log"},
		// Nothing names it but DMI (the kvm tree's QEMU machine).
		{name: "unknown signature, no log", sig: "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", logErr: errors.New("env: no log"),
			vendor: "KVM", from: "dmi"},
	}
	for _, tt := range tests {
		p := fixtureProbes(2, signatureCPUID(tt.sig))
		p.kernelLog = func() ([]byte, error) { return []byte(tt.log), tt.logErr }
		h := captureFrom(filepath.Join("testdata", "kvm"), p)
		c := h.CPU
		if c.Hypervisor == nil || !*c.Hypervisor || c.HypervisorVendor != tt.vendor || c.HypervisorSource != tt.from ||
			strings.Join(c.HypervisorOther, "|") != strings.Join(tt.other, "|") {
			t.Errorf("%s: hypervisor %v %q from %q, other %q; want %q from %q, other %q", tt.name,
				c.Hypervisor, c.HypervisorVendor, c.HypervisorSource, c.HypervisorOther, tt.vendor, tt.from, tt.other)
		}
	}
}

func TestHypervisorFromKernelLog(t *testing.T) {
	for log, want := range map[string]string{
		"<6>[    0.000000] Hypervisor detected: KVM\n":                "KVM",
		"[0.0] Hypervisor detected: Microsoft Hyper-V\n[1.0] other\n": "Microsoft Hyper-V",
		"Hypervisor detected: Xen PV\nHypervisor detected: Xen HVM\n": "Xen HVM", // the last one
		"[0.0] tsc: Detected 2596.150 MHz processor\n":                "",
		"": "",
		"[    0.000000] Hypervisor detected: PVM   \r\n[ 0.1] clocksource: tsc": "PVM",
	} {
		if got := hypervisorFromKernelLog(log); got != want {
			t.Errorf("%q: %q, want %q", log, got, want)
		}
	}
}
