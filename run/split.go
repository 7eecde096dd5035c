package run

import (
	"fmt"
	"strings"

	"github.com/chronograph/chronograph/internal/excerpt"
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
// Split returns an error for an unterminated quote, a trailing backslash
// or an unquoted operator; the error quotes at most a short prefix of the
// command, and the position of the problem in a long one. Split works on
// bytes, so a word that is not valid UTF-8 comes back unchanged
// (Split(Join(words)) == words for any words). It takes O(len(s)) time.
func splitCommand(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	// at names where a problem is: nowhere in a short command (it is
	// quoted whole), the byte offset in a long one.
	at := func(i int) string {
		if len(s) <= excerpt.Max {
			return ""
		}
		return fmt.Sprintf(" at byte %d", i)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			if i+1 >= len(s) {
				return nil, usagef("run: %s ends with a backslash: escape it as \\\\ or quote it", excerpt.Quote(s))
			}
			i++
			if s[i] == '\n' {
				continue // line continuation
			}
			cur.WriteByte(s[i])
			inWord = true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, usagef("run: unterminated single quote%s in %s: close it with '", at(i), excerpt.Quote(s))
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += 1 + j
		case c == '"':
			j := i + 1
			closed := false
			for ; j < len(s); j++ {
				d := s[j]
				if d == '"' {
					closed = true
					break
				}
				if d == '\\' && j+1 < len(s) {
					switch s[j+1] {
					case '$', '`', '"', '\\':
						cur.WriteByte(s[j+1])
						j++
						continue
					case '\n':
						j++
						continue
					}
				}
				cur.WriteByte(d)
			}
			if !closed {
				return nil, usagef("run: unterminated double quote%s in %s: close it with \"", at(i), excerpt.Quote(s))
			}
			inWord = true
			i = j
		case strings.IndexByte("|&;<>()$`", c) >= 0:
			return nil, usagef("run: %s contains the unquoted shell operator %q%s, which is not interpreted without a shell: quote it to pass it literally, or drop -N to run the command through a shell", excerpt.Quote(s), string(c), at(i))
		default:
			cur.WriteByte(c)
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
func quoteWord(s string) string {
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
func joinWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = quoteWord(w)
	}
	return strings.Join(q, " ")
}
