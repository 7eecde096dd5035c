// Package cpuprof lets a Go program write a CPU profile of its whole run
// when chronograph (or anyone) asks for one through the environment, so
// that `chrono run` can profile a program without changing its command
// line. It imports only the standard library.
//
// The convention: when the environment variable CHRONO_CPUPROFILE names
// a file, the program profiles its CPU from Start to the call of the
// function Start returns, and writes the profile there (runtime/pprof's
// format, what go build -pgo reads). When the variable is unset or
// empty, Start does nothing. A program opts in with one line at the top
// of main:
//
//	defer cpuprof.Start()()
//
// A program that leaves through os.Exit skips deferred calls: call the
// stop function before it. A program that does not want the dependency
// can honour the variable itself with runtime/pprof.StartCPUProfile
// and StopCPUProfile; that is all Start does.
package cpuprof

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/pprof"
)

// Env is the environment variable that names the profile's file.
const Env = "CHRONO_CPUPROFILE"

// Start starts a CPU profile to the file that $CHRONO_CPUPROFILE names
// and returns the function that stops it and closes the file. When the
// variable is empty it returns a function that does nothing. A file that
// cannot be created, or a profile already running, is reported on
// standard error and leaves the program unprofiled: the caller that
// asked for the profile sees it missing (the file is removed if Start
// created it; a path that was there, a FIFO, device or symlink, stays).
func Start() (stop func()) {
	return start(os.Getenv(Env), os.Stderr)
}

func start(path string, stderr io.Writer) func() {
	if path == "" {
		return func() {}
	}
	_, err := os.Lstat(path)
	created := errors.Is(err, fs.ErrNotExist)
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "cpuprof: %s: %v\n", Env, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "cpuprof: %s: %v\n", Env, err)
		f.Close()
		if created {
			os.Remove(path)
		}
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "cpuprof: %s: %v\n", Env, err)
		}
	}
}
