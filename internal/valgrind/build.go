package valgrind

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"

	"github.com/chronograph/chronograph/internal/excerpt"
)

// Instrumented returns the build flags of the running program that would
// be counted with the code measured, "-race" and "-cover" (joined by a
// space), or "" when it was built without them: a -race build counts 14
// times the instructions of a sum loop, and a -cover build counts its
// counters. It reads the program's build information.
func Instrumented() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return instrumented(bi.Settings)
}

func instrumented(settings []debug.BuildSetting) string {
	var out []string
	for _, s := range settings {
		if (s.Key == "-race" || s.Key == "-cover") && s.Value == "true" {
			out = append(out, s.Key)
		}
	}
	return strings.Join(out, " ")
}

// rebuildFlags are the build settings of the running program that a
// rebuild passes on to go test -c: the flags, and the variables that
// select the code generated.
var rebuildFlags = []string{"-tags", "-gcflags", "-ldflags", "-asmflags", "-trimpath"}

var rebuildEnv = []string{"CGO_ENABLED", "GOAMD64", "GOARM64", "GOEXPERIMENT"}

// BuildTest builds the test binary of the package in directory dir (go
// test -c -o out dir) as the running test binary was built, but without
// -race and -cover: with the same -tags, -gcflags, -ldflags, -asmflags
// and -trimpath, and the same CGO_ENABLED, GOAMD64, GOARM64 and
// GOEXPERIMENT, read from the running program's build information. It
// returns the go test command it ran, for the record. It fails when the
// go command cannot be found or the build fails.
func BuildTest(dir, out string) (string, error) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", errors.New("valgrind: the running program has no build information to rebuild it from")
	}
	args, env := rebuildArgs(bi.Settings)
	args = append(append([]string{"test", "-c", "-o", out}, args...), ".")
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("valgrind: the go command is needed to rebuild the test binary without -race and -cover: %w (put go on PATH, or run go test without -race and -cover)", err)
	}
	cmd := exec.Command(goTool, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	desc := "go test " + strings.Join(quoteArgs(args[1:]), " ")
	if len(env) > 0 {
		desc = strings.Join(env, " ") + " " + desc
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("valgrind: %s: %w: %s", desc, err, excerpt.Clip(string(b)))
	}
	return desc, nil
}

// rebuildArgs returns the go test flags and the environment that rebuild
// a program built with settings, without -race and -cover.
func rebuildArgs(settings []debug.BuildSetting) (args, env []string) {
	for _, s := range settings {
		for _, f := range rebuildFlags {
			if s.Key == f && s.Value != "" {
				args = append(args, f+"="+s.Value)
			}
		}
		for _, e := range rebuildEnv {
			if s.Key == e {
				env = append(env, e+"="+s.Value)
			}
		}
	}
	return args, env
}

// quoteArgs quotes the arguments that hold blanks, for a command line to
// read.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if strings.ContainsAny(a, " \t'\"") {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return out
}
