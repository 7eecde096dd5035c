package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
)

// version is the release version, set at build time with
// -ldflags "-X main.version=v1.2.3"; "devel" otherwise.
var version = "devel"

func init() { register(newVersionCmd) }

// buildInfo describes the running binary.
type buildInfo struct {
	Version   string `json:"version"`
	GoVersion string `json:"go_version"`
	Platform  string `json:"platform"`
	Module    string `json:"module,omitempty"`
	Revision  string `json:"vcs_revision,omitempty"`
	Time      string `json:"vcs_time,omitempty"`
	Modified  bool   `json:"vcs_modified,omitempty"`
}

func readBuildInfo() buildInfo {
	bi := buildInfo{Version: version, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return bi
	}
	bi.Module = info.Main.Path
	if bi.Version == "devel" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		bi.Version = info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			bi.Revision = s.Value
		case "vcs.time":
			bi.Time = s.Value
		case "vcs.modified":
			bi.Modified = s.Value == "true"
		}
	}
	return bi
}

// toolInfo describes chrono for result documents: its build, with the
// release version when one was set at build time.
func toolInfo() result.Tool {
	t := result.ToolFromBuild("chrono")
	t.Version = readBuildInfo().Version
	return t
}

// meta is what chrono records in a document besides the measurement:
// itself, the command line and host's environment.
func meta(cmd *cobra.Command, host *env.Host) result.Meta {
	return result.Meta{Tool: toolInfo(), Args: invocation(cmd), Environment: host}
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print chrono's version and build information",
		Example: "  chrono version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bi := readBuildInfo()
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "chrono %s\n", bi.Version)
			fmt.Fprintf(w, "go:       %s %s\n", bi.GoVersion, bi.Platform)
			if bi.Module != "" {
				fmt.Fprintf(w, "module:   %s\n", bi.Module)
			}
			rev := bi.Revision
			if rev == "" {
				rev = "unknown (built without VCS stamping, e.g. -buildvcs=false or outside a git checkout)"
			} else if bi.Modified {
				rev += " (modified)"
			}
			fmt.Fprintf(w, "revision: %s\n", rev)
			if bi.Time != "" {
				fmt.Fprintf(w, "time:     %s\n", bi.Time)
			}
			return nil
		},
	}
}
