//go:build !unix

package outfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// inPlaceFlags open a device for writing: never created or truncated.
const inPlaceFlags = os.O_WRONLY

// isDescriptor: descriptor paths are a Unix feature.
func isDescriptor(string) bool { return false }

// deviceName reports whether path names a Windows device (NUL, CON,
// COM1, ...: also with a directory or an extension, as Windows reads
// them) or a \\.\ path (a device or a named pipe).
func deviceName(path string) bool {
	if strings.HasPrefix(path, `\\.\`) || strings.HasPrefix(path, `//./`) {
		return true
	}
	name := filepath.Base(path)
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	name = strings.ToUpper(strings.TrimRight(name, " :"))
	switch name {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	return len(name) == 4 && (strings.HasPrefix(name, "COM") || strings.HasPrefix(name, "LPT")) && name[3] >= '1' && name[3] <= '9'
}

// keepOwner: files keep their owner through their directory's ACL here.
func keepOwner(*os.File, fs.FileInfo) {}

// syncDir: directories cannot be opened for syncing here.
func syncDir(string) {}

// writable: without access(2), the write itself says.
func writable(string) error { return nil }
