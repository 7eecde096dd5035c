package tracer

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// Name identifies an event name (a span, instant or counter name)
// interned with Intern. The zero Name is invalid and records nothing.
// Names are process-wide: a Name made once (typically in a package-level
// var) can be used with every Tracer.
type Name uint32

var names struct {
	mu     sync.Mutex
	byName map[string]Name
	list   atomic.Pointer[[]string] // index = Name; list[0] = ""
}

// maxNames bounds the name table: names are meant to be a fixed set of
// code locations, not per-request strings.
const maxNames = 1 << 20

// Intern returns the Name for s, adding it on first use. It takes a lock
// and may allocate: call it once per name (for example in a package-level
// var), not per event. It panics on an empty name or when more than 2^20
// distinct names were interned, both programming errors.
func Intern(s string) Name {
	if s == "" {
		panic("tracer: Intern of an empty name")
	}
	names.mu.Lock()
	defer names.mu.Unlock()
	if n, ok := names.byName[s]; ok {
		return n
	}
	var old []string
	if p := names.list.Load(); p != nil {
		old = *p
	} else {
		old = []string{""}
		names.byName = map[string]Name{}
	}
	if len(old) >= maxNames {
		panic(fmt.Sprintf("tracer: more than %d distinct names interned: names must be code locations, not per-event strings", maxNames))
	}
	// Copy on write: readers load the slice without the lock.
	list := make([]string, len(old)+1)
	copy(list, old)
	n := Name(len(old))
	list[n] = s
	names.byName[s] = n
	names.list.Store(&list)
	return n
}

// String returns the interned string, or "name#N" for an unknown Name.
func (n Name) String() string {
	if p := names.list.Load(); p != nil && int(n) < len(*p) && n != 0 {
		return (*p)[n]
	}
	return fmt.Sprintf("name#%d", uint32(n))
}
