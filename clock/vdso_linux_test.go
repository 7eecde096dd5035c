//go:build linux

package clock

import (
	"encoding/binary"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func readFakeVDSO(t *testing.T) []byte {
	t.Helper()
	img, err := os.ReadFile("testdata/fakevdso.so")
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestVDSOLookup(t *testing.T) {
	img := readFakeVDSO(t)
	want := []vdsoSymbol{
		{"__vdso_clock_gettime", "LINUX_2.6"},
		{"__vdso_getcpu", "LINUX_2.6"},
		{"__kernel_clock_gettime", "LINUX_2.6.39"},
		{"__vdso_wrong_version", "LINUX_2.6"}, // defined as LINUX_9.9
		{"__vdso_data_object", "LINUX_2.6"},   // not a function
		{"__vdso_absent", "LINUX_2.6"},
		{"__kernel_clock_gettime", "LINUX_2.6"}, // right name, wrong version
	}
	got, err := vdsoLookup(img, want)
	if err != nil {
		t.Fatal(err)
	}
	// Offsets as readelf --dyn-syms prints them (the first PT_LOAD has
	// vaddr = offset = 0).
	exp := map[string]uintptr{"__vdso_clock_gettime": 0x400, "__vdso_getcpu": 0x410, "__kernel_clock_gettime": 0x420}
	if len(got) != len(exp) {
		t.Errorf("found %v, want %v", got, exp)
	}
	for name, off := range exp {
		if got[name] != off {
			t.Errorf("%s at %#x, want %#x", name, got[name], off)
		}
	}

	// A first PT_LOAD linked at vaddr 0x100 above its file offset moves
	// every symbol's image offset down by 0x100.
	biased := append([]byte(nil), img...)
	phoff := binary.LittleEndian.Uint64(biased[32:])
	binary.LittleEndian.PutUint64(biased[phoff+16:], 0x100) // p_vaddr of the first program header
	got, err = vdsoLookup(biased, want[:1])
	if err != nil {
		t.Fatal(err)
	}
	if got["__vdso_clock_gettime"] != 0x300 {
		t.Errorf("with a load bias of 0x100: %#x, want 0x300", got["__vdso_clock_gettime"])
	}
}

func TestVDSOBadImages(t *testing.T) {
	img := readFakeVDSO(t)
	if _, err := vdsoLookup(img[:100], []vdsoSymbol{vdsoClockGettimeSym}); err == nil || !strings.HasPrefix(err.Error(), "clock: ") {
		t.Errorf("truncated image: err %v, want a clock: error", err)
	}
	if _, _, _, _, err := elfExtent(make([]byte, 64)); err == nil {
		t.Error("zeros accepted as an ELF header")
	}
	noPH := append([]byte(nil), img[:64]...)
	binary.LittleEndian.PutUint16(noPH[56:], 0)
	if _, _, _, _, err := elfExtent(noPH); err == nil {
		t.Error("an ELF header without program headers accepted")
	}
	end, _, phnum, _, err := elfExtent(img[:64])
	if err != nil || phnum == 0 || end != uint64(len(img)) {
		t.Errorf("elfExtent: section headers end at %d (want the file size %d), %d program headers, %v", end, len(img), phnum, err)
	}
}

func TestParseVDSOMapping(t *testing.T) {
	maps := "7f0000000000-7f0000001000 r--p 00000000 00:00 0                          [vvar]\n" +
		"7fcd8000-7fcda000 r-xp 00000000 00:00 0                          [vdso]\n"
	lo, hi := parseVDSOMapping(maps)
	if lo != 0x7fcd8000 || hi != 0x7fcda000 {
		t.Errorf("got %#x-%#x", lo, hi)
	}
	if lo, hi := parseVDSOMapping("garbage [vdso]\n"); lo != 0 || hi != 0 {
		t.Errorf("garbage parsed as %#x-%#x", lo, hi)
	}
}

// liveVDSO skips where this package does not call the vDSO.
func liveVDSO(t *testing.T) {
	t.Helper()
	if !vdsoCallable {
		t.Skipf("the vDSO is not called on %s: %v", runtime.GOARCH, vdso.err)
	}
	if vdso.clockGettime == 0 {
		t.Skipf("no vDSO clock_gettime here: %v", vdso.err)
	}
}

// TestVDSOOrdering reads each monotonic clock with the system call,
// through the vDSO, and with the system call again: the three readings
// are ordered. (An ordering, not a timing bound.)
func TestVDSOOrdering(t *testing.T) {
	liveVDSO(t)
	for _, id := range []int32{unix.CLOCK_MONOTONIC, unix.CLOCK_MONOTONIC_RAW, unix.CLOCK_BOOTTIME, unix.CLOCK_MONOTONIC_COARSE} {
		for range 100 {
			before, err1 := clockGettime(id)
			mid, e := clockCall(id)
			after, err2 := clockGettime(id)
			if err1 != nil || err2 != nil || e != 0 {
				t.Fatalf("clock %d: %v %v errno %d", id, err1, err2, e)
			}
			if before > mid || mid > after {
				t.Fatalf("clock %d: syscall %d, vDSO %d, syscall %d: not ordered", id, before, mid, after)
			}
		}
	}
}

// TestReadersAgreeWithSyscall: each POSIX clock's Read gives what the
// system call gives for its Linux clock id (the constants are those ids).
func TestReadersAgreeWithSyscall(t *testing.T) {
	for _, r := range []struct {
		c  POSIX
		id int32
	}{
		{Monotonic, unix.CLOCK_MONOTONIC},
		{MonotonicRaw, unix.CLOCK_MONOTONIC_RAW},
		{MonotonicCoarse, unix.CLOCK_MONOTONIC_COARSE},
		{Boottime, unix.CLOCK_BOOTTIME},
	} {
		if int32(r.c) != r.id {
			t.Errorf("%s is %d, Linux's id is %d", r.c, int32(r.c), r.id)
		}
		before, _ := clockGettime(r.id)
		v, err := r.c.Read()
		after, _ := clockGettime(r.id)
		if err != nil || int64(v) < before || int64(v) > after {
			t.Errorf("%s.Read() = %d, %v; want between the system call's %d and %d", r.c, v, err, before, after)
		}
	}
	// Wall clocks may be stepped between reads: only check they read.
	for _, r := range []struct {
		c  POSIX
		id int32
	}{{Realtime, unix.CLOCK_REALTIME}, {RealtimeCoarse, unix.CLOCK_REALTIME_COARSE}, {TAI, unix.CLOCK_TAI}} {
		if int32(r.c) != r.id {
			t.Errorf("%s is %d, Linux's id is %d", r.c, int32(r.c), r.id)
		}
		if v, err := r.c.Read(); err != nil || v <= 0 {
			t.Errorf("%s.Read() = %d, %v", r.c, v, err)
		}
	}
	// A clock id the kernel does not have: the error names it and wraps
	// the errno.
	if v, err := POSIX(1 << 20).Read(); v != 0 || !errors.Is(err, unix.EINVAL) || err.Error() != "clock: reading clock id 1048576: invalid argument" {
		t.Errorf("POSIX(1<<20).Read() = %d, %v", v, err)
	}
}

// TestVDSOStackUse checks that the vDSO stays far inside the stack this
// package reserves for it.
func TestVDSOStackUse(t *testing.T) {
	liveVDSO(t)
	for _, id := range []int32{unix.CLOCK_REALTIME, unix.CLOCK_MONOTONIC, unix.CLOCK_MONOTONIC_RAW, unix.CLOCK_BOOTTIME,
		unix.CLOCK_TAI, unix.CLOCK_REALTIME_COARSE, unix.CLOCK_MONOTONIC_COARSE, unix.CLOCK_THREAD_CPUTIME_ID} {
		used := vdsoStackUse(vdso.clockGettime, id)
		t.Logf("clock %d: the vDSO changed %d bytes of stack", id, used)
		if used <= 0 || used > vdsoStackRoom/4 {
			t.Errorf("clock %d: the vDSO changed %d bytes of stack; %d are reserved", id, used, vdsoStackRoom)
		}
	}
}

func TestCPUPaths(t *testing.T) {
	if vdso.getcpu != 0 {
		t.Logf("CPU calls the vDSO's %s", vdso.getcpuSym)
	} else {
		t.Logf("CPU makes the getcpu system call: %v", vdso.getcpuErr)
	}
	allowed := allowedCPUs()
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Locked and never unlocked: the thread's affinity changes, so
		// the runtime discards it when this goroutine exits.
		runtime.LockOSThread()
		if len(allowed) == 0 || pinThread(allowed[0]) != nil {
			t.Logf("cannot pin: CPU() = %d, getcpu(2) = %d", CPU(), syscallCPU())
			return
		}
		if a, b := CPU(), syscallCPU(); a != allowed[0] || b != allowed[0] {
			t.Errorf("pinned to CPU %d: CPU() = %d, getcpu(2) = %d", allowed[0], a, b)
		}
	}()
	<-done
}

// TestPathCheckCounts counts the system calls of reads through the
// vDSO: none for CLOCK_MONOTONIC_COARSE, one per read for the thread CPU
// clock (the vDSO makes the system call for CPU-time clocks).
func TestPathCheckCounts(t *testing.T) {
	liveVDSO(t)
	if _, err := countSyscalls(func() {}); err != nil {
		t.Skip(err)
	}
	coarse := posixClock{name: "CLOCK_MONOTONIC_COARSE", id: unix.CLOCK_MONOTONIC_COARSE, viaVDSO: true}
	cpu := posixClock{name: "CLOCK_THREAD_CPUTIME_ID", id: unix.CLOCK_THREAD_CPUTIME_ID, viaVDSO: true}
	noCost := func() float64 { t.Error("the cost was asked for although system calls could be counted"); return 0 }
	if path, basis := checkPath(coarse, 5, "tsc", noCost); path != PathVDSO {
		t.Errorf("CLOCK_MONOTONIC_COARSE through the vDSO: %s (%s)", path, basis)
	}
	if path, basis := checkPath(cpu, 500, "tsc", noCost); path != PathSyscall || !strings.Contains(basis, "falls back") {
		t.Errorf("CLOCK_THREAD_CPUTIME_ID through the vDSO: %s (%s)", path, basis)
	}
}

func TestReadError(t *testing.T) {
	err := readError("CLOCK_TAI", -int32(unix.EINVAL))
	if !errors.Is(err, unix.EINVAL) || err.Error() != "clock: reading CLOCK_TAI: invalid argument" {
		t.Errorf("readError: %v", err)
	}
}
