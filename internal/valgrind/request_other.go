//go:build !amd64 && !arm64

package valgrind

// request returns def: valgrind's client requests are implemented here for
// amd64 and arm64 only, the architectures Go and valgrind share on Linux
// and the Go runtime's own valgrind support covers.
func request(def, req, a1, a2, a3, a4, a5 uintptr) uintptr { return def }
