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

// The POSIX clocks' reads: on linux/amd64 each is one vDSO call, to be
// compared with C's clock_gettime (scripts/clocks-vs-c.sh does it side by
// side, by these sub-benchmarks' names).

// Each clock is read with a constant receiver in its own loop (not
// through a func value or an interface, which would add an indirect call
// and the ABI wrapper of an assembly function), as user code reads it:
// Read inlines to one call of the assembly reader.
func BenchmarkReaders(b *testing.B) {
	b.Run("Monotonic", func(b *testing.B) {
		if _, err := Monotonic.Read(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := Monotonic.Read()
			s += v
		}
		sinkDur = s
	})
	b.Run("MonotonicRaw", func(b *testing.B) {
		if _, err := MonotonicRaw.Read(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := MonotonicRaw.Read()
			s += v
		}
		sinkDur = s
	})
	b.Run("MonotonicCoarse", func(b *testing.B) {
		if _, err := MonotonicCoarse.Read(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := MonotonicCoarse.Read()
			s += v
		}
		sinkDur = s
	})
	b.Run("Boottime", func(b *testing.B) {
		if _, err := Boottime.Read(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := Boottime.Read()
			s += v
		}
		sinkDur = s
	})
	b.Run("Realtime", func(b *testing.B) {
		if _, err := Realtime.Read(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := Realtime.Read()
			s += v
		}
		sinkDur = s
	})
	b.Run("RealtimeCoarse", func(b *testing.B) {
		if _, err := RealtimeCoarse.Read(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := RealtimeCoarse.Read()
			s += v
		}
		sinkDur = s
	})
	b.Run("TAI", func(b *testing.B) {
		if _, err := TAI.Read(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := TAI.Read()
			s += v
		}
		sinkDur = s
	})
}

func BenchmarkCPU(b *testing.B) {
	var s int
	for b.Loop() {
		s += CPU()
	}
	sinkI64 = int64(s)
}
