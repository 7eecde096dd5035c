package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// The scenarios of hyperfine 1.20's own tests (tests/integration_tests.rs
// and tests/execution_order_tests.rs), expressed for chrono run in its own
// words: each names the hyperfine test it ports, runs chrono with the same
// flags and checks what hyperfine's test checks, in chrono's output.
// Where chrono differs on purpose (its default interleaved order, its
// wording and digits), the scenario says so and checks chrono's form; the
// README lists those differences. Scenarios of counts, units and
// comparisons use --debug-mode, as hyperfine's do: nothing runs and every
// `sleep SECONDS` takes SECONDS on a simulated clock, so that the figures
// are exact and the test takes no time.

// hfScenario is one ported behaviour.
type hfScenario struct {
	hyperfine string   // the hyperfine test it ports
	args      []string // chrono's arguments after "run"
	code      int      // exit code wanted
	out       []string // substrings of stdout
	errs      []string // substrings of stderr
	check     func(t *testing.T, stdout string)
}

func (s hfScenario) run(t *testing.T) {
	t.Helper()
	stdout, stderr, code := runChrono(t, "", append([]string{"run"}, s.args...)...)
	if code != s.code {
		t.Errorf("%s: chrono run %q: exit %d, want %d; stderr %s", s.hyperfine, s.args, code, s.code, stderr)
		return
	}
	for _, w := range s.out {
		if !strings.Contains(stdout, w) {
			t.Errorf("%s: stdout lacks %q:\n%s", s.hyperfine, w, stdout)
		}
	}
	for _, w := range s.errs {
		if !strings.Contains(stderr, w) {
			t.Errorf("%s: stderr lacks %q:\n%s", s.hyperfine, w, stderr)
		}
	}
	if s.check != nil {
		s.check(t, stdout)
	}
}

// runsIs checks the run count of every command.
func runsIs(n string) func(t *testing.T, stdout string) {
	return func(t *testing.T, stdout string) {
		t.Helper()
		got := regexp.MustCompile(`(?m)^  runs:\s+(\d+) `).FindAllStringSubmatch(stdout, -1)
		if len(got) == 0 {
			t.Errorf("no runs line:\n%s", stdout)
		}
		for _, g := range got {
			if g[1] != n {
				t.Errorf("%s runs, want %s:\n%s", g[1], n, stdout)
			}
		}
	}
}

// TestHyperfineIntegrationScenarios ports tests/integration_tests.rs.
func TestHyperfineIntegrationScenarios(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	dir := crosstest.TempDir(t)
	md := filepath.Join(dir, "results.md")
	input := filepath.Join(dir, "example_input_file.txt")
	os.WriteFile(input, []byte("This text is part of a file\n"), 0o644)
	dbg := []string{"--debug-mode"}
	hf := []string{"--debug-mode", "--style", "hyperfine"}
	with := func(pre []string, args ...string) []string { return append(append([]string{}, pre...), args...) }
	const missing = "some-nonexisting-program-b5d9574198b7e4b12a71fa4747c0a577"
	scenarios := []hfScenario{
		{hyperfine: "runs_successfully", args: []string{"--runs=2", "echo dummy benchmark"}},
		{hyperfine: "one_run_is_supported", args: []string{"--runs=1", "echo dummy benchmark"}, out: []string{"runs:          1 (0 failed"}},
		{hyperfine: "fails_with_zero_runs (after 1.20)", args: []string{"--runs", "0", "echo dummy benchmark"}, code: exitUsage, errs: []string{"--runs 0"}},
		{hyperfine: "fails_with_zero_runs (after 1.20)", args: []string{"--min-runs", "0", "echo dummy benchmark"}, code: exitUsage, errs: []string{"--min-runs 0"}},
		{hyperfine: "fails_with_zero_runs (after 1.20)", args: []string{"--max-runs", "0", "echo dummy benchmark"}, code: exitUsage, errs: []string{"--max-runs 0"}},
		{hyperfine: "min_runs_of_one_still_performs_one_run (after 1.20)", args: with(dbg, "--min-runs=1", "--warmup=0", "sleep 4"), check: runsIs("1")},
		{hyperfine: "fails_with_wrong_number_of_command_name_arguments", args: []string{"--command-name=a", "--command-name=b", "echo a"},
			code: exitUsage, errs: []string{"too many -n/--command-name names"}},
		{hyperfine: "fails_with_wrong_number_of_prepare_options", args: []string{"--runs=1", "--prepare=echo a", "--prepare=echo b", "echo a", "echo b"}},
		{hyperfine: "fails_with_wrong_number_of_prepare_options", args: []string{"--runs=1", "--prepare=echo ref", "--prepare=echo a", "--prepare=echo b", "--reference=echo ref", "echo a", "echo b"}},
		{hyperfine: "fails_with_wrong_number_of_prepare_options", args: []string{"--runs=1", "--prepare=echo a", "--prepare=echo b", "echo a", "echo b", "echo c"},
			code: exitUsage, errs: []string{"--prepare is given 2 times for 3 commands"}},
		{hyperfine: "fails_with_wrong_number_of_prepare_options", args: []string{"--runs=1", "--prepare=echo a", "--prepare=echo b", "--reference=echo ref", "echo a", "echo b"},
			code: exitUsage, errs: []string{"--prepare is given 2 times for 3 commands", "the --reference command first"}},
		{hyperfine: "fails_with_wrong_number_of_conclude_options", args: []string{"--runs=1", "--conclude=echo a", "--conclude=echo b", "echo a", "echo b"}},
		{hyperfine: "fails_with_wrong_number_of_conclude_options", args: []string{"--runs=1", "--conclude=echo ref", "--conclude=echo a", "--conclude=echo b", "--reference=echo ref", "echo a", "echo b"}},
		{hyperfine: "fails_with_wrong_number_of_conclude_options", args: []string{"--runs=1", "--conclude=echo a", "--conclude=echo b", "echo a", "echo b", "echo c"},
			code: exitUsage, errs: []string{"--conclude is given 2 times for 3 commands"}},
		{hyperfine: "fails_with_wrong_number_of_conclude_options", args: []string{"--runs=1", "--conclude=echo a", "--conclude=echo b", "--reference=echo ref", "echo a", "echo b"},
			code: exitUsage, errs: []string{"--conclude is given 2 times for 3 commands"}},
		{hyperfine: "fails_with_duplicate_parameter_names", args: []string{"--parameter-list", "x", "1,2,3", "--parameter-list", "x", "a,b,c", "echo test"},
			code: exitUsage, errs: []string{"parameter x is given twice"}},
		{hyperfine: "fails_for_unknown_command", args: []string{"--runs=1", missing}, code: exitFailure, errs: []string{"exited with code 127"}},
		{hyperfine: "fails_for_unknown_command_without_shell", args: []string{"--shell=none", "--runs=1", missing}, code: exitFailure, errs: []string{`cannot run program "` + missing + `"`}},
		{hyperfine: "fails_for_failing_command_without_shell", args: []string{"--shell=none", "--runs=1", "false"}, code: exitFailure, errs: []string{"exited with code 1"}},
		{hyperfine: "fails_for_unknown_setup_command", args: []string{"--runs=1", "--setup=" + missing, "echo test"}, code: exitFailure, errs: []string{"setup command", "exited with code 127"}},
		{hyperfine: "fails_for_unknown_cleanup_command", args: []string{"--runs=1", "--cleanup=" + missing, "echo test"}, code: exitFailure, errs: []string{"cleanup command", "exited with code 127"}},
		{hyperfine: "fails_for_unknown_prepare_command", args: []string{"--prepare=" + missing, "echo test"}, code: exitFailure, errs: []string{"prepare command", "exited with code 127"}},
		{hyperfine: "fails_for_unknown_conclude_command", args: []string{"--conclude=" + missing, "echo test"}, code: exitFailure, errs: []string{"conclude command", "exited with code 127"}},
		{hyperfine: "can_run_failing_commands_with_ignore_failure_option", args: []string{"false"}, code: exitFailure, errs: []string{"exited with code 1"}},
		{hyperfine: "can_run_failing_commands_with_ignore_failure_option", args: []string{"--runs=1", "--ignore-failure", "false"}},
		{hyperfine: "can_ignore_specific_exit_codes", args: []string{"--runs=1", "--ignore-failure=1", "exit 1"}},
		{hyperfine: "can_ignore_specific_exit_codes", args: []string{"--runs=1", "--ignore-failure=1", "exit 2"}, code: exitFailure, errs: []string{"exited with code 2"}},
		{hyperfine: "can_ignore_multiple_exit_codes", args: []string{"--runs=1", "--ignore-failure=1,2,3", "exit 1"}},
		{hyperfine: "can_ignore_multiple_exit_codes", args: []string{"--runs=1", "--ignore-failure=1,2,3", "exit 2"}},
		{hyperfine: "can_ignore_multiple_exit_codes", args: []string{"--runs=1", "--ignore-failure=1,2,3", "exit 3"}},
		{hyperfine: "can_ignore_multiple_exit_codes", args: []string{"--runs=1", "--ignore-failure=1,2,3", "exit 4"}, code: exitFailure, errs: []string{"exited with code 4"}},
		{hyperfine: "ignore_failure_with_all_non_zero", args: []string{"--runs=1", "--ignore-failure=all-non-zero", "exit 5"}},
		{hyperfine: "fails_if_invalid_stdin_data_file_provided", args: []string{"--runs=1", "--input=" + filepath.Join(dir, "example_non_existent_file.txt"), "cat"},
			code: exitFailure, errs: []string{"--input", "example_non_existent_file.txt", notFound(t, filepath.Join(dir, "example_non_existent_file.txt"))}},
		// hyperfine prints its fixed decimals (123.0 ms, 1234000.0 µs);
		// chrono prints the digits its rule allows, in the unit asked for.
		{hyperfine: "returns_mean_time_in_correct_unit", args: with(dbg, "sleep 1.234"), out: []string{"mean ± σ:      1.234 s ± 0 s"}},
		{hyperfine: "returns_mean_time_in_correct_unit", args: with(dbg, "sleep 0.123"), out: []string{"mean ± σ:      123 ms ± 0 ms"}}, // every run took exactly 123 ms
		{hyperfine: "returns_mean_time_in_correct_unit", args: with(dbg, "--time-unit=millisecond", "sleep 1.234"), out: []string{"mean ± σ:      1234 ms ± 0 ms"}},
		{hyperfine: "returns_mean_time_in_correct_unit", args: with(dbg, "--time-unit=microsecond", "sleep 1.234"), out: []string{"mean ± σ:      1234000 µs ± 0 µs"}},
		{hyperfine: "performs_ten_runs_for_slow_commands", args: with(dbg, "sleep 0.5"), check: runsIs("10")},
		{hyperfine: "performs_three_seconds_of_benchmarking_for_fast_commands", args: with(dbg, "sleep 0.01"), check: runsIs("300")},
		{hyperfine: "takes_shell_spawning_time_into_account_for_computing_number_of_runs", args: with(dbg, "--shell=sleep 0.02", "sleep 0.01"), check: runsIs("100")},
		{hyperfine: "takes_preparation_command_into_account_for_computing_number_of_runs", args: with(dbg, "--prepare=sleep 0.02", "sleep 0.01"), check: runsIs("100")},
		{hyperfine: "takes_preparation_command_into_account_for_computing_number_of_runs", args: with(dbg, "--shell=sleep 0.01", "--prepare=sleep 0.03", "sleep 0.05"), check: runsIs("30")},
		{hyperfine: "takes_conclusion_command_into_account_for_computing_number_of_runs", args: with(dbg, "--conclude=sleep 0.02", "sleep 0.01"), check: runsIs("100")},
		{hyperfine: "takes_conclusion_command_into_account_for_computing_number_of_runs", args: with(dbg, "--shell=sleep 0.01", "--conclude=sleep 0.03", "sleep 0.05"), check: runsIs("30")},
		{hyperfine: "takes_both_preparation_and_conclusion_command_into_account_for_computing_number_of_runs", args: with(dbg, "--prepare=sleep 0.01", "--conclude=sleep 0.01", "sleep 0.01"), check: runsIs("100")},
		{hyperfine: "takes_both_preparation_and_conclusion_command_into_account_for_computing_number_of_runs", args: with(dbg, "--shell=sleep 0.01", "--prepare=sleep 0.01", "--conclude=sleep 0.01", "sleep 0.05"), check: runsIs("30")},
		// hyperfine's phrases with --style hyperfine; chrono's own line
		// (ratio of medians, CI, p-value) always.
		{hyperfine: "shows_benchmark_comparison_with_relative_times", args: with(hf, "sleep 1.0", "sleep 2.0", "sleep 3.0"),
			out: []string{"2.00 ± 0.00 times faster", "3.00 ± 0.00 times faster", `"sleep 2.0" is 2.00x as slow as "sleep 1.0"`}},
		{hyperfine: "shows_benchmark_comparison_with_same_time", args: with(hf, "--command-name=A", "--command-name=B", "sleep 1.0", "sleep 1.0", "sleep 2.0", "sleep 1000.0"),
			out: []string{"As fast (1.00 ± 0.00) as", "2.00 ± 0.00 times faster", "1000.00 ± 0.00 times faster", "Command 3: sleep 2.0"}},
		{hyperfine: "shows_benchmark_comparison_relative_to_reference", args: with(hf, "--reference=sleep 2.0", "sleep 1.0", "sleep 3.0"),
			out: []string{"2.00 ± 0.00 times slower", "1.50 ± 0.00 times faster", `Comparison with the reference, "sleep 2.0"`}},
		// hyperfine's heading is "Benchmark 1:", chrono's "Command 1:".
		{hyperfine: "shows_reference_name", args: with(dbg, "--reference=sleep 2.0", "--reference-name=refabc123", "sleep 1.0", "sleep 3.0"),
			out: []string{"Command 1: refabc123\n", "command line:  sleep 2.0"}},
		{hyperfine: "performs_all_benchmarks_in_parameter_scan", args: with(dbg, "--parameter-scan", "time", "30", "45", "--parameter-step-size", "5", "sleep {time}"),
			out: []string{"Command 1: sleep 30\n", "Command 2: sleep 35\n", "Command 3: sleep 40\n", "Command 4: sleep 45\n"},
			check: func(t *testing.T, stdout string) {
				if strings.Contains(stdout, "sleep 50") {
					t.Errorf("the scan goes beyond 45:\n%s", stdout)
				}
			}},
		{hyperfine: "performs_reference_and_all_benchmarks_in_parameter_scan", args: with(dbg, "--reference=sleep 25", "--parameter-scan", "time", "30", "45", "--parameter-step-size", "5", "sleep {time}"),
			out: []string{"Command 1: sleep 25\n", "Command 2: sleep 30\n", "Command 3: sleep 35\n", "Command 4: sleep 40\n", "Command 5: sleep 45\n"},
			check: func(t *testing.T, stdout string) {
				if strings.Contains(stdout, "Command 6") {
					t.Errorf("more than 5 commands:\n%s", stdout)
				}
			}},
		// hyperfine checks that each name appears once; chrono's Markdown
		// also names the reference under the table and in the warnings, so
		// the port checks that the table is written once, at the end.
		{hyperfine: "intermediate_results_are_not_exported_to_stdout", args: with(dbg, "--style=none", "--export-markdown", "-", "sleep 1", "sleep 2"),
			check: func(t *testing.T, stdout string) {
				for _, w := range []string{"| Command | Mean [s] |", "| `sleep 1` |", "| `sleep 2` |"} {
					if n := strings.Count(stdout, w); n != 1 {
						t.Errorf("%q %d times in stdout, want once:\n%s", w, n, stdout)
					}
				}
			}},
		{hyperfine: "exports_intermediate_results_to_file", args: []string{"--runs=1", "--order=sequential", "--export-markdown", md, "true", "false"}, code: exitFailure,
			check: func(t *testing.T, _ string) {
				if b, _ := os.ReadFile(md); !strings.Contains(string(b), "`true`") {
					t.Errorf("the export lacks the command that completed:\n%s", b)
				}
			}},
		{hyperfine: "unused_parameters_are_shown_in_benchmark_name", args: []string{"--runs=2", "--parameter-list", "branch", "master,feature", "echo test"},
			out: []string{"echo test (branch = master)", "echo test (branch = feature)"}},
		{hyperfine: "speed_comparison_sort_order", args: with(hf, "sleep 2", "sleep 1", "--sort=auto"), out: []string{"sleep 1 ran\n    2.00 ± 0.00 times faster than sleep 2"}},
		{hyperfine: "speed_comparison_sort_order", args: with(hf, "sleep 2", "sleep 1", "--sort=mean-time"), out: []string{"sleep 1 ran\n    2.00 ± 0.00 times faster than sleep 2"}},
		{hyperfine: "speed_comparison_sort_order", args: with(hf, "sleep 2", "sleep 1", "--sort=command"), out: []string{"2.00 ±  0.00  sleep 2\n        1.00          sleep 1"}},
	}
	for _, s := range scenarios {
		s.run(t)
	}
}

// TestHyperfineOutputScenarios ports the tests of integration_tests.rs
// that read the benchmarked command's own output (--show-output), which
// goes to chrono's real standard output: they run a built chrono.
func TestHyperfineOutputScenarios(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	dir := crosstest.TempDir(t)
	bin := filepath.Join(dir, "chrono")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	input := filepath.Join(dir, "example_input_file.txt")
	os.WriteFile(input, []byte("This text is part of a file\n"), 0o644)
	tests := []struct {
		hyperfine string
		args      []string
		check     func(stdout string) bool
	}{
		{"can_run_commands_without_a_shell", []string{"--runs=1", "--show-output", "--shell=none", "echo 'hello world' argument2"},
			func(s string) bool { return strings.Contains(s, "hello world argument2") }},
		// chrono also prints a named command's command line: the port
		// counts the lines the command printed.
		{"shows_output_of_benchmarked_command", []string{"--runs=2", "--command-name=dummy", "--show-output", "echo 4fd47015"},
			func(s string) bool { return lines(s, "4fd47015") == 2 }},
		{"runs_commands_using_user_defined_shell", []string{"--runs=1", "--show-output", "--shell", "echo 'custom_shell' '--shell-arg'", "echo benchmark"},
			func(s string) bool {
				// The runs of the shell alone (its start-up) print nothing.
				return lines(s, "custom_shell --shell-arg -c echo benchmark") == 1 && lines(s, "custom_shell --shell-arg -c") == 0
			}},
		{"can_pass_input_to_command_from_a_file", []string{"--runs=1", "--input=" + input, "--show-output", "cat"},
			func(s string) bool { return strings.Contains(s, "This text is part of a file") }},
	}
	for _, tt := range tests {
		out, err := crosstest.Command(bin, append([]string{"run"}, tt.args...)...).Output()
		if err != nil || !tt.check(string(out)) {
			t.Errorf("%s: chrono run %q: %v\n%s", tt.hyperfine, tt.args, err, out)
		}
	}
}

// lines counts the lines of s equal to line.
func lines(s, line string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if l == line {
			n++
		}
	}
	return n
}

// TestHyperfineExecutionOrder ports tests/execution_order_tests.rs: every
// command appends a word to a log, and the log must hold hyperfine's
// order exactly. chrono interleaves several commands by default (a
// deliberate difference), so every scenario runs with --order sequential,
// hyperfine's order.
func TestHyperfineExecutionOrder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	type step struct{ flag, word string } // flag "" is a command
	tests := []struct {
		hyperfine string
		args      []string
		steps     []step
		want      string
	}{
		{"benchmarks_are_executed_sequentially_one", []string{"--runs=1"}, []step{{"", "command 1"}, {"", "command 2"}},
			"command 1,command 2"},
		{"benchmarks_are_executed_sequentially", []string{"--runs=2"}, []step{{"", "command 1"}, {"", "command 2"}},
			"command 1,command 1,command 2,command 2"},
		{"warmup_runs_are_executed_before_benchmarking_runs", []string{"--runs=2", "--warmup=3"}, []step{{"", "command 1"}},
			"command 1,command 1,command 1,command 1,command 1"},
		{"setup_commands_are_executed_before_each_series_of_timing_runs", []string{"--runs=2"}, []step{{"--setup", "setup"}, {"", "command 1"}, {"", "command 2"}},
			"setup,command 1,command 1,setup,command 2,command 2"},
		{"prepare_commands_are_executed_before_each_timing_run", []string{"--runs=2"}, []step{{"--prepare", "prepare"}, {"", "command 1"}, {"", "command 2"}},
			"prepare,command 1,prepare,command 1,prepare,command 2,prepare,command 2"},
		{"conclude_commands_are_executed_after_each_timing_run", []string{"--runs=2"}, []step{{"--conclude", "conclude"}, {"", "command 1"}, {"", "command 2"}},
			"command 1,conclude,command 1,conclude,command 2,conclude,command 2,conclude"},
		{"prepare_commands_are_executed_before_each_warmup", []string{"--warmup=2", "--runs=1"}, []step{{"--prepare", "prepare"}, {"", "command 1"}, {"", "command 2"}},
			"prepare,command 1,prepare,command 1,prepare,command 1,prepare,command 2,prepare,command 2,prepare,command 2"},
		{"conclude_commands_are_executed_after_each_warmup", []string{"--warmup=2", "--runs=1"}, []step{{"--conclude", "conclude"}, {"", "command 1"}, {"", "command 2"}},
			"command 1,conclude,command 1,conclude,command 1,conclude,command 2,conclude,command 2,conclude,command 2,conclude"},
		{"cleanup_commands_are_executed_once_after_each_benchmark", []string{"--runs=2"}, []step{{"--cleanup", "cleanup"}, {"", "command 1"}, {"", "command 2"}},
			"command 1,command 1,cleanup,command 2,command 2,cleanup"},
		{"setup_prepare_cleanup_combined", []string{"--warmup=1", "--runs=2"},
			[]step{{"--setup", "setup"}, {"--prepare", "prepare"}, {"", "command1"}, {"", "command2"}, {"--cleanup", "cleanup"}},
			"setup,prepare,command1,prepare,command1,prepare,command1,cleanup,setup,prepare,command2,prepare,command2,prepare,command2,cleanup"},
		{"setup_prepare_conclude_cleanup_combined", []string{"--warmup=1", "--runs=2"},
			[]step{{"--setup", "setup"}, {"--prepare", "prepare"}, {"", "command1"}, {"", "command2"}, {"--conclude", "conclude"}, {"--cleanup", "cleanup"}},
			"setup,prepare,command1,conclude,prepare,command1,conclude,prepare,command1,conclude,cleanup," +
				"setup,prepare,command2,conclude,prepare,command2,conclude,prepare,command2,conclude,cleanup"},
		{"single_parameter_value", []string{"--runs=2", "--parameter-list", "number", "1,2,3"}, []step{{"", "command {number}"}},
			"command 1,command 1,command 2,command 2,command 3,command 3"},
		{"multiple_parameter_values", []string{"--runs=2", "--parameter-list", "number", "1,2,3", "--parameter-list", "letter", "a,b"}, []step{{"", "command {number} {letter}"}},
			"command 1 a,command 1 a,command 2 a,command 2 a,command 3 a,command 3 a,command 1 b,command 1 b,command 2 b,command 2 b,command 3 b,command 3 b"},
		{"reference_is_executed_first", []string{"--runs=1"}, []step{{"--reference", "reference"}, {"", "command 1"}, {"", "command 2"}},
			"reference,command 1,command 2"},
		{"reference_is_executed_first_parameter_value", []string{"--runs=2", "--parameter-list", "number", "1,2,3"}, []step{{"--reference", "reference"}, {"", "command {number}"}},
			"reference,reference,command 1,command 1,command 2,command 2,command 3,command 3"},
		{"reference_is_executed_separately_from_commands", []string{"--runs=1"}, []step{{"--reference", "command 1"}, {"", "command 1"}, {"", "command 2"}},
			"command 1,command 1,command 2"},
		{"setup_prepare_reference_conclude_cleanup_combined", []string{"--warmup=1", "--runs=2"},
			[]step{{"--setup", "setup"}, {"--prepare", "prepare"}, {"--reference", "reference"}, {"", "command1"}, {"", "command2"}, {"--conclude", "conclude"}, {"--cleanup", "cleanup"}},
			"setup,prepare,reference,conclude,prepare,reference,conclude,prepare,reference,conclude,cleanup," +
				"setup,prepare,command1,conclude,prepare,command1,conclude,prepare,command1,conclude,cleanup," +
				"setup,prepare,command2,conclude,prepare,command2,conclude,prepare,command2,conclude,cleanup"},
		{"setup_separate_prepare_separate_conclude_cleanup_combined", []string{"--warmup=1", "--runs=2"},
			[]step{{"--setup", "setup"}, {"--cleanup", "cleanup"}, {"--prepare", "prepare1"}, {"", "command1"}, {"--conclude", "conclude1"}, {"--prepare", "prepare2"}, {"", "command2"}, {"--conclude", "conclude2"}},
			"setup,prepare1,command1,conclude1,prepare1,command1,conclude1,prepare1,command1,conclude1,cleanup," +
				"setup,prepare2,command2,conclude2,prepare2,command2,conclude2,prepare2,command2,conclude2,cleanup"},
		{"setup_separate_prepare_reference_separate_conclude_cleanup_combined", []string{"--warmup=1", "--runs=2"},
			[]step{{"--setup", "setup"}, {"--cleanup", "cleanup"}, {"--prepare", "prepareref"}, {"--reference", "reference"}, {"--conclude", "concluderef"},
				{"--prepare", "prepare1"}, {"", "command1"}, {"--conclude", "conclude1"}, {"--prepare", "prepare2"}, {"", "command2"}, {"--conclude", "conclude2"}},
			"setup,prepareref,reference,concluderef,prepareref,reference,concluderef,prepareref,reference,concluderef,cleanup," +
				"setup,prepare1,command1,conclude1,prepare1,command1,conclude1,prepare1,command1,conclude1,cleanup," +
				"setup,prepare2,command2,conclude2,prepare2,command2,conclude2,prepare2,command2,conclude2,cleanup"},
	}
	for _, tt := range tests {
		log := filepath.Join(crosstest.TempDir(t), "output.log")
		args := append([]string{"run", "--order", "sequential", "--style", "none"}, tt.args...)
		for _, s := range tt.steps {
			line := "echo " + s.word + " >> " + log
			if s.flag != "" {
				args = append(args, s.flag)
			}
			args = append(args, line)
		}
		_, stderr, code := runChrono(t, "", args...)
		if code != 0 {
			t.Errorf("%s: exit %d, stderr %s", tt.hyperfine, code, stderr)
			continue
		}
		b, _ := os.ReadFile(log)
		if got := strings.ReplaceAll(strings.TrimSuffix(string(b), "\n"), "\n", ","); got != tt.want {
			t.Errorf("%s: order\n  %s\nwant\n  %s", tt.hyperfine, got, tt.want)
		}
	}
}

// TestHyperfineJSONExport: --export-hyperfine-json writes hyperfine 1.20's
// JSON export, which its scripts (plot_histogram.py, plot_whisker.py,
// plot_progression.py, advanced_statistics.py, plot_parametrized.py,
// welch_ttest.py) read: results[].command, times, mean, stddev, median,
// parameters. A reader of exactly hyperfine's fields (unknown fields
// refused) decodes it, and chrono report reads it back.
func TestHyperfineJSONExport(t *testing.T) {
	dir := crosstest.TempDir(t)
	hj := filepath.Join(dir, "h.json")
	_, stderr, code := runChrono(t, "", "run", "--debug-mode", "--style", "none", "-r", "3", "-L", "n", "1,2", "-n", "sleep for {n}",
		"--export-hyperfine-json", hj, "sleep {n}")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(hj)
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Results []struct {
			Command                        string
			Mean                           float64
			Stddev                         *float64
			Median, User, System, Min, Max float64
			Times                          []float64
			MemoryUsageByte                []uint64 `json:"memory_usage_byte"`
			ExitCodes                      []*int   `json:"exit_codes"`
			Parameters                     map[string]string
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		t.Fatalf("not hyperfine's schema: %v\n%s", err, data)
	}
	if len(h.Results) != 2 {
		t.Fatalf("%d results", len(h.Results))
	}
	r := h.Results[1]
	if r.Command != "sleep for 2" || r.Mean != 2 || r.Median != 2 || r.Stddev == nil || *r.Stddev != 0 || len(r.Times) != 3 || r.Times[0] != 2 ||
		len(r.ExitCodes) != 3 || *r.ExitCodes[0] != 0 || r.Parameters["n"] != "2" {
		t.Errorf("result %+v", r)
	}
	// The field order is hyperfine's.
	order := []string{`"command"`, `"mean"`, `"stddev"`, `"median"`, `"user"`, `"system"`, `"min"`, `"max"`, `"times"`, `"exit_codes"`, `"parameters"`}
	last := -1
	for _, k := range order {
		i := strings.Index(string(data), k)
		if i < last {
			t.Errorf("%s out of hyperfine's order:\n%s", k, data)
		}
		last = i
	}
	// chrono report reads it, as a command document.
	d, err := result.ReadFile(hj)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != result.KindCommand || d.Tool.Name != "hyperfine" || len(d.Measurements) != 2 || d.Measurements[1].Metric("wall").Values[0] != 2e9 {
		t.Errorf("read back: %+v", d)
	}
	out, errs, code := runChrono(t, "", "report", hj)
	if code != 0 || !strings.Contains(out, "Command 2: sleep for 2") || !strings.Contains(out, "read from a hyperfine JSON export") {
		t.Errorf("chrono report of the hyperfine export: exit %d\n%s\n%s", code, out, errs)
	}
	// hyperfine's scripts read it (their parsing, without the plotting),
	// where python3 is installed.
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 for hyperfine's scripts' parsing")
	}
	py := `import json, sys, statistics
results = json.load(open(sys.argv[1]))["results"]
labels = [b["command"] for b in results]           # plot_histogram, plot_whisker, advanced_statistics
times = [b["times"] for b in results]
medians = [b["median"] for b in results]            # plot_whisker --sort-by median
means = [b["mean"] for b in results]; sd = [b["stddev"] for b in results]  # plot_parametrized
params = [float(list(b["parameters"].values())[0]) for b in results]
for ts in times: statistics.stdev(ts)               # advanced_statistics (ddof=1)
print(labels[1], means[1], params[1], len(times[1]))`
	got, err := exec.Command("python3", "-c", py, hj).CombinedOutput()
	if err != nil || strings.TrimSpace(string(got)) != "sleep for 2 2.0 2.0 3" {
		t.Errorf("python reader: %v: %s", err, got)
	}
}

// TestRunParityFlags: the usage errors of the hyperfine flags (exit 2,
// before anything runs), and --style hyperfine recorded in the document so
// that chrono report prints what chrono run printed.
func TestRunParityFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{""}, "command 1 is empty"},
		{[]string{"--shell", "", "true"}, "--shell '' names no shell"},
		{[]string{"-N", "-S", "bash", "true"}, "give -N or --shell bash, not both"},
		{[]string{"--reference-name", "x", "true"}, "give --reference CMD too"},
		{[]string{"--ignore-failure=abc", "true"}, "--ignore-failure=abc: give all-non-zero, or exit codes"},
		{[]string{"--output", "nul", "true"}, "give it as ./nul"},
		{[]string{"--time-budget", "2s", "--min-benchmarking-time", "2", "true"}, "give one of them"},
		{[]string{"--export-hyperfine-json", "-", "--json", "true"}, "both write to standard output"},
		{[]string{"--debug-mode", "echo hi"}, "can only simulate commands of the form `sleep SECONDS`"},
	} {
		_, stderr, code := runChrono(t, "", append([]string{"run"}, tt.args...)...)
		want := exitUsage
		if tt.args[0] == "--debug-mode" {
			want = exitFailure // found at the first run
		}
		if code != want || !strings.Contains(stderr, tt.want) {
			t.Errorf("chrono run %q: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, want, tt.want)
		}
	}
	js := filepath.Join(crosstest.TempDir(t), "s.json")
	live, stderr, code := runChrono(t, "", "run", "--debug-mode", "--style", "hyperfine", "-r", "12", "--export-json", js, "sleep 0.1", "sleep 0.25")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rep, _, _ := runChrono(t, "", "report", js)
	if live != rep || !strings.Contains(rep, "2.50 ± 0.00 times faster than sleep 0.25") {
		t.Errorf("chrono report differs from chrono run:\n--- run\n%s\n--- report\n%s", live, rep)
	}
}
