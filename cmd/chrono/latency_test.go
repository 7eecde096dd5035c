package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/chronograph/chronograph/result"
)

func TestLatencyCommand(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the latency test is Linux-only")
	}
	jsonPath := filepath.Join(t.TempDir(), "lat.json")
	out, errb, code := runChrono(t, "", "latency", "-i", "200", "-l", "100", "-t", "2", "-q", "--json", jsonPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"T: 0", "T: 1", "C:     100", "p99.99", "overflows", "histogram"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	doc, err := result.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Kind != "latency" || len(doc.Measurements) != 3 {
		t.Fatalf("kind %q, %d measurements; want latency, 3", doc.Kind, len(doc.Measurements))
	}
	// -h prints the per-µs histogram and counts overflows beyond it.
	out, errb, code = runChrono(t, "", "latency", "-i", "200", "-l", "50", "-h", "1", "-q")
	if code != 0 || !strings.Contains(out, "# Histogram") {
		t.Fatalf("exit %d: %s\n%s", code, errb, out)
	}
}

func TestLatencyUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"latency", "-i", "0"}, "--interval"},
		{[]string{"latency", "-p", "100", "-l", "1"}, "out of range"},
		{[]string{"latency", "-t", "0", "-l", "1"}, "--threads"},
		{[]string{"latency", "-a", "x", "-l", "1"}, "--affinity"},
		{[]string{"latency", "-D", "-5", "-l", "1"}, "--duration"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errb, code := runChrono(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errb, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 mentioning %q", code, errb, tt.want)
			}
		})
	}
}

// TestLatencyHelperProcess runs chrono inside a child test process (see
// TestLatencyPermissionDenied); it does nothing in a normal run.
func TestLatencyHelperProcess(t *testing.T) {
	if os.Getenv("CHRONO_LATENCY_HELPER") != "1" {
		return
	}
	args := strings.Split(os.Getenv("CHRONO_ARGS"), " ")
	os.Exit(execute(args, os.Stdout, os.Stderr))
}

// TestLatencyPermissionDenied runs chrono as an unprivileged user (uid
// 65534): SCHED_FIFO and /dev/cpu_dma_latency are refused, chrono stops
// before measuring and names the fix; with --best-effort it measures
// without them and warns.
func TestLatencyPermissionDenied(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root on Linux to drop to an unprivileged user")
	}
	dir, err := os.MkdirTemp("", "chrono-perm")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "chrono.test")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	src.Close()
	dst.Close()
	run := func(args string) (string, int) {
		cmd := exec.Command(bin, "-test.run=^TestLatencyHelperProcess$")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CHRONO_LATENCY_HELPER=1", "CHRONO_ARGS="+args, "HOME="+dir)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), code
	}
	tests := []struct {
		args string
		want []string
	}{
		{"latency -p 80 -l 10 -i 200 -q", []string{"SCHED_FIFO priority 80 refused", "CAP_SYS_NICE", "RLIMIT_RTPRIO"}},
		{"latency --dma-latency 0 -l 10 -i 200 -q", []string{"/dev/cpu_dma_latency refused", "root"}},
	}
	for _, tt := range tests {
		out, code := run(tt.args)
		if code != exitFailure || strings.Contains(out, "p99.99") {
			t.Errorf("%s: exit %d (want 1, nothing measured):\n%s", tt.args, code, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", tt.args, w, out)
			}
		}
		out, code = run(tt.args + " --best-effort")
		if code != 0 || !strings.Contains(out, "continuing without it (--best-effort)") || !strings.Contains(out, "p99.99") {
			t.Errorf("%s --best-effort: exit %d:\n%s", tt.args, code, out)
		}
	}
}
