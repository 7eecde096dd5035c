//go:build amd64 || arm64

package valgrind

// request issues valgrind client request req with arguments a1..a5 and
// returns valgrind's answer, or def when the program does not run under
// valgrind (natively the instruction sequence changes nothing). Pointer
// arguments must be converted to uintptr in the call expression itself,
// so that the compiler keeps their objects alive and in place.
//
//go:noescape
func request(def, req, a1, a2, a3, a4, a5 uintptr) uintptr
