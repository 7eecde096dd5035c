// Package env captures the conditions of a measurement (host, kernel, CPU
// frequency policy, hypervisor, Go build and runtime settings) and derives
// warnings that say what spoils a measurement and what to do about it.
package env
