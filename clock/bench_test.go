package clock

import (
	"testing"
	"time"
)

// The benchmarks below time each read path on its own, so that the read
// costs `chrono clocks` reports can be confirmed with `go test -bench`.
// Each result is kept in a package-level sink so the read is not dropped.

var (
	sinkDur  time.Duration
	sinkTime time.Time
	sinkU64  uint64
	sinkI64  int64
)

func BenchmarkTimeSince(b *testing.B) {
	for b.Loop() {
		sinkDur = time.Since(base)
	}
}

func BenchmarkTimeNow(b *testing.B) {
	for b.Loop() {
		sinkTime = time.Now()
	}
}

func BenchmarkMono(b *testing.B) {
	for b.Loop() {
		sinkDur = Mono()
	}
}

func BenchmarkClockGettime(b *testing.B) {
	for _, s := range posixSources() {
		c := s.(posixClock)
		b.Run(c.name, func(b *testing.B) {
			if c.err != nil {
				b.Skip(c.err)
			}
			for b.Loop() {
				sinkI64, _ = clockGettime(c.id)
			}
		})
	}
}

func skipNoTSC(b *testing.B) {
	if ok, why := TSCAvailable(); !ok {
		b.Skip(why)
	}
}

func BenchmarkRDTSC(b *testing.B) {
	skipNoTSC(b)
	for b.Loop() {
		sinkU64 = TSC()
	}
}

func BenchmarkRDTSCFenced(b *testing.B) {
	skipNoTSC(b)
	for b.Loop() {
		sinkU64 = TSCFenced()
	}
}

func BenchmarkRDTSCP(b *testing.B) {
	skipNoTSC(b)
	for b.Loop() {
		sinkU64, _ = TSCP()
	}
}

func BenchmarkThreadCPU(b *testing.B) {
	if _, err := ThreadCPU(); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		sinkDur, _ = ThreadCPU()
	}
}

func BenchmarkProcessCPU(b *testing.B) {
	if _, err := ProcessCPU(); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		sinkDur, _ = ProcessCPU()
	}
}

func BenchmarkToNanos(b *testing.B) {
	info := Info{Hz: 2_445_432_000}
	t := uint64(123456789)
	for b.Loop() {
		sinkU64 = info.ToNanos(t)
		t += 977
	}
}

// The fast readers: on linux/amd64 each is one vDSO call, to be compared
// with C's clock_gettime (scripts/clocks-vs-c.sh does it side by side).

func benchElapsed(b *testing.B, read func() (time.Duration, error)) {
	if _, err := read(); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		sinkDur, _ = read()
	}
}

func benchWall(b *testing.B, read func() (int64, error)) {
	if _, err := read(); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		sinkI64, _ = read()
	}
}

func BenchmarkReaders(b *testing.B) {
	b.Run("Monotonic", func(b *testing.B) { benchElapsed(b, Monotonic) })
	b.Run("MonotonicRaw", func(b *testing.B) { benchElapsed(b, MonotonicRaw) })
	b.Run("MonotonicCoarse", func(b *testing.B) { benchElapsed(b, MonotonicCoarse) })
	b.Run("Boottime", func(b *testing.B) { benchElapsed(b, Boottime) })
	b.Run("Realtime", func(b *testing.B) { benchWall(b, Realtime) })
	b.Run("RealtimeCoarse", func(b *testing.B) { benchWall(b, RealtimeCoarse) })
	b.Run("TAI", func(b *testing.B) { benchWall(b, TAI) })
}

func BenchmarkCPU(b *testing.B) {
	var s int
	for b.Loop() {
		s += CPU()
	}
	sinkI64 = int64(s)
}
