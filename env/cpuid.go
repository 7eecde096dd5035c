package env

import "github.com/chronograph/chronograph/internal/cpuid"

// cpuidFunc is the CPUID instruction where the architecture has it, else
// nil.
var cpuidFunc = func() func(leaf, sub uint32) (eax, ebx, ecx, edx uint32) {
	if cpuid.Supported {
		return cpuid.Read
	}
	return nil
}()
