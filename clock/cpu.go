package clock

// CPU returns the number of the CPU the calling thread is running on, or
// -1 when this platform cannot tell. The answer can be stale as soon as it
// is returned (the scheduler may move the thread); read it at both ends of
// a timed region and treat a difference as a migration. On Linux it is
// getcpu(2).
func CPU() int { return currentCPU() }
