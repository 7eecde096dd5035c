//go:build !amd64

package env

// cpuidFunc is cpuid where the architecture has it, else nil.
var cpuidFunc func(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
