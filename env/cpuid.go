package env

import (
	"encoding/binary"
	"strings"

	"github.com/chronograph/chronograph/internal/cpuid"
)

// cpuidFunc is the CPUID instruction where the architecture has it, else
// nil.
var cpuidFunc = func() func(leaf, sub uint32) (eax, ebx, ecx, edx uint32) {
	if cpuid.Supported {
		return cpuid.Read
	}
	return nil
}()

// cpuidHypervisor names the hypervisor of the vendor signature of CPUID
// leaf 0x40000000 (EBX, ECX, EDX), or "" when it is empty. Call it only
// when leaf 1 sets the hypervisor bit.
func cpuidHypervisor(read func(leaf, sub uint32) (eax, ebx, ecx, edx uint32)) string {
	_, b, c, d := read(0x40000000, 0)
	var sig [12]byte
	binary.LittleEndian.PutUint32(sig[0:], b)
	binary.LittleEndian.PutUint32(sig[4:], c)
	binary.LittleEndian.PutUint32(sig[8:], d)
	return hypervisorFromSignature(string(sig[:]))
}

// cpuidFacts reads the vendor, the brand string and the hypervisor from
// CPUID, as Linux's /proc/cpuinfo shows them.
func cpuidFacts(h *Host, read func(leaf, sub uint32) (eax, ebx, ecx, edx uint32)) {
	maxLeaf, b, c, d := read(0, 0)
	h.CPU.Vendor = regs(b, d, c)
	if maxLeaf >= 1 {
		_, _, ecx, _ := read(1, 0)
		on := ecx&(1<<31) != 0
		h.CPU.Hypervisor = &on
		if on {
			if name := cpuidHypervisor(read); name != "" {
				h.CPU.HypervisorVendor, h.CPU.HypervisorSource = name, "cpuid 0x40000000"
			}
		}
	}
	if maxExt, _, _, _ := read(0x80000000, 0); maxExt >= 0x80000004 {
		var brand strings.Builder
		for leaf := uint32(0x80000002); leaf <= 0x80000004; leaf++ {
			a, b, c, d := read(leaf, 0)
			brand.WriteString(regs(a, b, c, d))
		}
		h.CPU.Model = strings.TrimSpace(strings.TrimRight(brand.String(), "\x00"))
	}
}

// regs is the text of registers in the given order, 4 bytes each.
func regs(r ...uint32) string {
	var b strings.Builder
	for _, v := range r {
		for i := range 4 {
			b.WriteByte(byte(v >> (8 * i)))
		}
	}
	return strings.TrimRight(b.String(), "\x00")
}
