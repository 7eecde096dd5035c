// Package thread is chronograph's one helper for the OS threads that
// measurements change: a goroutine locked to a fresh thread, pinning it to
// CPUs, real-time priority and timer slack, and the CPUs the process may
// use. It is shared by clock, env, bench, run and delay; users of the
// module do not import it. On windows, pinning is SetThreadAffinityMask
// and the priority THREAD_PRIORITY_TIME_CRITICAL (SetTimeCritical);
// SCHED_FIFO and timer slack are Linux's.
//
// Settings are per thread, and restoring them is done by discarding the
// thread: Go runs f locked to a thread of its own and never unlocks it, so
// when f returns the runtime ends the thread and whatever f changed on it
// (affinity, SCHED_FIFO, timer slack) ends with it. Nothing is ever
// changed on a thread that other goroutines will run on later.
package thread

import (
	"runtime"
	"strconv"
	"strings"
)

// Go runs f on a new goroutine locked to an OS thread that is neither the
// caller's nor the process's main thread, and never unlocks it: the thread
// ends with f, taking any setting f changed on it with it. Go returns once
// f has started; f runs concurrently.
//
// The main thread is avoided because a goroutine that exits locked on it
// does not end it: the runtime wedges the main thread instead, and it
// would stay in the process with f's settings. While a goroutine holds a
// thread locked, no other goroutine can start on it; Go uses that to step
// off the caller's thread and, if the new goroutine lands on the main
// thread, off that one too.
func Go(f func()) {
	runtime.LockOSThread()
	started := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		if OnMain() {
			Go(f) // cannot start here: this goroutine holds the main thread
			close(started)
			runtime.UnlockOSThread() // nothing was changed on the main thread
			return
		}
		close(started)
		f() // never unlocked: see above
	}()
	<-started
	runtime.UnlockOSThread() // undoes only this function's lock
}

// Run is Go that waits for f to return.
func Run(f func()) {
	done := make(chan struct{})
	Go(func() {
		defer close(done)
		f()
	})
	<-done
}

// List formats CPU numbers for messages: "0,2,3".
func List(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}
