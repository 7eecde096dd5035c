package scope

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"expvar"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/chronograph/chronograph/result"
)

func TestBucketLayoutMatchesHDR(t *testing.T) {
	h := hdrhistogram.New(1, 1<<maxBits, 2)
	for _, v := range []uint64{0, 1, 255, 256, 257, 511, 512, 1000, 12345, 1 << 20, 1<<20 + 1, 1e9, 1<<maxBits - 1} {
		i := bucketOf(v)
		lo := bucketLow(i)
		if lo > v || (i+1 < nBuckets && bucketLow(i+1) <= v) {
			t.Errorf("value %d: bucket %d = [%d, %d)", v, i, lo, bucketLow(i+1))
		}
		if !h.ValuesAreEquivalent(int64(lo), int64(v)) {
			t.Errorf("value %d and its bucket's low %d are not in the same HDR bucket", v, lo)
		}
	}
	if bucketOf(1<<maxBits) != nBuckets-1 || bucketOf(^uint64(0)) != nBuckets-1 {
		t.Error("values from 2^maxBits ns on must land in the top bucket")
	}
	// Every bucket starts where the previous one ends.
	for i := 1; i < nBuckets; i++ {
		if bucketOf(bucketLow(i)) != i || bucketOf(bucketLow(i)-1) != i-1 {
			t.Fatalf("bucket %d: low %d is not contiguous", i, bucketLow(i))
		}
	}
}

func TestRecordAndSnapshot(t *testing.T) {
	var r Registry
	s := r.Get("parse")
	if r.Get("parse") != s {
		t.Fatal("Get returned a second scope for the same name")
	}
	// 1..100 µs, each once: exact count, total, min, max; percentiles
	// within a bucket (0.78 %).
	for i := 1; i <= 100; i++ {
		s.Record(time.Duration(i) * time.Microsecond)
	}
	s.Record(-5) // counts as 0
	st := s.Snapshot()
	if st.Count != 101 || st.Total != 5050*time.Microsecond || st.Min != 0 || st.Max != 100*time.Microsecond {
		t.Errorf("exact figures: %+v", st)
	}
	near := func(name string, got, want time.Duration) {
		if d := float64(got-want) / float64(want); d < -0.01 || d > 0.01 {
			t.Errorf("%s = %v, want %v within 1 %%", name, got, want)
		}
	}
	near("p50", st.P50, 50*time.Microsecond)
	near("p90", st.P90, 90*time.Microsecond)
	near("p99", st.P99, 99*time.Microsecond)
	if st.Histogram.TotalCount() != 101 {
		t.Errorf("histogram count %d", st.Histogram.TotalCount())
	}
	if st.Mean != 5050*time.Microsecond/101 {
		t.Errorf("mean %v", st.Mean)
	}
	empty := r.Get("empty").Snapshot()
	if empty.Count != 0 || empty.P50 != 0 || empty.Min != 0 {
		t.Errorf("empty scope: %+v", empty)
	}
	all := r.Snapshot()
	if len(all) != 2 || all[0].Name != "empty" || all[1].Name != "parse" {
		t.Errorf("registry snapshot order: %v", all)
	}
	var z Timing
	if z.Stop() != 0 {
		t.Error("zero Timing")
	}
	if d := r.Start("parse").Stop(); d < 0 {
		t.Error("negative duration")
	}
	if s.Snapshot().Count != 102 {
		t.Error("Start/Stop did not record")
	}
}

func TestConcurrentRecording(t *testing.T) {
	var r Registry
	s := r.Get("hot")
	const goroutines, each = 8, 2000
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				s.Record(time.Duration(g*each + i))
				if i%500 == 0 {
					_ = s.Snapshot() // readers while writing
				}
			}
		}()
	}
	wg.Wait()
	st := s.Snapshot()
	n := goroutines * each
	if st.Count != uint64(n) || st.Total != time.Duration(n*(n-1)/2) || st.Min != 0 || st.Max != time.Duration(n-1) {
		t.Errorf("after %d concurrent records: %+v", n, st)
	}
}

func TestMeasure(t *testing.T) {
	var r Registry
	s := r.Get("m")
	v, d := Measure(s, func() int { return 42 })
	if v != 42 || d < 0 {
		t.Errorf("Measure = %d, %v", v, d)
	}
	_, _, err := MeasureErr(s, func() (string, error) { return "", errors.New("boom") })
	if err == nil || err.Error() != "boom" {
		t.Errorf("MeasureErr error = %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r != "inner" {
				t.Errorf("recovered %v, want the original panic value", r)
			}
		}()
		Measure(s, func() int { panic("inner") })
	}()
	func() {
		defer func() { recover() }()
		MeasureErr(s, func() (int, error) { panic("again") })
	}()
	st := s.Snapshot()
	if st.Count != 2 || st.Errors != 1 || st.Panics != 2 || st.PanicTime < 0 {
		t.Errorf("stats %+v", st)
	}
	if !strings.Contains(st.String(), "errors=1") || !strings.Contains(st.String(), "panics=2") {
		t.Errorf("String() = %s", st)
	}
}

func TestSlog(t *testing.T) {
	var r Registry
	r.Get("a").Record(1500 * time.Nanosecond)
	r.Get("idle")
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	r.Log(context.Background(), logger, slog.LevelInfo)
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatalf("one JSON record expected (idle scopes are skipped): %v\n%s", err, buf.String())
	}
	if rec["msg"] != "scope" || rec["scope"] != "a" || rec["count"] != 1.0 || rec["max"] != 1500.0 || rec["total"] != 1500.0 {
		t.Errorf("record %v", rec)
	}
	if err := r.LogEvery(context.Background(), logger, slog.LevelInfo, time.Microsecond); err == nil {
		t.Error("a 1 µs interval must be refused")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.LogEvery(ctx, logger, slog.LevelInfo, time.Second); err != nil {
		t.Error(err)
	}
}

func TestExpvar(t *testing.T) {
	var r Registry
	r.Get("q").Record(2 * time.Microsecond)
	name := fmt.Sprintf("scope_test_%d", time.Now().UnixNano())
	if err := r.Publish(name); err != nil {
		t.Fatal(err)
	}
	if err := r.Publish(name); err == nil || !strings.Contains(err.Error(), "already published") {
		t.Errorf("second Publish: %v", err)
	}
	var m map[string]map[string]float64
	if err := json.Unmarshal([]byte(expvar.Get(name).String()), &m); err != nil {
		t.Fatal(err)
	}
	if q := m["q"]; q["count"] != 1 || q["max_ns"] != 2000 || q["total_ns"] != 2000 || q["min_ns"] != 2000 {
		t.Errorf("expvar %v", m)
	}
}

func TestDocument(t *testing.T) {
	var r Registry
	r.Get("b").Record(3 * time.Microsecond)
	r.Get("c")
	d := Document(result.Meta{Tool: result.Tool{Name: "test", Version: "1"}}, r.Snapshot())
	if d.Kind != "scope" || len(d.Measurements) != 2 {
		t.Fatalf("document %+v", d)
	}
	b := d.Measurements[0]
	if b.Name != "b" || b.Primary != "duration" {
		t.Errorf("measurement %+v", b)
	}
	if sd := b.Detail.Scope; sd == nil || sd.Count != 1 || sd.TotalNs != 3000 {
		t.Errorf("detail %+v", b.Detail.Scope)
	}
	m := b.Metric("duration")
	if m == nil || m.Histogram == nil || m.Histogram.Total() != 1 || m.Histogram.Min != 3000 || m.Histogram.Max != 3000 || m.Percentiles["p50"] != 3000 {
		t.Errorf("duration metric %+v", m)
	}
	c := d.Measurements[1]
	if c.Primary != "" || len(c.Warnings) != 1 || len(c.Metrics) != 0 || c.Detail.Scope.Count != 0 {
		t.Errorf("empty scope measurement %+v", c)
	}
	var buf bytes.Buffer
	if err := result.Encode(&buf, d); err != nil {
		t.Fatal(err)
	}
	if _, err := result.Decode(&buf); err != nil {
		t.Fatal(err)
	}
}
