package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(result.KindEnv, envView) }

// envView lays out an environment document: every group of the capture
// with its values (or why they are unknown), then its warnings.
func envView(d *result.Document, _ Options) (*View, error) {
	v := &View{}
	if d.Environment == nil {
		v.Blocks = append(v.Blocks, Block{Lines: []string{"the document holds no environment"}})
		return v, nil
	}
	v.Blocks = EnvBlocks(d.Environment)
	if len(d.Environment.Warnings) == 0 {
		v.Blocks = append(v.Blocks, Block{Lines: []string{"No warnings: nothing known here spoils measurements."}})
	}
	v.Warnings = documentWarnings(d)
	return v, nil
}

// EnvBlocks lays out h as one block per group: a label/value table under
// the group's title.
func EnvBlocks(h *env.Host) []Block {
	var bs []Block
	for _, g := range envGroups(h) {
		b := Block{Heading: g.title}
		if g.unknown != "" {
			b.Lines = []string{"  unknown: " + g.unknown}
		}
		if len(g.rows) > 0 {
			t := &Table{Headless: true, Columns: []Column{{Name: "field"}, {Name: "value"}}}
			for _, r := range g.rows {
				t.Rows = append(t.Rows, []Cell{TextCell(r.label), TextCell(r.value)})
			}
			b.Table = t
		}
		bs = append(bs, b)
	}
	return bs
}

// envGroup is a titled group of labelled values of a host, for people:
// one block of the environment's layout.
type envGroup struct {
	// title names the group ("CPU", "Frequency", ...).
	title string
	// unknown is the reason the whole group could not be read ("" when
	// it could); its rows are then only those that were read anyway.
	unknown string
	// rows are label/value pairs; a value that could not be read is
	// "unknown: " and the reason.
	rows []envRow
}

// envRow is one labelled value of an envGroup.
type envRow struct{ label, value string }

// envGroups lays h out for people in groups (CPU, frequency, kernel and
// OS, scheduler and timers, Go and build, process, performance
// counters). Unknown fields show "unknown: " and the reason; the
// warnings are not included (they are h.Warnings).
func envGroups(h *env.Host) []envGroup {
	t := &envTable{h: h}

	t.group("CPU", "cpu")
	c := h.CPU
	t.row("model", join(" ", c.Model, paren(c.Vendor)), "cpu.model", "cpu")
	t.row("logical CPUs", itoa(c.LogicalCPUs), "cpu.logical_cpus", "cpu")
	cores := ""
	if c.PhysicalCores > 0 {
		cores = fmt.Sprintf("%d in %s", c.PhysicalCores, plural.Count(c.Packages, "package"))
	}
	t.row("physical cores", cores, "cpu.physical_cores", "cpu")
	smt := ""
	if c.SMT != nil {
		smt = onOff(*c.SMT)
		if c.SMTControl != "" {
			smt += " (control: " + c.SMTControl + ")"
		}
	}
	t.row("SMT", smt, "cpu.smt", "cpu")
	hv := ""
	if c.Hypervisor != nil {
		hv = "no"
		if *c.Hypervisor {
			hv = "yes"
			if c.HypervisorVendor != "" {
				hv += ", " + c.HypervisorVendor + " (from " + c.HypervisorSource + ")" + hypervisorOtherText(c)
			} else if r := h.Reason("cpu.hypervisor_vendor"); r != "" {
				hv += ", vendor unknown: " + r
			}
		}
	}
	t.row("hypervisor", hv, "cpu.hypervisor", "cpu")
	t.row("machine", c.Product, "cpu.product", "cpu")
	if c.ReportedMHz > 0 {
		t.row("reported frequency", strconv.FormatFloat(c.ReportedMHz, 'f', -1, 64)+" MHz (/proc/cpuinfo, CPU 0)", "", "")
	}

	t.group("Frequency", "frequency")
	f := h.Frequency
	if f.Driver != "" {
		t.row("driver", f.Driver, "", "")
	}
	t.row("governor", strings.Join(f.Governors, ", "), "frequency.governors", "frequency")
	for _, g := range groupFreqs(f.CPUs) {
		t.row(g.label, g.value, "", "")
	}
	boost := ""
	if f.Boost != nil {
		boost = onOff(*f.Boost) + " (" + f.BoostSource + ")"
	}
	t.row("turbo/boost", boost, "frequency.boost", "frequency")

	t.group("Kernel and OS", "system")
	s := h.System
	t.row("hostname", s.Hostname, "system.hostname", "system")
	t.row("kernel", s.KernelRelease, "system.kernel_release", "system")
	t.row("kernel build", s.KernelVersion, "system.kernel_version", "system")
	t.row("OS", s.OS, "system.os", "system")
	t.row("kernel command line", s.Cmdline, "system.kernel_cmdline", "system")
	la := ""
	if len(s.LoadAvg) == 3 {
		la = fmt.Sprintf("%.2f %.2f %.2f (1, 5, 15 min)", s.LoadAvg[0], s.LoadAvg[1], s.LoadAvg[2])
	}
	t.row("load average", la, "system.load_avg", "system")
	cs := s.Clocksource
	if cs != "" && len(s.AvailableClocksources) > 0 {
		cs += " (available: " + strings.Join(s.AvailableClocksources, " ") + ")"
	}
	t.row("clocksource", cs, "system.clocksource", "system")
	t.row("power", powerText(s.Power), "system.power", "system")

	if w := h.Windows; w != nil {
		t.group("Windows", "windows")
		if w.Wine != "" {
			t.row("Wine", w.Wine+": the figures are Wine's, on a Linux host, not Windows's", "", "")
		}
		t.row("version", join(" ", w.Version, w.ServicePack)+" (RtlGetVersion)", "windows.version", "windows")
		t.row("power plan", join(" ", w.PowerPlanName, w.PowerPlan), "windows.power_plan", "windows")
		tr := ""
		if w.TimerResolutionNs > 0 {
			ms := func(ns int64) string { return unit.Duration(float64(ns), unit.Exactly(float64(ns), 100)) }
			tr = fmt.Sprintf("%s (the finest any process holds; finest allowed %s, coarsest %s)",
				ms(w.TimerResolutionNs), ms(w.TimerFinestNs), ms(w.TimerCoarsestNs))
		}
		t.row("timer resolution", tr, "windows.timer_resolution_ns", "windows")
	}

	t.group("Scheduler and timers", "scheduler")
	sc := h.Scheduler
	if _, unknown := unknownOf(h, "scheduler.isolated_cpus", "scheduler"); unknown {
		t.row("isolated CPUs", "", "scheduler.isolated_cpus", "scheduler")
	} else {
		t.row("isolated CPUs", orNone(sc.IsolatedCPUs), "", "")
	}
	if _, unknown := unknownOf(h, "scheduler.nohz_full_cpus", "scheduler"); unknown {
		t.row("nohz_full CPUs", "", "scheduler.nohz_full_cpus", "scheduler")
	} else {
		t.row("nohz_full CPUs", orNone(sc.NohzFullCPUs), "", "")
	}
	if _, unknown := unknownOf(h, "system.kernel_cmdline", "system"); !unknown {
		t.row("isolation parameters", orNone(strings.Join(sc.CmdlineIsolation, " ")), "", "")
	}
	t.row("timer slack", i64p(sc.TimerSlackNs, " ns (this thread)"), "scheduler.timer_slack_ns", "scheduler")
	rt := ""
	if sc.RTRuntimeUs != nil && sc.RTPeriodUs != nil {
		if *sc.RTRuntimeUs < 0 {
			rt = "off (sched_rt_runtime_us = -1)"
		} else {
			rt = fmt.Sprintf("%d µs of every %d µs", *sc.RTRuntimeUs, *sc.RTPeriodUs)
		}
	}
	t.row("RT throttling", rt, "scheduler.rt_runtime_us", "scheduler")
	aslr := ""
	if sc.ASLR != nil {
		aslr = map[int]string{0: "off (0)", 1: "partial (1)", 2: "full (2)"}[*sc.ASLR]
		if aslr == "" {
			aslr = strconv.Itoa(*sc.ASLR)
		}
	}
	t.row("ASLR", aslr, "scheduler.aslr", "scheduler")
	thp := sc.THP
	if thp != "" && sc.THPDefrag != "" {
		thp += " (defrag: " + sc.THPDefrag + ")"
	}
	t.row("transparent hugepages", thp, "scheduler.thp", "scheduler")
	pp := ""
	if sc.PerfEventParanoid != nil {
		pp = strconv.Itoa(*sc.PerfEventParanoid)
	}
	t.row("perf_event_paranoid", pp, "scheduler.perf_event_paranoid", "scheduler")

	t.group("Go and build", "go")
	g := h.Go
	goVer := ""
	if g.Version != "" {
		goVer = g.Version + " " + g.GOOS + "/" + g.GOARCH
		if g.Compiler != "" && g.Compiler != "gc" {
			goVer += " (" + g.Compiler + ")"
		}
	}
	t.row("Go", goVer, "go", "go")
	if goVer != "" {
		t.row("GOMAXPROCS", fmt.Sprintf("%d (NumCPU %d)", g.GOMAXPROCS, g.NumCPU), "", "")
		race := "no"
		if g.Race {
			race = "yes"
		}
		t.row("race detector", race, "", "")
		t.row("gcflags", orNone(g.GCFlags), "", "")
		if g.LDFlags != "" {
			t.row("ldflags", g.LDFlags, "", "")
		}
		if g.CGOEnabled != nil {
			t.row("CGO_ENABLED", map[bool]string{true: "1", false: "0"}[*g.CGOEnabled], "", "")
		}
		if g.ArchLevel != "" {
			t.row("architecture level", g.ArchLevel, "", "")
		}
		rev := g.VCSRevision
		if rev == "" {
			rev = "none (not built from a version-controlled checkout with VCS stamping)"
		} else {
			if g.VCSModified {
				rev += " (modified)"
			}
			if g.VCSTime != "" {
				rev += " " + g.VCSTime
			}
		}
		t.row("revision", rev, "", "")
	}

	t.group("Process", "process")
	p := h.Process
	if _, unknown := unknownOf(h, "process.args", "process"); unknown {
		t.row("command line", "", "process.args", "process")
	} else {
		t.row("command line", strings.Join(p.Args, " "), "", "")
		t.row("PID", fmt.Sprintf("%d (root: %s)", p.PID, yesNo(p.Root)), "", "")
	}
	aff := ""
	if p.AffinityCount > 0 {
		aff = fmt.Sprintf("CPUs %s (%d)", p.Affinity, p.AffinityCount)
	}
	t.row("CPU affinity", aff, "process.affinity", "process")
	t.row("CPU speed", h.CPUSpeed.String(), "cpu_speed", "")
	t.row("cgroup CPU quota", cgroupText(p.Cgroup), "process.cgroup", "process")

	if c := h.Counters; c != nil {
		t.group("Performance counters", "counters")
		t.row("hardware", yesNo(c.Hardware), "", "")
		t.row("software", yesNo(c.Software), "", "")
		t.row("details", c.Summary, "", "")
	}

	return t.groups
}

// envTable collects label/value rows, showing the reason for unknown
// values.
type envTable struct {
	h      *env.Host
	groups []envGroup
	skip   bool // the whole group is unknown and was said so
}

// group starts a group of rows; when the whole group (key) is unknown it
// says so once, and its rows are left out.
func (t *envTable) group(name, key string) {
	r, ok := t.h.Unknown[key]
	t.skip = ok
	t.groups = append(t.groups, envGroup{title: name, unknown: r})
}

// row adds label and value; an empty value shows the reason recorded
// for key (or for the whole group), else "-".
func (t *envTable) row(label, value, key, group string) {
	if t.skip && value == "" {
		return
	}
	if value == "" {
		if r, ok := unknownOf(t.h, key, group); ok {
			value = "unknown: " + r
		} else {
			value = "-"
		}
	}
	g := &t.groups[len(t.groups)-1]
	g.rows = append(g.rows, envRow{label, value})
}

// unknownOf returns the reason recorded in h for key, or for its group.
func unknownOf(h *env.Host, key, group string) (string, bool) {
	if r, ok := h.Unknown[key]; ok && key != "" {
		return r, true
	}
	if r, ok := h.Unknown[group]; ok && group != "" {
		return r, true
	}
	return "", false
}

type freqRow struct{ label, value string }

// groupFreqs folds CPUs with the same governor and limits into one row,
// e.g. "CPUs 0-7  performance, 800-3600 MHz, now 2400-3500 MHz".
func groupFreqs(cpus []env.CPUFreq) []freqRow {
	type key struct {
		gov      string
		min, max int64
	}
	groups := map[key][]env.CPUFreq{}
	var order []key
	for _, c := range cpus {
		k := key{c.Governor, c.MinFreqKHz, c.MaxFreqKHz}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c)
	}
	var rows []freqRow
	for _, k := range order {
		g := groups[k]
		ids := make([]int, len(g))
		var lo, hi int64
		for i, c := range g {
			ids[i] = c.CPU
			if c.CurFreqKHz > 0 && (lo == 0 || c.CurFreqKHz < lo) {
				lo = c.CurFreqKHz
			}
			hi = max(hi, c.CurFreqKHz)
		}
		sort.Ints(ids)
		label := "CPU " + env.FormatCPUList(ids)
		if len(ids) > 1 {
			label = "CPUs " + env.FormatCPUList(ids)
		}
		var parts []string
		if k.gov != "" {
			parts = append(parts, k.gov)
		}
		if k.min > 0 || k.max > 0 {
			parts = append(parts, fmt.Sprintf("%s-%s MHz", khzMHz(k.min), khzMHz(k.max)))
		}
		if hi > 0 {
			now := "now " + khzMHz(lo)
			if hi != lo {
				now += "-" + khzMHz(hi)
			}
			parts = append(parts, now+" MHz")
		}
		rows = append(rows, freqRow{label, strings.Join(parts, ", ")})
	}
	return rows
}

// khzMHz is a frequency in kHz as MHz, exactly.
func khzMHz(khz int64) string { return strconv.FormatFloat(float64(khz)/1000, 'f', -1, 64) }

func powerText(p *env.Power) string {
	if p == nil {
		return ""
	}
	var parts []string
	switch {
	case p.OnBattery:
		parts = append(parts, "on battery")
	case p.OnAC != nil && *p.OnAC:
		parts = append(parts, "on AC")
	case p.OnAC != nil:
		parts = append(parts, "AC offline")
	}
	for _, b := range p.Batteries {
		s := b.Name + " " + strings.ToLower(b.Status)
		if b.CapacityPercent != nil {
			s += fmt.Sprintf(" %d%%", *b.CapacityPercent)
		}
		parts = append(parts, strings.TrimSpace(s))
	}
	if len(parts) == 0 {
		return "no AC adapter or battery reported"
	}
	return strings.Join(parts, ", ")
}

func cgroupText(cg *env.Cgroup) string {
	if cg == nil {
		return ""
	}
	where := fmt.Sprintf(" (cgroup v%d %s)", cg.Version, cg.Path)
	if cg.Unlimited {
		return "none" + where
	}
	return fmt.Sprintf("%.4g CPUs: %d µs every %d µs%s", cg.LimitCPUs, cg.CPUQuotaUs, cg.CPUPeriodUs, where)
}

// brief is a one-line summary of h for report headers: CPU model, cores,
// governor, kernel and Go version, e.g. "AMD EPYC, 2 CPUs (2 cores), no
// cpufreq, Linux 6.1.0, go1.26.0 linux/amd64, KVM guest".
func brief(h *env.Host) string {
	if h == nil {
		return "environment unknown"
	}
	var parts []string
	if h.CPU.Model != "" {
		parts = append(parts, h.CPU.Model)
	}
	if n := h.CPU.LogicalCPUs; n > 0 {
		s := plural.Count(n, "CPU")
		if h.CPU.PhysicalCores > 0 && h.CPU.PhysicalCores != n {
			s += " (" + plural.Count(h.CPU.PhysicalCores, "core") + ")"
		}
		parts = append(parts, s)
	}
	switch {
	case len(h.Frequency.Governors) > 0:
		parts = append(parts, "governor "+strings.Join(h.Frequency.Governors, "/"))
	case h.Unknown["frequency.governors"] != "":
		parts = append(parts, "no cpufreq")
	}
	if h.System.KernelRelease != "" {
		parts = append(parts, "Linux "+h.System.KernelRelease)
	}
	if h.Go.Version != "" {
		parts = append(parts, h.Go.Version+" "+h.Go.GOOS+"/"+h.Go.GOARCH)
	}
	if hv := h.CPU.Hypervisor; hv != nil && *hv {
		name := h.CPU.HypervisorVendor
		if name == "" {
			name = "hypervisor"
		}
		parts = append(parts, name+" guest")
	}
	if h.Go.Race {
		parts = append(parts, "race detector on")
	}
	if len(parts) == 0 {
		return "environment unknown"
	}
	return strings.Join(parts, ", ")
}

func join(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

func itoa(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func i64p(p *int64, suffix string) string {
	if p == nil {
		return ""
	}
	return strconv.FormatInt(*p, 10) + suffix
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// hypervisorOtherText is what the hypervisor's row appends to its name
// when other sources name another.
func hypervisorOtherText(c env.CPU) string {
	if len(c.HypervisorOther) == 0 {
		return ""
	}
	return "; but " + strings.Join(c.HypervisorOther, ", ")
}
