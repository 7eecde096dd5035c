// Package scopeprom exports scope timers to Prometheus. It is the only
// package of chronograph that imports github.com/prometheus/client_golang,
// so programs that use package scope without Prometheus do not link it.
//
//	prometheus.MustRegister(scopeprom.NewCollector(scope.Default, "myapp"))
//
// It only translates a registry's snapshots into Prometheus metrics: it
// does not record (package scope does) or serve them (promhttp does).
package scopeprom

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/chronograph/chronograph/scope"
)

// Collector is a prometheus.Collector of a scope.Registry. Each scrape
// takes a Snapshot (about 40 KB allocated per scope).
type Collector struct {
	reg                 *scope.Registry
	dur, errors, panics *prometheus.Desc
}

// NewCollector returns a Collector of reg whose metrics are, with
// namespace ns (may be empty) and the label "scope":
//
//	ns_scope_duration_seconds  summary: count, sum, quantiles 0.5, 0.9, 0.99
//	ns_scope_errors_total      counter: MeasureErr calls that returned an error
//	ns_scope_panics_total      counter: Measure/MeasureErr calls that panicked
//
// Quantiles come from the scope's HDR histogram (relative error below
// 0.78 %) over the whole life of the process, not a sliding window.
func NewCollector(reg *scope.Registry, ns string) *Collector {
	label := []string{"scope"}
	return &Collector{
		reg:    reg,
		dur:    prometheus.NewDesc(prometheus.BuildFQName(ns, "scope", "duration_seconds"), "Time spent in each scope timer.", label, nil),
		errors: prometheus.NewDesc(prometheus.BuildFQName(ns, "scope", "errors_total"), "Timed calls that returned an error.", label, nil),
		panics: prometheus.NewDesc(prometheus.BuildFQName(ns, "scope", "panics_total"), "Timed calls that panicked.", label, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.dur
	ch <- c.errors
	ch <- c.panics
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	for _, st := range c.reg.Snapshot() {
		q := map[float64]float64{0.5: st.P50.Seconds(), 0.9: st.P90.Seconds(), 0.99: st.P99.Seconds()}
		ch <- prometheus.MustNewConstSummary(c.dur, st.Count, st.Total.Seconds(), q, st.Name)
		ch <- prometheus.MustNewConstMetric(c.errors, prometheus.CounterValue, float64(st.Errors), st.Name)
		ch <- prometheus.MustNewConstMetric(c.panics, prometheus.CounterValue, float64(st.Panics), st.Name)
	}
}
