package history

import (
	"context"
	"slices"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// The documents of the store's views: what chrono history list, show,
// trend, check and export print, as result documents of kind history
// (package report renders them).

// ListDocument returns every measurement × metric of the store, one
// measurement each (without metrics), with its run and machine counts and
// when its first and last runs were taken.
func (s *Store) ListDocument(ctx context.Context, m result.Meta) (*result.Document, error) {
	ls, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	d := s.newDocument(m, result.HistoryViewList, Query{})
	for _, x := range ls {
		d.Measurements = append(d.Measurements, result.Measurement{Name: x.Name, Metrics: []result.Metric{},
			Detail: result.KindDetail{History: &result.HistoryDetail{Metric: x.Metric, Unit: x.Unit,
				Stored: &result.HistoryStored{Runs: x.Runs, Machines: x.Machines, First: x.First, Last: x.Last}}}})
	}
	return d, nil
}

// ShowDocument returns every stored run of measurement name: a series per
// metric, of the runs of every machine.
func (s *Store) ShowDocument(ctx context.Context, name string, m result.Meta) (*result.Document, error) {
	ls, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	d := s.newDocument(m, result.HistoryViewShow, Query{Name: name})
	for _, x := range ls {
		if x.Name != name {
			continue
		}
		ss, err := s.Select(ctx, Query{Name: name, Metric: x.Metric, Merged: true})
		if err != nil {
			return nil, err
		}
		for _, se := range ss {
			d.Measurements = append(d.Measurements, seriesMeasurement(se, nil))
		}
	}
	if len(d.Measurements) == 0 {
		return nil, s.notFound(name)
	}
	return d, nil
}

// TrendDocument returns the series q selects with their change points
// (Changes with o); allRuns asks the rendering for a row of every run.
func (s *Store) TrendDocument(ctx context.Context, q Query, o CheckOptions, allRuns bool, m result.Meta) (*result.Document, error) {
	d := s.newDocument(m, result.HistoryViewTrend, q)
	d.Run.History.Detector = detectorOf(o)
	d.Run.History.AllRuns = allRuns
	if _, err := s.addChanges(ctx, d, q, o); err != nil {
		return nil, err
	}
	return d, nil
}

// CheckDocument returns the series of the measurements names (every
// measurement of the store when there are none), each selected by q with
// its Name, with their change points (Changes with o), and counts the
// series checked, those with changes and those whose newest change is a
// regression.
func (s *Store) CheckDocument(ctx context.Context, names []string, q Query, o CheckOptions, m result.Meta) (*result.Document, error) {
	d := s.newDocument(m, result.HistoryViewCheck, q)
	d.Run.History.Detector = detectorOf(o)
	check := &result.HistoryCheck{Threshold: o.Threshold}
	d.Run.History.Check = check
	if len(names) == 0 {
		ls, err := s.List(ctx)
		if err != nil {
			return nil, err
		}
		for _, x := range ls {
			if !slices.Contains(names, x.Name) {
				names = append(names, x.Name)
			}
		}
	}
	for _, name := range names {
		q.Name = name
		changes, err := s.addChanges(ctx, d, q, o)
		if err != nil {
			return nil, err
		}
		for _, chs := range changes {
			check.Checked++
			if len(chs) > 0 {
				check.Changed++
				if chs[len(chs)-1].Verdict == compare.Regression {
					check.Regressed++
				}
			}
		}
	}
	return d, nil
}

// addChanges adds to d the series q selects, each with its change points
// (Changes with o), every regression traced to its functions from the
// stored profiles (traceChanges), and returns those, a list per series.
func (s *Store) addChanges(ctx context.Context, d *result.Document, q Query, o CheckOptions) ([][]ChangePoint, error) {
	ss, err := s.Select(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make([][]ChangePoint, len(ss))
	for i, se := range ss {
		if out[i], err = Changes(se.Points, o); err != nil {
			return nil, err
		}
		if err := s.traceChanges(ctx, se, out[i]); err != nil {
			return nil, err
		}
		d.Measurements = append(d.Measurements, seriesMeasurement(se, out[i]))
	}
	return out, nil
}

// ExportDocument returns the series q selects.
func (s *Store) ExportDocument(ctx context.Context, q Query, m result.Meta) (*result.Document, error) {
	d := s.newDocument(m, result.HistoryViewExport, q)
	ss, err := s.Select(ctx, q)
	if err != nil {
		return nil, err
	}
	for _, se := range ss {
		d.Measurements = append(d.Measurements, seriesMeasurement(se, nil))
	}
	return d, nil
}

// newDocument starts a history document of view with the store and the
// selection of q.
func (s *Store) newDocument(m result.Meta, view string, q Query) *result.Document {
	d := result.New(result.KindHistory, m)
	d.End = d.Start
	d.Measurements = []result.Measurement{}
	run := &result.HistoryRun{View: view, Store: s.Where(), Metric: q.Metric, Machine: q.Machine, AnyMachine: q.Merged && view != result.HistoryViewShow}
	if !q.Since.IsZero() {
		since := q.Since.UTC()
		run.Since = &since
	}
	d.Run.History = run
	return d
}

// seriesMeasurement is a series as a history document's measurement: its
// metric holds the run medians in time order, its detail the runs and the
// changes.
func seriesMeasurement(se Series, chs []ChangePoint) result.Measurement {
	met := result.Metric{Name: se.Metric, Unit: se.Unit, Values: []float64{}}
	det := &result.HistoryDetail{Metric: se.Metric, Unit: se.Unit, Merged: se.Merged, Runs: []result.HistoryPoint{}}
	if !se.Merged {
		mc := se.Machine
		det.Machine = &mc
	}
	for _, p := range se.Points {
		met.Values = append(met.Values, p.Median)
		hp := p.HistoryPoint
		hp.Time = hp.Time.UTC()
		det.Runs = append(det.Runs, hp)
	}
	if len(met.Values) > 0 {
		sm := stats.Summarize(met.Values)
		met.Summary = &sm
	}
	for _, c := range chs {
		det.Changes = append(det.Changes, result.HistoryChange{Index: c.Index, BeforeCommit: c.Before.Commit, AfterCommit: c.After.Commit,
			MedianBefore: c.MedianBefore, MedianAfter: c.MedianAfter, RunsBefore: c.NBefore, RunsAfter: c.NAfter,
			Ratio: c.Ratio, Lo: c.Lo, Hi: c.Hi, P: c.P, Q: c.Q, Verdict: string(c.Verdict), Exact: c.Exact, Trace: c.Trace})
	}
	return result.Measurement{Name: se.Name, Primary: se.Metric, Metrics: []result.Metric{met}, Detail: result.KindDetail{History: det}}
}

// detectorOf describes the detection of o, with the defaults Changes and
// stats.EDivisive apply to its zero fields.
func detectorOf(o CheckOptions) *result.HistoryDetector {
	e := o.Detector.WithDefaults()
	det := &result.HistoryDetector{Method: "e-divisive", Permutations: e.Permutations, Significance: e.Significance,
		MinSegment: e.MinSegment, Seed: e.Seed, Confidence: o.Confidence}
	if det.Confidence == 0 {
		det.Confidence = defaultConfidence
	}
	return det
}
