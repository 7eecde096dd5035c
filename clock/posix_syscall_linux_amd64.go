package clock

// clockGettime is the clock_gettime system call, made by the assembly of
// vdso_linux_amd64.s as a raw SYSCALL (as the runtime's own fallback does:
// clock_gettime never blocks, so the scheduler need not be told), which
// costs what C pays for the CPU-time clocks; golang.org/x/sys's
// ClockGettime adds the runtime's system call bookkeeping (~100 ns).
func clockGettime(id int32) (int64, error) {
	ns, e := vdsoClockGettime(0, id)
	if e != 0 {
		return 0, errnoError(e)
	}
	return ns, nil
}

// clockGettimeN makes the system call for clock id n times back to back,
// returning the last reading.
func clockGettimeN(id int32, n int) int64 {
	var v int64
	for range n {
		v, _ = vdsoClockGettime(0, id)
	}
	return v
}
