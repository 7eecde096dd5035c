package run

import (
	"strings"
)

// Split splits a command line into words by the quoting rules of the POSIX
// shell, without any expansion. It is what -N (no shell) uses:
//
//   - Blanks (space, tab, newline) separate words.
//   - Outside quotes, a backslash takes the next character literally; a
//     backslash before a newline joins the lines.
//   - 'single quotes' take everything literally up to the next single quote.
//   - "double quotes" take everything literally except that a backslash
//     before $ ` " \ or a newline escapes it (other backslashes are kept).
//   - Adjacent quoted and unquoted parts form one word: a'b c'"d" is "ab cd".
//   - Nothing is expanded: no variables, globs (*, ?), tildes or command
//     substitution. An unquoted shell operator (| & ; < > ( ) $ `) is an
//     error, because without a shell it would silently become a literal
//     argument: quote it, or use a shell (drop -N).
//
// Split returns an error for an unterminated quote or a trailing backslash.
func Split(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			if i+1 >= len(rs) {
				return nil, usagef("run: %q ends with a backslash: escape it as \\\\ or quote it", s)
			}
			i++
			if rs[i] == '\n' {
				continue // line continuation
			}
			cur.WriteRune(rs[i])
			inWord = true
		case c == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j >= len(rs) {
				return nil, usagef("run: unterminated single quote in %q: close it with '", s)
			}
			cur.WriteString(string(rs[i+1 : j]))
			inWord = true
			i = j
		case c == '"':
			j := i + 1
			closed := false
			for ; j < len(rs); j++ {
				d := rs[j]
				if d == '"' {
					closed = true
					break
				}
				if d == '\\' && j+1 < len(rs) {
					switch rs[j+1] {
					case '$', '`', '"', '\\':
						cur.WriteRune(rs[j+1])
						j++
						continue
					case '\n':
						j++
						continue
					}
				}
				cur.WriteRune(d)
			}
			if !closed {
				return nil, usagef("run: unterminated double quote in %q: close it with \"", s)
			}
			inWord = true
			i = j
		case strings.ContainsRune("|&;<>()$`", c):
			return nil, usagef("run: %q contains the unquoted shell operator %q, which is not interpreted without a shell: quote it to pass it literally, or drop -N to run the command through a shell", s, string(c))
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// Quote returns s quoted for a POSIX shell when it needs quoting, so that
// Split(Quote(s)) gives back s as one word. It is used to display argument
// lists.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./=:,+@%^", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join quotes each word with Quote and joins them with spaces.
func Join(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}
