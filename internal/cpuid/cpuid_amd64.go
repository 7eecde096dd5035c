package cpuid

// Supported reports whether this architecture has the CPUID instruction.
const Supported = true

// Read executes CPUID with EAX=leaf and ECX=sub and returns the four
// registers it sets. (CPUID costs about 100 ns, far more in a virtual
// machine, where it traps to the hypervisor: read a leaf once.)
func Read(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
