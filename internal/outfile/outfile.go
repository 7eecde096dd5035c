// Package outfile is the one writer of every file chronograph writes: the
// exports, the HTML and SVG reports, the history's exports, trace files
// and dumps. Check says before anything is measured whether a path can
// be written, and Collide whether two outputs would write the same file;
// both classify a path as Write does.
//
// What a path names decides how it is written:
//
//   - a regular file, or nothing yet: atomically, through a temporary file
//     in the same directory that is synced and renamed over the path, so
//     that a reader sees the old content or the new, never half of it. An
//     existing file keeps its permission bits (and its owner where the
//     process may set it); a new file gets mode 0644.
//   - a symbolic link: followed to its final target, which is written as
//     above; the link stays a link. A dangling link's target is created.
//   - a character device (/dev/null, a terminal), a FIFO, or a descriptor
//     path (/dev/stdout, /dev/fd/N, /proc/self/fd/N, as a shell's >(cmd)
//     gives): opened for writing, appending, never created or truncated,
//     and written in place, never replaced. On Windows the device names
//     (NUL, CON, ...) and \\.\ paths are written in place.
//   - a directory, a block device or a socket: refused.
package outfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// kind is how a path is written.
type kind int

const (
	atomic  kind = iota // a regular file or a new one: temp + rename
	inPlace             // a device, FIFO or descriptor: opened and written
)

// target is where a write to a path goes.
type target struct {
	kind kind
	// file is the path written: for atomic, the link's final target (or
	// the path itself); for inPlace, the path as given (the kernel
	// follows its links, also /proc's descriptor links).
	file string
	// existing is the file there now (nil: none), whose mode and owner a
	// replacement keeps.
	existing fs.FileInfo
}

// maxLinks bounds how many symbolic links resolve follows, as the kernel
// does (Linux: 40).
const maxLinks = 40

// resolve classifies path without opening or creating anything.
func resolve(path string) (target, error) {
	if path == "" {
		return target{}, errors.New("outfile: the path is empty: give a file name")
	}
	if deviceName(path) {
		return target{kind: inPlace, file: path}, nil
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fi = nil
	case err != nil:
		return target{}, fmt.Errorf("outfile: %w", err)
	default:
		if err := refuse(fi.Mode()); err != nil {
			return target{}, fmt.Errorf("outfile: %s: %w", path, err)
		}
		if fi.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0 {
			return target{kind: inPlace, file: path, existing: fi}, nil
		}
	}
	file, desc, err := follow(path)
	if err != nil {
		return target{}, err
	}
	if desc {
		if fi == nil {
			return target{}, fmt.Errorf("outfile: %s: no such descriptor is open: open it in the shell (3>FILE) or give a file name", file)
		}
		return target{kind: inPlace, file: path, existing: fi}, nil
	}
	return target{kind: atomic, file: file, existing: fi}, nil
}

// refuse says why a file of mode m cannot be written, or returns nil.
func refuse(m fs.FileMode) error {
	switch {
	case m.IsDir():
		return errors.New("is a directory: give a file name")
	case m&fs.ModeSocket != 0:
		return errors.New("is a socket, which cannot be opened as a file: give a file, a FIFO or a device")
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0:
		return errors.New("is a block device, onto which no document is written: give a file name")
	case m&fs.ModeIrregular != 0:
		return errors.New("is not a regular file, a FIFO or a character device: give a file name")
	}
	return nil
}

// follow follows the symbolic links at path to the file they end at, which
// may not exist yet (a dangling link's target). It reports desc when a
// descriptor path (/dev/stdout, /dev/fd/N) is met on the way: that one is
// written in place, whatever it is open to.
func follow(path string) (file string, desc bool, err error) {
	p := path
	for range maxLinks {
		if isDescriptor(p) {
			return p, true, nil
		}
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			return p, false, nil
		}
		if err != nil {
			return "", false, fmt.Errorf("outfile: %w", err)
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", false, fmt.Errorf("outfile: %w", err)
		}
		if !filepath.IsAbs(link) {
			// Relative to the link's directory, as the kernel reads it:
			// that directory's own links first, so that ".." leaves the
			// directory the link is really in.
			dir := filepath.Dir(p)
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
			}
			link = filepath.Join(dir, link)
		}
		p = link
	}
	return "", false, fmt.Errorf("outfile: %s: more than %d symbolic links in a row (a loop?): give the file's own path", path, maxLinks)
}

// InPlace reports whether path is written in place (a character device,
// a FIFO, a descriptor path): a second write there adds to the first
// rather than replacing it, and a FIFO's reader may be gone after the
// first. Writers that write a document again as it grows (an export after
// every measured command) write such a path once, at the end.
func InPlace(path string) bool {
	t, err := resolve(path)
	return err == nil && t.kind == inPlace
}

// Check says why path cannot be written, without opening, creating or
// changing anything at it (a FIFO is not opened: that would block, or
// take its reader): the path is a directory, a socket or a block device,
// the directory it would be created in is missing or takes no new files,
// or the device, FIFO or descriptor is not writable. Its error names the
// path, what is wrong and the fix.
func Check(path string) error {
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.kind == inPlace {
		if err := writable(t.file); err != nil {
			return fmt.Errorf("outfile: %s: cannot write to it: %w (check its permissions)", path, err)
		}
		return nil
	}
	dir := filepath.Dir(t.file)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("outfile: %s: directory %s does not exist: create it or choose another path", path, dir)
	case err != nil:
		return fmt.Errorf("outfile: %s: cannot use directory %s: %w", path, dir, err)
	case !fi.IsDir():
		return fmt.Errorf("outfile: %s: %s is not a directory: choose another path", path, dir)
	}
	f, err := os.CreateTemp(dir, ".chrono-check-*")
	if err != nil {
		return fmt.Errorf("outfile: %s: cannot create files in %s: %w", path, dir, errors.Unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// Collide reports whether outputs to a and to b would write the same
// file, so that the second would replace the first (or, in a FIFO, run
// into it): the same existing file, by device and inode once links are
// followed (a link and its target, two hard links, /dev/stdout and
// /dev/fd/1), or, for paths that do not exist yet, the same absolute path
// once the links of the existing parts are followed (a.json and
// ./a.json). Two paths to one character device do not collide: a device
// takes both writes in turn (/dev/null discards both, a terminal shows
// both), so nothing is lost.
func Collide(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	switch {
	case errA == nil && errB == nil:
		return os.SameFile(fa, fb) && fa.Mode()&fs.ModeCharDevice == 0
	case errA == nil || errB == nil:
		return false // one exists, the other does not
	}
	return where(a) == where(b)
}

// where is the absolute, cleaned path a file at path would be created
// at: links followed, as far as they exist.
func where(path string) string {
	if file, _, err := follow(path); err == nil {
		path = file
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	dir, base := filepath.Split(path)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, base)
}

// Write writes what write produces to path, as the package comment says:
// a regular file (or a new one, or a link's target) atomically, a device,
// FIFO or descriptor in place. write's output is kept in memory before a
// FIFO or device is opened, so that its reader gets the whole output or,
// when write fails, nothing.
func Write(path string, write func(io.Writer) error) error {
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.kind == inPlace {
		err = writeInPlace(t.file, write)
	} else {
		err = writeAtomic(t, write)
	}
	if err != nil {
		return fmt.Errorf("outfile: writing %s: %w", path, err)
	}
	return nil
}

// WriteBytes writes data to path as Write does.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}

// writeInPlace opens path for writing, without creating or truncating it
// (appending: a descriptor path that a shell opened on a regular file is
// written after what the process wrote there before), and writes.
func writeInPlace(path string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	f, err := os.OpenFile(path, inPlaceFlags, 0)
	if err != nil {
		return err
	}
	_, err = buf.WriteTo(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeAtomic writes t.file through a temporary file in its directory,
// synced, given the existing file's mode (or 0644) and owner, and renamed
// over it.
func writeAtomic(t target, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(t.file)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("%w (check that the directory exists and is writable)", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if t.existing != nil {
		perm = t.existing.Mode().Perm()
		keepOwner(tmp, t.existing)
	}
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), t.file); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}
