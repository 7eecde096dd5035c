package history

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/result"
)

// profileBytes is a CPU profile (10 ms period) of ns per function, each
// its own one-frame stack, as pprof writes it.
func profileBytes(t *testing.T, ns map[string]int64) []byte {
	t.Helper()
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000}
	id := uint64(1)
	for _, name := range []string{"main.checksum", "main.mix", "main.main"} {
		v, ok := ns[name]
		if !ok {
			continue
		}
		f := &profile.Function{ID: id, Name: name}
		l := &profile.Location{ID: id, Line: []profile.Line{{Function: f}}}
		p.Function, p.Location = append(p.Function, f), append(p.Location, l)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{l}, Value: []int64{v}})
		id++
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// profiledDoc is testDoc of measurement "regress" whose profile covers
// 5 runs.
func profiledDoc(vals []float64, start time.Time) *result.Document {
	d := testDoc("regress", vals, start)
	d.Measurements[0].Profile = &result.ProfileRef{File: "0.pprof", Source: "cpuprof", Samples: 50, Iterations: 5, Per: "run"}
	return d
}

// TestProfilesKeptAndTraced: history add keeps the profiles a document
// refers to (their bytes, read back unchanged), and the check of a
// series whose wall time doubled traces the regression to the function
// that grew, from the profiles of the 3 runs nearest the change on
// either side (the first run's profile, farther, is left out), each
// side merged per run; a store where the old side has no profiles says
// so in its note.
func TestProfilesKeptAndTraced(t *testing.T) {
	ctx := context.Background()
	eachStore(t, func(t *testing.T, s *Store, dsn string) {
		fast := profileBytes(t, map[string]int64{"main.checksum": 5e8, "main.mix": 5e8})
		slow := profileBytes(t, map[string]int64{"main.checksum": 20e8, "main.mix": 5e8})
		var entries []Entry
		for i := range 12 {
			vals, data := []float64{1e6, 1.01e6, 0.99e6}, fast
			if i >= 6 {
				vals, data = []float64{2e6, 2.02e6, 1.98e6}, slow
			}
			entries = append(entries, Entry{Doc: profiledDoc(vals, time.Unix(int64(100+i), 0)),
				Meta: Meta{Profiles: []Profile{{Measurement: "regress", Data: data}}}})
		}
		added, err := s.AddAll(ctx, entries)
		if err != nil {
			t.Fatal(err)
		}
		if added[0].Profiles != 1 {
			t.Errorf("Added %+v, want 1 profile", added[0])
		}
		sp, err := s.Profile(ctx, added[7].Run, "regress")
		if err != nil || !bytes.Equal(sp.Data, slow) || sp.Iterations != 5 || sp.Per != "run" || sp.Source != "cpuprof" {
			t.Fatalf("profile read back: %+v, %v", sp, err)
		}
		if _, err := s.Profile(ctx, added[7].Run, "other"); !errors.Is(err, ErrNoProfile) {
			t.Errorf("the profile of a measurement not stored: %v, want ErrNoProfile", err)
		}
		d, err := s.CheckDocument(ctx, nil, Query{}, CheckOptions{Threshold: 0.05}, result.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		ch := d.Measurements[0].Detail.History.Newest()
		if ch == nil || ch.Verdict != string(compare.Regression) || ch.Index != 6 {
			t.Fatalf("changes %+v, want a regression at run 7", d.Measurements[0].Detail.History.Changes)
		}
		tr := ch.Trace
		if tr == nil || tr.Total == nil || len(tr.Funcs) == 0 {
			t.Fatalf("trace %+v, want a differential profile", tr)
		}
		if f := tr.Funcs[0]; f.Name != "main.checksum" || f.Flat.Before != 1e8 || f.Flat.After != 4e8 {
			t.Errorf("first function %+v, want main.checksum from 100 ms to 400 ms per run", f)
		}
		wantB, wantN := []int64{added[3].Run, added[4].Run, added[5].Run}, []int64{added[6].Run, added[7].Run, added[8].Run}
		if !slicesEqual(tr.BaseRuns, wantB) || !slicesEqual(tr.NewRuns, wantN) || tr.BaseIterations != 15 || tr.NewIterations != 15 {
			t.Errorf("runs %v against %v (%v and %v runs), want %v against %v, 15 runs each", tr.BaseRuns, tr.NewRuns, tr.BaseIterations, tr.NewIterations, wantB, wantN)
		}
		// The trace travels in the document: JSON and back.
		var body bytes.Buffer
		if err := result.Encode(&body, d); err != nil {
			t.Fatal(err)
		}
		back, err := result.Unmarshal(body.Bytes())
		if err != nil || back.Measurements[0].Detail.History.Newest().Trace.Funcs[0].Name != "main.checksum" {
			t.Errorf("the trace does not survive the document's JSON: %v", err)
		}
	})
	eachStore(t, func(t *testing.T, s *Store, dsn string) {
		var entries []Entry
		for i := range 12 {
			vals := []float64{1e6, 1.01e6, 0.99e6}
			e := Entry{Doc: testDoc("regress", vals, time.Unix(int64(100+i), 0))}
			if i >= 6 {
				e.Doc = profiledDoc([]float64{2e6, 2.02e6, 1.98e6}, time.Unix(int64(100+i), 0))
				e.Meta.Profiles = []Profile{{Measurement: "regress", Data: profileBytes(t, map[string]int64{"main.checksum": 1e9})}}
			}
			entries = append(entries, e)
		}
		if _, err := s.AddAll(ctx, entries); err != nil {
			t.Fatal(err)
		}
		d, err := s.CheckDocument(ctx, nil, Query{}, CheckOptions{Threshold: 0.05}, result.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		ch := d.Measurements[0].Detail.History.Newest()
		if ch == nil || ch.Trace == nil || !strings.HasPrefix(ch.Trace.Note, "no profiles on the old side: add documents made with --profile") {
			t.Fatalf("change %+v, want a note that the old side has no profiles", ch)
		}
	})
}

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestProfilesRefused: a profile of a measurement the document lacks,
// one whose measurement refers to no profile, an empty one and two of
// one measurement are refused, naming the problem, and nothing is
// stored.
func TestProfilesRefused(t *testing.T) {
	ctx := context.Background()
	eachStore(t, func(t *testing.T, s *Store, dsn string) {
		data := profileBytes(t, map[string]int64{"main.mix": 1e8})
		for _, tt := range []struct {
			doc  *result.Document
			ps   []Profile
			want string
		}{
			{profiledDoc([]float64{1, 2}, time.Unix(1, 0)), []Profile{{Measurement: "nope", Data: data}}, "a measurement the document does not have"},
			{testDoc("regress", []float64{1, 2}, time.Unix(1, 0)), []Profile{{Measurement: "regress", Data: data}}, "refers to no profile"},
			{profiledDoc([]float64{1, 2}, time.Unix(1, 0)), []Profile{{Measurement: "regress"}}, "is empty"},
			{profiledDoc([]float64{1, 2}, time.Unix(1, 0)), []Profile{{Measurement: "regress", Data: data}, {Measurement: "regress", Data: data}}, "two profiles"},
		} {
			if _, err := s.Add(ctx, tt.doc, Meta{Profiles: tt.ps}); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Add: %v, want an error saying %q", err, tt.want)
			}
		}
		if runs, _, err := s.count(ctx); err != nil || runs != 0 {
			t.Errorf("%d runs stored (%v), want none", runs, err)
		}
	})
}

// TestProfilesOldSchema: a store of schema version 2 (before profiles)
// reads without profiles (a reader does not migrate it), and a check's
// regression there says that there are none; the first writer adds the
// profiles table.
func TestProfilesOldSchema(t *testing.T) {
	ctx := context.Background()
	for name, dsn := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, err := Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 12 {
				v := 1e6
				if i >= 6 {
					v = 2e6
				}
				if _, err := s.Add(ctx, testDoc("old", []float64{v, float64(v * 1.01), float64(v * 0.99)}, time.Unix(int64(70+i), 0)), Meta{}); err != nil {
					t.Fatal(err)
				}
			}
			// Back to schema version 2, as chrono before profiles left it.
			for _, q := range []string{"DROP TABLE profiles", "DELETE FROM schema_version WHERE version = 3"} {
				if _, err := s.db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			s.Close()
			r, err := OpenExisting(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			d, err := r.CheckDocument(ctx, nil, Query{}, CheckOptions{Threshold: 0.05}, result.Meta{})
			if err != nil {
				t.Fatal(err)
			}
			ch := d.Measurements[0].Detail.History.Newest()
			if ch == nil || ch.Trace == nil || !strings.HasPrefix(ch.Trace.Note, "no profiles on either side") {
				t.Fatalf("change %+v, want a note that no side has profiles", ch)
			}
			w, err := Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if _, err := w.Add(ctx, profiledDoc([]float64{1, 2}, time.Unix(200, 0)), Meta{Profiles: []Profile{{Measurement: "regress", Data: profileBytes(t, map[string]int64{"main.mix": 1e8})}}}); err != nil {
				t.Fatalf("adding a profile after the migration: %v", err)
			}
		})
	}
}
