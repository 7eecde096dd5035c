//go:build linux

package run

import (
	"errors"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// blockingWait is how long waitProcess waits for a child in a blocking
// system call before it parks the goroutine on the runtime's poller (see
// waitProcess). With yieldEvery before the start, it keeps the goroutine's
// time without rescheduling under the Go runtime's 10 ms limit.
const blockingWait = 3 * time.Millisecond

// waitProcess waits until p exits (killing its process group at the
// deadline, if not zero), reaps it and reports whether the deadline
// killed it.
//
// While the child runs, chrono must not run: a thread of chrono that wakes
// up competes with the child for the CPUs, and when it runs on the child's
// CPU it preempts the child, which pays a context switch and finds its
// caches and TLB cold, all of it counted in the child's task-clock (and,
// on a host where switching address spaces is slow, much more than the
// switch itself). How the Go runtime (1.26) behaves decides the wait:
//
//   - A goroutine in one blocking system call (os.Process.Wait) for more
//     than 10 ms without being rescheduled has its processor taken away by
//     the runtime's sysmon thread (a signal, another thread woken), after
//     which sysmon polls every 20 us (a timer interrupt and a wake-up each,
//     often on the child's CPU) for some 50 rounds before backing off
//     again: a 20 ms command saw about 20 preemptions by chrono per run.
//   - A goroutine parked on the runtime's poller leaves every processor
//     idle, and sysmon sleeps until the next system call; that call resets
//     it to polling every 20 us until the runtime is idle again. Parking
//     costs more right after the start (registering the descriptor, a
//     thread woken to poll), and that start is most of the life of a
//     short command such as `true`.
//
// So it waits in a blocking ppoll on a pidfd (pidfd_open, Linux 5.3; it is
// readable once the process has exited) for up to blockingWait, which a
// short command never outlives and during which sysmon stays at its
// slowest pace (one wake-up per 10 ms), and parks on the poller (the same
// pidfd) for the rest of a longer one. A command whose last run outlived
// blockingWait, or that has not run yet, parks at once: after a park the
// next system call woke sysmon up again, whose polls a long child's
// blocking phase would take (measured: some 30 preemptions in the first
// 3 ms of a 20 ms child). Where pidfd_open is not available (Linux before
// 5.3, seccomp filters), it falls back to waitBlocking.
func (sp *spawner) waitProcess(p *os.Process, spec *execSpec, deadline time.Time) (*os.ProcessState, bool, error) {
	fd, err := unix.PidfdOpen(p.Pid, unix.PIDFD_NONBLOCK)
	if err == unix.EINVAL { // PIDFD_NONBLOCK needs Linux 5.10
		if fd, err = unix.PidfdOpen(p.Pid, 0); err == nil {
			err = unix.SetNonblock(fd, true)
			if err != nil {
				unix.Close(fd)
			}
		}
	}
	if err != nil {
		return waitBlocking(p, deadline)
	}
	t0 := time.Now()
	key := strings.Join(spec.argv, "\x00")
	timedOut, exited := false, false
	if sp.short[key] {
		block := t0.Add(blockingWait)
		if !deadline.IsZero() && deadline.Before(block) {
			block = deadline
		}
		exited, err = pollExit(fd, block)
	}
	if err == nil && !exited {
		if !deadline.IsZero() && !time.Now().Before(deadline) {
			timedOut = true
			killGroup(p)
		}
		timedOut, err = sp.parkUntilExit(fd, p, deadline, timedOut)
	} else {
		unix.Close(fd)
	}
	if sp.short == nil {
		sp.short = map[string]bool{}
	}
	sp.short[key] = time.Since(t0) <= blockingWait
	if err != nil {
		// The pidfd failed us (should not happen): wait the plain way.
		ps, to, err := waitBlocking(p, deadline)
		return ps, timedOut || to, err
	}
	ps, err := p.Wait() // the child has exited: this only reaps it
	return ps, timedOut, err
}

// pollExit waits until the pidfd fd is readable or the time is until,
// in ppoll.
func pollExit(fd int, until time.Time) (bool, error) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		ts := unix.NsecToTimespec(max(int64(time.Until(until)), 0))
		n, err := unix.Ppoll(fds, &ts, nil)
		if err != unix.EINTR { // a signal (e.g. SIGCHLD) interrupts ppoll
			return n > 0, err
		}
	}
}

// parkUntilExit parks the goroutine on the runtime's poller until the
// pidfd fd (which it closes) is readable. At the deadline (if not zero and
// not passed yet) it kills p's process group and waits on.
func (sp *spawner) parkUntilExit(fd int, p *os.Process, deadline time.Time, timedOut bool) (bool, error) {
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return timedOut, err
	}
	if !deadline.IsZero() && !timedOut {
		if err := f.SetReadDeadline(deadline); err != nil {
			return timedOut, err // not pollable
		}
	}
	exited := func(fd uintptr) bool {
		// Checked on every call, the first included: the poller's
		// readiness is reset before the first call, so an exit before
		// it shows only here.
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PIDFD, int(fd), &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		return err != nil || info.Signo != 0 // an error: p.Wait reports it
	}
	defer func() { sp.lastYield = time.Now() }() // parking rescheduled the goroutine
	for {
		err := rc.Read(exited)
		if err == nil {
			return timedOut, nil
		}
		if !errors.Is(err, os.ErrDeadlineExceeded) || timedOut {
			return timedOut, err
		}
		timedOut = true
		killGroup(p)
		if err := f.SetReadDeadline(time.Time{}); err != nil {
			return timedOut, err
		}
	}
}

// waitState is what waitProcess keeps between runs: short records, per
// argument list, whether the last run of that command ended within the
// blocking part of the wait.
type waitState struct{ short map[string]bool }
