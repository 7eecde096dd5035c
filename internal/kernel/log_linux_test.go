package kernel

import (
	"errors"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLog: the kernel log is text, or the error is syslog(2)'s errno as
// it is, for the caller to name (EPERM where kernel.dmesg_restrict hides
// the log from this user).
func TestLog(t *testing.T) {
	buf, err := Log()
	if err != nil {
		var errno unix.Errno
		if !errors.As(err, &errno) || err.Error() != errno.Error() {
			t.Fatalf("Log() error %q (%T), want the bare errno", err, err)
		}
		t.Logf("the kernel log is not readable here: %v", err)
		return
	}
	if len(buf) > 0 && buf[len(buf)-1] == 0 {
		t.Errorf("the log ends with a NUL byte: %q", buf[max(0, len(buf)-20):])
	}
}
