package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"

	"github.com/chronograph/chronograph/internal/excerpt"
	"github.com/chronograph/chronograph/internal/outfile"
)

// Encode writes d as indented JSON to w.
func Encode(w io.Writer, d *Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		var uv *json.UnsupportedValueError
		if errors.As(err, &uv) {
			return fmt.Errorf("result: a figure is %s, which JSON cannot hold: leave a figure that was not measured out instead of storing it: %w", uv.Str, err)
		}
		return fmt.Errorf("result: encoding document: %w", err)
	}
	return nil
}

// WriteFile writes d to path through the one writer of files: a regular
// file atomically (a temporary file in the same directory, synced and
// renamed over path, so an interrupted write never leaves half a
// document), a symbolic link's target, a device, FIFO or /dev/fd/N in
// place. path "-" writes to standard output.
func WriteFile(path string, d *Document) error {
	if path == "-" {
		return Encode(os.Stdout, d)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, d); err != nil {
		return err
	}
	return outfile.WriteBytes(path, buf.Bytes())
}

// Decode reads and validates a document from r.
func Decode(r io.Reader) (*Document, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("result: reading document: %w", err)
	}
	return Unmarshal(data)
}

// Unmarshal parses and validates a document. It rejects data that is not a
// chronograph result document, and documents of a newer schema version
// than this package knows, saying which version is needed. A hyperfine
// JSON export (an object with "results" and no "schema") is read as a
// command document (see HyperfineExport).
func Unmarshal(data []byte) (*Document, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // a byte order mark some editors add
	if err := objectStart(data); err != nil {
		return nil, err
	}
	var head struct {
		Schema  *string `json:"schema"`
		Version *int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) { // JSON, with a schema or version of the wrong type
			return nil, fmt.Errorf("result: malformed result document: %w", clipped{jsonError(err)})
		}
		return nil, fmt.Errorf("result: not a JSON result document: %w", clipped{jsonError(err)})
	}
	if head.Schema == nil && isHyperfine(data) {
		d, err := fromHyperfine(data)
		if err == nil {
			err = d.validate()
		}
		if err != nil {
			return nil, err
		}
		return d, nil
	}
	if head.Schema == nil || *head.Schema != Schema {
		return nil, errors.New(`result: not a chronograph result document (no "schema": "` + Schema + `" field); pass a file written by chrono's --json/--export-json`)
	}
	if head.Version == nil || *head.Version < 1 {
		return nil, errors.New(`result: result document has no valid "version" field`)
	}
	if *head.Version > Version {
		return nil, fmt.Errorf("result: document has schema version %d, newer than this chrono understands (%d); upgrade chrono", *head.Version, Version)
	}
	var d *Document
	if *head.Version == 1 {
		var old documentV1
		if err := json.Unmarshal(data, &old); err != nil {
			return nil, fmt.Errorf("result: malformed result document (version 1): %w", clipped{jsonError(err)})
		}
		d = old.upgrade()
	} else {
		d = new(Document)
		if err := json.Unmarshal(data, d); err != nil {
			return nil, fmt.Errorf("result: malformed result document: %w", clipped{jsonError(err)})
		}
	}
	if err := d.validate(); err != nil {
		return nil, err
	}
	return d, nil
}

// objectStart says, in one line, why data cannot be a document when it
// does not hold a JSON object: a document is one object.
func objectStart(data []byte) error {
	t := bytes.TrimLeft(data, " \t\r\n")
	const fix = "pass a file written by chrono's --json/--export-json"
	switch {
	case len(t) == 0:
		return errors.New("result: the input is empty, not a result document: " + fix)
	case t[0] == '{':
		return nil
	case t[0] == '[':
		return errors.New(`result: the input is a JSON array, not a result document (one JSON object with "schema": "` + Schema + `"): pass one document, e.g. one element of the array`)
	}
	n := min(len(t), 16)
	return fmt.Errorf("result: the input is not a JSON object (it starts with %q), so not a result document: %s", t[:n], fix)
}

// jsonError rewords the decoder's type errors in the schema's terms (a
// field and the JSON it should hold) instead of Go's type names.
func jsonError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	want := "a different JSON type"
	switch te.Type.Kind() {
	case reflect.Bool:
		want = "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		want = "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		want = "an integer of 0 or more"
	case reflect.Float32, reflect.Float64:
		want = "a number"
	case reflect.String:
		want = "a string"
	case reflect.Slice, reflect.Array:
		want = "an array"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		want = "an object"
	}
	field := te.Field
	if field == "" {
		field = "the document"
	}
	return fmt.Errorf("field %q holds a JSON %s where the schema wants %s (at byte %d)", field, te.Value, want, te.Offset)
}

// clipped is an error of encoding/json or package time, whose text can
// quote the input at any length (a number literal, a timestamp): its
// text is clipped to one short line (excerpt.Clip).
type clipped struct{ err error }

func (e clipped) Error() string { return excerpt.Clip(e.err.Error()) }
func (e clipped) Unwrap() error { return e.err }

// ReadFile reads and validates the document at path ("-" = standard input).
func ReadFile(path string) (*Document, error) {
	if path == "-" {
		return Decode(os.Stdin)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("result: %w", err)
	}
	d, err := Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return d, nil
}
