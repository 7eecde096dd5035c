//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
)

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
		cmd := crosstest.Command(bin, "-test.run=^TestLatencyHelperProcess$")
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
		args     string
		want     []string
		measured string // in the output of a run that measured
	}{
		{"latency -p 80 -l 10 -i 200 -q", []string{"SCHED_FIFO priority 80 refused", "CAP_SYS_NICE", "RLIMIT_RTPRIO", "or pass --best-effort"}, "p99.99"},
		{"latency --dma-latency 0 -l 10 -i 200 -q", []string{"/dev/cpu_dma_latency refused", "root", "or pass --best-effort"}, "p99.99"},
		{"sleep --mlock --durations 10us --budget 10ms -q --mechanisms time.Sleep+slack1ns,delay.Sleep", []string{"mlockall refused", "RLIMIT_MEMLOCK", "or pass --best-effort"}, "over p99"},
	}
	for _, tt := range tests {
		out, code := run(tt.args)
		if code != exitFailure || strings.Contains(out, tt.measured) {
			t.Errorf("%s: exit %d (want 1, nothing measured):\n%s", tt.args, code, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", tt.args, w, out)
			}
		}
		out, code = run(tt.args + " --best-effort")
		if code != 0 || !strings.Contains(out, "measured without it (best effort)") || !strings.Contains(out, tt.measured) {
			t.Errorf("%s --best-effort: exit %d:\n%s", tt.args, code, out)
		}
		if strings.Contains(tt.args, "slack1ns") && !strings.Contains(out, "grant CAP_SYS_NICE") {
			t.Errorf("%s: the slack1ns variant's reason lacks the fix:\n%s", tt.args, out)
		}
	}
	// The default request (cyclictest's 0 µs) is not one the user asked
	// for: refused, it is a warning and the header says so, as cyclictest
	// warns and measures.
	out, code := run("latency -l 10 -i 200 -q")
	for _, w := range []string{"settings: SCHED_OTHER, not pinned, memory not locked, /dev/cpu_dma_latency 0 µs not held (see the warnings), timer slack ",
		"warning: /dev/cpu_dma_latency 0 µs refused (open /dev/cpu_dma_latency: permission denied): measured without it (the CPUs may enter deep idle states and wake later); run as root", "p99.99"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("latency without privileges, default request: exit %d, output lacks %q:\n%s", code, w, out)
		}
	}
}

// TestInterruptContext delivers real signals: the context ends with the
// signal as its cause, and the exit code is 128 + its number.
func TestInterruptContext(t *testing.T) {
	for sig, want := range map[syscall.Signal]int{syscall.SIGINT: 130, syscall.SIGTERM: 143} {
		ctx, stop := interruptContext(context.Background())
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done()
		var ie interruptedError
		if !errors.As(context.Cause(ctx), &ie) || ie.sig != sig {
			t.Errorf("%v: cause %v", sig, context.Cause(ctx))
		}
		if got := interruptExitCode(ctx); got != want {
			t.Errorf("%v: exit code %d, want %d", sig, got, want)
		}
		stop()
	}
	// Ended otherwise (stop, or the parent): the generic code.
	ctx, stop := interruptContext(context.Background())
	stop()
	<-ctx.Done()
	if got := interruptExitCode(ctx); got != exitInterrupted {
		t.Errorf("stopped context: exit code %d, want %d", got, exitInterrupted)
	}
}
