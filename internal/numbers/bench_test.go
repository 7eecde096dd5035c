package numbers_test

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/chronograph/chronograph/internal/numbers"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// lognormal returns n log-normal numbers (μ 0, σ 1, a fixed seed), one a
// line, written as numpy.savetxt(fmt="%.6g") writes them: the input of
// issue 20's anchor (scripts/numbers-vs-numpy.sh makes its own with
// numpy; the figures are alike, not the same numbers).
func lognormal(n int) []byte {
	r := rand.New(rand.NewPCG(20, 20))
	b := make([]byte, 0, 9*n)
	for range n {
		b = strconv.AppendFloat(b, math.Exp(r.NormFloat64()), 'g', 6, 64)
		b = append(b, '\n')
	}
	return b
}

// BenchmarkNumbersMillion is chrono numbers of 1,000,000 log-normal
// numbers without the process around it: Read, Document (summary,
// percentiles 50/90/99/99.9, the median's interval, outliers) and the
// text rendering. Its anchor is numpy.loadtxt + percentile + mean + std
// (scripts/numbers-vs-numpy.sh).
func BenchmarkNumbersMillion(b *testing.B) {
	in := lognormal(1_000_000)
	s := numbers.Summary{Source: "in", Method: stats.DefaultMethod, Percentiles: []float64{50, 90, 99, 99.9}, Confidence: stats.Confidence}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		data, err := numbers.Read(bytes.NewReader(in), "in", numbers.Options{})
		if err != nil {
			b.Fatal(err)
		}
		d := numbers.Document(data, s, result.Meta{Tool: result.Tool{Name: "chrono", Version: "bench"}})
		if err := report.Render(io.Discard, report.Subject{Docs: []*result.Document{d}}, report.Text, report.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadLognormal is numbers.Read alone of the same input.
func BenchmarkReadLognormal(b *testing.B) {
	in := lognormal(1_000_000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := numbers.Read(bytes.NewReader(in), "in", numbers.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
