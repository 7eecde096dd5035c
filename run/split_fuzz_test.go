package run

import (
	"bufio"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// readmeCommands returns the command lines of the README's examples (the
// lines after "$ ") and the commands quoted in them: real commands, as
// users write them.
func readmeCommands(t testing.TB) []string {
	f, err := os.Open("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "$ "); ok {
			lines = append(lines, line)
			lines = append(lines, strings.Split(line, "'")[1:]...)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(lines) < 10 {
		t.Fatalf("found %d command lines in README.md", len(lines))
	}
	return lines
}

// checkUsageError checks that err is a usage error of one short line
// that starts with "run: ".
func checkUsageError(t *testing.T, err error, limit int) {
	t.Helper()
	var ue *UsageError
	msg := err.Error()
	if !errors.As(err, &ue) || !strings.HasPrefix(msg, "run: ") || strings.ContainsAny(msg, "\n\r") || len(msg) > limit {
		t.Fatalf("error is not a usage error of one line under %d bytes starting with \"run: \" (%d bytes): %.1000q", limit, len(msg), msg)
	}
}

// FuzzSplit: Split never panics; an error is a usage error of one short
// line; the words it returns come back from Split(Join(words)).
func FuzzSplit(f *testing.F) {
	for _, line := range readmeCommands(f) {
		f.Add(line)
	}
	for _, s := range []string{"", `a'b c'"d"e`, `echo "a\"b\$c\\d\e"`, "echo a\\\nb", `echo 'abc`, `echo "abc`, `x\`,
		"sleep 1; sleep 2", "\xff\xfe '\xff'", strings.Repeat("a", 100) + "|"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitCommand(s)
		if err != nil {
			checkUsageError(t, err, 600)
			return
		}
		for _, w := range words {
			if len(w) > len(s) {
				t.Fatalf("word %q is longer than the command %q", w, s)
			}
		}
		back, err := splitCommand(joinWords(words))
		if err != nil || !reflect.DeepEqual(back, words) {
			t.Fatalf("Split(Join(%q)) = %q, %v", words, back, err)
		}
	})
}

// FuzzQuote: for any words (the fuzzed string split at its first byte),
// Split(Join(words)) == words; Quote leaves a word alone only when it
// needs no quoting (it splits back to itself alone).
func FuzzQuote(f *testing.F) {
	f.Add(",plain,,a b,it's,back\\slash,\"dq\",$HOME,semi;colon,tab\there,ünï,x|y")
	f.Add("\x00a\x00\xff\xfe\x00'\x00\n")
	f.Add(" " + strings.Join(readmeCommands(f), " "))
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		words := strings.Split(s[1:], s[:1])
		line := joinWords(words)
		back, err := splitCommand(line)
		if err != nil || !reflect.DeepEqual(back, words) {
			t.Fatalf("Split(Join(%q)) = %q, %v (line %q)", words, back, err, line)
		}
		for _, w := range words {
			if q := quoteWord(w); q == w {
				if one, err := splitCommand(w); err != nil || len(one) != 1 || one[0] != w {
					t.Fatalf("Quote(%q) left it unquoted, but it splits into %q, %v", w, one, err)
				}
			}
		}
	})
}

// TestSplitErrorsAreShort: a 1 MB command with a mistake gets an error of
// one short line that says where the mistake is.
func TestSplitErrorsAreShort(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	for _, tt := range []struct{ in, want string }{
		{big + " '", "unterminated single quote at byte 1048577"},
		{big + ` "`, "unterminated double quote at byte 1048577"},
		{big + `\`, "ends with a backslash"},
		{big + " | wc", `unquoted shell operator "|" at byte 1048577`},
		{"a\n'b", "unterminated single quote in \"a\\n'b\""},
	} {
		_, err := splitCommand(tt.in)
		if err == nil {
			t.Errorf("Split(%.20q...) accepted", tt.in)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tt.want) || len(msg) > 400 || strings.Contains(msg, "\n") {
			t.Errorf("Split(%.20q...) error = %.500q, want one short line containing %q", tt.in, msg, tt.want)
		}
	}
}

// TestSplitKeepsBytes: a word that is not UTF-8 is kept byte for byte (it
// used to come back with U+FFFD in place of each bad byte).
func TestSplitKeepsBytes(t *testing.T) {
	got, err := splitCommand("cat '\xff\xfe' \xc3")
	if want := []string{"cat", "\xff\xfe", "\xc3"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Split = %q, %v; want %q", got, err, want)
	}
}
