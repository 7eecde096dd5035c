package cpuid

import "testing"

// TestRead: where CPUID exists, leaf 0 names the vendor in EBX, EDX, ECX
// (12 printable bytes) and the highest leaf, at least 1; elsewhere every
// register is zero.
func TestRead(t *testing.T) {
	top, ebx, ecx, edx := Read(0, 0)
	if !Supported {
		if top|ebx|ecx|edx != 0 {
			t.Errorf("Read without CPUID = %#x %#x %#x %#x, want zeros", top, ebx, ecx, edx)
		}
		return
	}
	var vendor []byte
	for _, r := range []uint32{ebx, edx, ecx} {
		vendor = append(vendor, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	for _, c := range vendor {
		if c < ' ' || c > '~' {
			t.Fatalf("vendor %q is not 12 printable bytes", vendor)
		}
	}
	if top < 1 {
		t.Errorf("highest leaf %d (vendor %q): every x86-64 CPU has leaf 1", top, vendor)
	}
}
