//go:build !linux && !windows

package delay

func mechanisms() []mechanism {
	rt, rest := goMechanisms()
	return append(rt, rest...)
}
