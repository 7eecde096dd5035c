package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes of chrono.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	// exitInterrupted is returned when a run was stopped by SIGINT/SIGTERM
	// after writing what it had measured (128 + SIGINT, as shells do).
	// Commands that take their context from interruptContext return
	// interruptExitCode instead: 130 after SIGINT, 143 after SIGTERM.
	exitInterrupted = 130
)

// interruptedError is the cause of a context cancelled by a signal.
type interruptedError struct{ sig os.Signal }

func (e interruptedError) Error() string {
	switch e.sig {
	case os.Interrupt:
		return "interrupted by SIGINT"
	case syscall.SIGTERM:
		return "interrupted by SIGTERM"
	}
	return "interrupted by " + e.sig.String()
}

// interruptContext returns a context that the first SIGINT or SIGTERM
// cancels, with an interruptedError naming the signal as its cause (see
// interruptExitCode). After that first signal the signals get their
// default behaviour back, so a second Ctrl-C ends a process that does not
// stop. stop releases the signals; call it when the command ends. Tests
// replace it to inject an interruption.
var interruptContext = func(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch)
			cancel(interruptedError{sig})
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel(context.Canceled)
		})
	}
}

// interruptExitCode is the exit code of a command whose context ctx was
// interrupted: 128 + the signal's number, as a shell reports a process
// killed by it (130 for SIGINT, 143 for SIGTERM), or exitInterrupted when
// ctx ended for another reason.
func interruptExitCode(ctx context.Context) int {
	var ie interruptedError
	if errors.As(context.Cause(ctx), &ie) {
		if s, ok := ie.sig.(syscall.Signal); ok && s > 0 && s < 128 {
			return 128 + int(s)
		}
	}
	return exitInterrupted
}

// subcommands holds the constructors of chrono's subcommands. Each
// subcommand file adds its constructor in an init function, so that adding
// a command never touches another command's file.
var subcommands []func() *cobra.Command

func register(newCmd func() *cobra.Command) { subcommands = append(subcommands, newCmd) }

// usageError marks an error as bad usage (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usage error (exit code 2) with a formatted message.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exitError carries a specific exit code (e.g. 130 after an interrupt)
// with an optional message; an empty message prints nothing.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}
func (e exitError) Unwrap() error { return e.err }

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "chrono",
		Short: "Measure time precisely: clocks, commands, Go functions, sleeps and latency",
		Long: `chrono measures time precisely and says how precise the measurement is.

It characterizes this machine's clocks, benchmarks commands and Go functions,
measures how accurately the machine can wait, and summarizes numbers with
honest statistics. Every measurement can be written as a versioned JSON
result document and read back by the other subcommands.`,
		Example: `  chrono clocks                 # every clock of this host, characterized
  chrono env                    # the measurement conditions and their warnings
  seq 1 1000 | chrono numbers   # summary, percentiles, outliers of numbers`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Every subcommand's empty flags and arguments are refused first.
		PersistentPreRunE: checkEmpty,
		// --version prints the first line of chrono version.
		Version: readBuildInfo().Version,
	}
	root.SetVersionTemplate("chrono {{.Version}}\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see --help)", err)}
	})
	for _, newCmd := range subcommands {
		root.AddCommand(newCmd())
	}
	// cobra's completion command prints its help and succeeds for a shell
	// it does not know (chrono completion tcsh); make that bad usage.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return usagef("no completion for shell %q: use bash, zsh, fish or powershell", args[0])
				}
				return cmd.Help()
			}
			c.Example = "  chrono completion bash > /etc/bash_completion.d/chrono\n  chrono completion zsh > \"${fpath[1]}/_chrono\"\n  chrono completion fish > ~/.config/fish/completions/chrono.fish"
		}
	}
	return root
}

// execute runs chrono with args and returns the process exit code.
func execute(args []string, stdout, stderr io.Writer) int {
	return executeWithInput(args, os.Stdin, stdout, stderr)
}

// executeWithInput is execute with an explicit standard input.
func executeWithInput(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetIn(stdin)
	if args == nil {
		args = []string{} // cobra reads os.Args for a nil slice
	}
	root.SetArgs(args)
	err := root.ExecuteContext(withArgs(context.Background(), args))
	if err == nil {
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		if msg := ee.Error(); msg != "" {
			fmt.Fprintf(stderr, "chrono: %s\n", msg)
		}
		return ee.code
	}
	var ue usageError
	if !errors.As(err, &ue) && isCobraUsageError(err) {
		// cobra's own usage errors (wrong argument count, unknown
		// command) do not say where to look.
		fmt.Fprintf(stderr, "chrono: %s (see --help)\n", oneLine(err.Error()))
		return exitUsage
	}
	fmt.Fprintf(stderr, "chrono: %s\n", oneLine(err.Error()))
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailure
}

// isCobraUsageError recognizes the errors cobra returns for bad usage that
// do not pass through the flag error function (unknown command, wrong
// number of arguments).
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "invalid argument", "unknown flag", "unknown shorthand flag", "flag needs an argument"} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

// oneLine keeps an error message to one line on the terminal.
func oneLine(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "\n", "; "))
}

// stdinIsTerminal reports whether f is a terminal (used for progress lines).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
