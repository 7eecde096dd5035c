// Package kernel reads what the Linux kernel tells through system calls
// that several packages need (clock: the TSC frequency the kernel found;
// env: the hypervisor it detected). It returns the raw text and the
// system call's error as it is: each caller parses what it needs and puts
// a failure in its own words.
package kernel
