package scopeprom_test

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/chronograph/chronograph/scope"
	"github.com/chronograph/chronograph/scope/scopeprom"
)

func ExampleNewCollector() {
	var r scope.Registry
	r.Get("parse").Record(3 * time.Millisecond)
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(scopeprom.NewCollector(&r, "myapp")); err != nil {
		panic(err)
	}
	// Serve reg with promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).
	n, err := testutil.GatherAndCount(reg, "myapp_scope_duration_seconds")
	fmt.Println(n, err)
	// Output: 1 <nil>
}
