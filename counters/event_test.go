package counters

import (
	"strings"
	"testing"
)

func TestParseEvents(t *testing.T) {
	tests := []struct {
		list    string
		names   []string
		errHas  string
		configs []uint64
	}{
		{list: "cycles,instructions", names: []string{"cycles", "instructions"}, configs: []uint64{0, 1}},
		{list: "cpu-cycles, cs ,faults", names: []string{"cycles", "context-switches", "page-faults"}, configs: []uint64{0, 3, 2}},
		{list: "L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses", names: []string{"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses"}, configs: []uint64{0x0, 0x10000, 0x2, 0x10002}},
		{list: "task-clock:u,task-clock:k", names: []string{"task-clock:u", "task-clock:k"}, configs: []uint64{1, 1}},
		{list: "ref-cycles,stalled-cycles-frontend,stalled-cycles-backend", names: []string{"ref-cycles", "stalled-cycles-frontend", "stalled-cycles-backend"}, configs: []uint64{9, 7, 8}},
		{list: "cyclez", errHas: `unknown event "cyclez"; known events: cycles, instructions`},
		{list: "cycles,,instructions", errHas: "empty event name"},
		{list: "", errHas: "empty event list"},
		{list: "cycles,cpu-cycles", errHas: `event "cycles" named twice`},
		{list: "cycles:x", errHas: `unknown modifier "x"`},
	}
	for _, tt := range tests {
		evs, err := ParseEvents(tt.list)
		if tt.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errHas) || !strings.HasPrefix(err.Error(), "counters: ") {
				t.Errorf("ParseEvents(%q) error = %v, want one containing %q", tt.list, err, tt.errHas)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseEvents(%q): %v", tt.list, err)
			continue
		}
		if len(evs) != len(tt.names) {
			t.Fatalf("ParseEvents(%q) = %d events, want %d", tt.list, len(evs), len(tt.names))
		}
		for i, ev := range evs {
			if ev.Name != tt.names[i] || ev.Config != tt.configs[i] {
				t.Errorf("ParseEvents(%q)[%d] = %s config %#x, want %s config %#x", tt.list, i, ev.Name, ev.Config, tt.names[i], tt.configs[i])
			}
		}
	}
}

func TestEventKindsAndModifiers(t *testing.T) {
	evs, err := ParseEvents("cycles,LLC-load-misses,task-clock,instructions:u,branches:k")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind Kind
		typ  uint32
		unit string
		exU  bool
		exK  bool
	}{
		{Hardware, 0, "count", false, false},
		{Cache, 3, "count", false, false},
		{Software, 1, "ns", false, false},
		{Hardware, 0, "count", false, true},
		{Hardware, 0, "count", true, false},
	}
	for i, w := range want {
		ev := evs[i]
		if ev.Kind != w.kind || ev.Type != w.typ || ev.Unit != w.unit || ev.ExcludeUser != w.exU || ev.ExcludeKernel != w.exK {
			t.Errorf("%s = %+v, want %+v", ev.Name, ev, w)
		}
	}
}

func TestDefaultEvents(t *testing.T) {
	evs := DefaultEvents()
	if len(evs) != len(DefaultEventNames) {
		t.Fatalf("DefaultEvents() has %d events, want %d", len(evs), len(DefaultEventNames))
	}
	for _, n := range KnownEventNames() {
		if describe(n) == "" {
			t.Errorf("event %s has no description", n)
		}
	}
	if describe("D1mr") == "" || describe("nonsense") != "" || describe("instructions") != "instructions retired" {
		t.Errorf("describe(D1mr) = %q, describe(nonsense) = %q, describe(instructions) = %q", describe("D1mr"), describe("nonsense"), describe("instructions"))
	}
}
