//go:build !linux

package kernel

import "errors"

// Log fails: the kernel log is read through a Linux system call. The
// error is errors.ErrUnsupported.
func Log() ([]byte, error) { return nil, errors.ErrUnsupported }
