package counters

import (
	"os"
	"strings"
	"testing"
)

func TestParseCachegrind(t *testing.T) {
	f, err := os.Open("testdata/cachegrind.out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ParseCachegrind(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"instructions": 20145310, "I1mr": 1012, "ILmr": 987, "Dr": 41023, "D1mr": 1580, "DLmr": 1221, "Dw": 17876, "D1mw": 780, "DLmw": 651}
	if len(r.Counts) != len(CachegrindEvents) || r.Source != SourceCachegrind {
		t.Fatalf("got %d counts from %q", len(r.Counts), r.Source)
	}
	for i, c := range r.Counts {
		if c.Event.Name != CachegrindEvents[i] || c.Value != want[c.Event.Name] || !c.IsCounted() || c.Event.Kind != Simulated {
			t.Errorf("count %d = %+v, want %s = %v", i, c, CachegrindEvents[i], want[CachegrindEvents[i]])
		}
	}
	d := r.derived(0)
	found := false
	for _, x := range d {
		if x.Name == "i1_miss_rate" {
			found = true
			if x.Value != 1012.0/20145310 {
				t.Errorf("i1_miss_rate = %v", x.Value)
			}
		}
	}
	if !found {
		t.Errorf("no simulated miss rates in %+v", d)
	}
	bad := []struct{ in, want string }{
		{"summary: 1 2\n", `no "events:" line`},
		{"events: Ir\n", `no "summary:" line`},
		{"events: Ir\nsummary: 1 2\n", "2 totals for 1 event"},
		{"events: Ir\nsummary: x\n", "is not a count"},
	}
	for _, tt := range bad {
		_, err := ParseCachegrind(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseCachegrind(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
	// Trailing zero totals may be omitted.
	r, err = ParseCachegrind(strings.NewReader("events: Ir I1mr\nsummary: 7\n"))
	if err != nil || len(r.Counts) != 2 || r.Counts[1].Value != 0 || !r.Counts[1].IsCounted() {
		t.Errorf("omitted trailing total: %+v %v", r, err)
	}
}
