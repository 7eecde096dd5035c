//go:build unix

package outfile

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/chronograph/chronograph/internal/crosstest"
)

// TestWriteSymlink writes a link's final target and leaves the link a
// link, for links in the same directory, relative links into another
// directory (also through a linked directory), absolute links, chains and
// dangling links, whose target is created.
func TestWriteSymlink(t *testing.T) {
	for _, c := range []struct {
		name string
		// directories, files (path, content 'old', mode 0600) and links
		// (path, target; ABS = the test's directory) to make first,
		// relative to a temporary directory
		dirs, files []string
		links       [][2]string
		write       string // the path written
		target      string // the file that must hold the new content
	}{
		{name: "same directory", files: []string{"real.json"}, links: [][2]string{{"latest.json", "real.json"}},
			write: "latest.json", target: "real.json"},
		{name: "relative, another directory", dirs: []string{"a", "b"}, files: []string{"b/real.json"}, links: [][2]string{{"a/link.json", "../b/real.json"}},
			write: "a/link.json", target: "b/real.json"},
		{name: "relative, through a linked directory", dirs: []string{"deep/x"}, files: []string{"deep/x/real.json"},
			links: [][2]string{{"lnk", "deep/x"}, {"deep/x/up.json", "../x/real.json"}, {"top.json", "lnk/up.json"}},
			write: "top.json", target: "deep/x/real.json"},
		{name: "absolute", dirs: []string{"a", "b"}, files: []string{"b/real.json"}, links: [][2]string{{"a/link.json", "ABS/b/real.json"}},
			write: "a/link.json", target: "b/real.json"},
		{name: "chain", files: []string{"real.json"}, links: [][2]string{{"one.json", "two.json"}, {"two.json", "real.json"}},
			write: "one.json", target: "real.json"},
		{name: "dangling", dirs: []string{"a", "b"}, links: [][2]string{{"a/link.json", "../b/new.json"}},
			write: "a/link.json", target: "b/new.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := crosstest.TempDir(t)
			for _, d := range c.dirs {
				if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range c.files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range c.links {
				if err := os.Symlink(strings.Replace(l[1], "ABS", dir, 1), filepath.Join(dir, l[0])); err != nil {
					t.Fatal(err)
				}
			}
			before := tree(t, dir)
			if err := WriteBytes(filepath.Join(dir, c.write), []byte("new")); err != nil {
				t.Fatal(err)
			}
			if got := read(t, filepath.Join(dir, c.target)); got != "new" {
				t.Errorf("%s holds %q, want new", c.target, got)
			}
			for _, l := range c.links {
				got, err := os.Readlink(filepath.Join(dir, l[0]))
				if want := strings.Replace(l[1], "ABS", dir, 1); err != nil || got != want {
					t.Errorf("link %s: %q, %v; want it still a link to %s", l[0], got, err, want)
				}
			}
			want := before
			if !slices.Contains(want, c.target) {
				want = append(want, c.target)
				slices.Sort(want)
			}
			if after := tree(t, dir); !slices.Equal(after, want) {
				t.Errorf("files before %q, after %q: want only %s added, if new", before, after, c.target)
			}
			fi, err := os.Stat(filepath.Join(dir, c.target))
			wantMode := fs.FileMode(0o600) // the old file's
			if len(c.files) == 0 {
				wantMode = 0o644 // a new file's
			}
			if err != nil || fi.Mode() != wantMode {
				t.Errorf("%s: %v, %v; want mode %v", c.target, fi, err, wantMode)
			}
		})
	}
}

// tree lists every path under dir, relative to it.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestWriteKeepsOwner: as root, a replaced file keeps its owner and
// group.
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	path := filepath.Join(crosstest.TempDir(t), "a.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 65534 || st.Gid != 65534 {
		t.Errorf("owner %d:%d after the write, want 65534:65534", st.Uid, st.Gid)
	}
}

// payload is larger than a pipe's buffer (64 KiB on Linux), so that a
// reader must take it in several reads.
var payload = bytes.Repeat([]byte("0123456789abcdef"), 20000)

// TestWriteFIFO writes into a FIFO in place: its reader receives every
// byte, and the FIFO stays a FIFO.
func TestWriteFIFO(t *testing.T) {
	path := filepath.Join(crosstest.TempDir(t), "pipe")
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if !InPlace(path) {
		t.Errorf("InPlace(FIFO) = false")
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- []byte(err.Error())
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	if err := WriteBytes(path, payload); err != nil {
		t.Fatal(err)
	}
	if b := <-got; !bytes.Equal(b, payload) {
		t.Errorf("the reader got %d bytes, want %d", len(b), len(payload))
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("after the write: %v, %v; want a FIFO", fi, err)
	}
}

// TestCheckFIFO checks a FIFO without opening it: with no reader, an
// open for writing would block, and Check would never return; with a
// reader there, a writer that came and went would leave it a hang-up
// (POLLHUP on Linux, once a writer was seen), that the reader would read
// as the end of the output.
func TestCheckFIFO(t *testing.T) {
	path := filepath.Join(crosstest.TempDir(t), "pipe")
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Check(path); err != nil {
		t.Fatalf("Check(FIFO) with no reader: %v", err)
	}
	if runtime.GOOS != "linux" {
		return
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	hangup := func() bool {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, 0); err != nil {
			t.Fatal(err)
		}
		return fds[0].Revents&unix.POLLHUP != 0
	}
	if hangup() {
		t.Fatal("a hang-up before any writer")
	}
	if err := Check(path); err != nil {
		t.Fatalf("Check(FIFO) with a reader: %v", err)
	}
	if hangup() {
		t.Error("Check opened the FIFO: its reader sees a hang-up")
	}
	// The probe itself: a writer that comes and goes is seen.
	w, err := unix.Open(path, unix.O_WRONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(w)
	if !hangup() {
		t.Error("no hang-up after a writer came and went: the probe cannot see an open")
	}
}

// TestWriteCharDevice writes /dev/null in place (it stays a character
// device), through a link too; as root, also a null device made for the
// test in a temporary directory, which the old rename replaced.
func TestWriteCharDevice(t *testing.T) {
	dir := crosstest.TempDir(t)
	link := filepath.Join(dir, "null.json")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	paths := []string{"/dev/null", link}
	if os.Geteuid() == 0 {
		node := filepath.Join(dir, "null")
		if err := unix.Mknod(node, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
			t.Logf("no null device node in %s (%v): testing /dev/null only", dir, err)
		} else {
			paths = append(paths, node)
		}
	} else {
		t.Log("not root: a null device node of the test's own needs mknod; testing /dev/null only")
	}
	for _, p := range paths {
		if err := Check(p); err != nil {
			t.Errorf("Check(%s): %v", p, err)
		}
		if !InPlace(p) {
			t.Errorf("InPlace(%s) = false", p)
		}
		if err := WriteBytes(p, payload); err != nil {
			t.Errorf("Write(%s): %v", p, err)
		}
		fi, err := os.Stat(p)
		if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("%s after the write: %v, %v; want a character device", p, fi, err)
		}
	}
	if got, err := os.Readlink(link); err != nil || got != "/dev/null" {
		t.Errorf("the link: %q, %v; want a link to /dev/null", got, err)
	}
	if got := tree(t, dir); len(got) != len(paths)-1 {
		t.Errorf("the directory holds %q: a temporary file was left", got)
	}
}

// TestWriteDescriptor writes descriptor paths in place: /dev/fd/N and
// /proc/self/fd/N open on a pipe (a shell's >(cmd)) deliver every byte;
// open on a regular file (stdout redirected to a file), the write comes
// after what is there, in the same file.
func TestWriteDescriptor(t *testing.T) {
	formats := []string{"/dev/fd/%d"}
	if _, err := os.Stat("/proc/self/fd"); err == nil {
		formats = append(formats, "/proc/self/fd/%d")
	}
	for _, format := range formats {
		t.Run(strings.ReplaceAll(format, "%d", "N")+" pipe", func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got := make(chan []byte)
			go func() { b, _ := io.ReadAll(r); got <- b }()
			path := fmt.Sprintf(format, w.Fd())
			if err := Check(path); err != nil {
				t.Errorf("Check(%s): %v", path, err)
			}
			err = WriteBytes(path, payload)
			w.Close()
			if err != nil {
				t.Fatal(err)
			}
			if b := <-got; !bytes.Equal(b, payload) {
				t.Errorf("the pipe's reader got %d bytes, want %d", len(b), len(payload))
			}
		})
		t.Run(strings.ReplaceAll(format, "%d", "N")+" file", func(t *testing.T) {
			dir := crosstest.TempDir(t)
			f, err := os.Create(filepath.Join(dir, "out.txt"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			io.WriteString(f, "text first\n")
			before, _ := f.Stat()
			if err := WriteBytes(fmt.Sprintf(format, f.Fd()), []byte("then the export\n")); err != nil {
				t.Fatal(err)
			}
			if got := read(t, f.Name()); got != "text first\nthen the export\n" {
				t.Errorf("the file holds %q", got)
			}
			after, _ := os.Stat(f.Name())
			if !os.SameFile(before, after) {
				t.Errorf("the file was replaced, not written in place")
			}
			if got := tree(t, dir); !slices.Equal(got, []string{"out.txt"}) {
				t.Errorf("the directory holds %q", got)
			}
		})
	}
	// A descriptor that is not open is refused by name.
	if err := Check("/dev/fd/987654"); err == nil || !strings.Contains(err.Error(), "no such descriptor is open") {
		t.Errorf("Check(/dev/fd/987654) = %v, want no such descriptor", err)
	}
}

// TestWriteStdout: /dev/stdout and a link to it are written in place,
// whatever standard output is (go test gives a pipe or a file).
func TestWriteStdout(t *testing.T) {
	link := filepath.Join(crosstest.TempDir(t), "out.json")
	if err := os.Symlink("/dev/stdout", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/stdout", link} {
		if !InPlace(p) {
			t.Errorf("InPlace(%s) = false", p)
		}
		if err := WriteBytes(p, nil); err != nil {
			t.Errorf("Write(%s): %v", p, err)
		}
	}
	if got, err := os.Readlink(link); err != nil || got != "/dev/stdout" {
		t.Errorf("the link: %q, %v", got, err)
	}
}

// TestSocketRefused: a Unix socket cannot be opened as a file.
func TestSocketRefused(t *testing.T) {
	path := filepath.Join(crosstest.TempDir(t), "s")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Skipf("no Unix socket: %v", err)
	}
	defer l.Close()
	if err := Check(path); err == nil || !strings.Contains(err.Error(), "is a socket") {
		t.Errorf("Check(socket) = %v", err)
	}
	if err := WriteBytes(path, nil); err == nil || !strings.Contains(err.Error(), "is a socket") {
		t.Errorf("Write(socket) = %v", err)
	}
}

// TestCollide compares what two paths would write.
func TestCollide(t *testing.T) {
	dir := crosstest.TempDir(t)
	t.Chdir(dir)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile("real.json", nil, 0o644))
	must(os.Symlink("real.json", "link.json"))
	must(os.Link("real.json", "hard.json"))
	must(os.Symlink("future.json", "dangling.json"))
	must(os.Mkdir("sub", 0o755))
	must(os.Symlink("sub", "sublink"))
	must(unix.Mkfifo("pipe", 0o600))
	must(os.Symlink("/dev/null", "null.json"))
	r, w, err := os.Pipe()
	must(err)
	defer r.Close()
	defer w.Close()
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"a.json", "./a.json", true},
		{"a.json", filepath.Join(dir, "a.json"), true},
		{"sub/../a.json", "a.json", true},
		{"sub/x.json", "sublink/x.json", true},
		{"a.json", "b.json", false},
		{"link.json", "real.json", true},
		{"hard.json", "./real.json", true},
		{"dangling.json", "future.json", true},
		{"real.json", "a.json", false},
		{"pipe", "./pipe", true},
		{"/dev/null", "/dev/null", false},
		{"null.json", "/dev/null", false},
		{fmt.Sprintf("/dev/fd/%d", w.Fd()), fmt.Sprintf("/dev/fd/%d", w.Fd()), true},
		{fmt.Sprintf("/dev/fd/%d", w.Fd()), fmt.Sprintf("/dev/fd/%d", r.Fd()), true}, // one pipe
	} {
		if got := Collide(c.a, c.b); got != c.want {
			t.Errorf("Collide(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := Collide(c.b, c.a); got != c.want {
			t.Errorf("Collide(%q, %q) = %v, want %v", c.b, c.a, got, c.want)
		}
	}
}
