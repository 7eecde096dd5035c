package scopeprom

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/chronograph/chronograph/scope"
)

func TestCollector(t *testing.T) {
	var reg scope.Registry
	s := reg.Get("parse")
	s.Record(2 * time.Millisecond)
	s.Record(2 * time.Millisecond)
	c := NewCollector(&reg, "app")
	want := `
# HELP app_scope_duration_seconds Time spent in each scope timer.
# TYPE app_scope_duration_seconds summary
app_scope_duration_seconds{scope="parse",quantile="0.5"} 0.002
app_scope_duration_seconds{scope="parse",quantile="0.9"} 0.002
app_scope_duration_seconds{scope="parse",quantile="0.99"} 0.002
app_scope_duration_seconds_sum{scope="parse"} 0.004
app_scope_duration_seconds_count{scope="parse"} 2
# HELP app_scope_errors_total Timed calls that returned an error.
# TYPE app_scope_errors_total counter
app_scope_errors_total{scope="parse"} 0
# HELP app_scope_panics_total Timed calls that panicked.
# TYPE app_scope_panics_total counter
app_scope_panics_total{scope="parse"} 0
`
	if err := testutil.CollectAndCompare(c, strings.NewReader(want)); err != nil {
		t.Error(err)
	}
	r := prometheus.NewPedanticRegistry()
	if err := r.Register(c); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Gather(); err != nil {
		t.Error(err)
	}
}
