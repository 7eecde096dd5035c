package env

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/internal/excerpt"
)

// fsys reads the procfs/sysfs/etc files of a host below root ("/" for
// the live host, a fixture tree in tests).
type fsys struct{ root string }

func (f fsys) abs(p string) string { return filepath.Join(f.root, p) }

// read returns the content of the file p with surrounding space removed.
// Its error names p as the host sees it (not the fixture root) and says
// what the failure means, so it can be recorded as a reason.
func (f fsys) read(p string) (string, error) {
	b, err := os.ReadFile(f.abs(p))
	if err != nil {
		return "", readError(p, err)
	}
	return strings.TrimSpace(string(b)), nil
}

func (f fsys) exists(p string) bool {
	_, err := os.Stat(f.abs(p))
	return err == nil
}

// readInt reads a file holding one integer.
func (f fsys) readInt(p string) (int64, error) {
	s, err := f.read(p)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s holds %q, not an integer", p, s)
	}
	return v, nil
}

// readError turns a file read error into a short reason that still
// wraps the cause (errors.Is(err, fs.ErrNotExist) holds for a missing file).
func readError(p string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &reasonError{p + " does not exist", err}
	case errors.Is(err, fs.ErrPermission):
		return &reasonError{p + ": permission denied (run as root to read it)", err}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", p, pe.Err)
	}
	return fmt.Errorf("%s: %w", p, err)
}

// reasonError is a reason worded for the reader that wraps its cause.
type reasonError struct {
	text  string
	cause error
}

func (e *reasonError) Error() string { return e.text }
func (e *reasonError) Unwrap() error { return e.cause }

// absentBecause is err's text, followed by why the file is missing when
// the error says it does not exist. Another failure (permission denied,
// an I/O error) keeps its own reason only: the file's absence would
// explain nothing there.
func absentBecause(err error, why string) string {
	if errors.Is(err, fs.ErrNotExist) {
		return err.Error() + " (" + why + ")"
	}
	return err.Error()
}

// maxCPU is the largest CPU number ParseCPUList accepts. Linux supports
// at most 8192 CPUs (NR_CPUS); the bound leaves room for that to grow and
// keeps a typo such as 0-999999999 from expanding into a billion numbers.
const maxCPU = 1<<16 - 1

// ParseCPUList parses a CPU list in the kernel's format (as in sysfs,
// isolcpus= and taskset -c), such as "2", "0,2" or "0-3,8,10-11", into
// sorted, distinct CPU numbers, each at most 65535. The empty string is
// the empty list. It takes O(n log n) time for n ranges plus the size of
// the result (at most 65536 numbers), whatever the ranges overlap. Its
// error quotes at most a short prefix of s.
func ParseCPUList(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "(null)" {
		return nil, nil
	}
	var spans [][2]int
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := cpuNumber(lo)
		b := a
		if err == nil && isRange {
			b, err = cpuNumber(hi)
		}
		switch {
		case err != nil:
			return nil, fmt.Errorf("env: bad CPU list %s: write CPUs like 2, 0,2 or 0-3", excerpt.Quote(s))
		case a > maxCPU || b > maxCPU:
			return nil, fmt.Errorf("env: bad CPU list %s: CPU %d is above %d, the largest CPU number accepted (Linux supports at most 8192 CPUs)", excerpt.Quote(s), max(a, b), maxCPU)
		case b < a:
			return nil, fmt.Errorf("env: bad CPU list %s: the range %d-%d goes down: write it as %d-%d", excerpt.Quote(s), a, b, b, a)
		}
		spans = append(spans, [2]int{a, b})
	}
	slices.SortFunc(spans, func(x, y [2]int) int { return cmp.Compare(x[0], y[0]) })
	var cpus []int
	next := 0 // the smallest CPU not yet in cpus
	for _, sp := range spans {
		for c := max(sp[0], next); c <= sp[1]; c++ {
			cpus = append(cpus, c)
		}
		next = max(next, sp[1]+1)
	}
	return cpus, nil
}

// cpuNumber parses a CPU number: decimal digits only.
func cpuNumber(s string) (int, error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(s)
}

// FormatCPUList writes sorted CPU numbers as a CPU list in the kernel's
// format, as ParseCPUList reads it: "0-3,8".
func FormatCPUList(cpus []int) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", cpus[i], cpus[j])
		} else {
			fmt.Fprintf(&b, "%d", cpus[i])
		}
		i = j + 1
	}
	return b.String()
}

// cpuInfo is what /proc/cpuinfo says about the first processor, and how
// many processors it lists.
type cpuInfo struct {
	Processors  int
	Vendor      string
	Model       string
	MHz         float64
	Hypervisor  bool // the "hypervisor" flag
	HaveFlags   bool // a flags line was present (x86)
	Implementer string
	Part        string
}

// parseCPUInfo parses /proc/cpuinfo (x86 and arm64 layouts).
func parseCPUInfo(s string) cpuInfo {
	var ci cpuInfo
	first := true
	for _, line := range strings.Split(s, "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			if strings.TrimSpace(line) == "" && ci.Processors > 0 {
				first = false
			}
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if key == "processor" {
			ci.Processors++
			continue
		}
		if !first {
			continue
		}
		switch key {
		case "vendor_id":
			ci.Vendor = val
		case "model name":
			ci.Model = val
		case "cpu MHz":
			ci.MHz, _ = strconv.ParseFloat(val, 64)
		case "flags", "Features":
			ci.HaveFlags = ci.HaveFlags || key == "flags"
			for _, f := range strings.Fields(val) {
				if f == "hypervisor" {
					ci.Hypervisor = true
				}
			}
		case "CPU implementer":
			ci.Implementer = val
		case "CPU part":
			ci.Part = val
		}
	}
	return ci
}

// parseOSRelease parses os-release(5) KEY=value lines, unquoting values.
func parseOSRelease(s string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			if u, err := strconv.Unquote(`"` + v[1:len(v)-1] + `"`); err == nil {
				v = u
			} else {
				v = v[1 : len(v)-1]
			}
		}
		m[k] = v
	}
	return m
}

// cmdlineIsolation returns the CPU isolation parameters of a kernel
// command line (isolcpus=, nohz_full=, rcu_nocbs=, irqaffinity=), in order.
func cmdlineIsolation(cmdline string) []string {
	var out []string
	for _, f := range strings.Fields(cmdline) {
		if f == "--" {
			break // the rest belongs to init
		}
		k, _, _ := strings.Cut(f, "=")
		switch k {
		case "isolcpus", "nohz_full", "rcu_nocbs", "irqaffinity":
			out = append(out, f)
		}
	}
	return out
}

// selectedMode returns the bracketed choice of a sysfs mode file such as
// "always [madvise] never".
func selectedMode(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		if j := strings.IndexByte(s[i:], ']'); j > 0 {
			return s[i+1 : i+j]
		}
	}
	return strings.TrimSpace(s)
}

// parseLoadAvg parses the first three fields of /proc/loadavg.
func parseLoadAvg(s string) ([]float64, error) {
	f := strings.Fields(s)
	if len(f) < 3 {
		return nil, fmt.Errorf("/proc/loadavg holds %q, not three load averages", s)
	}
	out := make([]float64, 3)
	for i := range out {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return nil, fmt.Errorf("/proc/loadavg holds %q, not three load averages", s)
		}
		out[i] = v
	}
	return out, nil
}

// hypervisorSignatures maps the vendor signature of CPUID leaf
// 0x40000000 (EBX, ECX, EDX) to the hypervisor's name.
var hypervisorSignatures = map[string]string{
	"KVMKVMKVM\x00\x00\x00": "KVM",
	"Microsoft Hv":          "Microsoft Hyper-V",
	"VMwareVMware":          "VMware",
	"XenVMMXenVMM":          "Xen",
	"TCGTCGTCGTCG":          "QEMU (TCG)",
	"bhyve bhyve ":          "bhyve",
	" lrpepyh  vr":          "Parallels",
	"ACRNACRNACRN":          "ACRN",
	"VBoxVBoxVBox":          "VirtualBox",
}

// hypervisorFromSignature names the hypervisor of a CPUID signature.
func hypervisorFromSignature(sig string) string {
	if name, ok := hypervisorSignatures[sig]; ok {
		return name
	}
	return strings.TrimRight(strings.TrimSpace(sig), "\x00")
}

// hypervisorFromDMI names the hypervisor implied by the DMI system vendor
// and product name, or "" when they name real hardware.
func hypervisorFromDMI(vendor, product string) string {
	v, p := strings.ToLower(vendor), strings.ToLower(product)
	switch {
	case strings.Contains(v, "qemu"), strings.Contains(p, "kvm"):
		return "KVM"
	case strings.Contains(v, "vmware"):
		return "VMware"
	case strings.Contains(v, "innotek"), strings.Contains(p, "virtualbox"):
		return "VirtualBox"
	case strings.Contains(v, "xen"):
		return "Xen"
	case strings.Contains(v, "microsoft") && strings.Contains(p, "virtual"):
		return "Microsoft Hyper-V"
	case strings.Contains(v, "amazon ec2"):
		return "Amazon EC2 (Nitro/KVM)"
	case strings.Contains(v, "google") && strings.Contains(p, "compute engine"):
		return "Google Compute Engine (KVM)"
	case strings.Contains(v, "parallels"):
		return "Parallels"
	case strings.Contains(p, "bhyve"):
		return "bhyve"
	}
	return ""
}
