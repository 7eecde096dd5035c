package kernel

import "golang.org/x/sys/unix"

// Log returns the kernel ring buffer as `dmesg` reads it (syslog(2),
// SYSLOG_ACTION_READ_ALL; it needs CAP_SYSLOG when kernel.dmesg_restrict
// is 1). The error is the system call's errno, unwrapped (unix.EPERM for
// a restricted log).
func Log() ([]byte, error) {
	const (
		syslogActionReadAll    = 3
		syslogActionSizeBuffer = 10
	)
	n, err := unix.Klogctl(syslogActionSizeBuffer, nil)
	if err != nil || n <= 0 {
		n = 1 << 20
	}
	buf := make([]byte, n)
	m, err := unix.Klogctl(syslogActionReadAll, buf)
	if err != nil {
		return nil, err
	}
	return buf[:m], nil
}
