//go:build linux && amd64

#include "textflag.h"
#include "funcdata.h"

// The fast readers (readers_linux_amd64.go): func NAME() (ns int64, err
// error), each the body of vdsoClockGettime (vdso_linux_amd64.s, where the
// stack, register and signal reasoning is written out) for one clock id,
// with the error built by the Go function readFailed when the call fails.
//
// At the call of readFailed the frame is a normal Go frame again (SP
// restored): NO_LOCAL_POINTERS says the 16 KiB of locals hold no
// pointers, and the error result is zeroed first (GO_RESULTS_INITIALIZED)
// because the garbage collector may scan it during the call.
#define READER(NAME, ID) \
TEXT NAME(SB), 0, $16384-24 \
	MOVQ	·vdsoClockGettimeFn(SB), AX \
	MOVL	$ID, DI \
	MOVQ	SP, R12 \
	LEAQ	(16384-16)(SP), SI \
	ANDQ	$~15, SI \
	MOVQ	SI, SP \
	CMPQ	AX, $0 \
	JEQ	3(PC) \
	CALL	AX \
	JMP	3(PC) \
	MOVQ	$228, AX \
	SYSCALL \
	MOVQ	0(SP), CX \
	MOVQ	8(SP), DX \
	MOVQ	R12, SP \
	IMULQ	$1000000000, CX \
	ADDQ	DX, CX \
	MOVQ	$0, err_itab+8(FP) \
	MOVQ	$0, err_data+16(FP) \
	TESTL	AX, AX \
	JNE	3(PC) \
	MOVQ	CX, ns+0(FP) \
	RET \
	GO_RESULTS_INITIALIZED \
	NO_LOCAL_POINTERS \
	MOVQ	$0, ns+0(FP) \
	MOVL	$ID, 0(SP) \
	MOVL	AX, 4(SP) \
	CALL	·readFailed(SB) \
	MOVQ	8(SP), AX \
	MOVQ	16(SP), BX \
	MOVQ	AX, err_itab+8(FP) \
	MOVQ	BX, err_data+16(FP) \
	RET

// func Monotonic() (ns int64, err error): CLOCK_MONOTONIC
READER(·Monotonic, 1)

// func MonotonicRaw() (ns int64, err error): CLOCK_MONOTONIC_RAW
READER(·MonotonicRaw, 4)

// func MonotonicCoarse() (ns int64, err error): CLOCK_MONOTONIC_COARSE
READER(·MonotonicCoarse, 6)

// func Boottime() (ns int64, err error): CLOCK_BOOTTIME
READER(·Boottime, 7)

// func Realtime() (ns int64, err error): CLOCK_REALTIME
READER(·Realtime, 0)

// func RealtimeCoarse() (ns int64, err error): CLOCK_REALTIME_COARSE
READER(·RealtimeCoarse, 5)

// func TAI() (ns int64, err error): CLOCK_TAI
READER(·TAI, 11)
