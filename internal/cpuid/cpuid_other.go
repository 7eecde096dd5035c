//go:build !amd64

package cpuid

// Supported reports whether this architecture has the CPUID instruction.
const Supported = false

// Read returns zeros: this architecture has no CPUID instruction.
func Read(leaf, sub uint32) (eax, ebx, ecx, edx uint32) { return 0, 0, 0, 0 }
