package report

import (
	"io"

	"github.com/chronograph/chronograph/result"
)

// jsonRenderer writes the document itself (package result's encoding).
type jsonRenderer struct{}

func (jsonRenderer) Render(w io.Writer, s Subject, _ Options) error {
	return result.Encode(w, s.Docs[0])
}
