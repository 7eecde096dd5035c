//go:build unix

package outfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// inPlaceFlags open a device, FIFO or descriptor for writing: never
// created or truncated; appending, so that /dev/fd/N open on a regular
// file (a shell's 3>FILE, or stdout redirected) is written after what is
// there (Linux opens /proc/self/fd/N anew, at offset 0).
const inPlaceFlags = os.O_WRONLY | os.O_APPEND

// isDescriptor reports whether path names an open descriptor of the
// process: /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N, or /proc's
// /proc/self/fd/N (also thread-self, a PID, a task).
func isDescriptor(path string) bool {
	p, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	switch p {
	case "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return true
	}
	dir := filepath.Dir(p)
	return dir == "/dev/fd" || strings.HasPrefix(p, "/proc/") && filepath.Base(dir) == "fd"
}

// deviceName is Windows' test for a device name; Unix has none.
func deviceName(string) bool { return false }

// keepOwner gives f the owner and group of the file fi describes, where
// the process may (root, or a group it is in); a replaced file otherwise
// belongs to the process's user.
func keepOwner(f *os.File, fi fs.FileInfo) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	uid, gid := int(st.Uid), int(st.Gid)
	if uid == os.Geteuid() && gid == os.Getegid() {
		return
	}
	if f.Chown(uid, gid) != nil {
		_ = f.Chown(-1, gid)
	}
}

// syncDir makes a rename in dir durable; file systems that cannot sync a
// directory are left as they are.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// writable says whether the process may write path, without opening it.
func writable(path string) error {
	return unix.Access(path, unix.W_OK)
}
