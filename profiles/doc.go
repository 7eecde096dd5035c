// Package profiles handles CPU profiles for chronograph: it reads and
// writes them, merges several with weights, says whether a profile is
// fit to guide a profile-guided build (go build -pgo), converts the
// output of Linux perf into one, and compares two profiles function by
// function to say where a regression went.
//
// Profiles are pprof's own type, *profile.Profile of
// github.com/google/pprof/profile (the pprof project's library, which
// the Go toolchain's profile reader is a copy of): the package adds no
// mirror type, so a profile it returns goes straight to `go build -pgo`,
// `go tool pprof` or any pprof library. The package is named profiles,
// not profile, so that a program can import both without renaming one.
//
// # Which value
//
// A CPU profile carries one or more values per sample. The functions
// here use the CPU time: the "cpu"/"nanoseconds" value when the profile
// has one (runtime/pprof and perf's cpu-clock do), else the
// "samples"/"count" value. These are the two sample types the Go
// compiler accepts for PGO (the Go PGO guide's appendix, "alternative
// profile sources").
//
// # Merging
//
// Merge sums profiles as `go tool pprof -proto a b > merged` does, after
// scaling each by a weight. A weight means one of two things, chosen by
// a Weighting: ByShare makes each profile's share of the merged CPU time
// proportional to its weight, whatever its length (the PGO guide's
// "weighted by total footprint"; a plain merge overrepresents a longer
// profile), and ByFactor multiplies each profile's values by its weight,
// as llvm-profdata merge -weighted-input does (golang/go#64487 asks for
// it), for instance 1/iterations to put runs of different lengths on one
// per-iteration footing.
//
// # Fitness
//
// Check says, as warnings (package warn), why a profile would guide a
// build poorly: no CPU sample type, no samples, too few samples
// (DefaultMinSamples), unsymbolized functions, no function start lines
// (the compiler matches samples by their line offset from the start of
// the function), or stale: the functions it holds are gone from the
// current build, read from the binary by BinaryNames.
//
// # Perf
//
// FromPerfScript converts the text of `perf script` for a `perf record
// -g` recording (cpu-clock works without a hardware PMU, in VMs too) to
// a profile, so that any command's time can be looked at and compared
// like a Go program's. Such a profile has function names but no source
// lines, so Check says it cannot guide a Go build; for Compare names are
// enough.
//
// # Differences
//
// Compare is pprof's -diff_base (new minus base) per function, with each
// side divided by its own iteration count: the Diff lists the functions
// whose flat and cumulative time per iteration changed most first, with
// each one's share of the total change.
//
// # Collecting
//
// Package profiles/cpuprof is the convention by which a Go program
// writes a CPU profile when asked through the environment
// ($CHRONO_CPUPROFILE), so that a command can be profiled without
// changing its command line.
package profiles
