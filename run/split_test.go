package run

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{in: "", want: nil},
		{in: "   ", want: nil},
		{in: "true", want: []string{"true"}},
		{in: "  sleep\t0.1 \n", want: []string{"sleep", "0.1"}},
		{in: `echo 'a b'  "c d"`, want: []string{"echo", "a b", "c d"}},
		{in: `a'b c'"d"e`, want: []string{"ab cde"}},
		{in: `echo ''`, want: []string{"echo", ""}},
		{in: `echo ""`, want: []string{"echo", ""}},
		{in: `echo a\ b`, want: []string{"echo", "a b"}},
		{in: `echo \'`, want: []string{"echo", "'"}},
		{in: "echo a\\\nb", want: []string{"echo", "ab"}},
		{in: `echo "a\"b"`, want: []string{"echo", `a"b`}},
		{in: `echo "a\$b\\c\d"`, want: []string{"echo", `a$b\c\d`}},
		{in: `echo 'a\b'`, want: []string{"echo", `a\b`}},
		{in: `awk '{print $1}'`, want: []string{"awk", "{print $1}"}},
		{in: `echo "it's"`, want: []string{"echo", "it's"}},
		{in: `grep -e "x|y" f`, want: []string{"grep", "-e", "x|y", "f"}},
		{in: `echo \;`, want: []string{"echo", ";"}},
		{in: `ls *.go ~`, want: []string{"ls", "*.go", "~"}},
		{in: `echo 'héllo wörld'`, want: []string{"echo", "héllo wörld"}},
		{in: `echo 'abc`, wantErr: "unterminated single quote"},
		{in: `echo "abc`, wantErr: "unterminated double quote"},
		{in: `echo abc\`, wantErr: "ends with a backslash"},
		{in: `sleep 1; sleep 2`, wantErr: `unquoted shell operator ";"`},
		{in: `cat f | wc`, wantErr: `"|"`},
		{in: `echo $HOME`, wantErr: `"$"`},
		{in: "echo `date`", wantErr: "`"},
		{in: `cmd > out`, wantErr: `">"`},
		{in: `cmd &`, wantErr: `"&"`},
	}
	for _, tt := range tests {
		got, err := splitCommand(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Split(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Split(%q) error: %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Split(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestQuoteRoundTrip(t *testing.T) {
	words := []string{"plain", "", "a b", "it's", `back\slash`, `"dq"`, "$HOME", "semi;colon", "tab\there", "ünï", "x|y"}
	line := joinWords(words)
	got, err := splitCommand(line)
	if err != nil {
		t.Fatalf("Split(Join(%q)) = error %v (line %s)", words, err, line)
	}
	if !reflect.DeepEqual(got, words) {
		t.Fatalf("Split(Join(words)) = %q, want %q (line %s)", got, words, line)
	}
	if quoteWord("plain") != "plain" {
		t.Errorf("Quote(plain) = %q, want it unquoted", quoteWord("plain"))
	}
}
