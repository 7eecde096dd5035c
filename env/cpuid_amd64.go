package env

// cpuid executes the CPUID instruction with EAX=leaf and ECX=sub.
//
//go:noescape
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// cpuidFunc is cpuid where the architecture has it, else nil.
var cpuidFunc = cpuid
