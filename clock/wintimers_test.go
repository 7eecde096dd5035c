package clock

import (
	"errors"
	"math"
	"math/big"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestQPCToNanos: QPC ticks to ns, exactly, at Windows's frequencies.
func TestQPCToNanos(t *testing.T) {
	tests := []struct {
		ticks, hz, want int64
	}{
		{0, 10_000_000, 0},
		{1, 10_000_000, 100},
		{864_000_000_000, 10_000_000, 86_400_000_000_000}, // a day
		{3_579_545, 3_579_545, 1_000_000_000},             // ACPI PM: a second
		{1, 3_579_545, 279},                               // 279.36 ns, rounded down
		{14_318_180 * 3600, 14_318_180, 3600 * 1_000_000_000},
		{2_531_250 * 86400 * 365, 2_531_250, 365 * 86400 * 1_000_000_000}, // a year at TSC/1024 (2.592 GHz)
		{math.MaxInt64, 3_579_545, math.MaxInt64},
	}
	for _, tt := range tests {
		if got := qpcToNanos(tt.ticks, tt.hz); got != tt.want {
			t.Errorf("qpcToNanos(%d, %d) = %d, want %d", tt.ticks, tt.hz, got, tt.want)
		}
	}
}

// TestQPCToNanosExact: the conversion is floor(ticks·1e9/hz), checked
// against big integers at the frequencies Windows uses (10 MHz, the
// TSC's, the ACPI PM timer's) and at counter values up to 2^62.
func TestQPCToNanosExact(t *testing.T) {
	for _, hz := range []int64{10_000_000, 3_579_545, 2_400_000_000, 1} {
		for _, ticks := range []int64{0, 1, 99, 10_000_000, 1 << 40, 1 << 62 / 1_000_000_000} {
			want := new(big.Int).Mul(big.NewInt(ticks), big.NewInt(1e9))
			want.Quo(want, big.NewInt(hz))
			if !want.IsInt64() {
				continue // beyond int64 ns: centuries of uptime
			}
			if got := qpcToNanos(ticks, hz); got != want.Int64() {
				t.Errorf("qpcToNanos(%d, %d) = %d, want %v", ticks, hz, got, want)
			}
		}
	}
}

// TestFileTimeUnixNanos: a FILETIME (100 ns since 1601) as ns since 1970.
func TestFileTimeUnixNanos(t *testing.T) {
	tests := []struct {
		ft   int64
		want time.Time
	}{
		{116444736000000000, time.Unix(0, 0)},
		{116444736000000001, time.Unix(0, 100)},
		{133485408000000000, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		if got := time.Unix(0, fileTimeUnixNanos(tt.ft)); !got.Equal(tt.want) {
			t.Errorf("fileTimeUnixNanos(%d) = %v, want %v", tt.ft, got.UTC(), tt.want)
		}
	}
}

// TestQPCReading: what a QPC frequency suggests of its source.
func TestQPCReading(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name      string
		qpcHz     int64
		tscHz     uint64
		invariant *bool
		wine      string
		want      string
	}{
		{"windows 10, invariant TSC", 10_000_000, 2_592_000_000, &yes, "", "QPC reads the TSC, scaled"},
		{"10 MHz, TSC not invariant", 10_000_000, 2_592_000_000, &no, "", "not known to be invariant"},
		{"10 MHz, invariance unknown", 10_000_000, 2_592_000_000, nil, "", "not known to be invariant"},
		{"windows 7: TSC/1024", 2_531_250, 2_592_000_000, &yes, "", "divided by 1024"},
		{"ACPI PM", 3_579_545, 2_592_000_000, &yes, "", "ACPI PM timer"},
		{"HPET", 14_318_180, 2_592_000_000, &yes, "", "HPET"},
		{"wine", 10_000_000, 2_592_000_000, &yes, "8.0", "Wine 8.0"},
		{"unknown", 1_000_000, 2_592_000_000, &yes, "", "no known source"},
	}
	for _, tt := range tests {
		if got := qpcReading(tt.qpcHz, tt.tscHz, tt.invariant, tt.wine); !strings.Contains(got, tt.want) {
			t.Errorf("%s: qpcReading = %q, want it to say %q", tt.name, got, tt.want)
		}
	}
}

// TestWindowsReadersElsewhere: off Windows the Windows readers fail with
// ErrUnavailable, and a survey has no Windows part.
func TestWindowsReadersElsewhere(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the Windows readers are tested in sources_windows_test.go")
	}
	if _, err := QPC(); !errors.Is(err, ErrUnavailable) {
		t.Errorf("QPC() error %v, want ErrUnavailable", err)
	}
	if _, err := ThreadCycles(); !errors.Is(err, ErrUnavailable) {
		t.Errorf("ThreadCycles() error %v, want ErrUnavailable", err)
	}
	var h Host
	platformHost(&h)
	if h.Windows != nil {
		t.Errorf("platformHost set Windows = %+v off Windows", h.Windows)
	}
}
