package capture_test

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/chronograph/chronograph/capture"
	"github.com/chronograph/chronograph/internal/crosstest"
)

var (
	genVCD   = flag.String("capture.gen-vcd", "", "write a generated VCD of -capture.gen-mb MiB to this file, print its change count, and exit (for scripts/capture-vs-sigrok.sh)")
	genMB    = flag.Int("capture.gen-mb", 100, "size of the VCD BenchmarkReadVCD generates, in MiB")
	benchVCD = flag.String("capture.vcd", "", "the VCD BenchmarkReadVCD and BenchmarkAnalyzeVCD read (default: one generated in a temp dir)")
)

func TestMain(m *testing.M) {
	flag.Parse()
	if *genVCD != "" {
		n, err := writeVCDFile(*genVCD, int64(*genMB)<<20)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(n)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// writeBenchVCD writes a VCD of at least size bytes as sigrok-cli writes
// one (8 one-bit wires, 1 us ticks, "#t 1! 0\" ..." lines): every tick
// some channels toggle, chosen by a fixed xorshift sequence. It returns
// the number of value changes. sigrok's VCD input (0.5) reads it too.
func writeBenchVCD(w io.Writer, size int64) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprint(bw, "$version chronograph capture benchmark $end\n$timescale 1 us $end\n$scope module bench $end\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(bw, "$var wire 1 %c D%d $end\n", '!'+i, i)
	}
	fmt.Fprint(bw, "$upscope $end\n$enddefinitions $end\n#0 0! 0\" 0# 0$ 0% 0& 0' 0(\n")
	var written, changes int64 = 200, 8
	state, x := uint8(0), uint64(0x9e3779b97f4a7c15)
	line := make([]byte, 0, 64)
	for t := uint64(1); written < size; t++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		flip := uint8(x) & uint8(x>>8) // each channel toggles with probability 1/4
		if flip == 0 {
			continue
		}
		line = append(line[:0], '#')
		line = strconv.AppendUint(line, t, 10)
		for i := 0; i < 8; i++ {
			if flip&(1<<i) == 0 {
				continue
			}
			state ^= 1 << i
			line = append(line, ' ', '0'+state>>i&1, byte('!'+i))
			changes++
		}
		line = append(line, '\n')
		n, err := bw.Write(line)
		if err != nil {
			return 0, err
		}
		written += int64(n)
	}
	return changes, bw.Flush()
}

func writeVCDFile(path string, size int64) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	n, err := writeBenchVCD(f, size)
	if err2 := f.Close(); err == nil {
		err = err2
	}
	return n, err
}

// benchFile is the VCD the benchmarks read: -capture.vcd, or one made
// in a temp dir.
func benchFile(b *testing.B) string {
	if *benchVCD != "" {
		return *benchVCD
	}
	path := filepath.Join(crosstest.TempDir(b), "bench.vcd")
	if _, err := writeVCDFile(path, int64(*genMB)<<20); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkReadVCD reads a large VCD (100 MiB by default) change by
// change and reports changes (edges) per second and the memory the
// process obtained from the system (sys-MiB: a bound of its peak, which
// stays flat as the file grows: the reader streams).
// scripts/capture-vs-sigrok.sh compares it with sigrok-cli.
func BenchmarkReadVCD(b *testing.B) {
	path := benchFile(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var changes int64
	for b.Loop() {
		r, err := capture.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			changes++
		}
		r.Close()
	}
	b.ReportMetric(float64(changes)/b.Elapsed().Seconds(), "edges/s")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MiB")
}

// BenchmarkAnalyzeVCD is BenchmarkReadVCD with the pulse analysis of all
// 8 channels, which keeps every width and period (8 bytes each).
func BenchmarkAnalyzeVCD(b *testing.B) {
	path := benchFile(b)
	b.ReportAllocs()
	var changes uint64
	for b.Loop() {
		r, err := capture.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		a, err := capture.Analyze(r, capture.Spec{})
		if err != nil {
			b.Fatal(err)
		}
		changes += a.Changes
		r.Close()
	}
	b.ReportMetric(float64(changes)/b.Elapsed().Seconds(), "edges/s")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MiB")
}

// TestBenchVCD: the generated benchmark VCD reads, with the change count
// the generator gives and the channels toggling.
func TestBenchVCD(t *testing.T) {
	path := filepath.Join(crosstest.TempDir(t), "bench.vcd")
	n, err := writeVCDFile(path, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	r, err := capture.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	a, err := capture.Analyze(r, capture.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if int64(a.Changes) != n || len(a.Channels) != 8 {
		t.Fatalf("%d changes of %d channels, the generator wrote %d of 8", a.Changes, len(a.Channels), n)
	}
	for _, p := range a.Channels {
		if len(p.High.Values) < 100 || len(p.Low.Values) < 100 {
			t.Errorf("%s: %d high and %d low pulses", p.Channel.Name, len(p.High.Values), len(p.Low.Values))
		}
	}
}

// TestStreamingMemory: reading a VCD allocates the same small amount
// whatever its size (the reader streams): bytes allocated to read a 1 MiB
// and an 8 MiB file.
func TestStreamingMemory(t *testing.T) {
	alloc := func(mib int64) uint64 {
		path := filepath.Join(crosstest.TempDir(t), "stream.vcd")
		n, err := writeVCDFile(path, mib<<20)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, err := capture.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var changes int64
		for {
			if _, err := r.Next(); err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatal(err)
				}
				break
			}
			changes++
		}
		r.Close()
		runtime.ReadMemStats(&after)
		if changes != n {
			t.Fatalf("%d changes read, %d written", changes, n)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(1), alloc(8)
	t.Logf("allocated reading 1 MiB: %d bytes, 8 MiB: %d bytes", small, large)
	if large > 1<<20 || large > small+64<<10 {
		t.Errorf("reading 1 MiB allocated %d bytes, 8 MiB %d bytes: the reader does not stream", small, large)
	}
}
