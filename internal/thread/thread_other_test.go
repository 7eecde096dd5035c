//go:build !linux && !windows

package thread

import "testing"

// TestUnsupported: off Linux and windows every setting says it is
// unavailable.
func TestUnsupported(t *testing.T) {
	if err := Pin(0); err == nil {
		t.Error("Pin succeeded")
	}
	if _, err := Allowed(); err == nil {
		t.Error("Allowed succeeded")
	}
	if err := SetFIFO(1); err == nil {
		t.Error("SetFIFO succeeded")
	}
}
