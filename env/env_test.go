package env

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	golden_ "github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/warn"
)

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden_.Check(t, filepath.Join("testdata", name), got)
}

// fakeCPUID answers CPUID like a KVM guest.
func fakeCPUID(leaf, sub uint32) (eax, ebx, ecx, edx uint32) {
	switch leaf {
	case 1:
		return 0, 0, 1 << 31, 0
	case 0x40000000:
		sig := []byte("KVMKVMKVM\x00\x00\x00")
		return 0x40000001, binary.LittleEndian.Uint32(sig[0:]), binary.LittleEndian.Uint32(sig[4:]), binary.LittleEndian.Uint32(sig[8:])
	}
	return 0, 0, 0, 0
}

// fixtureProbes stands in for the system calls and the runtime, so that
// captures of fixture trees are reproducible.
func fixtureProbes(ncpu int, cpuid func(uint32, uint32) (uint32, uint32, uint32, uint32)) probes {
	on := true
	return probes{
		cpuid:      cpuid,
		timerSlack: func() (int64, error) { return 50000, nil },
		affinity: func() ([]int, error) {
			cpus := make([]int, ncpu)
			for i := range cpus {
				cpus[i] = i
			}
			return cpus, nil
		},
		goInfo: func() Go {
			return Go{Version: "go1.26.0", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: ncpu, NumCPU: ncpu, Compiler: "gc",
				CGOEnabled: &on, ArchLevel: "GOAMD64=v1", MainModule: "github.com/chronograph/chronograph",
				VCSRevision: "6c8559d0a1b2c3d4e5f60718293a4b5c6d7e8f90", VCSTime: "2026-01-02T03:04:05Z"}
		},
		process: func() Process {
			return Process{PID: 4242, Args: []string{"chrono", "env"}}
		},
	}
}

var fixtures = []struct {
	name  string
	ncpu  int
	cpuid func(uint32, uint32) (uint32, uint32, uint32, uint32)
}{
	{"laptop", 4, nil},
	{"kvm", 2, fakeCPUID},
	{"server", 4, nil},
}

func captureFixture(t *testing.T, name string) *Host {
	t.Helper()
	for _, fx := range fixtures {
		if fx.name == name {
			return captureFrom(filepath.Join("testdata", name), fixtureProbes(fx.ncpu, fx.cpuid))
		}
	}
	t.Fatalf("no fixture %q", name)
	return nil
}

func codes(ws []warn.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Code)
	}
	return out
}

func TestCaptureFixtures(t *testing.T) {
	tests := []struct {
		name  string
		check func(t *testing.T, h *Host)
		warns []string
	}{
		{"laptop", func(t *testing.T, h *Host) {
			eq(t, "model", h.CPU.Model, "Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz")
			eq(t, "vendor", h.CPU.Vendor, "GenuineIntel")
			eq(t, "logical", h.CPU.LogicalCPUs, 4)
			eq(t, "cores", h.CPU.PhysicalCores, 2)
			eq(t, "smt", *h.CPU.SMT, true)
			eq(t, "hypervisor", *h.CPU.Hypervisor, false)
			eq(t, "driver", h.Frequency.Driver, "intel_pstate")
			eq(t, "governors", h.Frequency.Governors, []string{"powersave"})
			eq(t, "cpu3", h.Frequency.CPUs[3], CPUFreq{CPU: 3, Governor: "powersave", MinFreqKHz: 400000, MaxFreqKHz: 4200000, CurFreqKHz: 1100000})
			eq(t, "boost", *h.Frequency.Boost, true)
			eq(t, "boost source", h.Frequency.BoostSource, "/sys/devices/system/cpu/intel_pstate/no_turbo")
			eq(t, "os", h.System.OS, "Ubuntu 23.10")
			eq(t, "os version", h.System.OSVersionID, "23.10")
			eq(t, "isolated", h.Scheduler.IsolatedCPUs, "3")
			eq(t, "nohz", h.Scheduler.NohzFullCPUs, "3")
			eq(t, "cmdline isolation", h.Scheduler.CmdlineIsolation, []string{"isolcpus=3", "nohz_full=3", "rcu_nocbs=3"})
			eq(t, "on battery", h.System.Power.OnBattery, true)
			eq(t, "battery", *h.System.Power.Batteries[0].CapacityPercent, 57)
			eq(t, "thp", h.Scheduler.THP, "always")
			eq(t, "thp defrag", h.Scheduler.THPDefrag, "madvise")
			eq(t, "paranoid", *h.Scheduler.PerfEventParanoid, 4)
			eq(t, "cgroup", *h.Process.Cgroup, Cgroup{Version: 2, Path: "/user.slice/user-1000.slice/session-2.scope", CPUQuotaUs: 150000, CPUPeriodUs: 100000, LimitCPUs: 1.5})
			eq(t, "load", h.System.LoadAvg, []float64{0.42, 0.35, 0.30})
		}, []string{"governor", "boost", "battery", "cgroup-quota", "isolation", "smt", "thp", "perf-paranoid"}},
		{"kvm", func(t *testing.T, h *Host) {
			eq(t, "model", h.CPU.Model, "AMD EPYC 7B13")
			eq(t, "cores", h.CPU.PhysicalCores, 2)
			eq(t, "smt", *h.CPU.SMT, false)
			eq(t, "hypervisor", *h.CPU.Hypervisor, true)
			eq(t, "hypervisor vendor", h.CPU.HypervisorVendor, "KVM")
			eq(t, "hypervisor source", h.CPU.HypervisorSource, "cpuid 0x40000000")
			eq(t, "product", h.CPU.Product, "QEMU Standard PC (Q35 + ICH9, 2009)")
			eq(t, "governors", h.Frequency.Governors, []string(nil))
			hasReason(t, h, "frequency.governors", "cpufreq does not exist")
			hasReason(t, h, "frequency.boost", "no_turbo")
			hasReason(t, h, "scheduler.nohz_full_cpus", "CONFIG_NO_HZ_FULL")
			hasReason(t, h, "system.power", "power_supply")
			eq(t, "os from /usr/lib", h.System.OS, "Debian GNU/Linux 12 (bookworm)")
			eq(t, "clocksource", h.System.Clocksource, "kvm-clock")
			eq(t, "cgroup", *h.Process.Cgroup, Cgroup{Version: 1, Path: "/docker/abc123", CPUQuotaUs: 50000, CPUPeriodUs: 100000, LimitCPUs: 0.5})
		}, []string{"hypervisor", "load", "cgroup-quota", "clocksource"}},
		{"server", func(t *testing.T, h *Host) {
			eq(t, "cores", h.CPU.PhysicalCores, 4)
			eq(t, "packages", h.CPU.Packages, 2)
			eq(t, "smt", *h.CPU.SMT, false)
			eq(t, "smt control", h.CPU.SMTControl, "off")
			eq(t, "governors", h.Frequency.Governors, []string{"performance"})
			eq(t, "boost", *h.Frequency.Boost, false)
			eq(t, "nohz (null)", h.Scheduler.NohzFullCPUs, "")
			eq(t, "on AC", *h.System.Power.OnAC, true)
			eq(t, "cgroup", *h.Process.Cgroup, Cgroup{Version: 2, Path: "/system.slice/db.service", Unlimited: true})
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := captureFixture(t, tt.name)
			tt.check(t, h)
			eq(t, "warnings", codes(h.Warnings), tt.warns)
		})
	}
}

func eq[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

func hasReason(t *testing.T, h *Host, key, substr string) {
	t.Helper()
	if r := h.Reason(key); !strings.Contains(r, substr) {
		t.Errorf("reason for %s = %q, want it to mention %q", key, r, substr)
	}
}

// TestGolden captures each fixture host as JSON (package report's view
// lays these hosts out in its own golden files).
func TestGolden(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			h := captureFixture(t, fx.name)
			js, err := json.MarshalIndent(h, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, fx.name+".json", append(js, '\n'))
			// The JSON reads back to the same host.
			var back Host
			if err := json.Unmarshal(js, &back); err != nil {
				t.Fatal(err)
			}
			eq(t, "round trip", &back, h)
		})
	}
}

// TestCaptureEmptyRoot: a host without procfs or sysfs yields unknowns
// with reasons, no values and no warnings.
func TestCaptureEmptyRoot(t *testing.T) {
	h := captureFrom(crosstest.TempDir(t), probes{reason: "not probed in this test"})
	for _, key := range []string{"cpu.model", "cpu.logical_cpus", "cpu.physical_cores", "cpu.hypervisor", "frequency.governors",
		"frequency.boost", "system.kernel_release", "system.os", "system.load_avg", "system.clocksource", "system.power",
		"scheduler.isolated_cpus", "scheduler.timer_slack_ns", "scheduler.aslr", "scheduler.thp", "scheduler.perf_event_paranoid",
		"go", "process.affinity", "process.cgroup"} {
		if h.Reason(key) == "" {
			t.Errorf("%s: no reason recorded", key)
		}
	}
	if len(h.Warnings) != 0 {
		t.Errorf("warnings from an empty host: %v", h.Warnings)
	}
	if r := h.Reason("cpu.model"); !strings.Contains(r, "/proc/cpuinfo does not exist") {
		t.Errorf("the reason for the CPU model is %q, not that /proc/cpuinfo does not exist", r)
	}
}

func TestWarnings(t *testing.T) {
	yes, no := true, false
	four := 4
	tests := []struct {
		name string
		h    Host
		want []string
	}{
		{"nothing known", Host{}, nil},
		{"governor powersave", Host{Frequency: Frequency{CPUs: []CPUFreq{{CPU: 0, Governor: "powersave"}}}}, []string{"governor"}},
		{"governor performance", Host{Frequency: Frequency{CPUs: []CPUFreq{{CPU: 0, Governor: "performance"}}}}, nil},
		{"boost on", Host{Frequency: Frequency{Boost: &yes, BoostSource: "/sys/devices/system/cpu/cpufreq/boost"}}, []string{"boost"}},
		{"boost off", Host{Frequency: Frequency{Boost: &no}}, nil},
		{"hypervisor", Host{CPU: CPU{Hypervisor: &yes}}, []string{"hypervisor"}},
		{"bare metal", Host{CPU: CPU{Hypervisor: &no}}, nil},
		{"race", Host{Go: Go{Race: true}}, []string{"race"}},
		{"gcflags -N -l", Host{Go: Go{GCFlags: "all=-N -l"}}, []string{"gcflags"}},
		{"gcflags -m", Host{Go: Go{GCFlags: "-m"}}, nil},
		{"load high", Host{CPU: CPU{LogicalCPUs: 8}, System: System{LoadAvg: []float64{5, 1, 1}}}, []string{"load"}},
		{"load low", Host{CPU: CPU{LogicalCPUs: 8}, System: System{LoadAvg: []float64{3.9, 1, 1}}}, nil},
		{"load one CPU busy", Host{CPU: CPU{LogicalCPUs: 1}, System: System{LoadAvg: []float64{0.9, 1, 1}}}, nil},
		{"battery", Host{System: System{Power: &Power{OnBattery: true}}}, []string{"battery"}},
		{"AC", Host{System: System{Power: &Power{OnAC: &yes}}}, nil},
		{"clocksource hpet", Host{System: System{Clocksource: "hpet"}}, []string{"clocksource"}},
		{"clocksource tsc", Host{System: System{Clocksource: "tsc"}}, nil},
		{"clocksource kvm-clock, tsc available", Host{System: System{Clocksource: "kvm-clock", AvailableClocksources: []string{"kvm-clock", "tsc"}}}, []string{"clocksource"}},
		{"clocksource kvm-clock only", Host{System: System{Clocksource: "kvm-clock", AvailableClocksources: []string{"kvm-clock"}}}, nil},
		{"quota below GOMAXPROCS", Host{Go: Go{GOMAXPROCS: 4}, Process: Process{Cgroup: &Cgroup{CPUQuotaUs: 200000, CPUPeriodUs: 100000, LimitCPUs: 2}}}, []string{"cgroup-quota"}},
		{"quota at GOMAXPROCS", Host{Go: Go{GOMAXPROCS: 2}, Process: Process{Cgroup: &Cgroup{CPUQuotaUs: 200000, CPUPeriodUs: 100000, LimitCPUs: 2}}}, nil},
		{"no quota", Host{Go: Go{GOMAXPROCS: 64}, Process: Process{Cgroup: &Cgroup{Unlimited: true}}}, nil},
		{"GOMAXPROCS above affinity", Host{Go: Go{GOMAXPROCS: 8}, Process: Process{AffinityCount: 2, Affinity: "0-1"}}, []string{"affinity"}},
		{"SMT on", Host{CPU: CPU{SMT: &yes}}, []string{"smt"}},
		{"SMT off", Host{CPU: CPU{SMT: &no}}, nil},
		{"THP always", Host{Scheduler: Scheduler{THP: "always"}}, []string{"thp"}},
		{"THP madvise", Host{Scheduler: Scheduler{THP: "madvise"}}, nil},
		{"paranoid 4 user", Host{Scheduler: Scheduler{PerfEventParanoid: &four}}, []string{"perf-paranoid"}},
		{"paranoid 4 root", Host{Scheduler: Scheduler{PerfEventParanoid: &four}, Process: Process{Root: true}}, nil},
		{"isolated CPUs unused", Host{Scheduler: Scheduler{IsolatedCPUs: "2-3"}, Process: Process{Affinity: "0-3", AffinityCount: 4}}, []string{"isolation"}},
		{"pinned to isolated CPUs", Host{Scheduler: Scheduler{IsolatedCPUs: "2-3"}, Process: Process{Affinity: "3", AffinityCount: 1}}, nil},
		{"notes after warnings", Host{CPU: CPU{SMT: &yes, Hypervisor: &yes}, Go: Go{Race: true}}, []string{"hypervisor", "race", "smt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := warnings(&tt.h)
			eq(t, "codes", codes(ws), tt.want)
			for _, w := range ws {
				if w.Severity != warn.Warn && w.Severity != warn.Note {
					t.Errorf("%s: severity %q", w.Code, w.Severity)
				}
				if w.Message == "" || w.Next == "" {
					t.Errorf("%s: message %q, next step %q: both must be said", w.Code, w.Message, w.Next)
				}
			}
		})
	}
}

func TestWarningText(t *testing.T) {
	h := &Host{Frequency: Frequency{CPUs: []CPUFreq{{CPU: 0, Governor: "schedutil"}, {CPU: 1, Governor: "schedutil"}}}}
	ws := warnings(h)
	want := "CPU frequency scaling is on (governor 'schedutil'); set the governor to 'performance' for stable results, e.g. `sudo cpupower frequency-set -g performance`"
	if len(ws) != 1 || ws[0].String() != want {
		t.Errorf("warnings = %v, want %q", ws, want)
	}
	h.Frequency.CPUs[1].Governor = "performance"
	if ws := warnings(h); len(ws) != 1 || !strings.Contains(ws[0].Message, "governor 'schedutil' on CPUs 0") {
		t.Errorf("mixed governors: %v", ws)
	}
	yes := true
	h = &Host{CPU: CPU{Hypervisor: &yes, HypervisorVendor: "KVM"}}
	if ws := warnings(h); !strings.HasPrefix(ws[0].Message, "running under a hypervisor (KVM): expect noise") {
		t.Errorf("hypervisor warning: %q", ws[0].Message)
	}
}

func TestApplyBuildInfo(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/m"}, Settings: []debug.BuildSetting{
		{Key: "-race", Value: "true"}, {Key: "-gcflags", Value: "all=-N -l"}, {Key: "-ldflags", Value: "-s -w"},
		{Key: "CGO_ENABLED", Value: "0"}, {Key: "GOARCH", Value: "amd64"}, {Key: "GOOS", Value: "linux"}, {Key: "GOAMD64", Value: "v3"},
		{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.time", Value: "2026-01-01T00:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	var g Go
	applyBuildInfo(&g, info)
	off := false
	want := Go{Version: "go1.26.0", Race: true, GCFlags: "all=-N -l", LDFlags: "-s -w", CGOEnabled: &off, ArchLevel: "GOAMD64=v3",
		MainModule: "example.com/m", VCSRevision: "abc", VCSTime: "2026-01-01T00:00:00Z", VCSModified: true}
	eq(t, "go", g, want)
}

// TestGoldenUnsupported captures a host of a platform env cannot read,
// as JSON (package report's view lays it out in its own golden file).
func TestGoldenUnsupported(t *testing.T) {
	p := fixtureProbes(8, nil)
	h := &Host{Go: p.goInfo(), Process: p.process()}
	h.Go.GOOS, h.Go.GOARCH = "darwin", "arm64"
	markUnsupported(h, "darwin")
	h.Warnings = warnings(h)
	js, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "unsupported.json", append(js, '\n'))
}

// TestReasonOnlyForAbsence: "built without CONFIG_NO_HZ_FULL" explains a
// missing file, not one that exists but cannot be read.
func TestReasonOnlyForAbsence(t *testing.T) {
	missing := captureFrom(crosstest.TempDir(t), probes{reason: "not probed in this test"})
	hasReason(t, missing, "scheduler.nohz_full_cpus", "CONFIG_NO_HZ_FULL")
	hasReason(t, missing, "scheduler.thp", "built without transparent huge pages")

	// A directory where a file should be: reading it fails with EISDIR.
	root := crosstest.TempDir(t)
	for _, p := range []string{"sys/devices/system/cpu/nohz_full", "sys/kernel/mm/transparent_hugepage/enabled"} {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h := captureFrom(root, probes{reason: "not probed in this test"})
	for _, key := range []string{"scheduler.nohz_full_cpus", "scheduler.thp"} {
		r := h.Reason(key)
		if r == "" || strings.Contains(r, "built without") {
			t.Errorf("%s: reason %q: an unreadable file must keep its own reason", key, r)
		}
	}
}

func TestReadErrorWraps(t *testing.T) {
	_, err := fsys{root: crosstest.TempDir(t)}.read("/no/such/file")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("read error %v does not wrap fs.ErrNotExist", err)
	}
	if got, want := err.Error(), "/no/such/file does not exist"; got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
}
