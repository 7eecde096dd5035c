package result

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/stats"
)

// schemaDoc is the page that documents the result document.
const schemaDoc = "../docs/result-schema.md"

// jsonField is one JSON field of a Go struct type, met at Path while
// walking the document's type.
type jsonField struct {
	Owner reflect.Type // the struct type that declares the field
	Name  string       // the field's JSON name
	Path  string       // e.g. "measurements[].detail.clock.steps.tick_ns"
	Type  reflect.Type // the field's Go type
}

var timeType = reflect.TypeFor[time.Time]()

// walkedAsStruct lists the types that marshal themselves but whose JSON
// object has the same field names as their struct (they only write some
// figures as null): the walk enters them. Any other json.Marshaler or
// json.Unmarshaler met in the walk fails the test, since its JSON shape
// cannot be read from its fields.
var walkedAsStruct = map[reflect.Type]bool{
	reflect.TypeFor[stats.Summary](): true,
}

// leafTypes marshal themselves as a JSON number or string.
var leafTypes = map[reflect.Type]bool{
	reflect.TypeFor[Float](): true, // hyperfine's export: a number or null
}

var (
	marshalerType   = reflect.TypeFor[json.Marshaler]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// jsonFields walks t as encoding/json sees it (pointers, slices, arrays,
// maps' values, embedded structs; time.Time as a leaf) and returns every
// JSON field of every struct reached, with the path it was first met at.
// A struct type met again below itself is not walked again.
func jsonFields(t testing.TB, root reflect.Type, rootPath string) []jsonField {
	t.Helper()
	var out []jsonField
	var walk func(typ reflect.Type, path string, seen map[reflect.Type]bool)
	walk = func(typ reflect.Type, path string, seen map[reflect.Type]bool) {
		for typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		if typ == timeType || leafTypes[typ] {
			return
		}
		if !walkedAsStruct[typ] && (typ.Implements(marshalerType) || reflect.PointerTo(typ).Implements(marshalerType) ||
			reflect.PointerTo(typ).Implements(unmarshalerType)) {
			t.Errorf("%s (%s) marshals itself: teach jsonFields its JSON shape", path, typ)
			return
		}
		switch typ.Kind() {
		case reflect.Slice, reflect.Array:
			if typ.Elem().Kind() == reflect.Uint8 {
				return // []byte is a base64 string
			}
			walk(typ.Elem(), path+"[]", seen)
		case reflect.Map:
			walk(typ.Elem(), path+"{}", seen)
		case reflect.Interface:
			t.Errorf("%s is an interface (%s): the schema cannot say what it holds; use a typed field", path, typ)
		case reflect.Struct:
			if seen[typ] {
				return
			}
			seen = withType(seen, typ)
			for _, f := range structFields(typ) {
				p := f.Name
				if path != "" {
					p = path + "." + f.Name
				}
				f.Path = p
				out = append(out, f)
				walk(f.Type, p, seen)
			}
		}
	}
	walk(root, rootPath, map[reflect.Type]bool{})
	return out
}

// withType returns a copy of seen with typ added.
func withType(seen map[reflect.Type]bool, typ reflect.Type) map[reflect.Type]bool {
	c := make(map[reflect.Type]bool, len(seen)+1)
	for k := range seen {
		c[k] = true
	}
	c[typ] = true
	return c
}

// structFields returns the JSON fields of struct type typ, with embedded
// structs' fields promoted as encoding/json promotes them.
func structFields(typ reflect.Type) []jsonField {
	var out []jsonField
	for i := range typ.NumField() {
		sf := typ.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := sf.Type
		if sf.Anonymous && name == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, structFields(et)...)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		out = append(out, jsonField{Owner: typ, Name: name, Type: ft})
	}
	return out
}

// docSection is a "## " section of the schema page.
type docSection struct {
	Heading string
	Text    string
}

var codeSpan = regexp.MustCompile("`([^`]+)`")
var fieldToken = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// backticked returns every identifier written inside backticks in text.
func backticked(text string) map[string]bool {
	names := map[string]bool{}
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		for _, tok := range fieldToken.FindAllString(m[1], -1) {
			names[tok] = true
		}
	}
	return names
}

// readSchemaDoc returns the sections of the schema page.
func readSchemaDoc(t testing.TB) []docSection {
	data, err := os.ReadFile(schemaDoc)
	if err != nil {
		t.Fatal(err)
	}
	var secs []docSection
	cur := docSection{Heading: "(preamble)"}
	for line := range strings.Lines(string(data)) {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			secs = append(secs, cur)
			cur = docSection{Heading: strings.TrimSpace(h)}
			continue
		}
		cur.Text += line
	}
	return append(secs, cur)
}

// kindSections maps the key of KindRun and KindDetail to the kind whose
// section documents it.
var kindSections = map[string]string{"clock": KindClocks}

// sectionFor returns the sections of the page where the field at path
// must be documented: the kind's own section for a document's "run.KIND"
// and a measurement's "detail.KIND", "Environment" for the environment,
// else the general sections (those before the first kind).
func sectionFor(secs []docSection, path string) []docSection {
	var kind string
	switch {
	case strings.HasPrefix(path, "run."):
		kind, _, _ = strings.Cut(strings.TrimPrefix(path, "run."), ".")
	case strings.HasPrefix(path, "measurements[].detail."):
		kind, _, _ = strings.Cut(strings.TrimPrefix(path, "measurements[].detail."), ".")
	case strings.HasPrefix(path, "environment."):
		for _, s := range secs {
			if s.Heading == "Environment" {
				return []docSection{s}
			}
		}
		return nil
	case strings.HasPrefix(path, "hyperfine."):
		kind = KindCommand
	}
	if kind == "" || path == "run" || path == "measurements[].detail" {
		var general []docSection
		for _, s := range secs {
			if strings.HasPrefix(s.Heading, "Kind") {
				break
			}
			general = append(general, s)
		}
		return general
	}
	if k, ok := kindSections[kind]; ok {
		kind = k
	}
	var out []docSection
	for _, s := range secs {
		if strings.HasPrefix(s.Heading, "Kind") && strings.Contains(s.Heading, "`"+kind+"`") {
			out = append(out, s)
		}
	}
	return out
}

// documentFields is every JSON field a chronograph document can hold, and
// of hyperfine's export, which chrono also writes (its paths start with
// "hyperfine.").
func documentFields(t testing.TB) []jsonField {
	fields := jsonFields(t, reflect.TypeFor[Document](), "")
	return append(fields, jsonFields(t, reflect.TypeFor[HyperfineExport](), "hyperfine")...)
}

// TestSchemaDocNamesEveryField: every JSON field of result.Document (and
// of every type it holds: env.Host, stats.Summary, warn.Warning, the
// kinds' details) is named in backticks on docs/result-schema.md, in the
// section that documents its part of the document: the general sections
// for the common fields, "Environment" for environment.*, and the kind's
// own section for run.KIND.* and measurements[].detail.KIND.*. A type
// used in several places (e.g. the sleep and latency runs' conditions)
// needs to be documented in one of them.
func TestSchemaDocNamesEveryField(t *testing.T) {
	secs := readSchemaDoc(t)
	type key struct {
		owner reflect.Type
		name  string
	}
	documented := map[key]bool{}
	first := map[key]jsonField{}
	var order []key
	for _, f := range documentFields(t) {
		k := key{f.Owner, f.Name}
		if _, ok := first[k]; !ok {
			first[k] = f
			order = append(order, k)
		}
		for _, s := range sectionFor(secs, f.Path) {
			if backticked(s.Text)[f.Name] {
				documented[k] = true
			}
		}
	}
	for _, k := range order {
		if !documented[k] {
			f := first[k]
			var heads []string
			for _, s := range sectionFor(secs, f.Path) {
				heads = append(heads, fmt.Sprintf("%q", s.Heading))
			}
			t.Errorf("%s: field %s (%s.%s) is not named in backticks in %s of %s", f.Path, f.Name, f.Owner, goFieldName(f), strings.Join(heads, ", "), schemaDoc)
		}
	}
}

func goFieldName(f jsonField) string {
	for i := range f.Owner.NumField() {
		sf := f.Owner.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == f.Name || name == "" && sf.Name == f.Name {
			return sf.Name
		}
	}
	return f.Name
}

// TestSchemaDocTablesNameFields: every name in the first column of a
// field table of docs/result-schema.md (a table whose first header is
// "field") is a JSON field of a type documented in that section, so the
// page cannot keep a field that was removed or renamed.
func TestSchemaDocTablesNameFields(t *testing.T) {
	secs := readSchemaDoc(t)
	known := map[string]map[string]bool{} // section heading -> field names
	for _, f := range documentFields(t) {
		for _, s := range sectionFor(secs, f.Path) {
			if known[s.Heading] == nil {
				known[s.Heading] = map[string]bool{}
			}
			known[s.Heading][f.Name] = true
		}
	}
	tables := 0
	for _, s := range secs {
		inField := false
		for line := range strings.Lines(s.Text) {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "|") {
				inField = false
				continue
			}
			cells := strings.Split(strings.Trim(line, "|"), "|")
			first := strings.TrimSpace(cells[0])
			switch {
			case first == "field":
				inField = true
				tables++
				continue
			case strings.HasPrefix(first, "---"), !inField:
				continue
			}
			spans := codeSpan.FindAllStringSubmatch(first, -1)
			if len(spans) == 0 {
				t.Errorf("%q: field table row %q names no field in backticks", s.Heading, line)
			}
			for _, m := range spans {
				for _, name := range strings.Split(m[1], ".") {
					if !known[s.Heading][name] {
						t.Errorf("%q: the table documents `%s`, which is not a JSON field of any type documented in this section", s.Heading, m[1])
					}
				}
			}
		}
	}
	if tables < 10 {
		t.Errorf("found %d field tables in %s: has the page's table layout changed?", tables, schemaDoc)
	}
}

// staleExamples are committed examples known not to decode strictly,
// with the reason. Each must still fail (so that the entry is removed once
// the file is written again by today's chrono); the report package's
// golden tests read them, so they are replaced together with those.
var staleExamples = map[string]string{}

// strictDocuments are the committed chronograph documents: one of every
// kind in both versions (testdata/documents, kept by TestSeedDocuments)
// and the examples of docs/examples that are result documents.
func strictDocuments(t *testing.T) map[string][]byte {
	docs := map[string][]byte{}
	for _, pattern := range []string{"testdata/documents/*.json", "../docs/examples/*.json"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var head struct {
				Schema string `json:"schema"`
			}
			if json.Unmarshal(data, &head) != nil || head.Schema != Schema {
				continue // a hyperfine export, a Chrome trace
			}
			docs[f] = data
		}
	}
	return docs
}

// TestStrictDecodeCommittedDocuments: every committed document (one of
// every kind in both schema versions, and the documentation's examples)
// is accepted by Unmarshal and then decodes strictly, unknown fields
// rejected: into Document for version 2, into the version 1 types for
// version 1 (whose measurements' "details" were untyped). Strictness
// reaches inside stats.Summary, which decodes itself, by a second walk
// of the JSON beside the Go type.
func TestStrictDecodeCommittedDocuments(t *testing.T) {
	docs := strictDocuments(t)
	kinds := map[int]map[string]bool{1: {}, 2: {}}
	for path, data := range docs {
		if _, err := Unmarshal(data); err != nil {
			t.Errorf("%s: Unmarshal: %v", path, err)
			continue
		}
		var head struct {
			Version int    `json:"version"`
			Kind    string `json:"kind"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			t.Fatal(err)
		}
		var target any = new(Document)
		if head.Version == 1 {
			target = new(documentV1)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err := dec.Decode(target)
		if why, stale := staleExamples[path]; stale {
			if err == nil {
				t.Errorf("%s decodes strictly now: remove it from staleExamples", path)
			} else {
				t.Logf("%s: known stale (%s): %v", path, why, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: strict decoding (version %d, kind %s): %v", path, head.Version, head.Kind, err)
			continue
		}
		var raw any
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		for _, e := range unknownFields(raw, reflect.TypeOf(target).Elem(), "") {
			t.Errorf("%s: %s", path, e)
		}
		if kinds[head.Version] != nil {
			kinds[head.Version][head.Kind] = true
		}
	}
	for _, kind := range []string{KindCommand, KindCounters, KindFunction, KindSleep, KindLatency, KindClocks, KindNumbers, KindEnv, KindTrace, KindScope} {
		for v, seen := range kinds {
			if !seen[kind] {
				t.Errorf("no committed version %d document of kind %s was decoded strictly", v, kind)
			}
		}
	}
}

// unknownFields walks decoded JSON v beside the Go type typ and returns
// every object key that is not a JSON field of the struct at that place.
// Unlike DisallowUnknownFields it also sees inside types that decode
// themselves (walkedAsStruct).
func unknownFields(v any, typ reflect.Type, path string) []string {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	var out []string
	switch x := v.(type) {
	case map[string]any:
		switch typ.Kind() {
		case reflect.Map:
			for k, e := range x {
				out = append(out, unknownFields(e, typ.Elem(), path+"."+k)...)
			}
		case reflect.Struct:
			if typ == timeType {
				return []string{path + ": an object where a time is wanted"}
			}
			fields := map[string]reflect.Type{}
			for _, f := range structFields(typ) {
				fields[f.Name] = f.Type
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				ft, ok := fields[k]
				if !ok {
					out = append(out, fmt.Sprintf("%s: unknown field %q (not in %s)", path, k, typ))
					continue
				}
				out = append(out, unknownFields(x[k], ft, path+"."+k)...)
			}
		case reflect.Interface:
		default:
			out = append(out, fmt.Sprintf("%s: an object where %s is wanted", path, typ))
		}
	case []any:
		if typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array {
			for i, e := range x {
				out = append(out, unknownFields(e, typ.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	return out
}

// TestJSONFieldsWalk: the walk sees what encoding/json writes: tagged and
// untagged fields, embedded structs' fields promoted, the elements of
// pointers, slices and maps, time.Time as a leaf, and nothing tagged "-"
// or unexported.
func TestJSONFieldsWalk(t *testing.T) {
	type inner struct {
		X int `json:"x"`
	}
	type Embedded struct {
		E int `json:"e,omitempty"`
	}
	type outer struct {
		Embedded
		A      *inner            `json:"a,omitempty"`
		B      []inner           `json:"b"`
		M      map[string]*inner `json:"m"`
		T      time.Time         `json:"t"`
		Plain  int
		Hidden int `json:"-"`
		hidden int
	}
	_ = outer{}.hidden
	var got []string
	for _, f := range jsonFields(t, reflect.TypeFor[outer](), "") {
		got = append(got, f.Path)
	}
	want := []string{"e", "a", "a.x", "b", "b[].x", "m", "m{}.x", "t", "Plain"}
	if !slices.Equal(got, want) {
		t.Errorf("paths %q, want %q", got, want)
	}
}

// warningCodePatterns find the warning codes written in the module's
// source: the first argument of warn.New and warn.NewNote, env's
// add(warn.Warn/Note, code, ...), and the warning code constants
// (warnX/WarnX/noteX/NoteX = "code").
var warningCodePatterns = []*regexp.Regexp{
	regexp.MustCompile(`warn\.(?:New|NewNote)\(\s*"([a-z0-9-]+)"`),
	regexp.MustCompile(`add\(warn\.(?:Warn|Note),\s*"([a-z0-9-]+)"`),
	regexp.MustCompile(`(?m)^\s*(?:const\s+)?(?:[Ww]arn|[Nn]ote)[A-Z]\w*\s*=\s*"([a-z0-9-]+)"`),
	regexp.MustCompile(`\bcode\s*:?=\s*"([a-z0-9-]+)"`),
	regexp.MustCompile(`\bCode:\s*"([a-z0-9-]+)"`),
}

// TestSchemaDocListsWarningCodes: every warning code the module's code
// writes is listed (in backticks) in the Warning section of
// docs/result-schema.md, so that programs that match codes can find them
// all in one place.
func TestSchemaDocListsWarningCodes(t *testing.T) {
	listed := map[string]bool{}
	for _, sec := range readSchemaDoc(t) {
		if sec.Heading == "Warning" {
			for _, m := range codeSpan.FindAllStringSubmatch(sec.Text, -1) {
				listed[m[1]] = true
			}
		}
	}
	if len(listed) == 0 {
		t.Fatalf("%s has no Warning section with codes", schemaDoc)
	}
	found := 0
	err := filepath.WalkDir("..", func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if n := e.Name(); n == "testdata" || n == "examples" || (strings.HasPrefix(n, ".") && path != "..") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, re := range warningCodePatterns {
			for _, m := range re.FindAllSubmatch(src, -1) {
				found++
				if code := string(m[1]); !listed[code] {
					t.Errorf("%s writes the warning code %q, which the Warning section of %s does not list", path, code, schemaDoc)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 50 {
		t.Errorf("found %d warning codes in the source: the patterns no longer match how codes are written", found)
	}
}
