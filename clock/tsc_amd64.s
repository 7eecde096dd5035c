#include "textflag.h"

// func rdtsc() uint64
TEXT ·rdtsc(SB), NOSPLIT, $0-8
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET

// func rdtscFenced() uint64
//
// LFENCE waits until every earlier instruction has completed locally, so
// the counter is not read before the code that precedes the call.
TEXT ·rdtscFenced(SB), NOSPLIT, $0-8
	LFENCE
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET

// func rdtscp() (ticks uint64, aux uint32)
//
// RDTSCP waits for earlier instructions to execute and returns
// IA32_TSC_AUX in ECX (Linux stores node<<12 | cpu there).
TEXT ·rdtscp(SB), NOSPLIT, $0-12
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ticks+0(FP)
	MOVL CX, aux+8(FP)
	RET
