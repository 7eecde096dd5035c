package main

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// ownEmptyCheck names the flags whose own checks refuse an empty value,
// with a message about that flag (--shell "" names no shell, --counters=
// has an empty event list, ...). checkEmpty leaves them to those checks,
// and the paths of files chrono writes (markPaths) to checkPaths.
var ownEmptyCheck = []string{
	"shell", "events", "durations", "mechanisms", "counters", "pin", "affinity", "percentiles", "tag",
	"threshold", "format", "style", "sort", "parameter-list", "parameter-scan",
}

// commandArgs is the annotation of a subcommand whose arguments are a
// command line to run (chrono stat): only the first, the program, must
// not be empty; the program's own arguments may be.
const commandArgs = "chrono:command-args"

// checkEmpty refuses, as bad usage, what was given an empty value: a
// string flag (--input "", --history= or --db "$DSN" with the variable
// unset, which silently meant the default or nothing) or an argument
// (chrono report ""). The README promises it: "Conflicting or empty
// values are refused with exit code 2 and the fix". Every subcommand runs
// it before its own checks (chrono run, which parses its own flags, after
// parsing them).
func checkEmpty(cmd *cobra.Command, args []string) error {
	if cmd.DisableFlagParsing && !cmd.Flags().Parsed() {
		return nil // chrono run: args are its unparsed flags; it calls checkEmpty after parsing them
	}
	if err := checkPaths(cmd); err != nil {
		return err
	}
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if _, path := f.Annotations[pathAnnotation]; err != nil || path || slices.Contains(ownEmptyCheck, f.Name) {
			return
		}
		var vals []string
		switch v := f.Value.(type) {
		case pflag.SliceValue:
			vals = v.GetSlice()
		default:
			if f.Value.Type() != "string" {
				return
			}
			vals = []string{f.Value.String()}
		}
		if slices.Contains(vals, "") {
			err = emptyFlag(f)
		}
	})
	if err != nil {
		return err
	}
	if _, ok := cmd.Annotations[commandArgs]; ok && len(args) > 1 {
		args = args[:1]
	}
	if i := slices.Index(args, ""); i >= 0 {
		return usagef("%s: argument %d is empty (an unset variable?): give a value (%s; see --help)", cmd.CommandPath()[len("chrono "):], i+1, cmd.UseLine())
	}
	return nil
}

// emptyFlag is the usage error of flag f given an empty value.
func emptyFlag(f *pflag.Flag) error {
	name := "--" + f.Name
	if f.Shorthand != "" {
		name = "-" + f.Shorthand + "/" + name
	}
	fix := "give it a value, or leave it out"
	if f.NoOptDefVal != "" {
		fix = fmt.Sprintf("write --%s alone, without '=', or give it a value", f.Name)
	}
	if f.DefValue != "" && f.Value.Type() == "string" && f.NoOptDefVal == "" {
		fix += " for the default " + f.DefValue
	}
	return usagef("%s is empty (an unset variable?): %s (%s: %s)", name, fix, name, f.Usage)
}
