// Package vs holds the workloads that scripts/bench-vs-testingb.sh runs
// side by side under testing.B (b.Loop) and under bench (through
// bench/benchtest.Run). It has only tests.
package vs
