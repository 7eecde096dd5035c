// Package vs holds the workloads that scripts/bench-vs-testingb.sh runs
// side by side under testing.B (b.Loop) and under bench (through
// bench.Testing). It has only tests.
package vs
