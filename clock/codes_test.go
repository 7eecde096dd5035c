package clock

import (
	"os"
	"strings"
	"testing"
)

// TestCodesDocumented: every warning and note code a survey can carry is
// named in the clocks section of docs/result-schema.md (the codes are
// unexported here; documents and their readers match them as strings).
func TestCodesDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/result-schema.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "## Kind `clocks`")
	if !ok {
		t.Fatal("docs/result-schema.md has no section for kind clocks")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	for _, code := range []string{warnTSCDisagrees, warnTSCNotInvariant, warnVDSOFallback, warnClocksource, warnSteppedBack,
		noteTSCIsClocksource, noteUnorderedCounter} {
		if !strings.Contains(sec, "`"+code+"`") {
			t.Errorf("code %q is not named in the clocks section of docs/result-schema.md", code)
		}
	}
}
