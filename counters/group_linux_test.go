//go:build linux

package counters

import (
	"encoding/binary"
	"encoding/hex"
	"flag"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

var record = flag.Bool("record", false, "record a live group read buffer into testdata/groupread")

// mustOpen skips the test when perf_event_open itself is unusable here
// (e.g. a container that filters it), and fails on other errors.
func softwareOrSkip(t *testing.T) {
	t.Helper()
	if a := Available(); !a.Software {
		t.Skipf("software counters are not available here: %s", a.SoftwareReason)
	}
}

// spin burns CPU on the calling thread for about d of thread CPU time.
func spin(d time.Duration) uint64 {
	var x uint64
	start := threadCPU()
	for threadCPU()-start < d {
		for i := 0; i < 10000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	return x
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

var sink uint64

// touchPages maps n fresh pages (no huge pages) and writes to each, so
// that each write takes a page fault.
func touchPages(t *testing.T, n int) {
	t.Helper()
	ps := os.Getpagesize()
	mem, err := unix.Mmap(-1, 0, n*ps, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	unix.Madvise(mem, unix.MADV_NOHUGEPAGE)
	for i := 0; i < n; i++ {
		mem[i*ps] = 1
	}
}

// TestThreadTaskClock: task-clock of a locked thread spinning ~50 ms
// agrees with the thread CPU clock within loose bounds.
func TestThreadTaskClock(t *testing.T) {
	softwareOrSkip(t)
	evs, err := ParseEvents("task-clock,context-switches,page-faults,cpu-migrations")
	if err != nil {
		t.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := OpenThread(evs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.Enable(); err != nil {
		t.Fatal(err)
	}
	c0 := threadCPU()
	sink += spin(50 * time.Millisecond)
	c1 := threadCPU()
	touchPages(t, 256) // counted by the member page-faults
	if err := g.Disable(); err != nil {
		t.Fatal(err)
	}
	r, err := g.Read()
	if err != nil {
		t.Fatal(err)
	}
	tc, ok := r.Get("task-clock")
	if !ok || !tc.IsCounted() {
		t.Fatalf("task-clock not counted: %+v", tc)
	}
	cpu := float64(c1 - c0)
	if tc.Value < 0.8*cpu || tc.Value > 1.2*cpu+float64(2*time.Millisecond) {
		t.Errorf("task-clock = %v, thread CPU time = %v: they should agree within ~20%%", time.Duration(tc.Value), time.Duration(cpu))
	}
	if tc.Scaled() || tc.RunningFraction() != 1 {
		t.Errorf("a software group was scaled: fraction %v", tc.RunningFraction())
	}
	for _, c := range r.Counts {
		if !c.IsCounted() {
			t.Errorf("%s not counted: %s", c.Event.Name, c.Reason)
		}
	}
	// Members count while the leader is enabled.
	pf, _ := r.Value("page-faults")
	if pf < 200 {
		t.Errorf("page-faults = %v after touching 256 fresh pages, want >= 200", pf)
	}
	// Disabled: a second read is unchanged, members included.
	sink += spin(5 * time.Millisecond)
	touchPages(t, 64)
	r2, _ := g.Read()
	if v, _ := r2.Value("task-clock"); v != tc.Value {
		t.Errorf("task-clock changed while disabled: %v -> %v", tc.Value, v)
	}
	if v, _ := r2.Value("page-faults"); v != pf {
		t.Errorf("page-faults changed while disabled: %v -> %v", pf, v)
	}
	if *record {
		recordBuffer(t, g)
	}
}

// recordBuffer writes the raw buffer of a live read of g's first group.
func recordBuffer(t *testing.T, g *Group) {
	ks := g.sets[0]
	n, err := sysRead(ks.members[0].fd, ks.buf)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ks.members {
		names = append(names, g.events[m.idx].Name)
	}
	h := hex.EncodeToString(ks.buf[:n])
	var sb strings.Builder
	sb.WriteString(strings.Join(names, ",") + "\n")
	for i := 0; i < len(h); i += 64 {
		sb.WriteString(h[i:min(i+64, len(h))] + "\n")
	}
	if err := os.WriteFile("testdata/groupread/recorded-software.hex", []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCountThread checks the locking helper and that work on the thread
// is counted while work before Enable is not.
func TestCountThread(t *testing.T) {
	softwareOrSkip(t)
	evs, _ := ParseEvents("task-clock")
	short, err := CountThread(evs, Options{}, func() { sink += spin(2 * time.Millisecond) })
	if err != nil {
		t.Fatal(err)
	}
	long, err := CountThread(evs, Options{}, func() { sink += spin(40 * time.Millisecond) })
	if err != nil {
		t.Fatal(err)
	}
	s, _ := short.Value("task-clock")
	l, _ := long.Value("task-clock")
	if !(l > 5*s) {
		t.Errorf("task-clock of 40 ms of spinning (%v) is not well above that of 2 ms (%v)", time.Duration(l), time.Duration(s))
	}
}

// runChild starts argv on a locked thread with a child-scope group (the
// hook that package run's spawner uses), waits and reads the group.
func runChild(t *testing.T, argv []string, evs []Event) (Reading, *os.ProcessState) {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := OpenForChild(evs, Options{})
	if g == nil {
		t.Fatal(err)
	}
	defer g.Close()
	p, err := os.StartProcess(argv[0], argv, &os.ProcAttr{})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	r, err := g.Read()
	if err != nil {
		t.Fatal(err)
	}
	return r, ps
}

// TestChildTaskClock: a child's task-clock agrees with its rusage.
func TestChildTaskClock(t *testing.T) {
	softwareOrSkip(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("no sh to run a child: %v", err)
	}
	evs, _ := ParseEvents("task-clock,page-faults,context-switches")
	r, ps := runChild(t, []string{sh, "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"}, evs)
	if ps.ExitCode() != 0 {
		t.Fatalf("child exited %d", ps.ExitCode())
	}
	tc, ok := r.Value("task-clock")
	if !ok {
		t.Fatalf("task-clock not counted: %+v", r.Counts[0])
	}
	ru := float64(ps.UserTime() + ps.SystemTime())
	// rusage is tick-sampled on some kernels: allow 30 % and 10 ms.
	if tc < 0.7*ru-float64(10*time.Millisecond) || tc > 1.3*ru+float64(10*time.Millisecond) {
		t.Errorf("child task-clock = %v, rusage user+sys = %v: they should agree within ~30%%", time.Duration(tc), time.Duration(ru))
	}
	if pf, ok := r.Value("page-faults"); !ok || pf < 1 {
		t.Errorf("a child that execs sh took %v page faults (counted %v): want > 0", pf, ok)
	}
	if tc < float64(time.Millisecond) {
		t.Errorf("child task-clock %v: the loop takes far longer", time.Duration(tc))
	}
}

// TestChildNotStarted: a group for a child that never execs reads as not
// counted, never as zero.
func TestChildNotStarted(t *testing.T) {
	softwareOrSkip(t)
	evs, _ := ParseEvents("task-clock")
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := OpenForChild(evs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	r, err := g.Read()
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Counts[0]; c.State != NotCounted || c.Reason == "" {
		t.Errorf("unstarted child: %+v, want NotCounted with a reason", c)
	}
}

// TestHardwareWithoutPMU forces the no-PMU path on hosts without one, and
// checks that the software events of the same group still count.
func TestHardwareWithoutPMU(t *testing.T) {
	softwareOrSkip(t)
	if hasPMU() {
		t.Skip("this host exposes a PMU; the no-PMU path cannot be forced")
	}
	evs, _ := ParseEvents("cycles,task-clock,instructions,LLC-load-misses")
	r, err := CountThread(evs, Options{}, func() { sink += spin(time.Millisecond) })
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Counts {
		if c.Event.Kind == Software {
			if !c.IsCounted() {
				t.Errorf("%s not counted: %s", c.Event.Name, c.Reason)
			}
			continue
		}
		if c.State != NotSupported || c.Reason != msgNoPMU {
			t.Errorf("%s: %v %q, want <not supported> %q", c.Event.Name, c.State, c.Reason, msgNoPMU)
		}
		if _, ok := r.Value(c.Event.Name); ok {
			t.Errorf("%s reported as a value", c.Event.Name)
		}
	}
	a := Available()
	if a.Hardware || a.HardwareReason != msgNoPMU || a.UserRead || a.UserReadReason != msgNoPMU {
		t.Errorf("Available() = %+v", a)
	}
}

// TestBogusEvent opens a software event that does not exist: the group
// keeps the good event and names the bad one with the reason.
func TestBogusEvent(t *testing.T) {
	softwareOrSkip(t)
	evs, _ := ParseEvents("task-clock")
	bogus := Event{Name: "bogus", Kind: Software, Type: typeSoftware, Config: 999, Unit: "count"}
	evs = append(evs, bogus)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := OpenThread(evs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	un := g.Unavailable()
	if len(un) != 1 || un[0].Event.Name != "bogus" || !strings.Contains(un[0].Reason, "bogus") {
		t.Fatalf("Unavailable() = %+v, want bogus with a reason naming it", un)
	}
	t.Logf("bogus: %s", un[0].Reason)
	// Every event unavailable: an error naming them, and a usable group.
	g2, err := OpenThread([]Event{bogus}, Options{})
	if err == nil || !strings.Contains(err.Error(), "no event could be opened") || g2 == nil {
		t.Fatalf("OpenThread(bogus) = %v, %v", g2, err)
	}
	r, err := g2.Read()
	if err != nil || r.Counts[0].State != NotSupported {
		t.Errorf("read of an all-unavailable group: %+v, %v", r, err)
	}
	g2.Close()
}

// TestPermissionFallback drops CAP_PERFMON and CAP_SYS_ADMIN from one
// locked thread (capabilities are per thread; the thread is discarded
// afterwards) so that perf_event_paranoid >= 2 denies kernel counting:
// the group falls back to user space only and says so, and a kernel-only
// event is not supported with the sysctl in the reason.
func TestPermissionFallback(t *testing.T) {
	softwareOrSkip(t)
	lv, err := paranoidLevel()
	if err != nil || lv < 2 {
		t.Skipf("kernel.perf_event_paranoid is %d (%v): kernel counting is allowed without privilege, the denial cannot be forced", lv, err)
	}
	type res struct {
		r   Reading
		err error
	}
	done := make(chan res)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread's capabilities change
		hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
		var data [2]unix.CapUserData
		if err := unix.Capget(&hdr, &data[0]); err != nil {
			done <- res{err: err}
			return
		}
		for _, c := range []uint{unix.CAP_PERFMON, unix.CAP_SYS_ADMIN} {
			data[c/32].Effective &^= 1 << (c % 32)
		}
		if err := unix.Capset(&hdr, &data[0]); err != nil {
			done <- res{err: err}
			return
		}
		evs, _ := ParseEvents("task-clock,page-faults,context-switches:k")
		g, err := OpenThread(evs, Options{})
		if g == nil {
			done <- res{err: err}
			return
		}
		g.Enable()
		sink += spin(time.Millisecond)
		g.Disable()
		r, err := g.Read()
		g.Close()
		done <- res{r, err}
	}()
	got := <-done
	if got.err != nil {
		t.Fatal(got.err)
	}
	pf := got.r.Counts[1]
	if !pf.IsCounted() || !pf.UserOnly || !strings.Contains(pf.Note, "perf_event_paranoid") || !strings.Contains(pf.Note, "CAP_PERFMON") {
		t.Errorf("page-faults without privilege: %+v, want counted, user space only, with the fix", pf)
	}
	k := got.r.Counts[2]
	if k.State != NotSupported || !strings.Contains(k.Reason, "sysctl kernel.perf_event_paranoid=1") {
		t.Errorf("kernel-only event without privilege: %+v, want not supported with the sysctl", k)
	}
}

func TestDescribeOpenError(t *testing.T) {
	cyc, _ := LookupEvent("cycles")
	tc, _ := LookupEvent("task-clock")
	tests := []struct {
		ev    Event
		errno unix.Errno
		pmu   bool
		want  string
	}{
		{cyc, unix.ENOENT, false, msgNoPMU},
		{cyc, unix.EOPNOTSUPP, false, msgNoPMU},
		{cyc, unix.ENOENT, true, "this CPU does not support the event cycles"},
		{tc, unix.ENOENT, false, "this kernel does not support the software event task-clock"},
		{cyc, unix.EACCES, true, "kernel.perf_event_paranoid=3): run `sysctl kernel.perf_event_paranoid=1`"},
		{cyc, unix.EPERM, true, "CAP_PERFMON"},
		{cyc, unix.EINVAL, true, "rejected the event cycles"},
		{cyc, unix.ENOSYS, true, "seccomp"},
		{cyc, unix.EMFILE, true, "ulimit -n"},
		{cyc, unix.EBUSY, true, "exclusive use"},
		{cyc, unix.E2BIG, true, "perf_event_open failed for cycles"},
	}
	for _, tt := range tests {
		got := describeOpenError(tt.ev, tt.errno, tt.pmu, 3, true)
		if !strings.Contains(got, tt.want) {
			t.Errorf("describeOpenError(%s, %v, pmu=%v) = %q, want it to contain %q", tt.ev.Name, tt.errno, tt.pmu, got, tt.want)
		}
	}
}

func TestCapUserRdpmc(t *testing.T) {
	page := make([]byte, 4096)
	if rd, _, ok := capUserRdpmc(page); rd || !ok {
		t.Errorf("zero page: rdpmc=%v ok=%v", rd, ok)
	}
	binary.NativeEndian.PutUint64(page[capabilitiesOffset:], capUserRdpmcBit|1<<3)
	binary.NativeEndian.PutUint32(page[12:], 2)
	if rd, idx, ok := capUserRdpmc(page); !rd || idx != 2 || !ok {
		t.Errorf("cap_user_rdpmc page: rdpmc=%v index=%d ok=%v", rd, idx, ok)
	}
	if _, _, ok := capUserRdpmc(page[:20]); ok {
		t.Error("short page accepted")
	}
}

func TestUserReadSoftware(t *testing.T) {
	softwareOrSkip(t)
	evs, _ := ParseEvents("task-clock")
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := OpenThread(evs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ok, why := g.userRead()
	if ok || !strings.Contains(why, "hardware") {
		t.Errorf("UserRead of a software group = %v, %q", ok, why)
	}
	// The mmap page of a software event can be mapped and reads 0.
	ok, why = rdpmcStatus(g.sets[0].members[0].fd)
	if ok || !strings.Contains(why, "cap_user_rdpmc is 0") {
		t.Errorf("rdpmcStatus(task-clock) = %v, %q", ok, why)
	}
	cost, err := g.readCost(1000)
	if err != nil || cost <= 0 {
		t.Errorf("ReadCost = %v, %v", cost, err)
	}
	t.Logf("read cost of a 1-event software group: %v", cost)
}

// openBenchGroup opens the 4-event software group of the counting-overhead
// benchmarks on the benchmark's thread, locked for the benchmark, and
// closes it (and unlocks) when the benchmark ends.
func openBenchGroup(b *testing.B) *Group {
	evs, _ := ParseEvents("task-clock,context-switches,page-faults,cpu-migrations")
	runtime.LockOSThread()
	b.Cleanup(runtime.UnlockOSThread)
	g, err := OpenThread(evs, Options{})
	if err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { g.Close() })
	return g
}

// BenchmarkSoftwareGroupSample is the counting overhead per sample of a
// 4-event software group: enable (reset + enable), disable, read.
func BenchmarkSoftwareGroupSample(b *testing.B) {
	g := openBenchGroup(b)
	var r Reading
	for b.Loop() {
		g.Enable()
		g.Disable()
		if err := g.ReadTo(&r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSoftwareGroupRead is the cost of one read of the same group.
func BenchmarkSoftwareGroupRead(b *testing.B) {
	g := openBenchGroup(b)
	var r Reading
	for b.Loop() {
		if err := g.ReadTo(&r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSoftwareGroupDelta is the counting overhead per sample when the
// group stays enabled and each sample boundary is one read (Diff gives
// the sample's counts): the cheap path for in-process benchmarks.
func BenchmarkSoftwareGroupDelta(b *testing.B) {
	g := openBenchGroup(b)
	if err := g.Enable(); err != nil {
		b.Fatal(err)
	}
	var prev, cur, d Reading
	g.ReadTo(&prev)
	for b.Loop() {
		if err := g.ReadTo(&cur); err != nil {
			b.Fatal(err)
		}
		Diff(cur, prev, &d)
		prev, cur = cur, prev
	}
}
