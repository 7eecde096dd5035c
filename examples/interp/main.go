// Command interp interprets a program of reverse-Polish arithmetic
// ("3 4 + 2 *"), a workload where profile-guided optimization is known
// to matter. Its lexer reads the program through an io.ByteReader, as
// lexers that accept any input do, so every byte costs an interface
// method call: an indirect call the compiler cannot inline. A profile
// shows that the call always reaches *bytes.Reader, and go build -pgo
// devirtualizes it (a type check, then the method inlined); hot calls
// also get a larger inlining budget.
//
// The program is generated from a fixed seed and interpreted -r times,
// so every run does the same work and prints the same checksum. It
// writes a CPU profile when asked, by the -cpuprofile flag or by
// chronograph's environment convention (package profiles/cpuprof: the
// file that $CHRONO_CPUPROFILE names):
//
//	go build -o /tmp/interp ./examples/interp
//	/tmp/interp -r 400 -cpuprofile /tmp/interp.pprof   # or CHRONO_CPUPROFILE=/tmp/interp.pprof /tmp/interp -r 400
//	go build -pgo=/tmp/interp.pprof -o /tmp/interp.pgo ./examples/interp
//	hyperfine -N -w 2 '/tmp/interp' '/tmp/interp.pgo'
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"

	"github.com/chronograph/chronograph/profiles/cpuprof"
)

// kind is a token's kind.
type kind uint8

const (
	tokEOF kind = iota
	tokNum
	tokOp
)

// token is one token of the program: a number or an operator.
type token struct {
	kind kind
	num  int64
	op   byte
}

// lexer splits a program into tokens.
type lexer struct {
	r    io.ByteReader
	peek int // a byte read ahead, or -1
}

// readByte returns the next byte, or -1 at the end of the input.
func (lx *lexer) readByte() int {
	if lx.peek >= 0 {
		c := lx.peek
		lx.peek = -1
		return c
	}
	c, err := lx.r.ReadByte()
	if err != nil {
		return -1
	}
	return int(c)
}

// next returns the next token.
func (lx *lexer) next() token {
	c := lx.readByte()
	for c == ' ' || c == '\n' || c == '\t' {
		c = lx.readByte()
	}
	switch {
	case c < 0:
		return token{kind: tokEOF}
	case c >= '0' && c <= '9':
		var n int64
		for c >= '0' && c <= '9' {
			n = n*10 + int64(c-'0')
			c = lx.readByte()
		}
		lx.peek = c
		return token{kind: tokNum, num: n}
	}
	return token{kind: tokOp, op: byte(c)}
}

// modulus keeps products small.
const modulus = 1000003

// eval interprets the program that r reads and returns the value left on
// the stack: numbers are pushed; + - * % ^ pop b, then a, and push a+b,
// a-b, a·b mod 1000003, a mod (b|1), a xor b.
func eval(r io.ByteReader) (int64, error) {
	lx := &lexer{r: r, peek: -1}
	var stack [64]int64
	sp := 0
	for {
		t := lx.next()
		switch t.kind {
		case tokEOF:
			if sp != 1 {
				return 0, fmt.Errorf("interp: %d values left on the stack, want 1", sp)
			}
			return stack[0], nil
		case tokNum:
			if sp == len(stack) {
				return 0, fmt.Errorf("interp: stack overflow")
			}
			stack[sp] = t.num
			sp++
		case tokOp:
			if sp < 2 {
				return 0, fmt.Errorf("interp: %q needs two values", t.op)
			}
			sp--
			a, b := stack[sp-1], stack[sp]
			var v int64
			switch t.op {
			case '+':
				v = a + b
			case '-':
				v = a - b
			case '*':
				v = a * b % modulus
			case '%':
				v = a % (b | 1)
			case '^':
				v = a ^ b
			default:
				return 0, fmt.Errorf("interp: unknown operator %q", t.op)
			}
			stack[sp-1] = v
		}
	}
}

// program returns a program of n operations, "1 N op N op ...", its
// numbers and operators drawn from a linear congruential generator with
// a fixed seed.
func program(n int) []byte {
	const ops = "+-*%^"
	b := []byte("1 ")
	x := uint32(12345)
	for range n {
		x = x*1664525 + 1013904223
		b = strconv.AppendUint(b, uint64(x>>12), 10)
		b = append(b, ' ', ops[(x>>8)%5], ' ')
	}
	return b
}

func main() {
	n := flag.Int("n", 200000, "interpret a program of `N` operations")
	reps := flag.Int("r", 100, "interpret it `R` times")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to `FILE`")
	flag.Parse()
	if *n < 1 || *reps < 1 {
		fmt.Fprintln(os.Stderr, "interp: -n and -r must be at least 1")
		os.Exit(2)
	}
	defer cpuprof.Start()()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "interp:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "interp:", err)
			os.Exit(1)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	src := program(*n)
	var sum int64
	for range *reps {
		v, err := eval(bytes.NewReader(src))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		sum += v
	}
	fmt.Println(sum)
}
