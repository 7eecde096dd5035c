package report

import (
	"io"

	"github.com/chronograph/chronograph/internal/outfile"
)

// WriteFile writes what render produces to path through the one writer
// of files (a regular file atomically, so that an interrupted write never
// leaves half a table; a link's target; a device, FIFO or /dev/fd/N in
// place). stdout receives it when path is "-".
func WriteFile(path string, stdout io.Writer, render func(io.Writer) error) error {
	if path == "-" {
		return render(stdout)
	}
	return outfile.Write(path, render)
}
