package capture_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/capture"
)

// afterCtx is a context whose Err reports cancellation from its n-th
// call on: an interruption at the same point of the reading on any machine.
type afterCtx struct {
	context.Context
	n int
}

func (c *afterCtx) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// pulseTrain is a VCD of n pulses on channel a (high 3 ticks, low 7),
// its changes listed one per line; upto > 0 keeps only the first upto
// changes and no end time after them.
func pulseTrain(n, upto int) string {
	var b strings.Builder
	b.WriteString("$timescale 1 ns $end\n$var wire 1 ! a $end\n$enddefinitions $end\n")
	changes := 0
	emit := func(tm int, v byte) bool {
		if upto > 0 && changes == upto {
			return false
		}
		fmt.Fprintf(&b, "#%d\n%c!\n", tm, v)
		changes++
		return true
	}
	if !emit(0, '0') {
		return b.String()
	}
	for i := 0; i < n; i++ {
		if !emit(10*i+5, '1') || !emit(10*i+8, '0') {
			return b.String()
		}
	}
	fmt.Fprintf(&b, "#%d\n", 10*n+5)
	return b.String()
}

func analyzeCtx(t *testing.T, ctx context.Context, text string) (*capture.Analysis, error) {
	t.Helper()
	r, err := capture.NewReader(strings.NewReader(text), capture.VCD)
	if err != nil {
		t.Fatal(err)
	}
	return capture.AnalyzeContext(ctx, r, capture.Spec{Channels: []string{"a"}})
}

// TestAnalyzeInterrupted: a reading whose context ends stops within a
// few thousand changes and returns, with the context's error, the
// analysis of exactly the changes it read: equal, figure for figure, to
// the analysis of a capture that ends at the last of them.
func TestAnalyzeInterrupted(t *testing.T) {
	full := pulseTrain(10000, 0)
	// The context is looked at every 4096 changes: cancelled at its
	// second look, the reading stops before the 8192nd change.
	a, err := analyzeCtx(t, &afterCtx{Context: context.Background(), n: 1}, full)
	if !errors.Is(err, context.Canceled) || a == nil || !a.Interrupted {
		t.Fatalf("error %v, analysis %+v: want the interrupted analysis and context.Canceled", err, a)
	}
	if a.Changes != 8191 {
		t.Fatalf("%d changes read, want 8191", a.Changes)
	}
	want, err := analyzeCtx(t, context.Background(), pulseTrain(10000, 8191))
	if err != nil {
		t.Fatal(err)
	}
	if want.Interrupted || want.Changes != 8191 {
		t.Fatalf("the truncated capture: %d changes, interrupted %v", want.Changes, want.Interrupted)
	}
	want.Interrupted = true
	if !reflect.DeepEqual(a, want) {
		t.Errorf("interrupted analysis\n%+v\nwant that of the capture up to its last change\n%+v", a, want)
	}
	// 8191 changes: the first level and 4095 pulses, the last falling at
	// 40948, the end; a change at the end is no edge yet (the level after
	// it lasts no tick), so the last pulse is open: 4094 high widths.
	if a.End != 40948 || len(a.Channels[0].High.Values) != 4094 {
		t.Errorf("end %d, %d high widths: want 40948 and 4094", a.End, len(a.Channels[0].High.Values))
	}
	// Not cancelled: the whole capture, not marked.
	b, err := analyzeCtx(t, context.Background(), full)
	if err != nil || b.Interrupted || b.Changes != 20001 || b.End != 100005 {
		t.Errorf("whole capture: error %v, interrupted %v, %d changes, end %d", err, b.Interrupted, b.Changes, b.End)
	}
}
