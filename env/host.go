package env

import (
	"slices"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/warn"
)

// Host is the environment of one measurement. Fields that could not be
// read are left empty (omitted from JSON) and listed in Unknown with the
// reason, never guessed. Units are in the field names (FreqKHz, ...).
type Host struct {
	CPU       CPU       `json:"cpu"`
	Frequency Frequency `json:"frequency"`
	System    System    `json:"system"`
	Scheduler Scheduler `json:"scheduler"`
	Go        Go        `json:"go"`
	Process   Process   `json:"process"`

	// CPUSpeed is the relative speed of the CPUs the process may run on,
	// measured at capture (at most 50 ms; see CPUSpeed).
	CPUSpeed *CPUSpeed `json:"cpu_speed,omitempty"`

	// Windows holds what env reads of Windows (and of Wine); nil on
	// other systems.
	Windows *Windows `json:"windows,omitempty"`

	// Counters says whether hardware and software performance counters
	// can be read here. env does not open perf events itself (it stands
	// alone); callers that can probe them (package counters) fill it in.
	Counters *Counters `json:"counters,omitempty"`

	// Unknown maps the JSON path of each field that could not be read
	// (e.g. "frequency.governors", "cpu.hypervisor_vendor") to the
	// reason it could not be read.
	Unknown map[string]string `json:"unknown,omitempty"`

	// Warnings are the conditions that spoil measurements, each with the
	// next step in its text.
	Warnings []warn.Warning `json:"warnings,omitempty"`
}

// CPU describes the processors.
type CPU struct {
	// Vendor is the vendor string (e.g. "GenuineIntel", "AuthenticAMD").
	Vendor string `json:"vendor,omitempty"`
	// Model is the model name as the kernel reports it.
	Model string `json:"model,omitempty"`
	// LogicalCPUs is the number of online logical CPUs (hardware threads).
	LogicalCPUs int `json:"logical_cpus,omitempty"`
	// PhysicalCores is the number of distinct online cores (over all
	// packages); Packages the number of sockets.
	PhysicalCores int `json:"physical_cores,omitempty"`
	Packages      int `json:"packages,omitempty"`
	// SMT reports whether simultaneous multithreading (hyper-threading)
	// is active: some core runs more than one online logical CPU.
	SMT *bool `json:"smt,omitempty"`
	// SMTControl is the kernel's SMT control state ("on", "off",
	// "forceoff", "notsupported", "notimplemented").
	SMTControl string `json:"smt_control,omitempty"`
	// Hypervisor reports whether the CPU says it runs under a hypervisor
	// (CPUID leaf 1 ECX bit 31, the "hypervisor" flag of /proc/cpuinfo).
	Hypervisor *bool `json:"hypervisor,omitempty"`
	// HypervisorVendor names the hypervisor (e.g. "KVM", "Xen",
	// "Microsoft Hyper-V", "VMware"), and HypervisorSource where it came
	// from: the most specific of the kernel log ("Hypervisor detected"),
	// /sys/hypervisor/type, CPUID leaf 0x40000000 and DMI.
	HypervisorVendor string `json:"hypervisor_vendor,omitempty"`
	HypervisorSource string `json:"hypervisor_source,omitempty"`
	// HypervisorOther lists the names that less specific sources gave
	// when they disagree with HypervisorVendor, each as "NAME (from
	// SOURCE)", e.g. "bhyve (from cpuid 0x40000000)" under a kernel log
	// that says PVM.
	HypervisorOther []string `json:"hypervisor_other,omitempty"`
	// Product is the machine's vendor and product name from DMI.
	Product string `json:"product,omitempty"`
	// ReportedMHz is the frequency of CPU 0 as /proc/cpuinfo reports it
	// at capture time (a snapshot, not a nominal frequency).
	ReportedMHz float64 `json:"reported_mhz,omitempty"`
}

// Frequency describes the CPU frequency policy (Linux cpufreq).
type Frequency struct {
	// Driver is the cpufreq scaling driver (e.g. "intel_pstate",
	// "acpi-cpufreq", "amd-pstate").
	Driver string `json:"driver,omitempty"`
	// Governors lists the distinct governors in use, in CPU order.
	Governors []string `json:"governors,omitempty"`
	// CPUs holds the policy of each logical CPU.
	CPUs []CPUFreq `json:"cpus,omitempty"`
	// Boost reports whether turbo/boost is enabled, and BoostSource the
	// file that said so.
	Boost       *bool  `json:"boost,omitempty"`
	BoostSource string `json:"boost_source,omitempty"`
}

// CPUFreq is the frequency policy of one logical CPU. Frequencies are in
// kHz, as cpufreq reports them; zero means the file was absent.
type CPUFreq struct {
	CPU        int    `json:"cpu"`
	Governor   string `json:"governor,omitempty"`
	MinFreqKHz int64  `json:"min_freq_khz,omitempty"`
	MaxFreqKHz int64  `json:"max_freq_khz,omitempty"`
	CurFreqKHz int64  `json:"cur_freq_khz,omitempty"`
}

// System describes the kernel, the OS and the machine's state.
type System struct {
	Hostname      string `json:"hostname,omitempty"`
	KernelRelease string `json:"kernel_release,omitempty"`
	KernelVersion string `json:"kernel_version,omitempty"`
	// OS is the distribution's PRETTY_NAME; OSID and OSVersionID its ID
	// and VERSION_ID from os-release.
	OS          string `json:"os,omitempty"`
	OSID        string `json:"os_id,omitempty"`
	OSVersionID string `json:"os_version_id,omitempty"`
	// Cmdline is the kernel command line.
	Cmdline string `json:"kernel_cmdline,omitempty"`
	// LoadAvg holds the 1, 5 and 15 minute load averages.
	LoadAvg []float64 `json:"load_avg,omitempty"`
	// Clocksource is the kernel's current clocksource and
	// AvailableClocksources the ones it could switch to.
	Clocksource           string   `json:"clocksource,omitempty"`
	AvailableClocksources []string `json:"available_clocksources,omitempty"`
	// Power describes the power supplies.
	Power *Power `json:"power,omitempty"`
}

// Power describes the machine's power supplies (/sys/class/power_supply).
type Power struct {
	// OnAC reports whether an AC adapter (mains) is online; nil when the
	// machine has no AC adapter entry (typical of servers and VMs).
	OnAC *bool `json:"on_ac,omitempty"`
	// OnBattery is true when a battery is discharging.
	OnBattery bool      `json:"on_battery"`
	Batteries []Battery `json:"batteries,omitempty"`
}

// Battery is one battery's state.
type Battery struct {
	Name string `json:"name"`
	// Status is "Charging", "Discharging", "Full", "Not charging", ...
	Status          string `json:"status,omitempty"`
	CapacityPercent *int   `json:"capacity_percent,omitempty"`
}

// Scheduler describes scheduling, timers and memory settings of the kernel.
type Scheduler struct {
	// IsolatedCPUs and NohzFullCPUs are CPU lists ("2-3,6") of isolated
	// and tickless CPUs, empty when none; CmdlineIsolation holds the
	// isolcpus=, nohz_full= and rcu_nocbs= parameters of the command line.
	IsolatedCPUs     string   `json:"isolated_cpus"`
	NohzFullCPUs     string   `json:"nohz_full_cpus"`
	CmdlineIsolation []string `json:"cmdline_isolation,omitempty"`
	// TimerSlackNs is the timer slack of the capturing thread (prctl
	// PR_GET_TIMERSLACK): how late the kernel may fire its timers.
	TimerSlackNs *int64 `json:"timer_slack_ns,omitempty"`
	// RTRuntimeUs of every RTPeriodUs is the CPU time real-time tasks
	// may use (-1: RT throttling off).
	RTRuntimeUs *int64 `json:"rt_runtime_us,omitempty"`
	RTPeriodUs  *int64 `json:"rt_period_us,omitempty"`
	// ASLR is kernel.randomize_va_space (0 off, 1 partial, 2 full).
	ASLR *int `json:"aslr,omitempty"`
	// THP and THPDefrag are the selected transparent huge page modes
	// ("always", "madvise", "never", ...).
	THP       string `json:"thp,omitempty"`
	THPDefrag string `json:"thp_defrag,omitempty"`
	// PerfEventParanoid is kernel.perf_event_paranoid (-1 .. 3+).
	PerfEventParanoid *int `json:"perf_event_paranoid,omitempty"`
}

// Go describes the Go toolchain, build and runtime settings.
type Go struct {
	Version    string `json:"version"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	NumCPU     int    `json:"num_cpu"`
	Compiler   string `json:"compiler,omitempty"`
	// Race is true when the binary was built with the race detector.
	Race bool `json:"race"`
	// GCFlags and LDFlags are the -gcflags and -ldflags of the build.
	GCFlags string `json:"gcflags,omitempty"`
	LDFlags string `json:"ldflags,omitempty"`
	// CGOEnabled is the CGO_ENABLED build setting (nil when not recorded).
	CGOEnabled *bool `json:"cgo_enabled,omitempty"`
	// ArchLevel is the architecture level setting, e.g. "GOAMD64=v1".
	ArchLevel string `json:"arch_level,omitempty"`
	// MainModule, VCSRevision, VCSTime and VCSModified describe the
	// main module's source.
	MainModule  string `json:"main_module,omitempty"`
	VCSRevision string `json:"vcs_revision,omitempty"`
	VCSTime     string `json:"vcs_time,omitempty"`
	VCSModified bool   `json:"vcs_modified,omitempty"`
}

// Process describes the capturing process.
type Process struct {
	PID  int      `json:"pid"`
	Args []string `json:"args"`
	// Root reports whether the effective user is root.
	Root bool `json:"root"`
	// Affinity is the list of CPUs this process may run on ("0-3").
	Affinity      string `json:"affinity,omitempty"`
	AffinityCount int    `json:"affinity_count,omitempty"`
	// Cgroup is the CPU controller's view of this process.
	Cgroup *Cgroup `json:"cgroup,omitempty"`
}

// Cgroup is the CPU bandwidth limit of the process's cgroup: the tightest
// limit over the cgroup and its ancestors.
type Cgroup struct {
	// Version is 1 or 2; Path the cgroup of the process.
	Version int    `json:"version"`
	Path    string `json:"path"`
	// Unlimited is true when no CPU quota applies; otherwise the process
	// may use CPUQuotaUs of every CPUPeriodUs, that is LimitCPUs CPUs.
	Unlimited   bool    `json:"unlimited"`
	CPUQuotaUs  int64   `json:"cpu_quota_us,omitempty"`
	CPUPeriodUs int64   `json:"cpu_period_us,omitempty"`
	LimitCPUs   float64 `json:"limit_cpus,omitempty"`
}

// Windows describes a Windows host. A field that could not be read is
// empty, with the reason in Host.Unknown ("windows.power_plan", ...).
type Windows struct {
	// Wine is Wine's version ("8.0") when the program runs under Wine,
	// the Windows compatibility layer: then every figure measured is
	// Wine's, on a Linux host, not Windows's.
	Wine string `json:"wine,omitempty"`
	// Version is RtlGetVersion's major.minor.build ("10.0.19045"; Wine
	// reports the Windows version it emulates), and ServicePack its CSD
	// string.
	Version     string `json:"version,omitempty"`
	ServicePack string `json:"service_pack,omitempty"`
	// PowerPlan is the active power scheme's GUID (PowerGetActiveScheme)
	// and PowerPlanName the name of a scheme Windows ships ("Balanced",
	// "High performance", ...), empty for one of the user's own.
	PowerPlan     string `json:"power_plan,omitempty"`
	PowerPlanName string `json:"power_plan_name,omitempty"`
	// TimerResolutionNs is the current period of the clock interrupt
	// (NtQueryTimerResolution): the finest any process holds through
	// timeBeginPeriod or NtSetTimerResolution, Sleep's granularity; and
	// TimerFinestNs, TimerCoarsestNs the periods the system allows.
	TimerResolutionNs int64 `json:"timer_resolution_ns,omitempty"`
	TimerFinestNs     int64 `json:"timer_finest_ns,omitempty"`
	TimerCoarsestNs   int64 `json:"timer_coarsest_ns,omitempty"`
}

// setUnknown records that the field at path could not be read, and why.
func (h *Host) setUnknown(path, reason string) {
	if h.Unknown == nil {
		h.Unknown = make(map[string]string)
	}
	h.Unknown[path] = reason
}

// Reason returns why the field at path (e.g. "frequency.governors") is
// unknown, or "" when it was read.
func (h *Host) Reason(path string) string { return h.Unknown[path] }

// Counters is the availability of performance counters on the host.
type Counters struct {
	Hardware bool `json:"hardware"`
	Software bool `json:"software"`
	// Summary says what can be counted and, for what cannot, why and
	// what to do.
	Summary string `json:"summary"`
}

// SpeedProfile describes how fast the host's CPUs are set to run: the
// cpufreq driver, governors, boost and the distinct maximum frequencies
// ("" when none of it is known). The regression gate and the history's
// machine fingerprint compare hosts by it.
func (h *Host) SpeedProfile() string {
	f := h.Frequency
	var parts []string
	if f.Driver != "" {
		parts = append(parts, "driver "+f.Driver)
	}
	if len(f.Governors) > 0 {
		parts = append(parts, "governor "+strings.Join(f.Governors, "/"))
	}
	if f.Boost != nil {
		parts = append(parts, "boost "+strconv.FormatBool(*f.Boost))
	}
	var maxes []string
	for _, c := range f.CPUs {
		if c.MaxFreqKHz > 0 {
			s := strconv.FormatInt(c.MaxFreqKHz/1000, 10) + " MHz"
			if !slices.Contains(maxes, s) {
				maxes = append(maxes, s)
			}
		}
	}
	if len(maxes) > 0 {
		parts = append(parts, "max "+strings.Join(maxes, "/"))
	}
	return strings.Join(parts, ", ")
}
