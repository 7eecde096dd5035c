#include "textflag.h"

// func request(def, req, a1, a2, a3, a4, a5 uintptr) uintptr
//
// Valgrind's client request on arm64 (valgrind.h, PLAT_arm64_linux): the
// default result in R3, the address of the six words {req, a1..a5} in R4,
// then the preamble (four rotations of R12 right by 3, 13, 51 and 61 bits,
// 128 in all, so R12 is unchanged) and ORR R10, R10, R10. Natively the
// sequence does nothing and R3 keeps the default; under valgrind the core
// performs the request and puts its result in R3.
TEXT ·request(SB), NOSPLIT, $0-64
	MOVD def+0(FP), R3
	MOVD $req+8(FP), R4
	ROR $3, R12, R12
	ROR $13, R12, R12
	ROR $51, R12, R12
	ROR $61, R12, R12
	ORR R10, R10, R10
	MOVD R3, ret+56(FP)
	RET
