package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// linuxSession: the subcommands whose README examples run Linux programs
// or mechanisms.
var linuxSession = map[string]bool{"run": true, "stat": true, "sleep": true, "latency": true}

// TestREADME runs the examples in README.md, so that they stay true.
//
// A fenced block whose info string is "console" holds examples: lines that
// start with "$ " are commands, the lines after one are its output. Each
// chrono command (written "chrono ..." or "go run ./cmd/chrono ...",
// optionally fed by "PRODUCER |", which runs in sh) must exit 0 and print
// something. In a block marked "console exact" the output must match
// exactly; other blocks show real output of a measurement, which varies.
// A block marked "exit=N" after "console" (a gate's verdict) must exit N
// instead of 0.
// Other commands (go install, go test) are not run here.
func TestREADME(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := parseExamples(string(data))
	if len(examples) < 3 {
		t.Fatalf("found %d chrono examples in README.md, want at least 3", len(examples))
	}
	t.Chdir("../..")
	for _, ex := range examples {
		t.Run(ex.line, func(t *testing.T) {
			// The README's sessions are Linux's: on windows the examples
			// that start programs (sleep, gzip, sh for a producer, go) or
			// use Linux's mechanisms (clock_nanosleep, SCHED_FIFO) cannot
			// run; the others (stats, report, trace, ...) do.
			if runtime.GOOS == "windows" && (ex.goRun != nil || ex.producer != "" || linuxSession[ex.args[0]]) {
				t.Skip("a Linux session: it starts Linux programs (sh, sleep, gzip, go) or uses Linux's mechanisms")
			}
			if ex.goRun != nil {
				cmd := exec.Command("go", ex.goRun...)
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("go %s: %v", strings.Join(ex.goRun, " "), err)
				}
				if len(out) == 0 {
					t.Fatalf("printed nothing")
				}
				return
			}
			var stdin []byte
			if ex.producer != "" {
				out, err := exec.Command("sh", "-c", ex.producer).Output()
				if err != nil {
					t.Fatalf("producer %q: %v", ex.producer, err)
				}
				stdin = out
			}
			var out, errb bytes.Buffer
			code := executeWithInput(ex.args, bytes.NewReader(stdin), &out, &errb)
			if code != ex.exit {
				t.Fatalf("exit %d, want %d; stderr: %s", code, ex.exit, errb.String())
			}
			if out.Len() == 0 {
				t.Fatalf("printed nothing")
			}
			if ex.exact && strings.TrimRight(out.String(), "\n") != strings.TrimRight(ex.want, "\n") {
				t.Errorf("README output differs from the real one:\n--- real\n%s\n--- README\n%s", out.String(), ex.want)
			}
		})
	}
}

type example struct {
	line     string // the command as written
	producer string // the part before "|", run by sh
	args     []string
	goRun    []string // "go run ./examples/..." examples: the go command's arguments
	want     string
	exact    bool
	exit     int // the exit code it must have
}

func parseExamples(md string) []example {
	var (
		exs     []example
		inBlock bool
		exact   bool
		exit    int
		cur     *example
	)
	flush := func() {
		if cur != nil {
			exs = append(exs, *cur)
			cur = nil
		}
	}
	sc := bufio.NewScanner(strings.NewReader(md))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if inBlock {
				flush()
				inBlock = false
				continue
			}
			info := strings.Fields(strings.TrimPrefix(line, "```"))
			if len(info) > 0 && info[0] == "console" {
				inBlock, exact, exit = true, slices.Contains(info[1:], "exact"), 0
				for _, w := range info[1:] {
					if v, ok := strings.CutPrefix(w, "exit="); ok {
						exit, _ = strconv.Atoi(v)
					}
				}
			}
			continue
		}
		if !inBlock {
			continue
		}
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			flush()
			producer, chrono := "", cmd
			if i := strings.LastIndex(cmd, "|"); i >= 0 {
				producer, chrono = strings.TrimSpace(cmd[:i]), strings.TrimSpace(cmd[i+1:])
			}
			words := shellWords(chrono)
			switch {
			case len(words) > 0 && words[0] == "chrono":
				words = words[1:]
			case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/chrono":
				words = words[3:]
			case len(words) > 2 && words[0] == "go" && words[1] == "run" && strings.HasPrefix(words[2], "./examples/"):
				cur = &example{line: cmd, goRun: words[1:]}
				continue
			default:
				continue // not a chrono command
			}
			cur = &example{line: cmd, producer: producer, args: words, exact: exact, exit: exit}
			continue
		}
		if cur != nil {
			cur.want += line + "\n"
		}
	}
	return exs
}

// shellWords splits s into words with single and double quotes.
func shellWords(s string) []string {
	var (
		words []string
		b     strings.Builder
		quote rune
		in    bool
	)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			b.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words
}
