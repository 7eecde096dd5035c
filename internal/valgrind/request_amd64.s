#include "textflag.h"

// func request(def, req, a1, a2, a3, a4, a5 uintptr) uintptr
//
// Valgrind's client request on amd64 (valgrind.h, PLAT_amd64_linux): the
// address of the six words {req, a1..a5} in AX, the default result in DX,
// then the preamble (four rotations of DI by 3, 13, 61 and 51 bits, 128 in
// all, so DI is unchanged) and XCHGQ BX, BX. Natively the sequence does
// nothing and DX keeps the default; under valgrind the core recognises it,
// performs the request and puts its result in DX. The arguments are on the
// stack in order (ABI0), so req+8(FP) is the block valgrind reads.
TEXT ·request(SB), NOSPLIT, $0-64
	LEAQ req+8(FP), AX
	MOVQ def+0(FP), DX
	ROLQ $3, DI
	ROLQ $13, DI
	ROLQ $61, DI
	ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+56(FP)
	RET
