package history

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/internal/excerpt"
	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/result"
)

// Profile is the CPU profile of one measurement of a document, to store
// with its run (Meta.Profiles): the bytes of the file the measurement's
// result.ProfileRef names, as pprof wrote them (a gzipped protocol
// buffer, typically a few to tens of KB). The store keeps the bytes,
// not the file's path: the files beside a CI job's document are gone
// when the job ends, and a later check still needs them. What the
// profile covers (its iterations, per what, its source) is read from
// the measurement's ProfileRef.
type Profile struct {
	Measurement string
	Data        []byte
}

// profileRow is the columns of one stored profile.
type profileRow struct {
	measurement, per, source string
	iterations               float64
	data                     []byte
}

// profileRows checks the profiles to store with doc: each of a
// measurement of doc that refers to a profile covering a positive
// number of iterations, at most one per measurement, not empty.
func profileRows(doc *result.Document, ps []Profile) ([]profileRow, error) {
	var rows []profileRow
	seen := map[string]bool{}
	for _, p := range ps {
		name := excerpt.Quote(p.Measurement)
		i := slices.IndexFunc(doc.Measurements, func(m result.Measurement) bool { return m.Name == p.Measurement })
		switch {
		case i < 0:
			return nil, fmt.Errorf("a profile of %s, a measurement the document does not have: store each profile with the document of its measurement", name)
		case seen[p.Measurement]:
			return nil, fmt.Errorf("two profiles of measurement %s: give one per measurement", name)
		case len(p.Data) == 0:
			return nil, fmt.Errorf("the profile of %s is empty: give the bytes of its file", name)
		}
		ref := doc.Measurements[i].Profile
		if ref == nil || !(ref.Iterations > 0) || ref.Per == "" {
			return nil, fmt.Errorf("the measurement %s refers to no profile with its iterations (its \"profile\" says what the profile covers): add the document that chrono wrote with the profile", name)
		}
		seen[p.Measurement] = true
		rows = append(rows, profileRow{measurement: p.Measurement, per: ref.Per, source: ref.Source, iterations: ref.Iterations, data: p.Data})
	}
	return rows, nil
}

// addProfiles writes the profiles of run in tx.
func (s *Store) addProfiles(ctx context.Context, tx *sql.Tx, st *appendStmts, run int64, rows []profileRow) error {
	for _, r := range rows {
		ins, err := s.prepare(ctx, tx, &st.profile, `INSERT INTO profiles (run_id, measurement, iterations, per, source, bytes, data) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		if _, err := ins.ExecContext(ctx, run, r.measurement, r.iterations, r.per, r.source, len(r.data), r.data); err != nil {
			return s.wrap("cannot add the profile of "+excerpt.Quote(r.measurement), err)
		}
	}
	return nil
}

// profilesSince is the schema version that holds profiles.
const profilesSince = 3

// StoredProfile is a profile read back from the store.
type StoredProfile struct {
	// Run is the run it is stored with, Measurement the measurement it
	// profiles; Iterations, Per and Source what it covers and how it was
	// taken (result.ProfileRef's); Data its bytes.
	Run         int64
	Measurement string
	Iterations  float64
	Per, Source string
	Data        []byte
}

// ProfileRuns returns the runs that hold a profile of measurement name
// (none in a store older than the profiles).
func (s *Store) ProfileRuns(ctx context.Context, name string) (map[int64]bool, error) {
	out := map[int64]bool{}
	if s.version < profilesSince {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, s.dialect.rebind("SELECT run_id FROM profiles WHERE measurement = ?"), name)
	if err != nil {
		return nil, s.wrap("cannot read the profiles", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, s.wrap("cannot read the profiles", err)
		}
		out[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("cannot read the profiles", err)
	}
	return out, nil
}

// ErrNoProfile is Profile's error for a run without a profile of the
// measurement.
var ErrNoProfile = errors.New("history: no profile")

// Profile returns the profile of measurement name stored with run, or
// an error wrapping ErrNoProfile.
func (s *Store) Profile(ctx context.Context, run int64, name string) (StoredProfile, error) {
	p := StoredProfile{Run: run, Measurement: name}
	if s.version < profilesSince {
		return p, fmt.Errorf("%w of %s in run %d: %s predates stored profiles (schema version %d); adding a document upgrades it", ErrNoProfile, excerpt.Quote(name), run, s.where, s.version)
	}
	err := s.db.QueryRowContext(ctx, s.dialect.rebind("SELECT iterations, per, source, data FROM profiles WHERE run_id = ? AND measurement = ?"), run, name).
		Scan(&p.Iterations, &p.Per, &p.Source, &p.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("%w of %s in run %d of %s", ErrNoProfile, excerpt.Quote(name), run, s.where)
	}
	if err != nil {
		return p, s.wrap(fmt.Sprintf("cannot read the profile of %s in run %d", excerpt.Quote(name), run), err)
	}
	return p, nil
}

// noProfilesNote is what a trace says when one side or both have no
// stored profile.
func noProfilesNote(old, new bool) string {
	var side []string
	if !old {
		side = append(side, "old")
	}
	if !new {
		side = append(side, "new")
	}
	where := "the " + side[0] + " side"
	if len(side) == 2 {
		where = "either side"
	}
	return "no profiles on " + where + ": add documents made with --profile"
}

// traceRuns is how many runs on each side of a change its trace merges
// the profiles of: the nearest ones that have a profile.
const traceRuns = 3

// traceChanges gives each regression of chs, the changes of series se,
// its Trace: the differential profile (compare.TraceRuns) of the
// profiles stored with up to traceRuns runs on either side of it, the
// nearest to the change within the segments on either side, or a note
// saying why there is none.
func (s *Store) traceChanges(ctx context.Context, se Series, chs []ChangePoint) error {
	var have map[int64]bool
	for k := range chs {
		c := &chs[k]
		if c.Verdict != compare.Regression {
			continue
		}
		if have == nil {
			var err error
			if have, err = s.ProfileRuns(ctx, se.Name); err != nil {
				return err
			}
		}
		lo, hi := 0, len(se.Points)
		if k > 0 {
			lo = chs[k-1].Index
		}
		if k+1 < len(chs) {
			hi = chs[k+1].Index
		}
		var before, after []int64
		for i := c.Index - 1; i >= lo && len(before) < traceRuns; i-- {
			if id := se.Points[i].Run; have[id] {
				before = append(before, id)
			}
		}
		slices.Reverse(before)
		for i := c.Index; i < hi && len(after) < traceRuns; i++ {
			if id := se.Points[i].Run; have[id] {
				after = append(after, id)
			}
		}
		if len(before) == 0 || len(after) == 0 {
			c.Trace = &result.ProfileTrace{Note: noProfilesNote(len(before) > 0, len(after) > 0)}
			continue
		}
		bp, note, err := s.loadProfiles(ctx, se.Name, before)
		if err != nil {
			return err
		}
		np, noteN, err := s.loadProfiles(ctx, se.Name, after)
		if err != nil {
			return err
		}
		if note != "" || noteN != "" {
			c.Trace = &result.ProfileTrace{Note: strings.Join(slices.DeleteFunc([]string{note, noteN}, func(n string) bool { return n == "" }), "; ")}
			continue
		}
		c.Trace = compare.TraceRuns(se.Name, bp, np).Record()
		if c.Trace.Total != nil {
			c.Trace.BaseRuns, c.Trace.NewRuns = before, after
		}
	}
	return nil
}

// loadProfiles reads the stored profiles of measurement name of runs;
// when one is not a profile pprof reads, note says which.
func (s *Store) loadProfiles(ctx context.Context, name string, runs []int64) (ps []compare.Profile, note string, err error) {
	for _, id := range runs {
		sp, err := s.Profile(ctx, id, name)
		if err != nil {
			return nil, "", err
		}
		p, err := profiles.Parse(bytes.NewReader(sp.Data))
		if err != nil {
			return nil, fmt.Sprintf("the profile stored with run %d: %v", id, err), nil
		}
		ps = append(ps, compare.Profile{Profile: p, Iterations: sp.Iterations, Per: sp.Per})
	}
	return ps, "", nil
}
