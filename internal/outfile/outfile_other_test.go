//go:build !unix

package outfile

import "testing"

// TestDeviceName: Windows device names, as Windows reads them (any case,
// in any directory, with an extension), are written in place.
func TestDeviceName(t *testing.T) {
	for _, c := range []struct {
		path string
		want bool
	}{
		{"NUL", true}, {"nul", true}, {`C:\out\NUL.json`, true}, {"CON", true}, {"con:", true},
		{"COM1", true}, {"LPT9", true}, {"CONOUT$", true}, {`\\.\pipe\chrono`, true},
		{"COM0", false}, {"NULL", false}, {"a.json", false}, {`C:\nul\a.json`, false},
	} {
		if got := deviceName(c.path); got != c.want {
			t.Errorf("deviceName(%q) = %v, want %v", c.path, got, c.want)
		}
	}
	if !InPlace("NUL") {
		t.Error("InPlace(NUL) = false")
	}
}
