// Command chrono measures time precisely: clocks, commands, Go functions,
// sleeps and wake-up latency. Run `chrono --help` for the subcommands.
package main

import (
	"os"
)

func main() {
	os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr))
}
