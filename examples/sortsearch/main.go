// Command sortsearch compares two ways of finding a key in a sorted slice
// with package bench: a linear scan and a binary search. It is the example
// of the README; run it with `go run ./examples/sortsearch`. It prints the
// comparison's text; with -o FILE it also saves its result document, which
// `chrono report FILE` prints again (--format benchfmt for benchstat).
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/chronograph/chronograph/bench"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

var (
	keys = func() []uint64 {
		xs := make([]uint64, 512)
		for i := range xs {
			xs[i] = uint64(i) * 3
		}
		return xs
	}()
	// target is a variable, not a constant, so the search cannot be folded.
	target = uint64(301 * 3)
)

// The functions are not inlined, so that both harnesses and both cases run
// the very same machine code wherever the benchmark loop lands: code
// placement alone can change the speed of a loop severalfold.
//
//go:noinline
func linear(xs []uint64, k uint64) int {
	for i, x := range xs {
		if x == k {
			return i
		}
	}
	return -1
}

//go:noinline
func binary(xs []uint64, k uint64) int {
	i, ok := slices.BinarySearch(xs, k)
	if !ok {
		return -1
	}
	return i
}

func main() {
	out := flag.String("o", "", "also write the result document to `FILE`")
	flag.Parse()
	c, err := bench.Compare([]bench.Case{
		{Name: "linear", F: func(b *bench.B) {
			for b.Loop() {
				b.Keep(linear(keys, target))
			}
		}},
		{Name: "binary", F: func(b *bench.B) {
			for b.Loop() {
				b.Keep(binary(keys, target))
			}
		}},
	}, &bench.Options{Target: 5 * time.Millisecond, Samples: 20})
	if err != nil {
		fmt.Fprintln(os.Stderr, "sortsearch:", err)
		os.Exit(1)
	}
	// The text is the document's, rendered by package report: what
	// chrono report prints for the file.
	d := c.Document(result.Meta{Tool: result.ToolFromBuild("chronograph/bench"), Environment: env.Capture()})
	if err := report.Render(os.Stdout, report.Subject{Docs: []*result.Document{d}}, report.Text, report.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, "sortsearch:", err)
		os.Exit(1)
	}
	if *out != "" {
		if err := result.WriteFile(*out, d); err != nil {
			fmt.Fprintln(os.Stderr, "sortsearch:", err)
			os.Exit(1)
		}
	}
}
