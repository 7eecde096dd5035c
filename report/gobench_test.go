package report

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/result/input"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// benchstatTestdata is golang.org/x/perf's cmd/benchstat/testdata in the
// module cache ("" when the module's source is not there).
func benchstatTestdata(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/perf").Output()
	if err != nil {
		return ""
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "cmd", "benchstat", "testdata")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// TestBenchstatAgreement reads the Go benchmark files of benchstat's own
// test data and compares, for every benchmark and unit benchstat shows,
// chrono's center (the median of the runs) and significance verdict
// (Mann-Whitney U, p ≤ 0.05) with benchstat's, computed by the package
// benchstat uses (golang.org/x/perf/benchmath, AssumeNothing: the same
// median, and the U test of go-moremath). It also checks benchstat's
// committed output for old.txt against new.txt (csvOldNew.stdout). Run
// with -v for the table.
//
// The verdict of chrono report's comparison also needs the bootstrap
// interval of the ratio to exclude 1; where that makes it differ from
// the test alone the table says so.
func TestBenchstatAgreement(t *testing.T) {
	dir := benchstatTestdata(t)
	if dir == "" {
		t.Skip("skipped: golang.org/x/perf's source is not in the module cache (go mod download golang.org/x/perf)")
	}
	read := func(name string) *result.Document {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		d, err := input.ReadGoBench(f, name)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-44s %-7s %14s %14s %10s %10s %-9s %-9s %s\n", "benchmark (files)", "unit", "center chrono", "benchstat", "p chrono", "benchstat", "verdict", "benchstat", "chrono report")
	agreeCenters, agreeVerdicts, rows := 0, 0, 0
	for _, pair := range [][2]string{{"old.txt", "new.txt"}, {"crc-old.txt", "crc-new.txt"}} {
		old, cur := read(pair[0]), read(pair[1])
		for _, metric := range []string{"wall", "B/s"} {
			changes := compare.Documents(old, cur, true).Changes
			for _, c := range changes {
				if c.Metric != metric {
					continue
				}
				ov, nv := c.OldMetric.Values, c.NewMetric.Values
				factor := 1.0
				if metric == "wall" {
					factor = 1e-9 // benchstat's sec/op
				}
				scale := func(xs []float64) []float64 {
					out := make([]float64, len(xs))
					for i, x := range xs {
						out[i] = x * factor
					}
					return out
				}
				so := benchmath.NewSample(scale(ov), &benchmath.DefaultThresholds)
				sn := benchmath.NewSample(scale(nv), &benchmath.DefaultThresholds)
				bo := benchmath.AssumeNothing.Summary(so, stats.Confidence).Center / factor
				bn := benchmath.AssumeNothing.Summary(sn, stats.Confidence).Center / factor
				bc := benchmath.AssumeNothing.Compare(so, sn)
				rows++
				centersAgree := closeTo(c.Old, bo) && closeTo(c.New, bn)
				if centersAgree {
					agreeCenters++
				} else {
					t.Errorf("%s %s: centers %v, %v; benchstat %v, %v", c.Measurement, metric, c.Old, c.New, bo, bn)
				}
				ours := c.Err == nil && c.MannWhitney.P <= stats.Alpha
				theirs := bc.P <= bc.Alpha
				verdict := func(sig bool) string {
					if sig {
						return "changed"
					}
					return "~"
				}
				note := ""
				if c.Significant != ours {
					note = "~ (interval includes 1)"
				}
				if ours == theirs {
					agreeVerdicts++
				} else {
					note += " DIFFERS"
				}
				name := c.Measurement
				if len(name) > 34 {
					name = name[:34]
				}
				fmt.Fprintf(&table, "%-44s %-7s %14s %14s %10s %10s %-9s %-9s %s\n", name+" ("+strings.TrimSuffix(pair[0], ".txt")+")", metric,
					strconv.FormatFloat(c.New, 'g', 6, 64), strconv.FormatFloat(bn, 'g', 6, 64), unit.PValue(c.MannWhitney.P), unit.PValue(bc.P), verdict(ours), verdict(theirs), note)
			}
		}
	}
	t.Logf("chrono report against benchstat (golang.org/x/perf/benchmath) on benchstat's test data: centers agree %d/%d, verdicts agree %d/%d\n%s",
		agreeCenters, rows, agreeVerdicts, rows, table.String())
	if rows == 0 {
		t.Fatal("no benchmark compared")
	}
	// Verdicts may differ only where the two U tests differ by design
	// (stats.MannWhitneyU: exact with ties, where x/perf approximates):
	// none does on these files.
	if agreeVerdicts != rows {
		t.Errorf("verdicts differ in %d of %d rows (see the table)", rows-agreeVerdicts, rows)
	}
	// benchstat's committed output for old.txt against new.txt.
	f, err := os.Open(filepath.Join(dir, "csvOldNew.stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	changes := compare.Documents(read("old.txt"), read("new.txt"), false).Changes
	seen := 0
	for _, rec := range recs {
		if len(rec) < 7 || !strings.HasPrefix(rec[0], "Encode/") {
			continue
		}
		for _, c := range changes {
			if c.Measurement != rec[0] {
				continue
			}
			seen++
			oc, _ := strconv.ParseFloat(rec[1], 64)
			nc, _ := strconv.ParseFloat(rec[3], 64)
			if !closeTo(c.Old, oc*1e9) || !closeTo(c.New, nc*1e9) {
				t.Errorf("%s: centers %v %v, benchstat printed %s %s", c.Measurement, c.Old, c.New, rec[1], rec[3])
			}
			if (rec[5] == "~") == (c.MannWhitney.P <= stats.Alpha) {
				t.Errorf("%s: p %v, benchstat printed %s %s", c.Measurement, c.MannWhitney.P, rec[5], rec[6])
			}
		}
	}
	if seen != 2 {
		t.Errorf("compared %d rows of csvOldNew.stdout, want 2", seen)
	}
}

// closeTo reports whether a and b agree to 1e-9 relative.
func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }
