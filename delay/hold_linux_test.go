//go:build linux

package delay

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPollUntilReadyRetriesEINTR: ppoll on the one timerfd, without a
// timeout, retried after each EINTR; another error ends the hold.
func TestPollUntilReadyRetriesEINTR(t *testing.T) {
	defer func(f func([]unix.PollFd, *unix.Timespec, *unix.Sigset_t) (int, error)) { ppoll = f }(ppoll)
	tests := []struct {
		name      string
		results   []error // what ppoll returns, call by call
		wantErr   error
		wantCalls int
	}{
		{"at once", []error{nil}, nil, 1},
		{"three signals", []error{unix.EINTR, unix.EINTR, unix.EINTR, nil}, nil, 4},
		{"failure", []error{unix.EINTR, unix.EBADF}, unix.EBADF, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			ppoll = func(fds []unix.PollFd, timeout *unix.Timespec, sigmask *unix.Sigset_t) (int, error) {
				calls++
				if len(fds) != 1 || fds[0].Fd != 42 || fds[0].Events != unix.POLLIN || timeout != nil || sigmask != nil {
					t.Errorf("ppoll(%+v, %v, %v), want the timerfd for POLLIN, no timeout, no mask", fds, timeout, sigmask)
				}
				if err := tt.results[calls-1]; err != nil {
					return -1, err
				}
				return 1, nil
			}
			before := eintrRetries.Load()
			err := pollUntilReady(42)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("error %v, want %v", err, tt.wantErr)
			}
			if eintrs := eintrRetries.Load() - before; calls != tt.wantCalls || eintrs != int64(calls-1) {
				t.Errorf("%d calls, %d EINTR counted; want %d, %d", calls, eintrs, tt.wantCalls, tt.wantCalls-1)
			}
		})
	}
}

// TestHoldFallsBack: without a timerfd, or when polling it fails, hold
// sleeps in a raw clock_nanosleep to the same absolute deadline; when
// both fail it returns both errors. A timerfd that worked is kept for the
// next hold, one that failed is not.
func TestHoldFallsBack(t *testing.T) {
	defer func(p func([]unix.PollFd, *unix.Timespec, *unix.Sigset_t) (int, error),
		n func(int32, int, *unix.Timespec, *unix.Timespec) error, c func(int, int) (int, error)) {
		ppoll, clockNanosleep, timerfdCreate = p, n, c
	}(ppoll, clockNanosleep, timerfdCreate)
	drainHoldFDs := func() {
		for {
			select {
			case fd := <-idleHoldFDs:
				unix.Close(fd)
			default:
				return
			}
		}
	}
	defer drainHoldFDs()
	errCreate := errors.New("no timerfd")
	tests := []struct {
		name                string
		create, poll, sleep error
		wantPolls, wantCNS  int
		wantErr             []error
		wantPooled          bool
	}{
		{"timerfd", nil, nil, nil, 1, 0, nil, true},
		{"no timerfd", errCreate, nil, nil, 0, 1, nil, false},
		{"poll fails", nil, unix.EINVAL, nil, 1, 1, nil, false},
		{"both fail", errCreate, nil, unix.EFAULT, 0, 1, []error{errCreate, unix.EFAULT}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			drainHoldFDs()
			polls, cns := 0, 0
			var slept int64
			var flags int
			timerfdCreate = func(clockid, flags int) (int, error) {
				if tt.create != nil {
					return -1, tt.create
				}
				return unix.TimerfdCreate(clockid, flags)
			}
			ppoll = func([]unix.PollFd, *unix.Timespec, *unix.Sigset_t) (int, error) {
				polls++
				return 1, tt.poll
			}
			clockNanosleep = func(_ int32, f int, ts, _ *unix.Timespec) error {
				cns++
				slept, flags = ts.Nano(), f
				return tt.sleep
			}
			fallbacks := holdFallbacks.Load()
			abs := nanotime() + 1e9
			err := linuxClock{}.hold(abs)
			for _, want := range tt.wantErr {
				if !errors.Is(err, want) {
					t.Errorf("error %v does not wrap %v", err, want)
				}
			}
			if tt.wantErr == nil && err != nil {
				t.Errorf("error %v, want none", err)
			}
			if polls != tt.wantPolls || cns != tt.wantCNS {
				t.Errorf("%d polls, %d clock_nanosleeps; want %d, %d", polls, cns, tt.wantPolls, tt.wantCNS)
			}
			if cns > 0 && (slept != abs || flags != unix.TIMER_ABSTIME) {
				t.Errorf("clock_nanosleep until %d (flags %d), want the deadline %d, TIMER_ABSTIME", slept, flags, abs)
			}
			if got := holdFallbacks.Load() - fallbacks; got != int64(tt.wantCNS) {
				t.Errorf("%d fallbacks counted, want %d", got, tt.wantCNS)
			}
			if pooled := len(idleHoldFDs) == 1; pooled != tt.wantPooled {
				t.Errorf("timerfd kept for reuse: %v, want %v", pooled, tt.wantPooled)
			}
		})
	}
}

// TestHoldDoesNotStopTheGC: a goroutine held until an hour from now (the
// real timerfd and ppoll) does not keep the garbage collector from
// stopping the world: runtime.GC returns while the hold goes on, and the
// test then ends the hold by re-arming its timerfd to expire at once. (A
// hold that the stop-the-world had to wait for, such as a blocking read
// of the timerfd made as a raw system call, which the kernel restarts
// after the runtime's preemption signal since Go's handlers are
// SA_RESTART, would hang here until the test's timeout.)
func TestHoldDoesNotStopTheGC(t *testing.T) {
	defer func(p func([]unix.PollFd, *unix.Timespec, *unix.Sigset_t) (int, error)) { ppoll = p }(ppoll)
	var holdFD atomic.Int64
	polling := make(chan struct{}, 1)
	ppoll = func(fds []unix.PollFd, timeout *unix.Timespec, sigmask *unix.Sigset_t) (int, error) {
		holdFD.Store(int64(fds[0].Fd))
		select {
		case polling <- struct{}{}:
		default:
		}
		return unix.Ppoll(fds, timeout, sigmask)
	}
	done := make(chan error, 1)
	var returned atomic.Bool
	go func() {
		err := linuxClock{}.hold(nanotime() + 3600e9)
		returned.Store(true)
		done <- err
	}()
	<-polling
	runtime.GC()
	runtime.GC()
	if returned.Load() {
		t.Fatal("the hour-long hold ended before it was released")
	}
	now := unix.ItimerSpec{Value: unix.Timespec{Nsec: 1}}
	if err := unix.TimerfdSettime(int(holdFD.Load()), unix.TFD_TIMER_ABSTIME, &now, nil); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
