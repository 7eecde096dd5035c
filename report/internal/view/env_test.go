package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/golden"
)

// envFixture is a host of package env's golden files (env/testdata/NAME.json:
// captures of fixture trees, and of a platform env cannot read).
func envFixture(t *testing.T, name string) *env.Host {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "env", "testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var h env.Host
	if err := json.Unmarshal(data, &h); err != nil {
		t.Fatal(err)
	}
	return &h
}

// writeEnvText renders h's groups and warnings as plain text for the
// golden files.
func writeEnvText(b *bytes.Buffer, h *env.Host) {
	for i, g := range envGroups(h) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(g.title + "\n")
		if g.unknown != "" {
			b.WriteString("  unknown: " + g.unknown + "\n")
		}
		for _, r := range g.rows {
			fmt.Fprintf(b, "  %-22s %s\n", r.label, r.value)
		}
	}
	b.WriteByte('\n')
	if len(h.Warnings) == 0 {
		b.WriteString("No warnings: nothing known here spoils measurements.\n")
		return
	}
	b.WriteString("Warnings\n")
	for _, w := range h.Warnings {
		fmt.Fprintf(b, "  %-8s %s\n", string(w.Severity)+":", w.String())
	}
}

// TestEnvGolden lays out each of env's fixture hosts
// (testdata/env/NAME.txt).
func TestEnvGolden(t *testing.T) {
	for _, name := range []string{"laptop", "kvm", "server", "unsupported"} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			writeEnvText(&b, envFixture(t, name))
			golden.Check(t, filepath.Join("testdata", "env", name+".txt"), b.Bytes())
		})
	}
}

// TestEnvGroupsOfCapture lays out this machine: every group is there.
func TestEnvGroupsOfCapture(t *testing.T) {
	var b bytes.Buffer
	writeEnvText(&b, env.Capture())
	for _, group := range []string{"CPU\n", "Frequency\n", "Kernel and OS\n", "Scheduler and timers\n", "Go and build\n", "Process\n"} {
		if !strings.Contains(b.String(), group) {
			t.Errorf("text lacks group %q", group)
		}
	}
}

func TestBrief(t *testing.T) {
	tests := []struct {
		fixture, want string
	}{
		{"laptop", "Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz, 4 CPUs (2 cores), governor powersave, Linux 6.5.0-14-generic, go1.26.0 linux/amd64"},
		{"kvm", "AMD EPYC 7B13, 2 CPUs, no cpufreq, Linux 6.1.0-18-amd64, go1.26.0 linux/amd64, KVM guest"},
		{"server", "Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz, 4 CPUs, governor performance, Linux 6.8.0-31-generic, go1.26.0 linux/amd64"},
	}
	for _, tt := range tests {
		if got := brief(envFixture(t, tt.fixture)); got != tt.want {
			t.Errorf("brief(%s) = %q, want %q", tt.fixture, got, tt.want)
		}
	}
	if got := brief(nil); got != "environment unknown" {
		t.Errorf("brief(nil) = %q", got)
	}
}

// TestHypervisorRow: the hypervisor's row names the vendor and its
// source, and the other sources that name another.
func TestHypervisorRow(t *testing.T) {
	yes := true
	for _, tt := range []struct {
		vendor, from string
		other        []string
		want         string
	}{
		{"PVM", "kernel log", []string{"bhyve (from cpuid 0x40000000)"}, "yes, PVM (from kernel log); but bhyve (from cpuid 0x40000000)"},
		{"KVM", "kernel log", nil, "yes, KVM (from kernel log)"},
		{"KVM", "cpuid 0x40000000", nil, "yes, KVM (from cpuid 0x40000000)"},
		{"Xen HVM", "kernel log", nil, "yes, Xen HVM (from kernel log)"},
	} {
		h := &env.Host{CPU: env.CPU{Hypervisor: &yes, HypervisorVendor: tt.vendor, HypervisorSource: tt.from, HypervisorOther: tt.other}}
		var got string
		for _, r := range envGroups(h)[0].rows {
			if r.label == "hypervisor" {
				got = r.value
			}
		}
		if got != tt.want {
			t.Errorf("%s from %s: hypervisor %q, want %q", tt.vendor, tt.from, got, tt.want)
		}
	}
}
