package env

import (
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
)

// probes are the parts of a capture that do not come from files: CPU
// instructions, system calls and the Go runtime. A nil probe leaves its
// fields unknown, with the reason "probeReason".
type probes struct {
	// cpuid executes CPUID (amd64 only).
	cpuid func(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
	// timerSlack returns the calling thread's timer slack in ns.
	timerSlack func() (int64, error)
	// affinity returns the CPUs the process may run on.
	affinity func() ([]int, error)
	// goInfo returns the Go toolchain, build and runtime settings.
	goInfo func() Go
	// process returns the PID, arguments and whether the user is root.
	process func() Process
	// kernelLog returns the kernel log (syslog(2), as dmesg reads it).
	kernelLog func() ([]byte, error)
	// cpuSpeed measures the relative speed of the allowed CPUs.
	cpuSpeed func() (*CPUSpeed, error)
	// reason explains a nil probe; cpuSpeedReason, when set, a nil
	// cpuSpeed.
	reason, cpuSpeedReason string
}

// captureFrom reads a Linux host whose procfs, sysfs and /etc are below
// root, using p for what files cannot tell. It never fails: what it
// cannot read is recorded in Host.Unknown with the reason.
func captureFrom(root string, p probes) *Host {
	h := &Host{}
	f := fsys{root}
	if p.reason == "" {
		p.reason = "not probed"
	}
	captureCPU(h, f, p)
	captureFrequency(h, f)
	captureSystem(h, f)
	captureScheduler(h, f, p)
	if p.goInfo != nil {
		h.Go = p.goInfo()
	} else {
		h.setUnknown("go", p.reason)
	}
	captureProcess(h, f, p)
	captureCPUSpeed(h, p)
	h.Warnings = warnings(h)
	return h
}

func captureCPU(h *Host, f fsys, p probes) {
	c := &h.CPU
	ciText, ciErr := f.read("/proc/cpuinfo")
	ci := parseCPUInfo(ciText)
	c.Vendor, c.Model, c.ReportedMHz = ci.Vendor, ci.Model, ci.MHz
	if c.Model == "" && ci.Part != "" {
		c.Model = "implementer " + ci.Implementer + " part " + ci.Part
	}
	switch {
	case ciErr != nil:
		h.setUnknown("cpu.model", ciErr.Error())
	case c.Model == "":
		h.setUnknown("cpu.model", "/proc/cpuinfo names no model")
	}

	// Topology of the online CPUs.
	online, err := onlineCPUs(f)
	if err != nil {
		if ci.Processors > 0 {
			c.LogicalCPUs = ci.Processors
		} else {
			h.setUnknown("cpu.logical_cpus", err.Error())
		}
	} else {
		c.LogicalCPUs = len(online)
	}
	cores, packages, smt, terr := topology(f, online)
	if terr != nil {
		h.setUnknown("cpu.physical_cores", terr.Error())
		if v, err := f.readInt("/sys/devices/system/cpu/smt/active"); err == nil {
			active := v != 0
			c.SMT = &active
		} else {
			h.setUnknown("cpu.smt", terr.Error())
		}
	} else {
		c.PhysicalCores, c.Packages, c.SMT = cores, packages, &smt
	}
	if s, err := f.read("/sys/devices/system/cpu/smt/control"); err == nil {
		c.SMTControl = s
	}

	// Hypervisor: the CPUID bit, the cpuinfo flag, /sys/hypervisor, DMI.
	vendor, _ := f.read("/sys/class/dmi/id/sys_vendor")
	product, _ := f.read("/sys/class/dmi/id/product_name")
	c.Product = strings.TrimSpace(vendor + " " + product)
	if c.Product == "" {
		h.setUnknown("cpu.product", "/sys/class/dmi/id has no sys_vendor or product_name (no DMI tables: common for minimal VMs and ARM boards)")
	}
	// Whether: the CPUID bit, else the cpuinfo flag. Which: every source
	// that names one, most specific first (hypervisorNames).
	var hv *bool
	if p.cpuid != nil {
		_, _, ecx, _ := p.cpuid(1, 0)
		on := ecx&(1<<31) != 0
		hv = &on
	} else if ciErr == nil && ci.HaveFlags {
		on := ci.Hypervisor
		hv = &on
	}
	names, logWhy := hypervisorNames(f, p, hv)
	if len(names) == 0 && (hv == nil || *hv) {
		if name := hypervisorFromDMI(vendor, product); name != "" {
			names = append(names, hypervisorName{name, "dmi"})
		}
	}
	if hv == nil && len(names) > 0 {
		// No CPUID and no x86 flags: a hypervisor can still show itself.
		on := true
		hv = &on
	}
	if hv != nil && *hv && len(names) > 0 {
		c.HypervisorVendor, c.HypervisorSource = names[0].name, names[0].source
		c.HypervisorOther = otherHypervisors(names)
	}
	c.Hypervisor = hv
	switch {
	case hv == nil:
		h.setUnknown("cpu.hypervisor", "no CPUID hypervisor bit on this architecture, and neither the kernel log, /sys/hypervisor/type nor DMI names a hypervisor")
	case *hv && c.HypervisorVendor == "":
		h.setUnknown("cpu.hypervisor_vendor", "the CPU reports a hypervisor but neither the kernel log ("+logWhy+"), /sys/hypervisor/type, CPUID leaf 0x40000000 nor DMI names it")
	}
}

// hypervisorName is a hypervisor's name and where it was read.
type hypervisorName struct{ name, source string }

// hypervisorNames returns what names the hypervisor, most specific
// first: the kernel's own detection (its log line "Hypervisor detected:
// X", printed by x86 kernels, which know paravirtual hypervisors such as
// PVM that reuse another's CPUID signature), /sys/hypervisor/type (Xen
// and others), then the CPUID leaf 0x40000000 vendor signature (only when
// the CPUID hypervisor bit is set). logWhy says why the kernel log named
// none.
func hypervisorNames(f fsys, p probes, hv *bool) (names []hypervisorName, logWhy string) {
	switch {
	case p.kernelLog == nil:
		logWhy = "not read: " + p.reason
	default:
		if b, err := p.kernelLog(); err != nil {
			logWhy = err.Error()
		} else if name := hypervisorFromKernelLog(string(b)); name != "" {
			names = append(names, hypervisorName{name, "kernel log"})
		} else {
			logWhy = "no \"Hypervisor detected\" line (it may have wrapped)"
		}
	}
	if t, err := f.read("/sys/hypervisor/type"); err == nil && t != "" {
		names = append(names, hypervisorName{t, "/sys/hypervisor/type"})
	}
	if p.cpuid != nil && hv != nil && *hv {
		if name := cpuidHypervisor(p.cpuid); name != "" {
			names = append(names, hypervisorName{name, "cpuid 0x40000000"})
		}
	}
	return names, logWhy
}

// hypervisorFromKernelLog returns X of the last "Hypervisor detected: X"
// line of kernel log text, or "".
func hypervisorFromKernelLog(log string) string {
	name := ""
	for line := range strings.SplitSeq(log, "\n") {
		if _, after, ok := strings.Cut(line, "Hypervisor detected: "); ok {
			name = strings.TrimSpace(after)
		}
	}
	return name
}

// sameHypervisor reports whether two names name the same hypervisor: one
// contains the other, ignoring case ("Xen HVM" and "xen", "KVM" and "KVM").
func sameHypervisor(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	return strings.Contains(a, b) || strings.Contains(b, a)
}

// otherHypervisors lists, as "NAME (from SOURCE)", the names that
// disagree with the first (the one reported).
func otherHypervisors(names []hypervisorName) []string {
	var out []string
	for _, n := range names[1:] {
		if !sameHypervisor(n.name, names[0].name) {
			out = append(out, n.name+" (from "+n.source+")")
		}
	}
	return out
}

// onlineCPUs lists the online CPUs.
func onlineCPUs(f fsys) ([]int, error) {
	s, err := f.read("/sys/devices/system/cpu/online")
	if err != nil {
		return nil, err
	}
	return ParseCPUList(s)
}

// topology counts distinct cores and packages among the online CPUs, and
// reports whether any core runs more than one of them.
func topology(f fsys, online []int) (cores, packages int, smt bool, err error) {
	if len(online) == 0 {
		return 0, 0, false, fmt.Errorf("the list of online CPUs is unknown")
	}
	type core struct{ pkg, id int64 }
	seenCore := map[core]int{}
	seenPkg := map[int64]bool{}
	for _, cpu := range online {
		dir := fmt.Sprintf("/sys/devices/system/cpu/cpu%d/topology", cpu)
		pkg, err := f.readInt(dir + "/physical_package_id")
		if err != nil {
			return 0, 0, false, err
		}
		id, err := f.readInt(dir + "/core_id")
		if err != nil {
			return 0, 0, false, err
		}
		seenPkg[pkg] = true
		seenCore[core{pkg, id}]++
	}
	for _, n := range seenCore {
		if n > 1 {
			smt = true
		}
	}
	return len(seenCore), len(seenPkg), smt, nil
}

func captureFrequency(h *Host, f fsys) {
	fr := &h.Frequency
	online, _ := onlineCPUs(f)
	if len(online) == 0 {
		online = []int{0}
	}
	const noCpufreq = "/sys/devices/system/cpu/cpu0/cpufreq does not exist: no cpufreq driver controls this CPU (usual in VMs, where the host sets the frequency; on bare metal load the driver, e.g. intel_pstate or acpi-cpufreq)"
	if !f.exists("/sys/devices/system/cpu/cpu0/cpufreq") && !f.exists(fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpufreq", online[0])) {
		h.setUnknown("frequency.governors", noCpufreq)
		h.setUnknown("frequency.cpus", noCpufreq)
	} else {
		fr.Driver, _ = f.read(fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", online[0]))
		seen := map[string]bool{}
		for _, cpu := range online {
			dir := fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpufreq/", cpu)
			cf := CPUFreq{CPU: cpu}
			cf.Governor, _ = f.read(dir + "scaling_governor")
			cf.MinFreqKHz, _ = f.readInt(dir + "scaling_min_freq")
			cf.MaxFreqKHz, _ = f.readInt(dir + "scaling_max_freq")
			var err error
			if cf.CurFreqKHz, err = f.readInt(dir + "scaling_cur_freq"); err != nil {
				cf.CurFreqKHz, _ = f.readInt(dir + "cpuinfo_cur_freq")
			}
			if cf.Governor != "" && !seen[cf.Governor] {
				seen[cf.Governor] = true
				fr.Governors = append(fr.Governors, cf.Governor)
			}
			fr.CPUs = append(fr.CPUs, cf)
		}
		if len(fr.Governors) == 0 {
			h.setUnknown("frequency.governors", "cpufreq has no scaling_governor files (the driver has no governors)")
		}
	}

	// Boost: intel_pstate inverts it (no_turbo); acpi-cpufreq and
	// amd-pstate expose cpufreq/boost, newer kernels per policy.
	if v, err := f.readInt("/sys/devices/system/cpu/intel_pstate/no_turbo"); err == nil {
		on := v == 0
		fr.Boost, fr.BoostSource = &on, "/sys/devices/system/cpu/intel_pstate/no_turbo"
	} else if v, err := f.readInt("/sys/devices/system/cpu/cpufreq/boost"); err == nil {
		on := v != 0
		fr.Boost, fr.BoostSource = &on, "/sys/devices/system/cpu/cpufreq/boost"
	} else {
		src := fmt.Sprintf("/sys/devices/system/cpu/cpufreq/policy%d/boost", online[0])
		if v, err := f.readInt(src); err == nil {
			on := v != 0
			fr.Boost, fr.BoostSource = &on, src
		} else {
			h.setUnknown("frequency.boost", "neither intel_pstate/no_turbo nor cpufreq/boost exists in /sys/devices/system/cpu: the kernel does not control turbo/boost here (in a VM the host does)")
		}
	}
}

func captureSystem(h *Host, f fsys) {
	s := &h.System
	var err error
	if s.Hostname, err = f.read("/proc/sys/kernel/hostname"); err != nil {
		h.setUnknown("system.hostname", err.Error())
	}
	if s.KernelRelease, err = f.read("/proc/sys/kernel/osrelease"); err != nil {
		h.setUnknown("system.kernel_release", err.Error())
	}
	if s.KernelVersion, err = f.read("/proc/sys/kernel/version"); err != nil {
		h.setUnknown("system.kernel_version", err.Error())
	}
	osr, err := f.read("/etc/os-release")
	if err != nil {
		osr, err = f.read("/usr/lib/os-release")
	}
	if err != nil {
		h.setUnknown("system.os", "neither /etc/os-release nor /usr/lib/os-release exists")
	} else {
		m := parseOSRelease(osr)
		s.OS, s.OSID, s.OSVersionID = m["PRETTY_NAME"], m["ID"], m["VERSION_ID"]
		if s.OS == "" {
			s.OS = strings.TrimSpace(m["NAME"] + " " + m["VERSION"])
		}
	}
	if s.Cmdline, err = f.read("/proc/cmdline"); err != nil {
		h.setUnknown("system.kernel_cmdline", err.Error())
	}
	if la, err := f.read("/proc/loadavg"); err != nil {
		h.setUnknown("system.load_avg", err.Error())
	} else if s.LoadAvg, err = parseLoadAvg(la); err != nil {
		h.setUnknown("system.load_avg", err.Error())
	}
	const cs = "/sys/devices/system/clocksource/clocksource0/"
	if s.Clocksource, err = f.read(cs + "current_clocksource"); err != nil {
		h.setUnknown("system.clocksource", err.Error())
	}
	if av, err := f.read(cs + "available_clocksource"); err != nil {
		h.setUnknown("system.available_clocksources", err.Error())
	} else {
		s.AvailableClocksources = strings.Fields(av)
	}
	capturePower(h, f)
}

func capturePower(h *Host, f fsys) {
	const dir = "/sys/class/power_supply"
	entries, err := os.ReadDir(f.abs(dir))
	if err != nil || len(entries) == 0 {
		h.setUnknown("system.power", dir+" lists no power supplies (usual for servers and VMs, which run on mains)")
		return
	}
	pw := &Power{}
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		typ, _ := f.read(p + "/type")
		switch typ {
		case "Mains":
			if v, err := f.readInt(p + "/online"); err == nil {
				on := v != 0 || (pw.OnAC != nil && *pw.OnAC)
				pw.OnAC = &on
			}
		case "Battery":
			if present, err := f.readInt(p + "/present"); err == nil && present == 0 {
				continue
			}
			b := Battery{Name: e.Name()}
			b.Status, _ = f.read(p + "/status")
			if c, err := f.readInt(p + "/capacity"); err == nil {
				ci := int(c)
				b.CapacityPercent = &ci
			}
			if b.Status == "Discharging" {
				pw.OnBattery = true
			}
			pw.Batteries = append(pw.Batteries, b)
		}
	}
	if pw.OnAC != nil && !*pw.OnAC && len(pw.Batteries) > 0 {
		pw.OnBattery = true
	}
	h.System.Power = pw
}

func captureScheduler(h *Host, f fsys, p probes) {
	s := &h.Scheduler
	if v, err := f.read("/sys/devices/system/cpu/isolated"); err != nil {
		h.setUnknown("scheduler.isolated_cpus", err.Error())
	} else {
		s.IsolatedCPUs = v
	}
	if v, err := f.read("/sys/devices/system/cpu/nohz_full"); err != nil {
		h.setUnknown("scheduler.nohz_full_cpus", absentBecause(err, "the kernel is built without CONFIG_NO_HZ_FULL"))
	} else if v != "(null)" {
		s.NohzFullCPUs = v
	}
	s.CmdlineIsolation = cmdlineIsolation(h.System.Cmdline)

	if p.timerSlack != nil {
		if v, err := p.timerSlack(); err != nil {
			h.setUnknown("scheduler.timer_slack_ns", err.Error())
		} else {
			s.TimerSlackNs = &v
		}
	} else {
		h.setUnknown("scheduler.timer_slack_ns", p.reason)
	}
	readIntField(h, f, "/proc/sys/kernel/sched_rt_runtime_us", "scheduler.rt_runtime_us", &s.RTRuntimeUs)
	readIntField(h, f, "/proc/sys/kernel/sched_rt_period_us", "scheduler.rt_period_us", &s.RTPeriodUs)
	var aslr, paranoid *int64
	readIntField(h, f, "/proc/sys/kernel/randomize_va_space", "scheduler.aslr", &aslr)
	readIntField(h, f, "/proc/sys/kernel/perf_event_paranoid", "scheduler.perf_event_paranoid", &paranoid)
	s.ASLR, s.PerfEventParanoid = toInt(aslr), toInt(paranoid)
	const thp = "/sys/kernel/mm/transparent_hugepage/"
	if v, err := f.read(thp + "enabled"); err != nil {
		h.setUnknown("scheduler.thp", absentBecause(err, "the kernel is built without transparent huge pages"))
	} else {
		s.THP = selectedMode(v)
	}
	if v, err := f.read(thp + "defrag"); err == nil {
		s.THPDefrag = selectedMode(v)
	}
}

func readIntField(h *Host, f fsys, file, key string, dst **int64) {
	v, err := f.readInt(file)
	if err != nil {
		h.setUnknown(key, err.Error())
		return
	}
	*dst = &v
}

func toInt(p *int64) *int {
	if p == nil {
		return nil
	}
	v := int(*p)
	return &v
}

func captureProcess(h *Host, f fsys, p probes) {
	if p.process != nil {
		h.Process = p.process()
	} else {
		h.setUnknown("process.args", p.reason)
	}
	if p.affinity != nil {
		if cpus, err := p.affinity(); err != nil {
			h.setUnknown("process.affinity", err.Error())
		} else {
			h.Process.Affinity, h.Process.AffinityCount = FormatCPUList(cpus), len(cpus)
		}
	} else {
		h.setUnknown("process.affinity", p.reason)
	}
	cg, err := readCgroup(f)
	if err != nil {
		h.setUnknown("process.cgroup", err.Error())
		return
	}
	h.Process.Cgroup = cg
}

// mount is a line of /proc/self/mountinfo.
type mount struct {
	root, point, fstype string
	superOpts           []string
}

func parseMountinfo(s string) []mount {
	var ms []mount
	for _, line := range strings.Split(s, "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		a, b := strings.Fields(pre), strings.Fields(post)
		if len(a) < 5 || len(b) < 3 {
			continue
		}
		ms = append(ms, mount{root: unescapeMount(a[3]), point: unescapeMount(a[4]), fstype: b[0], superOpts: strings.Split(b[2], ",")})
	}
	return ms
}

// unescapeMount undoes the octal escapes (\040 for space) of mountinfo.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// readCgroup finds the CPU bandwidth limit of the process: the cgroup v1
// cpu controller (cpu.cfs_quota_us, cpu.cfs_period_us) when it is mounted,
// else cgroup v2 (cpu.max); the tightest limit from the process's cgroup
// up to the root of the hierarchy.
func readCgroup(f fsys) (*Cgroup, error) {
	cgText, err := f.read("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	miText, err := f.read("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	mounts := parseMountinfo(miText)
	var v1Path, v2Path string
	haveV1, haveV2 := false, false
	for _, line := range strings.Split(cgText, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2Path, haveV2 = parts[2], true
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == "cpu" {
				v1Path, haveV1 = parts[2], true
			}
		}
	}
	if haveV1 {
		for _, m := range mounts {
			if m.fstype == "cgroup" && contains(m.superOpts, "cpu") {
				return walkCgroup(f, 1, m, v1Path)
			}
		}
	}
	if haveV2 {
		for _, m := range mounts {
			if m.fstype == "cgroup2" {
				return walkCgroup(f, 2, m, v2Path)
			}
		}
	}
	return nil, fmt.Errorf("no mounted cgroup cpu controller for this process (/proc/self/cgroup and /proc/self/mountinfo name none)")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// walkCgroup reads the CPU limits from the process's cgroup directory up
// to the mount point, keeping the tightest.
func walkCgroup(f fsys, version int, m mount, cgPath string) (*Cgroup, error) {
	rel := cgPath
	if m.root != "/" {
		rel = strings.TrimPrefix(cgPath, m.root)
	}
	dir := path.Join(m.point, rel)
	if strings.Contains(rel, "..") || !f.exists(dir) {
		// A cgroup namespace or a bind mount hides the path: the mount
		// point is the process's own cgroup.
		dir = m.point
	}
	cg := &Cgroup{Version: version, Path: cgPath, Unlimited: true}
	found := false
	for d := dir; ; d = path.Dir(d) {
		quota, period, ok, err := cgroupLimit(f, version, d)
		if err != nil {
			return nil, err
		}
		if ok {
			found = true
			if quota > 0 && period > 0 {
				limit := float64(quota) / float64(period)
				if cg.Unlimited || limit < cg.LimitCPUs {
					cg.Unlimited, cg.CPUQuotaUs, cg.CPUPeriodUs, cg.LimitCPUs = false, quota, period, limit
				}
			}
		}
		if d == m.point || d == "/" || !strings.HasPrefix(d, m.point) {
			break
		}
	}
	if !found {
		if version == 2 {
			// cgroup v2 has cpu.max wherever the cpu controller is
			// enabled (never in the root): none means no CPU limit.
			return cg, nil
		}
		return nil, fmt.Errorf("no cpu.cfs_quota_us in %s or its parents (the cpu controller is mounted but shows no bandwidth files)", dir)
	}
	return cg, nil
}

// cgroupLimit reads one cgroup directory's CPU quota; quota < 0 means no
// limit; ok is false when the directory has no limit files.
func cgroupLimit(f fsys, version int, dir string) (quota, period int64, ok bool, err error) {
	if version == 2 {
		s, rerr := f.read(path.Join(dir, "cpu.max"))
		if rerr != nil {
			return 0, 0, false, nil
		}
		return parseCPUMax(s)
	}
	q, qerr := f.readInt(path.Join(dir, "cpu.cfs_quota_us"))
	p, perr := f.readInt(path.Join(dir, "cpu.cfs_period_us"))
	if qerr != nil || perr != nil {
		return 0, 0, false, nil
	}
	return q, p, true, nil
}

// parseCPUMax parses cgroup v2 cpu.max: "max 100000" or "150000 100000".
func parseCPUMax(s string) (quota, period int64, ok bool, err error) {
	fs := strings.Fields(s)
	if len(fs) != 2 {
		return 0, 0, false, fmt.Errorf("cpu.max holds %q, not \"QUOTA PERIOD\"", s)
	}
	if period, err = strconv.ParseInt(fs[1], 10, 64); err != nil {
		return 0, 0, false, fmt.Errorf("cpu.max holds %q, not \"QUOTA PERIOD\"", s)
	}
	if fs[0] == "max" {
		return -1, period, true, nil
	}
	if quota, err = strconv.ParseInt(fs[0], 10, 64); err != nil {
		return 0, 0, false, fmt.Errorf("cpu.max holds %q, not \"QUOTA PERIOD\"", s)
	}
	return quota, period, true, nil
}

// captureCPUSpeed measures the CPUs' speed with the probe, or records why
// it was not measured.
func captureCPUSpeed(h *Host, p probes) {
	if p.cpuSpeed == nil {
		if p.cpuSpeedReason != "" {
			h.setUnknown("cpu_speed", p.cpuSpeedReason)
		} else {
			h.setUnknown("cpu_speed", p.reason)
		}
		return
	}
	s, err := p.cpuSpeed()
	switch {
	case err != nil:
		h.setUnknown("cpu_speed", "the allowed CPUs could not be read: "+err.Error())
	case s == nil || len(s.CPUs) == 0:
		h.setUnknown("cpu_speed", "no CPU could be measured")
		if s != nil && len(s.Unmeasured) > 0 {
			h.CPUSpeed = s
		}
	default:
		h.CPUSpeed = s
	}
}
