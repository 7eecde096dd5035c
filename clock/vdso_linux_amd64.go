//go:build linux && amd64

package clock

const (
	// vdsoCallable: this package calls the vDSO on linux/amd64.
	vdsoCallable = true
	vdsoArch     = "x86-64"
)

var (
	vdsoClockGettimeSym = vdsoSymbol{"__vdso_clock_gettime", "LINUX_2.6"}
	vdsoGetcpuSym       = vdsoSymbol{"__vdso_getcpu", "LINUX_2.6"}
	errVDSONotCalled    error // never set: the call is implemented
)

// vdsoStackRoom is the stack the assembly functions reserve for the vDSO
// (their frame size in vdso_linux_amd64.s); see the comment there.
const vdsoStackRoom = 16 << 10

// Implemented in vdso_linux_amd64.s. fn is the address of the vDSO
// function; errno is its return value (0, or a negated errno when the vDSO
// fell back to the system call and that failed).  vdsoClockGettime makes
// the system call itself when fn is 0.
//
//go:noescape
func vdsoClockGettime(fn uintptr, id int32) (ns int64, errno int32)

//go:noescape
func vdsoGetcpu(fn uintptr) (cpu uint32, errno int32)

// vdsoStackUse calls __vdso_clock_gettime like vdsoClockGettime after
// filling the reserved stack with a pattern, and returns how many bytes
// below the call's stack pointer the vDSO changed (a lower bound of what it
// used: stack probes that rewrite a value unchanged are not seen).
//
//go:noescape
func vdsoStackUse(fn uintptr, id int32) (used int64)

// clockCall reads clock id through the vDSO, or with the system call
// when there is no vDSO clock_gettime (the assembly makes it). errno is 0
// or the negated errno. It inlines, so that a reader's read is a single
// call of the assembly function.
func clockCall(id int32) (ns int64, errno int32) {
	return vdsoClockGettime(vdso.clockGettime, id)
}

// vdsoCPU returns the CPU from the vDSO's getcpu (RDPID or the per-CPU
// segment limit: a few ns), or ok false when there is none.
func vdsoCPU() (cpu int, ok bool) {
	fn := vdso.getcpu
	if fn == 0 {
		return 0, false
	}
	c, e := vdsoGetcpu(fn)
	if e != 0 {
		return -1, true
	}
	return int(c), true
}
