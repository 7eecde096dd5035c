package env

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// goInfo returns the Go toolchain, build and runtime settings of the
// running binary.
func goInfo() Go {
	g := Go{
		Version:    runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		NumCPU:     runtime.NumCPU(),
		Compiler:   runtime.Compiler,
		Race:       raceEnabled,
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		applyBuildInfo(&g, info)
	}
	return g
}

// applyBuildInfo copies the build settings recorded in the binary
// (go version -m shows the same) into g.
func applyBuildInfo(g *Go, info *debug.BuildInfo) {
	if info.GoVersion != "" && g.Version == "" {
		g.Version = info.GoVersion
	}
	g.MainModule = info.Main.Path
	for _, s := range info.Settings {
		switch s.Key {
		case "-race":
			g.Race = g.Race || s.Value == "true"
		case "-gcflags":
			g.GCFlags = s.Value
		case "-ldflags":
			g.LDFlags = s.Value
		case "-compiler":
			g.Compiler = s.Value
		case "CGO_ENABLED":
			on := s.Value == "1"
			g.CGOEnabled = &on
		case "vcs.revision":
			g.VCSRevision = s.Value
		case "vcs.time":
			g.VCSTime = s.Value
		case "vcs.modified":
			g.VCSModified = s.Value == "true"
		default:
			// GOAMD64, GOARM64, GOARM, GO386, GOPPC64, GORISCV64, ...
			if strings.HasPrefix(s.Key, "GO") && s.Key != "GOOS" && s.Key != "GOARCH" && s.Key != "GOEXPERIMENT" && s.Key != "GOFIPS140" {
				g.ArchLevel = s.Key + "=" + s.Value
			}
		}
	}
}

// processInfo describes the running process.
func processInfo() Process {
	return Process{PID: os.Getpid(), Args: append([]string(nil), os.Args...), Root: os.Geteuid() == 0}
}
