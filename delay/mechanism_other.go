//go:build !linux

package delay

func mechanisms() []mechanism {
	rt, rest := goMechanisms()
	return append(rt, rest...)
}

func setThreadSlack(ns int64) error { return ErrUnsupported }
