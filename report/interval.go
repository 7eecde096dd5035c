package report

import "github.com/chronograph/chronograph/stats"

// reflectLoHi reads an interval held as stats.Interval or *stats.Interval.
func reflectLoHi(v any) (float64, float64) {
	switch iv := v.(type) {
	case stats.Interval:
		return iv.Lo, iv.Hi
	case *stats.Interval:
		if iv != nil {
			return iv.Lo, iv.Hi
		}
	}
	return nan, nan
}
