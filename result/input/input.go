// Package input reads what chrono's readers are given besides chronograph
// result documents: hyperfine JSON exports and Go benchmark output (go
// test -bench), as documents, and it tells the kinds apart (Detect),
// trace-event files included. It sits beside result.Decode, which reads
// documents (and hyperfine exports) alone; it is a package of its own
// because Go benchmark output is parsed by golang.org/x/perf/benchfmt,
// which programs that only write documents (package bench) should not
// link.
//
// It reads; it does not measure, analyse or render.
package input

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/chronograph/chronograph/result"
)

// Kind says what a file holds.
type Kind int

// The kinds of input.
const (
	Unknown     Kind = iota
	Document         // a chronograph result document
	Hyperfine        // a hyperfine JSON export
	TraceEvents      // a trace-event JSON file (a tracer dump)
	GoBench          // Go benchmark output
)

// bom is the byte order mark some editors put before JSON.
var bom = []byte("\uFEFF")

// Detect tells what data holds by its shape: a JSON object with "schema"
// (a result document), "results" (a hyperfine export) or "traceEvents"
// (a trace dump), or text with Go benchmark lines. JSON that does not
// parse is taken for a document, so that reading it says what is wrong.
func Detect(data []byte) Kind {
	t := bytes.TrimLeft(bytes.TrimPrefix(data, bom), " \t\r\n")
	if len(t) > 0 && t[0] == '{' {
		var head map[string]json.RawMessage
		if json.Unmarshal(t, &head) != nil {
			return Document // let the document reader say what is wrong
		}
		switch {
		case head["schema"] != nil:
			return Document
		case head["traceEvents"] != nil:
			return TraceEvents
		case head["results"] != nil:
			return Hyperfine
		}
		return Document
	}
	if looksLikeGoBench(data) {
		return GoBench
	}
	return Unknown
}

// Read reads a result document, a hyperfine JSON export or Go benchmark
// output from data (of file name) as a document. Trace-event files are
// not documents: it refuses them (the caller draws them).
func Read(data []byte, name string) (*result.Document, error) {
	switch Detect(data) {
	case Hyperfine:
		return readHyperfine(data, name)
	case GoBench:
		return ReadGoBench(bytes.NewReader(data), name)
	case TraceEvents:
		return nil, fmt.Errorf("input: %s is a trace dump, not a result document: chrono trace summarizes it, and chrono report --html draws its timeline", name)
	case Unknown:
		d, err := result.Unmarshal(data)
		if err != nil && !bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) && len(bytes.TrimSpace(data)) > 0 {
			return nil, fmt.Errorf("%w; chrono report reads result documents, hyperfine JSON exports (--export-json) and Go benchmark output (go test -bench)", err)
		}
		return d, err
	}
	return result.Unmarshal(data)
}

// readHyperfine reads a hyperfine JSON export (--export-json) named name
// into a command document (result.Unmarshal recognizes the export and
// converts it: see there for the figures it keeps).
func readHyperfine(data []byte, name string) (*result.Document, error) {
	d, err := result.Unmarshal(bytes.TrimPrefix(data, bom))
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, name)
	}
	if d.Tool.Name != "hyperfine" {
		return nil, fmt.Errorf("input: %s is a chronograph document, not a hyperfine JSON export", name)
	}
	return d, nil
}
