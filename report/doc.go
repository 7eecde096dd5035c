// Package report renders what chronograph measured and analysed, for
// people and for other tools: result documents (package result), a
// comparison of two documents and a regression gate's outcome (package
// compare), and trace dumps (package tracer).
//
// One Renderer per Format writes a Subject, through Render:
//
//   - Text: the layout each subcommand prints (the same for `chrono X`
//     and `chrono report` of its saved document), with terminal charts;
//   - Markdown: the same figures as GitHub-flavoured Markdown (a gate's
//     is a pull-request comment);
//   - CSV: the layout's table with exact numbers;
//   - JSON: the document itself (result.Encode);
//   - Benchfmt: a function document in the Go benchmark format that
//     benchstat reads;
//   - Hyperfine: a command document as hyperfine's JSON export;
//   - HTML: one self-contained page (plots, tables, environment,
//     warnings, comparisons, timelines; no network), a history
//     document's plot page, or a trace's timeline page;
//   - SVG: one plot of the documents, named by Options.Plot (PlotNames
//     lists them).
//
// A format that cannot show a subject (a gate as JSON, a command
// document in benchfmt) returns an error that says which formats can.
// Live redraws progress text on a terminal while a subcommand measures.
//
// Every figure is printed with the digits it is known to (package
// unit's rule, from the spread of its samples).
//
// Package report only renders. It does not measure; it leaves every
// comparison, test and verdict to package compare, recomputed from the
// samples, and computes no statistics beyond one series' descriptive
// figures (its summary, quantiles, the median's interval, bins) that the
// digits rule needs; it reads no input (packages result and result/input
// do); and it writes no file: it writes to an io.Writer (chrono writes
// the files).
package report
