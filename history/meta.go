package history

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
)

// Meta is what is stored with a document besides the document itself.
type Meta struct {
	// Time stamps the run: the document's start when it has one, else
	// when it was added.
	Time time.Time
	// Git describes the working directory's repository when it was added.
	Git Git
	// Tags are the user's key=value labels (e.g. "ci=github", "pr=42").
	Tags map[string]string
	// Machine is the fingerprint of the machine the document was measured
	// on (from its environment).
	Machine Machine
	// Source names where the document came from (a file name), for the
	// record.
	Source string
	// AllowDuplicate stores the document even when the store holds one of
	// the same content (see Store.Add); it is not stored itself.
	AllowDuplicate bool
	// Profiles are the CPU profiles the document's measurements refer to
	// (result.Measurement.Profile), stored with the run so that a check
	// traces a regression to its functions after the files are gone (see
	// Profile).
	Profiles []Profile
}

// Git is the state of a git working tree. Commit is empty when it was not
// read; Note then says why.
type Git struct {
	Commit string
	Branch string
	// Dirty is nil when unknown, else whether tracked files had changes.
	Dirty *bool
	Note  string
}

// ReadGit reads the commit, branch and dirty flag of the git repository
// that holds dir. It runs git once (git status --porcelain=v2 --branch,
// a few milliseconds, taking no lock), and in the rare cases that one
// call cannot answer (a repository without a commit yet, a git older
// than 2.17) the three
// calls rev-parse --verify HEAD, rev-parse --abbrev-ref HEAD and status
// --porcelain, whose answers it gives. Outside a repository, or without
// git, Commit is empty and Note says why; it never fails.
func ReadGit(ctx context.Context, dir string) Git {
	run := gitRunner(ctx, dir)
	// --no-optional-locks: a status killed when ctx ends (or running
	// beside the user's git) leaves no index.lock behind.
	st, err := run("--no-optional-locks", "status", "--porcelain=v2", "--branch", "--untracked-files=no", "--no-ahead-behind")
	if err == nil {
		if g, ok := parseStatusV2(st); ok {
			return g
		}
	}
	if note := gitNote(err); note != "" {
		return Git{Note: note}
	}
	return readGitEach(run)
}

// gitRunner returns a function that runs git with its arguments in dir
// and returns its trimmed output, or the first line of its error output
// as the error.
func gitRunner(ctx context.Context, dir string) func(args ...string) (string, error) {
	return func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			if msg := strings.TrimSpace(errb.String()); msg != "" {
				return "", errors.New(firstLine(msg))
			}
			return "", err
		}
		return strings.TrimSpace(out.String()), nil
	}
}

// readGitEach is ReadGit by three calls of git (through run): the commit
// (rev-parse --verify HEAD), the branch (rev-parse --abbrev-ref HEAD) and
// the dirty flag (status --porcelain).
func readGitEach(run func(args ...string) (string, error)) Git {
	commit, err := run("rev-parse", "--verify", "HEAD")
	if err != nil {
		if note := gitNote(err); note != "" {
			return Git{Note: note}
		}
		return Git{Note: "not read from git: " + err.Error()}
	}
	g := Git{Commit: commit}
	if b, err := run("rev-parse", "--abbrev-ref", "HEAD"); err == nil && b != "HEAD" {
		g.Branch = b
	}
	if st, err := run("status", "--porcelain", "--untracked-files=no"); err == nil {
		d := st != ""
		g.Dirty = &d
	}
	return g
}

// gitNote is the Note for an error of git that means there is no
// repository to read (git missing, or dir outside a repository), "" for
// any other error.
func gitNote(err error) string {
	var ee *exec.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ee):
		return "git is not installed"
	case strings.Contains(err.Error(), "not a git repository"):
		return "not in a git repository"
	}
	return ""
}

// parseStatusV2 reads the output of git status --porcelain=v2 --branch
// --untracked-files=no: the "# branch.oid" and "# branch.head" headers,
// then a line per changed tracked file. ok is false when it names no
// commit (a repository without one: "(initial)").
func parseStatusV2(out string) (g Git, ok bool) {
	dirty := false
	for line := range strings.SplitSeq(out, "\n") {
		switch {
		case strings.HasPrefix(line, "# branch.oid "):
			g.Commit = strings.TrimPrefix(line, "# branch.oid ")
		case strings.HasPrefix(line, "# branch.head "):
			if b := strings.TrimPrefix(line, "# branch.head "); b != "(detached)" {
				g.Branch = b
			}
		case strings.HasPrefix(line, "# "), line == "":
		default:
			dirty = true
		}
	}
	if g.Commit == "" || g.Commit == "(initial)" {
		return Git{}, false
	}
	g.Dirty = &dirty
	return g, true
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Machine is a machine fingerprint: the parts of the environment that make
// figures comparable (those compare.GateDocuments checks, and the Go
// version) and their hash; the store keeps each run's, and history
// documents hold them (see result.HistoryMachine for the fields).
type Machine = result.HistoryMachine

// Fingerprint returns the fingerprint of an environment (the zero Machine
// for nil).
func Fingerprint(h *env.Host) Machine {
	if h == nil {
		return Machine{}
	}
	m := Machine{CPU: h.CPU.Model, Kernel: h.System.KernelRelease, Go: h.Go.Version, GOMAXPROCS: h.Go.GOMAXPROCS, Speed: h.SpeedProfile()}
	sum := sha256.Sum256(fmt.Appendf(nil, "cpu=%s\x00kernel=%s\x00go=%s\x00gomaxprocs=%d\x00speed=%s", m.CPU, m.Kernel, m.Go, m.GOMAXPROCS, m.Speed))
	m.Hash = hex.EncodeToString(sum[:8])
	return m
}

// ParseTags parses "key=value" strings into a map; a missing "=" or an
// empty key is an error.
func ParseTags(kvs []string) (map[string]string, error) {
	tags := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("history: tag %q is not key=value: give e.g. --tag ci=github", kv)
		}
		tags[k] = v
	}
	return tags, nil
}
