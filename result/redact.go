package result

import (
	"encoding/json"
	"os"
	"os/user"
	"regexp"
	"slices"
	"strings"
)

// Placeholders that Redact writes.
const (
	redactedHost    = "<host>"
	redactedUser    = "<user>"
	redactedHome    = "<home>"
	redactedCmdline = "<redacted>"
)

// Redact replaces what identifies the machine and its users in d, for a
// document that will be pasted into an issue or a CI log: the host name
// (everywhere it appears), the names of the current user and of the users
// whose home directories appear (as whole words), home directory paths,
// and the kernel command line (which holds boot parameters of the host).
// The placeholders are stable, so redacted documents still compare.
func Redact(d *Document) {
	r := newRedactor(d)
	// Walk every string of the document through its JSON form, so that
	// no field is forgotten as the schema grows.
	data, err := json.Marshal(d)
	if err != nil {
		return
	}
	var tree any
	if json.Unmarshal(data, &tree) != nil {
		return
	}
	tree = r.walk(tree)
	if data, err = json.Marshal(tree); err != nil {
		return
	}
	var out Document
	if json.Unmarshal(data, &out) != nil {
		return
	}
	if out.Environment != nil && out.Environment.System.Cmdline != "" {
		out.Environment.System.Cmdline = redactedCmdline
	}
	*d = out
}

type redactor struct {
	homes []string // longest first
	words *regexp.Regexp
	host  string
}

var homeRe = regexp.MustCompile(`(?:/home|/Users|/var/home)/([A-Za-z0-9._-]+)`)

func newRedactor(d *Document) *redactor {
	r := &redactor{}
	if d.Environment != nil {
		r.host = d.Environment.System.Hostname
	}
	if r.host == "" {
		r.host, _ = os.Hostname()
	}
	var names []string
	if u, err := user.Current(); err == nil {
		names = append(names, u.Username)
		if u.HomeDir != "" && u.HomeDir != "/" {
			r.homes = append(r.homes, u.HomeDir)
		}
	}
	if v := os.Getenv("USER"); v != "" {
		names = append(names, v)
	}
	if h, err := os.UserHomeDir(); err == nil && h != "/" {
		r.homes = append(r.homes, h)
	}
	// Users whose home directories appear in the document.
	if data, err := json.Marshal(d); err == nil {
		for _, m := range homeRe.FindAllStringSubmatch(string(data), -1) {
			names = append(names, m[1])
		}
	}
	slices.SortFunc(r.homes, func(a, b string) int { return len(b) - len(a) })
	var quoted []string
	for _, n := range names {
		if len(n) >= 2 {
			quoted = append(quoted, regexp.QuoteMeta(n))
		}
	}
	if len(quoted) > 0 {
		r.words = regexp.MustCompile(`\b(?:` + strings.Join(quoted, "|") + `)\b`)
	}
	return r
}

func (r *redactor) walk(v any) any {
	switch x := v.(type) {
	case string:
		return r.text(x)
	case []any:
		for i := range x {
			x[i] = r.walk(x[i])
		}
	case map[string]any:
		for k, e := range x {
			x[k] = r.walk(e)
		}
	}
	return v
}

func (r *redactor) text(s string) string {
	for _, h := range r.homes {
		s = strings.ReplaceAll(s, h, redactedHome)
	}
	s = homeRe.ReplaceAllString(s, redactedHome)
	if r.host != "" && len(r.host) >= 2 {
		s = strings.ReplaceAll(s, r.host, redactedHost)
	}
	if r.words != nil {
		s = r.words.ReplaceAllString(s, redactedUser)
	}
	return s
}
