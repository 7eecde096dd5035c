#include "textflag.h"

// func cntvct() uint64: the virtual counter, without ordering.
TEXT ·cntvct(SB), NOSPLIT, $0-8
	MRS  CNTVCT_EL0, R0
	MOVD R0, ret+0(FP)
	RET

// func cntvctOrdered() uint64: ISB first, so the counter is not read
// before the instructions that precede the call.
TEXT ·cntvctOrdered(SB), NOSPLIT, $0-8
	ISB  $15
	MRS  CNTVCT_EL0, R0
	MOVD R0, ret+0(FP)
	RET

// func cntfrq() uint64: the counter frequency in Hz, set by firmware.
TEXT ·cntfrq(SB), NOSPLIT, $0-8
	MRS  CNTFRQ_EL0, R0
	MOVD R0, ret+0(FP)
	RET
