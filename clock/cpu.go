package clock

// CPU returns the number of the CPU the calling thread is running on, or
// -1 when this platform cannot tell. The answer can be stale as soon as it
// is returned (the scheduler may move the thread); read it at both ends of
// a timed region and treat a difference as a migration. On linux/amd64 it
// calls the vDSO's getcpu (RDPID or the per-CPU segment limit: a few ns);
// elsewhere on Linux, or without a vDSO, the getcpu(2) system call
// (0.1-1 µs); on Windows GetCurrentProcessorNumber (the processor within
// the thread's processor group).
func CPU() int { return currentCPU() }
