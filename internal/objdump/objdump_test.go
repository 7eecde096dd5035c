package objdump

import (
	"strings"
	"testing"
)

// listing builds a Listing from "addr text" lines.
func listing(name string, lines ...string) Listing {
	l := Listing{Name: name}
	for _, line := range lines {
		a, text, _ := strings.Cut(line, " ")
		var addr uint64
		for _, c := range strings.TrimPrefix(a, "0x") {
			addr = addr*16 + uint64(strings.IndexRune("0123456789abcdef", c))
		}
		l.Insns = append(l.Insns, Insn{Addr: addr, Text: text})
	}
	return l
}

// bench's emptyLoop on amd64 with Go 1.26, as go tool objdump printed it.
var emptyLoop = listing("emptyLoop",
	"0x6f3d00 CMPQ SP, 0x10(R14)", "0x6f3d04 JBE 0x6f3d39", "0x6f3d06 PUSHQ BP", "0x6f3d07 MOVQ SP, BP", "0x6f3d0a SUBQ $0x8, SP",
	"0x6f3d0e MOVQ AX, 0x18(SP)", "0x6f3d13 MOVQ 0(AX), CX", "0x6f3d16 TESTQ CX, CX", "0x6f3d19 JE 0x6f3d23", "0x6f3d1b DECQ CX",
	"0x6f3d1e MOVQ CX, 0(AX)", "0x6f3d21 JMP 0x6f3d13", "0x6f3d23 CALL github.com/chronograph/chronograph/bench.(*B).loopSlow(SB)",
	"0x6f3d28 TESTL AL, AL", "0x6f3d2a JE 0x6f3d33", "0x6f3d2c MOVQ 0x18(SP), AX", "0x6f3d31 JMP 0x6f3d13", "0x6f3d33 ADDQ $0x8, SP",
	"0x6f3d37 POPQ BP", "0x6f3d38 RET", "0x6f3d39 MOVQ AX, 0x8(SP)", "0x6f3d3e NOPW", "0x6f3d40 CALL runtime.morestack_noctxt.abi0(SB)",
	"0x6f3d45 MOVQ 0x8(SP), AX", "0x6f3d4a JMP github.com/chronograph/chronograph/bench.emptyLoop(SB)")

// A counted loop of 4 instructions entered at its test (internal/valgrind's
// sumUint64).
var sum = listing("sumUint64",
	"0x10 MOVQ BX, CX", "0x13 XORL DX, DX", "0x15 XORL SI, SI", "0x17 JMP 0x23", "0x19 ADDQ 0(AX)(DX*8), SI", "0x1d INCQ DX",
	"0x20 CMPQ CX, DX", "0x23 CMPQ CX, DX", "0x26 JG 0x19", "0x28 MOVQ SI, AX", "0x2b RET")

func TestCounts(t *testing.T) {
	// emptyLoop's trip: MOVQ, TESTQ, JE (falls through), DECQ, MOVQ, JMP.
	if n, err := emptyLoop.Trip(); err != nil || n != 6 {
		t.Errorf("emptyLoop.Trip() = %d, %v, want 6", n, err)
	}
	if _, err := emptyLoop.Body(); err == nil {
		t.Error("emptyLoop.Body(): its loop is closed by a jump, not a conditional branch")
	}
	// sumUint64: from 0x19 to the JG back to it.
	if n, err := sum.Body(); err != nil || n != 5 {
		t.Errorf("sum.Body() = %d, %v, want 5", n, err)
	}
	// 4 before the loop, the test once more than the trips, 2 after.
	for _, trips := range []int{0, 1, 1024} {
		want := 4 + 5*trips + 2 + 2
		if n, err := sum.Executed(trips); err != nil || n != want {
			t.Errorf("sum.Executed(%d) = %d, %v, want %d", trips, n, err, want)
		}
	}
	if _, err := sum.Trip(); err == nil {
		t.Error("sum.Trip(): it has no backward jump")
	}
	twoLoops := listing("two", "0x1 NOPL", "0x2 JNE 0x1", "0x3 NOPL", "0x4 JNE 0x3", "0x5 RET")
	if _, err := twoLoops.Body(); err == nil || !strings.Contains(err.Error(), "more than one loop") {
		t.Errorf("two loops: %v", err)
	}
	outside := listing("out", "0x1 JMP 0x99", "0x2 RET")
	if _, err := outside.Executed(0); err == nil || !strings.Contains(err.Error(), "outside itself") {
		t.Errorf("a jump outside: %v", err)
	}
}
