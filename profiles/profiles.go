package profiles

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/internal/outfile"
)

// The sample types the Go compiler accepts as CPU time for PGO.
const (
	typeCPU     = "cpu"
	unitNanos   = "nanoseconds"
	typeSamples = "samples"
	unitCount   = "count"
)

// Read reads the profile in the file at path: pprof's protocol buffer,
// gzipped or not, or one of the legacy text formats pprof reads.
func Read(path string) (*profile.Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("profiles: %w", err)
	}
	p, err := profile.ParseData(data)
	if err != nil {
		return nil, fmt.Errorf("profiles: %s is not a profile pprof can read: %w", path, err)
	}
	return p, nil
}

// Parse reads a profile from r, as Read does.
func Parse(r io.Reader) (*profile.Profile, error) {
	p, err := profile.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("profiles: not a profile pprof can read: %w", err)
	}
	return p, nil
}

// Write writes p to path as a gzipped protocol buffer, the form
// runtime/pprof writes and `go build -pgo` reads, through chronograph's
// one file writer (atomically for a regular file).
func Write(path string, p *profile.Profile) error {
	if err := p.CheckValid(); err != nil {
		return fmt.Errorf("profiles: not writing an invalid profile to %s: %w", path, err)
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return fmt.Errorf("profiles: encoding %s: %w", path, err)
	}
	if err := outfile.WriteBytes(path, buf.Bytes()); err != nil {
		return fmt.Errorf("profiles: %w", err)
	}
	return nil
}

// valueIndex returns the index in p's sample values of the CPU time:
// "cpu"/"nanoseconds" if p has it, else "samples"/"count"; -1 if p has
// neither.
func valueIndex(p *profile.Profile) int {
	if i := typeIndex(p, typeCPU, unitNanos); i >= 0 {
		return i
	}
	return typeIndex(p, typeSamples, unitCount)
}

// typeIndex returns the index of the sample type typ/unit in p, or -1.
func typeIndex(p *profile.Profile, typ, unit string) int {
	for i, st := range p.SampleType {
		if st.Type == typ && st.Unit == unit {
			return i
		}
	}
	return -1
}

// Samples returns how many samples p holds: the sum of its
// "samples"/"count" values, or, for a profile with CPU time only, that
// time divided by the sampling period. It returns an error for a profile
// with neither, or with CPU time but no period.
func Samples(p *profile.Profile) (int64, error) {
	if i := typeIndex(p, typeSamples, unitCount); i >= 0 {
		return total(p, i), nil
	}
	i := typeIndex(p, typeCPU, unitNanos)
	if i < 0 {
		return 0, fmt.Errorf("profiles: the profile has no samples/count or cpu/nanoseconds values (sample types %s): not a CPU profile", sampleTypes(p))
	}
	if p.Period <= 0 || p.PeriodType == nil || p.PeriodType.Unit != unitNanos {
		return 0, fmt.Errorf("profiles: the profile has CPU time but no sampling period in nanoseconds, so its samples cannot be counted")
	}
	return total(p, i) / p.Period, nil
}

// total returns the sum of the values at index i of p's samples.
func total(p *profile.Profile, i int) int64 {
	var t int64
	for _, s := range p.Sample {
		t += s.Value[i]
	}
	return t
}

// sampleTypes writes p's sample types as type/unit, comma-separated.
func sampleTypes(p *profile.Profile) string {
	if len(p.SampleType) == 0 {
		return "none"
	}
	var b bytes.Buffer
	for i, st := range p.SampleType {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(st.Type + "/" + st.Unit)
	}
	return b.String()
}

// frames returns the names of the functions on a sample's stack, the
// leaf first, inlined calls as frames of their own (a location's lines
// hold the innermost call first). A location without lines (not
// symbolized) is named by its address. inMain says, per frame, whether
// its location is in the profile's first mapping, the profiled binary
// (true too for a profile without mappings).
func frames(p *profile.Profile, s *profile.Sample, names []string, inMain []bool) ([]string, []bool) {
	names, inMain = names[:0], inMain[:0]
	var main *profile.Mapping
	if len(p.Mapping) > 0 {
		main = p.Mapping[0]
	}
	for _, loc := range s.Location {
		own := main == nil || loc.Mapping == nil || loc.Mapping == main
		if len(loc.Line) == 0 {
			names = append(names, fmt.Sprintf("0x%x", loc.Address))
			inMain = append(inMain, own)
			continue
		}
		for _, ln := range loc.Line {
			name := ""
			if ln.Function != nil {
				name = ln.Function.Name
			}
			if name == "" {
				name = fmt.Sprintf("0x%x", loc.Address)
			}
			names = append(names, name)
			inMain = append(inMain, own)
		}
	}
	return names, inMain
}
