package capture_test

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/chronograph/chronograph/capture"
	"github.com/chronograph/chronograph/internal/crosstest"
)

// demoPattern is the logic pattern sigrok's demo device sends by default
// (libsigrok 0.5.2, src/hardware/demo/protocol.c, pattern "sigrok": the
// sigrok logo, 64 columns of 8 bits). Sample k (from 0, counted from the
// start of the acquisition) is ^(demoPattern[k%64] >> 1): channel Dn is
// bit n of it.
var demoPattern = [64]byte{
	0x4c, 0x92, 0x92, 0x92, 0x64, 0x00, 0x00, 0x00,
	0x82, 0xfe, 0xfe, 0x82, 0x00, 0x00, 0x00, 0x00,
	0x7c, 0x82, 0x82, 0x92, 0x74, 0x00, 0x00, 0x00,
	0xfe, 0x12, 0x12, 0x32, 0xcc, 0x00, 0x00, 0x00,
	0x7c, 0x82, 0x82, 0x82, 0x7c, 0x00, 0x00, 0x00,
	0xfe, 0x10, 0x28, 0x44, 0x82, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xbe, 0xbe, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
}

// demoWant is what the demo pattern's channel n must give over samples
// samples: the run lengths of its levels, the first and the last run cut
// by the capture (open), and the periods between rising and between
// falling edges. It reads the pattern only, not a capture.
func demoWant(n, samples int) want {
	level := func(k int) byte { return ^(demoPattern[k%64] >> 1) >> n & 1 }
	var w want
	var rises, falls []int
	runStart := 0
	for k := 1; k <= samples; k++ {
		if k < samples && level(k) == level(k-1) {
			continue
		}
		// A run of level(k-1) over [runStart, k).
		if runStart == 0 || k == samples {
			w.open++
		} else if level(k-1) == 1 {
			w.high = append(w.high, uint64(k-runStart))
		} else {
			w.low = append(w.low, uint64(k-runStart))
		}
		if k < samples {
			if level(k) == 1 {
				rises = append(rises, k)
			} else {
				falls = append(falls, k)
			}
		}
		runStart = k
	}
	w.rises, w.falls = len(rises), len(falls)
	for i := 1; i < len(rises); i++ {
		w.rise = append(w.rise, uint64(rises[i]-rises[i-1]))
		// The duty cycle of [rises[i-1], rises[i]): the fall between.
		for _, f := range falls {
			if f > rises[i-1] && f < rises[i] {
				w.duty = append(w.duty, float64(f-rises[i-1])/float64(rises[i]-rises[i-1]))
			}
		}
	}
	for i := 1; i < len(falls); i++ {
		w.fall = append(w.fall, uint64(falls[i]-falls[i-1]))
	}
	return w
}

// checkDemo checks a capture of the demo device's default pattern, of
// samples samples, channels D0, D1 and D2.
func checkDemo(t *testing.T, path string, samples int, tick capture.Resolution) {
	t.Helper()
	a := analyze(t, path, capture.Spec{Channels: []string{"D0", "D1", "D2"}})
	if a.Tick != tick || a.End != uint64(samples) {
		t.Errorf("%s: tick %v, end %d; want %v, %d", path, a.Tick, a.End, tick, samples)
	}
	for n, p := range a.Channels {
		checkPulses(t, p, demoWant(n, samples))
	}
}

// TestDemoPattern checks the expectation itself against figures read off
// the pattern by hand: D0 over the first 64 samples is 1 0 0 0 1 1 1 1 0
// 0 0 0 1 1 1 1 ... (0x4c>>1 = 0x26, inverted 0xd9: bit 0 is 1).
func TestDemoPattern(t *testing.T) {
	w := demoWant(0, 16)
	if !reflect.DeepEqual(w.high, []uint64{4}) || !reflect.DeepEqual(w.low, []uint64{3, 4}) || w.open != 2 || !reflect.DeepEqual(w.rise, []uint64{8}) {
		t.Errorf("D0 over 16 samples: %+v", w)
	}
}

// TestSigrokFiles reads captures sigrok-cli 0.7.2 (libsigrok 0.5.2) wrote
// from its demo device, committed in testdata:
//
//	sigrok-cli -d demo --config samplerate=1m --samples 300 --channels D0,D1,D2 -O vcd -o demo-300.vcd
//	sigrok-cli -d demo --config samplerate=1m --samples 300 --channels D0,D1,D2 -o demo-300.sr
//	sigrok-cli -d demo --config samplerate=2m --samples 200 --channels D0,D1,D2 -O csv:time=true -o demo-200.csv
//	sigrok-cli -d demo --config samplerate=1m --samples 200 --channels D0,D1,D2 -O csv:time=true:dedup=true:label=channel -o demo-200-dedup.csv
//
// (sigrok-cli 0.7.2's CSV output loses whole packets of longer captures:
// 20000 samples gave 11808 rows. Its CSVs here are of one packet.)
func TestSigrokFiles(t *testing.T) {
	checkDemo(t, "testdata/demo-300.vcd", 300, capture.Resolution{Num: 1, Den: 1e6})
	checkDemo(t, "testdata/demo-300.sr", 300, capture.Resolution{Num: 1, Den: 1e6})
	checkDemo(t, "testdata/demo-200.csv", 200, capture.Resolution{Num: 1, Den: 2e6})
	checkDemo(t, "testdata/demo-200-dedup.csv", 200, capture.Resolution{Num: 1, Den: 1e6})
}

// TestSigrokCapture captures from sigrok's demo device with the real
// sigrok-cli, as a VCD and as a session file, and checks every width and
// period against the demo pattern. It skips without sigrok-cli, except
// in CI (CI=true) on Linux, where .ci/run installs it and its absence is
// a failure (CI's windows suite runs under Wine, without a windows
// sigrok-cli).
func TestSigrokCapture(t *testing.T) {
	cli, err := exec.LookPath("sigrok-cli")
	if err != nil {
		if os.Getenv("CI") == "true" && runtime.GOOS == "linux" {
			t.Fatal("sigrok-cli is not installed (apt-get install sigrok-cli): CI must run this test")
		}
		t.Skip("sigrok-cli is not installed (apt-get install sigrok-cli)")
	}
	const samples = 20000
	dir := crosstest.TempDir(t)
	for _, out := range []struct{ file, format string }{{"demo.vcd", "vcd"}, {"demo.sr", "srzip"}} {
		path := filepath.Join(dir, out.file)
		cmd := exec.Command(cli, "-d", "demo", "--config", "samplerate=1m", "--samples", "20000",
			"--channels", "D0,D1,D2", "-O", out.format, "-o", path)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", cmd.Args, err, b)
		}
		checkDemo(t, path, samples, capture.Resolution{Num: 1, Den: 1e6})
	}
}

func readZip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		m[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func writeZip(t *testing.T, m map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		w, err := z.Create(k)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(m[k]); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestSessionChunks: samples split over several chunks (logic-1-1,
// logic-1-2, ..., read in the order of their numbers, not of their names)
// read as one stream.
func TestSessionChunks(t *testing.T) {
	good, err := os.ReadFile("testdata/demo-300.sr")
	if err != nil {
		t.Fatal(err)
	}
	m := readZip(t, good)
	data := m["logic-1-1"]
	delete(m, "logic-1-1")
	// 12 chunks of 25 samples: logic-1-10 sorts before logic-1-2 by name.
	for i := 0; i < 12; i++ {
		m["logic-1-"+strconv.Itoa(i+1)] = data[25*i : 25*(i+1)]
	}
	path := filepath.Join(crosstest.TempDir(t), "chunks.sr")
	if err := os.WriteFile(path, writeZip(t, m), 0o644); err != nil {
		t.Fatal(err)
	}
	checkDemo(t, path, 300, capture.Resolution{Num: 1, Den: 1e6})
}
