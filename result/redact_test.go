package result

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/env"
)

func TestRedact(t *testing.T) {
	d := New(KindCommand, Meta{Tool: Tool{Name: "chrono", Version: "test"}})
	d.Args = []string{"chrono", "run", "/home/alice/bin/tool --input /home/alice/data"}
	h := &env.Host{}
	h.System.Hostname = "build-box-7"
	h.System.Cmdline = "BOOT_IMAGE=/vmlinuz root=UUID=1234 secret_token=abc"
	h.Process.Args = []string{"chrono", "run", "/home/alice/bin/tool"}
	d.Environment = h
	d.Measurements = []Measurement{{Name: "/home/alice/bin/tool on build-box-7 by alice", Primary: "wall",
		Metrics: []Metric{{Name: "wall", Unit: UnitNs, Values: []float64{1, 2}}}}}
	Redact(d)
	data, _ := json.Marshal(d)
	s := string(data)
	for _, leak := range []string{"alice", "build-box-7", "secret_token", "/home/"} {
		if strings.Contains(s, leak) {
			t.Errorf("redacted document still holds %q:\n%s", leak, s)
		}
	}
	if got, want := d.Measurements[0].Name, "<home>/bin/tool on <host> by <user>"; got != want {
		t.Errorf("name %q, want %q", got, want)
	}
	if d.Environment.System.Cmdline != redactedCmdline {
		t.Errorf("kernel command line %q", d.Environment.System.Cmdline)
	}
	if len(d.Measurements[0].Metrics[0].Values) != 2 {
		t.Errorf("figures lost: %+v", d.Measurements[0])
	}
	// Stable: redacting twice changes nothing.
	before, _ := json.Marshal(d)
	Redact(d)
	after, _ := json.Marshal(d)
	if string(before) != string(after) {
		t.Errorf("second redaction changed the document")
	}
}
