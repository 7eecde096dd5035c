//go:build linux && amd64

#include "textflag.h"

// Calling the vDSO from a goroutine.
//
// The vDSO's functions are C functions (System V AMD64 ABI). The Go
// runtime calls __vdso_clock_gettime in runtime·nanotime1
// (runtime/sys_linux_amd64.s) after switching to the g0 stack, because a
// kernel built with stack probes (CONFIG_OPTIMIZE_INLINING=n plus
// hardening, Go issue 20427) can touch a full page below the stack
// pointer, more than a goroutine stack guarantees. Code outside the
// runtime cannot switch to g0. These functions instead run the call on
// the goroutine's own stack, in a frame large enough for it:
//
//   - Stack depth. Each function declares a 16 KiB frame and is not
//     NOSPLIT, so its prologue grows the goroutine stack (morestack)
//     until the whole frame fits. The call is then made with SP at the
//     TOP of the frame: everything the vDSO pushes, probes or keeps in
//     its 128-byte red zone lies inside the frame, and below the frame
//     are at least the ~800 bytes of the stack guard. That is 4x the
//     page a probing vDSO touches and about what the runtime itself
//     offers (a thread's g0 stack is 16 KiB). The vDSO of the kernels
//     seen here uses 32-48 bytes (vdsoStackUse measures it; a test
//     checks it stays far below the reservation). The first call on a
//     goroutine may copy its stack to a larger one (once; again after a
//     GC shrinks it): a one-off cost of microseconds.
//   - Alignment. The ABI wants SP 16-byte aligned at the CALL; the new SP
//     is rounded down to 16.
//   - Registers. Go's ABI0 (the ABI of assembly functions) treats every
//     register as clobbered by a call, and the compiler-generated wrapper
//     restores the registers that Go code keeps fixed (R14 = g, X15 = 0)
//     after this function returns. The vDSO preserves the System V
//     callee-saved registers (RBX, RBP, R12-R15), so the old SP is kept
//     in R12 (as the runtime does) and R14 still holds g on return. The
//     direction flag is clear in Go code, as the ABI requires.
//   - Writing SP makes the assembler mark the function SPWRITE, so a
//     traceback that finds a PC inside it stops there instead of
//     unwinding through a frame it cannot describe.
//
// Signals while the PC is in the vDSO or between the two SP writes:
//
//   - Go installs every signal handler with SA_ONSTACK and gives every
//     thread an alternate signal stack, so the kernel writes the signal
//     frame there, never on this goroutine stack.
//   - SIGURG (asynchronous preemption): isAsyncSafePoint refuses PCs that
//     are not Go code (the vDSO) and assembly functions (this one), so the
//     goroutine is not preempted or its stack scanned or moved here; the
//     runtime retries at the next safe point. The GC cannot move the
//     stack under the vDSO: stacks move only at safe points.
//   - SIGPROF: sigprof finds no Go function at a vDSO PC and, since this
//     code does not set m.vdsoSP (a runtime-private field), records the
//     sample as "runtime._VDSO" without the Go callers; at a PC inside
//     this function the SPWRITE flag stops the unwind at this frame. The
//     sample is attributed coarsely; nothing is corrupted.
//   - A signal handler that reads the clock itself (runtime·nanotime1)
//     runs on the signal stack and does not touch this frame.

// func vdsoClockGettime(fn uintptr, id int32) (ns int64, errno int32)
//
// fn 0 (no vDSO) makes the clock_gettime system call instead, as
// runtime·nanotime1 does (a raw SYSCALL: clock_gettime never blocks).
TEXT ·vdsoClockGettime(SB), 0, $16384-28
	MOVQ	fn+0(FP), AX
	MOVL	id+8(FP), DI
	MOVQ	SP, R12			// old SP; callee-saved in the System V ABI
	LEAQ	(16384-16)(SP), SI	// top of the frame, room for the timespec
	ANDQ	$~15, SI		// 16-byte aligned for the call
	MOVQ	SI, SP			// the vDSO's stack: the whole frame below
	CMPQ	AX, $0
	JEQ	syscall
	CALL	AX			// clock_gettime(DI = id, SI = &timespec at 0(SP))
ret:
	MOVQ	0(SP), CX		// tv_sec
	MOVQ	8(SP), DX		// tv_nsec
	MOVQ	R12, SP
	IMULQ	$1000000000, CX
	ADDQ	DX, CX
	MOVQ	CX, ns+16(FP)
	MOVL	AX, errno+24(FP)
	RET
syscall:
	MOVQ	$228, AX		// SYS_clock_gettime
	SYSCALL
	JMP	ret

// func vdsoGetcpu(fn uintptr) (cpu uint32, errno int32)
TEXT ·vdsoGetcpu(SB), 0, $16384-16
	MOVQ	fn+0(FP), AX
	MOVQ	SP, R12
	LEAQ	(16384-16)(SP), DI
	ANDQ	$~15, DI
	MOVQ	DI, SP
	MOVL	$0, 0(SP)
	XORL	SI, SI			// node: not wanted
	XORL	DX, DX			// tcache: unused since Linux 2.6.24
	CALL	AX			// getcpu(DI = &cpu at 0(SP), NULL, NULL)
	MOVL	0(SP), CX
	MOVQ	R12, SP
	MOVL	CX, cpu+8(FP)
	MOVL	AX, errno+12(FP)
	RET

// func vdsoStackUse(fn uintptr, id int32) (used int64)
//
// Like vdsoClockGettime, but first fills the frame below the call's SP
// with a pattern (REP STOSQ), and afterwards scans up from the bottom of
// the frame for the first 8-byte word that changed.
TEXT ·vdsoStackUse(SB), 0, $16384-24
	MOVQ	SP, R12
	LEAQ	(16384-16)(SP), R13
	ANDQ	$~15, R13		// the call's SP, as in vdsoClockGettime
	MOVQ	SP, DI
	MOVQ	R13, CX
	SUBQ	SP, CX
	SHRQ	$3, CX			// words from the frame bottom to the call's SP
	MOVQ	$0xa5a5a5a5a5a5a5a5, AX
	CLD
	REP; STOSQ
	MOVQ	fn+0(FP), AX
	MOVL	id+8(FP), DI
	MOVQ	R13, SI
	MOVQ	R13, SP
	CALL	AX
	MOVQ	R12, SP
	MOVQ	$0xa5a5a5a5a5a5a5a5, AX
	MOVQ	SP, DI			// scan upwards from the frame bottom
scan:
	CMPQ	DI, R13
	JAE	done
	CMPQ	0(DI), AX
	JNE	done
	ADDQ	$8, DI
	JMP	scan
done:
	MOVQ	R13, CX
	SUBQ	DI, CX			// bytes between the first changed word and the call's SP
	MOVQ	CX, used+16(FP)
	RET
