//go:build linux

package counters

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// readFormat is the read format of every event: one read(2) on a leader
// returns the whole group with its enabled and running times and the
// kernel ids of the events.
const readFormat = unix.PERF_FORMAT_GROUP | unix.PERF_FORMAT_TOTAL_TIME_ENABLED |
	unix.PERF_FORMAT_TOTAL_TIME_RUNNING | unix.PERF_FORMAT_ID

// sysOpen opens one event on the calling thread (pid 0, any CPU), as a
// member of the group led by groupFD, or as a leader when groupFD is -1,
// and returns its file descriptor and kernel id.
func sysOpen(s attrSpec, groupFD int) (fd int, id uint64, err error) {
	attr := unix.PerfEventAttr{
		Type:        s.typ,
		Size:        uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
		Config:      s.config,
		Read_format: readFormat,
	}
	set := func(on bool, bit uint64) {
		if on {
			attr.Bits |= bit
		}
	}
	set(s.disabled, unix.PerfBitDisabled)
	set(s.inherit, unix.PerfBitInherit)
	set(s.enableOnExec, unix.PerfBitEnableOnExec)
	set(s.excludeUser, unix.PerfBitExcludeUser)
	set(s.excludeKernel, unix.PerfBitExcludeKernel)
	set(s.excludeHV, unix.PerfBitExcludeHv)
	fd, err = unix.PerfEventOpen(&attr, 0, -1, groupFD, unix.PERF_FLAG_FD_CLOEXEC)
	if err != nil {
		return -1, 0, err
	}
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.PERF_EVENT_IOC_ID), uintptr(unsafe.Pointer(&id))); e != 0 {
		unix.Close(fd)
		return -1, 0, fmt.Errorf("PERF_EVENT_IOC_ID: %w", e)
	}
	return fd, id, nil
}

// sysGroupIoctl applies op to the group led by fd.
//
// Enable and disable act on the leader only: the members are opened
// enabled and count exactly when their leader is scheduled, so toggling
// the leader starts and stops the whole group. With PERF_IOC_FLAG_GROUP
// the kernel would toggle (and reschedule the context for) every member
// in turn, which costs 2-4 times more per sample (measured here: about
// 6 us against 13 us or more for a 4-event software group). Reset acts on
// every member.
func sysGroupIoctl(fd int, op ioctlOp) error {
	var req uint
	var arg uintptr
	switch op {
	case ioctlEnable:
		req = unix.PERF_EVENT_IOC_ENABLE
	case ioctlDisable:
		req = unix.PERF_EVENT_IOC_DISABLE
	case ioctlReset:
		req, arg = unix.PERF_EVENT_IOC_RESET, unix.PERF_IOC_FLAG_GROUP
	}
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), arg)
	if e != 0 {
		return e
	}
	return nil
}

func sysRead(fd int, buf []byte) (int, error) {
	for {
		n, err := unix.Read(fd, buf)
		if err == unix.EINTR {
			continue
		}
		return n, err
	}
}

func sysClose(fd int) error { return unix.Close(fd) }

func isPermissionError(err error) bool {
	return errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM)
}

// Messages shared by the open errors and Available.
const (
	msgNoPMU = "hardware counters are not available on this host (no PMU exposed, e.g. a virtual machine); software counters still work"
)

// openErrorReason explains why ev could not be opened, with the fix.
func openErrorReason(ev Event, err error) string {
	var errno unix.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	level, lerr := paranoidLevel()
	return describeOpenError(ev, errno, hasPMU(), level, lerr == nil)
}

// describeOpenError is the pure part of openErrorReason: the reason for
// errno when opening ev, given whether the host exposes a PMU and the
// perf_event_paranoid level (if known).
func describeOpenError(ev Event, errno unix.Errno, pmu bool, paranoid int, paranoidKnown bool) string {
	hw := ev.Kind == Hardware || ev.Kind == Cache
	switch errno {
	case unix.ENOENT, unix.EOPNOTSUPP, unix.ENODEV:
		if hw && !pmu {
			return msgNoPMU
		}
		if hw {
			return fmt.Sprintf("this CPU does not support the event %s (%v); choose another event", ev.Name, errno)
		}
		return fmt.Sprintf("this kernel does not support the software event %s (%v)", ev.Name, errno)
	case unix.EACCES, unix.EPERM:
		lv := "unknown"
		if paranoidKnown {
			lv = strconv.Itoa(paranoid)
		}
		return fmt.Sprintf("permission denied (%v; kernel.perf_event_paranoid=%s): run `sysctl kernel.perf_event_paranoid=1` (or -1), or grant the program CAP_PERFMON (Linux 5.8+) or CAP_SYS_ADMIN", errno, lv)
	case unix.EINVAL:
		return fmt.Sprintf("the kernel rejected the event %s (type %d, config %#x: %v); this kernel or CPU does not support it", ev.Name, ev.Type, ev.Config, errno)
	case unix.ENOSYS:
		return "perf_event_open is not available (kernel built without CONFIG_PERF_EVENTS, or blocked by a seccomp filter in a container: allow the perf_event_open system call)"
	case unix.EMFILE, unix.ENFILE:
		return fmt.Sprintf("too many open files (%v): raise the limit with `ulimit -n`", errno)
	case unix.EBUSY:
		return fmt.Sprintf("the PMU is in exclusive use by another program (%v)", errno)
	}
	return fmt.Sprintf("perf_event_open failed for %s: %v", ev.Name, errno)
}

// paranoidPath is where the kernel publishes perf_event_paranoid.
const paranoidPath = "/proc/sys/kernel/perf_event_paranoid"

func paranoidLevel() (int, error) {
	b, err := os.ReadFile(paranoidPath)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

// pmuDir lists the event sources of the kernel.
const pmuDir = "/sys/bus/event_source/devices"

// hasPMU reports whether the kernel exposes a CPU PMU: "cpu" on x86,
// "cpu_core"/"cpu_atom" on hybrid x86, "armv8_*"/"arm_*" on arm64.
func hasPMU() bool {
	ents, err := os.ReadDir(pmuDir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		n := e.Name()
		if n == "cpu" || strings.HasPrefix(n, "cpu_") || strings.HasPrefix(n, "armv") || strings.HasPrefix(n, "arm_") {
			return true
		}
	}
	return false
}

// Bits of perf_event_mmap_page.capabilities.
const (
	capUserRdpmcBit = 1 << 2
	// capabilitiesOffset is the offset of the capabilities field:
	// version, compat_version, lock, index (4 x u32), offset, time_enabled,
	// time_running (3 x u64).
	capabilitiesOffset = 40
)

// capUserRdpmc decodes the cap_user_rdpmc bit and the counter index from
// a perf mmap page (the first page of the mapping).
func capUserRdpmc(page []byte) (rdpmc bool, index uint32, ok bool) {
	if len(page) < capabilitiesOffset+8 {
		return false, 0, false
	}
	caps := binary.NativeEndian.Uint64(page[capabilitiesOffset:])
	index = binary.NativeEndian.Uint32(page[12:])
	return caps&capUserRdpmcBit != 0, index, true
}

// rdpmcStatus maps the metadata page of the event fd and reports the
// cap_user_rdpmc bit.
func rdpmcStatus(fd int) (bool, string) {
	page, err := unix.Mmap(fd, 0, os.Getpagesize(), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return false, fmt.Sprintf("the perf mmap page cannot be mapped (%v); read(2) is used", err)
	}
	defer unix.Munmap(page)
	rdpmc, _, ok := capUserRdpmc(page)
	if !ok {
		return false, "the perf mmap page is too short; read(2) is used"
	}
	if !rdpmc {
		why := "cap_user_rdpmc is 0 in the perf mmap page"
		if b, err := os.ReadFile(pmuDir + "/cpu/rdpmc"); err == nil {
			why += " (/sys/bus/event_source/devices/cpu/rdpmc = " + strings.TrimSpace(string(b)) + ")"
		}
		return false, why + "; read(2) is used"
	}
	return true, "cap_user_rdpmc is 1, but the user-space read path is not implemented (it could not be tested on a host with a PMU); read(2) is used"
}
