package wine

import (
	"os"
	"runtime"
	"testing"
)

// TestVersion: outside Windows there is no Wine to detect; under Wine the
// version is Wine's. CHRONO_WINE_VERSION, set by scripts/wine's exec
// wrapper to what wine --version said, makes the check exact there.
func TestVersion(t *testing.T) {
	v, ok := Version()
	want, under := os.LookupEnv("CHRONO_WINE_VERSION")
	switch {
	case runtime.GOOS != "windows":
		if ok || v != "" {
			t.Errorf("Version() = %q, %v on %s, want \"\", false", v, ok, runtime.GOOS)
		}
	case under:
		if !ok || v != want {
			t.Errorf("Version() = %q, %v under wine %s, want %q, true", v, ok, want, want)
		}
	default:
		t.Logf("Version() = %q, %v (not run through scripts/wine, so not checked)", v, ok)
	}
}
