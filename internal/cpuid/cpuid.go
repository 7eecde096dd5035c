// Package cpuid executes the x86 CPUID instruction, for the packages that
// read CPU facts from it (clock: the timestamp counter's features and
// frequency; env: the hypervisor). It does not interpret the leaves: each
// caller decodes the bits it needs.
package cpuid
