package delay

import "runtime"

// goLocked runs f on a new goroutine locked to an OS thread that is
// neither the caller's nor the process's main thread, and never unlocks
// it: the thread ends with f, taking any setting f changed on it (timer
// slack, scheduling policy, affinity) with it.
//
// The main thread is avoided because a goroutine that exits locked on it
// does not end it: the runtime wedges the main thread instead, and it
// would stay in the process with f's settings. While a goroutine holds a
// thread locked, no other goroutine can start on it; goLocked uses that
// to step off the caller's thread and, if the new goroutine lands on the
// main thread, off that one too.
func goLocked(f func()) {
	runtime.LockOSThread()
	started := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		if onMainThread() {
			goLocked(f) // cannot start here: this goroutine holds the main thread
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
