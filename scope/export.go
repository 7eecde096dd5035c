package scope

import (
	"context"
	"expvar"
	"fmt"
	"log/slog"
	"time"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/warn"
)

// Attrs returns the statistics as slog attributes (durations as
// time.Duration values).
func (st Stats) Attrs() []slog.Attr {
	as := []slog.Attr{
		slog.String("scope", st.Name), slog.Uint64("count", st.Count),
		slog.Duration("min", st.Min), slog.Duration("p50", st.P50), slog.Duration("p90", st.P90),
		slog.Duration("p99", st.P99), slog.Duration("max", st.Max), slog.Duration("total", st.Total),
	}
	if st.Errors > 0 {
		as = append(as, slog.Uint64("errors", st.Errors))
	}
	if st.Panics > 0 {
		as = append(as, slog.Uint64("panics", st.Panics), slog.Duration("panic_time", st.PanicTime))
	}
	return as
}

// Log writes one record per scope with at least one call to logger, at
// level, with the message "scope".
func (r *Registry) Log(ctx context.Context, logger *slog.Logger, level slog.Level) {
	for _, st := range r.Snapshot() {
		if st.Count == 0 && st.Panics == 0 {
			continue
		}
		logger.LogAttrs(ctx, level, "scope", st.Attrs()...)
	}
}

// LogEvery calls Log every interval until ctx is done; run it in its own
// goroutine. An interval below 1 ms is an error.
func (r *Registry) LogEvery(ctx context.Context, logger *slog.Logger, level slog.Level, interval time.Duration) error {
	if interval < time.Millisecond {
		return fmt.Errorf("scope: LogEvery interval %v is too short: use at least 1ms", interval)
	}
	tk := time.NewTicker(interval)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tk.C:
			r.Log(ctx, logger, level)
		}
	}
}

// expvarStats is the JSON shape of one scope in expvar, durations in ns.
type expvarStats struct {
	Count   uint64 `json:"count"`
	MinNs   int64  `json:"min_ns"`
	P50Ns   int64  `json:"p50_ns"`
	P90Ns   int64  `json:"p90_ns"`
	P99Ns   int64  `json:"p99_ns"`
	MaxNs   int64  `json:"max_ns"`
	TotalNs int64  `json:"total_ns"`
	Errors  uint64 `json:"errors"`
	Panics  uint64 `json:"panics"`
}

// Publish exports the registry's snapshot as the expvar variable name (a
// map from scope name to count, min_ns, p50_ns, p90_ns, p99_ns, max_ns,
// total_ns, errors, panics), computed when /debug/vars is read. It fails
// if the name is taken (expvar would panic).
func (r *Registry) Publish(name string) error {
	if expvar.Get(name) != nil {
		return fmt.Errorf("scope: expvar %q is already published: choose another name", name)
	}
	expvar.Publish(name, expvar.Func(func() any {
		m := map[string]expvarStats{}
		for _, st := range r.Snapshot() {
			m[st.Name] = expvarStats{st.Count, int64(st.Min), int64(st.P50), int64(st.P90), int64(st.P99), int64(st.Max), int64(st.Total), st.Errors, st.Panics}
		}
		return m
	}))
	return nil
}

// Document turns scope statistics into a result document of kind "scope"
// (docs/result-schema.md) with m's tool, arguments and environment: one
// measurement per scope, named by it, whose metric "duration" (ns) holds
// the recorded durations binned as the HDR histogram keeps them (2
// significant digits), with the exact count, min, max and mean in the
// metric's Histogram (no Summary is set) and the p50, p90 and p99 of the
// histogram (the upper end of a bucket of relative width 1/128, clamped
// to the exact extremes) in its percentiles; the calls' total, errors
// and panics are in its ScopeDetail.
func Document(m result.Meta, stats []Stats) *result.Document {
	d := result.New(result.KindScope, m)
	d.End = d.Start
	for _, st := range stats {
		ms := result.Measurement{Name: st.Name,
			Detail: result.KindDetail{Scope: &result.ScopeDetail{Count: st.Count, TotalNs: int64(st.Total),
				Errors: st.Errors, Panics: st.Panics, PanicTimeNs: int64(st.PanicTime)}}}
		if st.Count > 0 && st.Histogram != nil {
			bounds, counts := hdrBins(st)
			ms.Primary = "duration"
			ms.Metrics = []result.Metric{{
				Name: "duration", Unit: result.UnitNs, Resolution: 1,
				Histogram: &result.Histogram{Bounds: bounds, Counts: counts,
					Min: float64(st.Min), Max: float64(st.Max), Mean: float64(st.Total) / float64(st.Count)},
				Percentiles:      map[string]float64{"p50": float64(st.P50), "p90": float64(st.P90), "p99": float64(st.P99)},
				PercentileMethod: "hdr-upper",
			}}
		} else {
			ms.Warnings = append(ms.Warnings, warn.NewNote("no-calls", "no call completed: the scope has no durations yet", "read it after the code has run"))
		}
		d.Measurements = append(d.Measurements, ms)
	}
	return d
}

// hdrBins returns st's histogram as contiguous bins in ns.
func hdrBins(st Stats) ([]float64, []int64) { return stats.HDRBins(st.Histogram) }
