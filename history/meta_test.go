package history

import (
	"context"
	"github.com/chronograph/chronograph/internal/crosstest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestParseStatusV2(t *testing.T) {
	const oid = "794a5b41b1a9baa162e11bfb7024d6cb4ee0c34e"
	clean, dirty := false, true
	for _, tt := range []struct {
		name, out string
		want      Git
		ok        bool
	}{
		{"clean", "# branch.oid " + oid + "\n# branch.head trunk", Git{Commit: oid, Branch: "trunk", Dirty: &clean}, true},
		{"modified", "# branch.oid " + oid + "\n# branch.head trunk\n1 .M N... 100644 100644 100644 587b 587b f", Git{Commit: oid, Branch: "trunk", Dirty: &dirty}, true},
		{"renamed", "# branch.oid " + oid + "\n# branch.head main\n2 R. N... 100644 100644 100644 587b 587b R100 g\tf", Git{Commit: oid, Branch: "main", Dirty: &dirty}, true},
		{"unmerged", "# branch.oid " + oid + "\n# branch.head main\nu UU N... 100644 100644 100644 100644 a b c f", Git{Commit: oid, Branch: "main", Dirty: &dirty}, true},
		{"detached", "# branch.oid " + oid + "\n# branch.head (detached)", Git{Commit: oid, Dirty: &clean}, true},
		{"upstream", "# branch.oid " + oid + "\n# branch.head main\n# branch.upstream origin/main", Git{Commit: oid, Branch: "main", Dirty: &clean}, true},
		{"no commit yet", "# branch.oid (initial)\n# branch.head trunk\n1 A. N... 000000 100644 100644 0000 587b f", Git{}, false},
		{"no headers", "", Git{}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, ok := parseStatusV2(tt.out)
			if ok != tt.ok || g.Commit != tt.want.Commit || g.Branch != tt.want.Branch || (g.Dirty == nil) != (tt.want.Dirty == nil) ||
				g.Dirty != nil && *g.Dirty != *tt.want.Dirty || g.Note != "" {
				t.Fatalf("got %+v (dirty %v) %v, want %+v (dirty %v) %v", g, deref(g.Dirty), ok, tt.want, deref(tt.want.Dirty), tt.ok)
			}
		})
	}
}

func deref(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

// TestReadGit reads repositories in every state with one call of git and
// compares the answer with the three calls it replaces (readGitEach).
func TestReadGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	dir := crosstest.TempDir(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=a"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name        string
		setup       func()
		commit      bool // a commit is read
		branch      string
		dirty, note bool // dirty: *Dirty; note: a Note is set
	}{
		{"outside a repository", func() {}, false, "", false, true},
		{"no commit yet", func() { git("init", "-q", "-b", "trunk"); write("f", "x"); git("add", "f") }, false, "", false, true},
		{"clean", func() { git("commit", "-q", "-m", "x") }, true, "trunk", false, false},
		{"untracked file only", func() { write("u", "u") }, true, "trunk", false, false},
		{"modified", func() { write("f", "y") }, true, "trunk", true, false},
		{"staged", func() { git("add", "f") }, true, "trunk", true, false},
		{"detached", func() { git("commit", "-q", "-m", "y"); git("checkout", "-q", "--detach") }, true, "", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.setup()
			g := ReadGit(ctx, dir)
			if want := readGitEach(gitRunner(ctx, dir)); g.Commit != want.Commit || g.Branch != want.Branch || g.Note != want.Note ||
				(g.Dirty == nil) != (want.Dirty == nil) || g.Dirty != nil && *g.Dirty != *want.Dirty {
				t.Fatalf("one call: %+v (dirty %v); three calls: %+v (dirty %v)", g, deref(g.Dirty), want, deref(want.Dirty))
			}
			if (len(g.Commit) == 40) != tt.commit || g.Branch != tt.branch || (g.Note != "") != tt.note ||
				tt.commit && (g.Dirty == nil || *g.Dirty != tt.dirty) {
				t.Fatalf("%+v (dirty %v)", g, deref(g.Dirty))
			}
		})
	}
	t.Run("no git", func(t *testing.T) {
		t.Setenv("PATH", crosstest.TempDir(t))
		if g := ReadGit(ctx, dir); g != (Git{Note: "git is not installed"}) {
			t.Fatalf("%+v", g)
		}
	})
}
