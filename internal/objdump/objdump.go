// Package objdump reads a Go function's machine code from a binary (go
// tool objdump) and counts the instructions a run through it executes,
// for the tests that check a simulated instruction count against the
// code that was counted (packages internal/valgrind and bench). It knows
// the shapes Go 1.26 gives counted loops on amd64 and arm64, and fails,
// with the listing, on any other.
package objdump

import (
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// Listing is a function's disassembly.
type Listing struct {
	Name  string
	Insns []Insn
}

// Insn is one instruction: its address and its text as objdump prints
// it ("ADDQ 0(AX)(CX*8), DX").
type Insn struct {
	Addr uint64
	Text string
}

// Disassemble returns the listing of the function named sym (its full
// name, e.g. "github.com/chronograph/chronograph/bench.emptyLoop") in
// binary bin, which must have its symbol table (go test strips the
// binaries it runs; go test -c does not).
func Disassemble(bin, sym string) (Listing, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return Listing{}, fmt.Errorf("objdump: the go command is needed to disassemble %s: %w", bin, err)
	}
	cmd := exec.Command(goTool, "tool", "objdump", "-s", "^"+regexp.QuoteMeta(sym)+"$", bin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return Listing{}, fmt.Errorf("objdump: go tool objdump %s: %w: %s", sym, err, stderr.String())
	}
	l := Listing{Name: sym[strings.LastIndexByte(sym, '.')+1:]}
	for _, line := range strings.Split(string(out), "\n") {
		var fields []string
		for _, f := range strings.Split(line, "\t") {
			if f = strings.TrimSpace(f); f != "" {
				fields = append(fields, f)
			}
		}
		if len(fields) < 4 || !strings.HasPrefix(fields[1], "0x") {
			continue
		}
		a, err := strconv.ParseUint(fields[1], 0, 64)
		if err != nil {
			return Listing{}, fmt.Errorf("objdump: line %q: %w", line, err)
		}
		l.Insns = append(l.Insns, Insn{Addr: a, Text: fields[3]})
	}
	if len(l.Insns) == 0 {
		return Listing{}, fmt.Errorf("objdump: go tool objdump found no %s in %s:\n%s", sym, bin, out)
	}
	return l, nil
}

func (l Listing) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", l.Name)
	for _, in := range l.Insns {
		fmt.Fprintf(&b, "  %#x  %s\n", in.Addr, in.Text)
	}
	return b.String()
}

// branch classifies an instruction: a jump that is always taken, one that
// is taken on a condition, or neither; target is its address.
func (in Insn) branch() (always, conditional bool, target uint64) {
	op, arg, _ := strings.Cut(in.Text, " ")
	t, err := strconv.ParseUint(strings.TrimSpace(arg[strings.LastIndexByte(arg, ' ')+1:]), 0, 64)
	hasTarget := err == nil
	switch {
	case op == "JMP" || op == "B":
		return hasTarget, false, t
	case strings.HasPrefix(op, "J"), // amd64: JG, JBE, ...
		len(op) == 3 && op[0] == 'B' && strings.Contains("EQ NE CS HS CC LO MI PL VS VC HI LS GE LT GT LE", op[1:]), // arm64: BGT, ...
		op == "CBZ" || op == "CBNZ" || op == "TBZ" || op == "TBNZ":
		return false, hasTarget, t
	}
	return false, false, 0
}

// loop returns the indexes of the function's one loop closed by a
// conditional branch: its target and the branch back to it; ok is false
// when it has none.
func (l Listing) loop() (start, end int, ok bool, err error) {
	start, end = -1, -1
	for i, in := range l.Insns {
		if _, cond, target := in.branch(); cond && target <= in.Addr {
			if end >= 0 {
				return 0, 0, false, fmt.Errorf("objdump: %s has more than one loop:\n%s", l.Name, l)
			}
			if start, err = l.index(target); err != nil {
				return 0, 0, false, err
			}
			end = i
		}
	}
	return start, end, end >= 0, nil
}

func (l Listing) index(addr uint64) (int, error) {
	for i, in := range l.Insns {
		if in.Addr == addr {
			return i, nil
		}
	}
	return 0, fmt.Errorf("objdump: %s jumps to %#x, outside itself:\n%s", l.Name, addr, l)
}

// Body returns the number of instructions of one trip around the
// function's loop, a loop closed by a conditional branch back to its top
// (Go's layout for a counted loop).
func (l Listing) Body() (int, error) {
	start, end, ok, err := l.loop()
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fmt.Errorf("objdump: %s has no loop closed by a conditional branch:\n%s", l.Name, l)
	}
	return end - start + 1, nil
}

// Executed walks the function from its entry to its RET and returns the
// number of instructions executed when its loop, if it has one, runs
// trips times: the loop must be entered by a jump to its test at the
// bottom (Go's layout for a counted loop), so that its backward branch is
// taken once per trip; forward conditional branches (the stack-growth
// check) are not taken; calls count as one instruction (their callees
// are counted apart).
func (l Listing) Executed(trips int) (int, error) {
	start, end, _, err := l.loop()
	if err != nil {
		return 0, err
	}
	n, taken, entered := 0, 0, false
	for i := 0; ; {
		in := l.Insns[i]
		n++
		if strings.HasPrefix(in.Text, "RET") {
			break
		}
		always, cond, target := in.branch()
		switch {
		case always:
			j, err := l.index(target)
			if err != nil {
				return 0, err
			}
			if i < start && j > start && j <= end {
				entered = true // jumped to the loop's test
			}
			i = j
		case cond && i == end:
			if !entered {
				return 0, fmt.Errorf("objdump: %s's loop is not entered at its test; the count assumes it is:\n%s", l.Name, l)
			}
			if taken < trips {
				taken++
				i = start
			} else {
				i++
			}
		default:
			i++
		}
		if n > 10*len(l.Insns)*(trips+1) || i >= len(l.Insns) {
			return 0, fmt.Errorf("objdump: %s: the walk does not end at a RET:\n%s", l.Name, l)
		}
	}
	return n, nil
}

// Trip returns the number of instructions of one trip around a loop that
// an unconditional jump closes (the shape of `for b.Loop() { ... }` with
// bench's inlined B.Loop: its test, the body, a jump back), when every
// conditional branch in it falls through (B.Loop's fast path): from the
// head, the target of the function's backward jumps, back to it. Calls
// count as one instruction.
func (l Listing) Trip() (int, error) {
	head := -1
	for _, in := range l.Insns {
		if always, _, target := in.branch(); always && target < in.Addr {
			j, err := l.index(target)
			if err != nil {
				return 0, err
			}
			if head >= 0 && j != head {
				return 0, fmt.Errorf("objdump: %s jumps back to two places:\n%s", l.Name, l)
			}
			head = j
		}
	}
	if head < 0 {
		return 0, fmt.Errorf("objdump: %s has no loop closed by a jump:\n%s", l.Name, l)
	}
	n := 0
	for i := head; ; {
		n++
		always, _, target := l.Insns[i].branch()
		switch {
		case always:
			j, err := l.index(target)
			if err != nil {
				return 0, err
			}
			if j == head {
				return n, nil
			}
			i = j
		case strings.HasPrefix(l.Insns[i].Text, "RET"):
			return 0, errors.New("objdump: " + l.Name + "'s loop reaches a RET with its branches falling through:\n" + l.String())
		default:
			i++
		}
		if n > len(l.Insns) || i >= len(l.Insns) {
			return 0, fmt.Errorf("objdump: %s: the trip does not come back to its head:\n%s", l.Name, l)
		}
	}
}
