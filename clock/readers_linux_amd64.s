//go:build linux && amd64

#include "textflag.h"
#include "funcdata.h"

// func posixRead(id int32) (ns int64, err error)
//
// The body of vdsoClockGettime (vdso_linux_amd64.s, where the stack,
// register and signal reasoning is written out), with the error built by
// the Go function readFailed when the call fails.
//
// At the call of readFailed the frame is a normal Go frame again (SP
// restored): NO_LOCAL_POINTERS says the 16 KiB of locals hold no
// pointers, and the error result is zeroed first (GO_RESULTS_INITIALIZED)
// because the garbage collector may scan it during the call.
TEXT ·posixRead(SB), 0, $16384-32
	MOVQ	·vdsoClockGettimeFn(SB), AX
	MOVL	id+0(FP), DI
	MOVQ	SP, R12
	LEAQ	(16384-16)(SP), SI
	ANDQ	$~15, SI
	MOVQ	SI, SP
	CMPQ	AX, $0
	JEQ	syscall
	CALL	AX
	JMP	ret
syscall:
	MOVQ	$228, AX	// SYS_clock_gettime
	SYSCALL
ret:
	MOVQ	0(SP), CX
	MOVQ	8(SP), DX
	MOVQ	R12, SP
	IMULQ	$1000000000, CX
	ADDQ	DX, CX
	MOVQ	$0, err_itable+16(FP)
	MOVQ	$0, err_data+24(FP)
	TESTL	AX, AX
	JNE	failed
	MOVQ	CX, ns+8(FP)
	RET
failed:
	GO_RESULTS_INITIALIZED
	NO_LOCAL_POINTERS
	MOVQ	$0, ns+8(FP)
	MOVL	id+0(FP), CX
	MOVL	CX, 0(SP)
	MOVL	AX, 4(SP)
	CALL	·readFailed(SB)
	MOVQ	8(SP), AX
	MOVQ	16(SP), BX
	MOVQ	AX, err_itable+16(FP)
	MOVQ	BX, err_data+24(FP)
	RET
