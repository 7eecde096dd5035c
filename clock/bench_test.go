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

// Each reader is called directly in its loop (not through a func value,
// which would add the ABI wrapper of an assembly function), as user code
// calls it.
func BenchmarkReaders(b *testing.B) {
	b.Run("Monotonic", func(b *testing.B) {
		if _, err := Monotonic(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := Monotonic()
			s += v
		}
		sinkDur = s
	})
	b.Run("MonotonicRaw", func(b *testing.B) {
		if _, err := MonotonicRaw(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := MonotonicRaw()
			s += v
		}
		sinkDur = s
	})
	b.Run("MonotonicCoarse", func(b *testing.B) {
		if _, err := MonotonicCoarse(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := MonotonicCoarse()
			s += v
		}
		sinkDur = s
	})
	b.Run("Boottime", func(b *testing.B) {
		if _, err := Boottime(); err != nil {
			b.Skip(err)
		}
		var s time.Duration
		for b.Loop() {
			v, _ := Boottime()
			s += v
		}
		sinkDur = s
	})
	b.Run("Realtime", func(b *testing.B) {
		if _, err := Realtime(); err != nil {
			b.Skip(err)
		}
		var s int64
		for b.Loop() {
			v, _ := Realtime()
			s += v
		}
		sinkI64 = s
	})
	b.Run("RealtimeCoarse", func(b *testing.B) {
		if _, err := RealtimeCoarse(); err != nil {
			b.Skip(err)
		}
		var s int64
		for b.Loop() {
			v, _ := RealtimeCoarse()
			s += v
		}
		sinkI64 = s
	})
	b.Run("TAI", func(b *testing.B) {
		if _, err := TAI(); err != nil {
			b.Skip(err)
		}
		var s int64
		for b.Loop() {
			v, _ := TAI()
			s += v
		}
		sinkI64 = s
	})
}

func BenchmarkCPU(b *testing.B) {
	var s int
	for b.Loop() {
		s += CPU()
	}
	sinkI64 = int64(s)
}
