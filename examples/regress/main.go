// Command regress is the planted regression of chronograph's tests and
// README: it mixes a buffer (mix) and checksums it (checksum), a fixed
// amount of work per run. Built with -tags slow, checksum does four
// times the work (checksum_slow.go) and nothing else changes, so a gate
// between the two builds must report the regression and their
// differential profile must name main.checksum first. It writes a CPU
// profile where $CHRONO_CPUPROFILE says (package profiles/cpuprof).
//
//	go build -o /tmp/fast ./examples/regress
//	go build -tags slow -o /tmp/slow ./examples/regress
package main

import (
	"flag"
	"fmt"

	"github.com/chronograph/chronograph/profiles/cpuprof"
)

// mix scrambles buf in place, the part of the work that does not change.
//
//go:noinline
func mix(buf []uint64, seed uint64) {
	x := seed
	for i := range buf {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		buf[i] += x
	}
}

func main() {
	defer cpuprof.Start()()
	n := flag.Int("n", 2000, "rounds of work")
	flag.Parse()
	buf := make([]uint64, 1<<14)
	var sum uint64
	for i := range *n {
		mix(buf, uint64(i)+1)
		sum += checksum(buf)
	}
	fmt.Println(sum)
}
