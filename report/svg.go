package report

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/report/internal/plot"
)

// svgRenderer writes one plot of the subject's documents as a standalone
// SVG document: the plot Options.Plot names (PlotNames lists them; the
// HTML page shows the same plots). A file of each plot is one call each.
type svgRenderer struct{}

func (svgRenderer) Render(w io.Writer, s Subject, o Options) error {
	if o.Plot == "" {
		return errors.New("report: an SVG holds one plot: name it in Options.Plot (PlotNames lists the plots)")
	}
	var found *plot.Plot
	for i, d := range s.Docs {
		if !strings.HasPrefix(o.Plot, strconv.Itoa(i+1)+"-") {
			continue // every name starts with its document's number
		}
		plots, err := plot.Plots(d, i+1, o.view(), o.Plot)
		if err != nil {
			return err
		}
		for _, p := range plots {
			found = p // of two plots of one name, the last (as a file of that name would hold)
		}
	}
	if found == nil {
		return fmt.Errorf("report: the documents have no plot %q: PlotNames lists their plots", o.Plot)
	}
	_, err := w.Write(found.SVG)
	return err
}

// PlotNames lists the plots of the subject's documents, in order, by the
// name an SVG rendering takes (Options.Plot): the document's number, its
// kind and what the plot shows ("1-command-distribution-gzip-9"); a file
// of each is the name + ".svg". Environment documents have none.
func PlotNames(s Subject, o Options) ([]string, error) {
	if err := s.check(SVG); err != nil {
		return nil, err
	}
	var names []string
	for i, d := range s.Docs {
		ns, err := plot.Names(d, i+1, o.view())
		if err != nil {
			return nil, err
		}
		names = append(names, ns...)
	}
	return names, nil
}
