package valgrind

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chronograph/chronograph/internal/valgrind/valgrindtest"
)

// The regions the test binary measures when it runs as a child of Count.
var (
	data1024 = make([]uint64, 1024)
	data1034 = make([]uint64, 1034)
	sink     uint64
)

// sumUint64 is the function whose instructions are counted: a loop of
// four instructions per element on amd64 (see TestHandCount).
//
//go:noinline
func sumUint64(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

// loopSum is a region's loop: n calls of sumUint64(xs).
//
//go:noinline
func loopSum(xs []uint64, n int) {
	for i := 0; i < n; i++ {
		sink += sumUint64(xs)
	}
}

// leaf and nonLeaf make loopCalls call, every iteration, a function that
// checks its stack (nonLeaf): a point where a goroutine that has run for
// PreemptAfter yields to the scheduler.
//
//go:noinline
func leaf(x uint64) uint64 { return x*3 + 1 }

//go:noinline
func nonLeaf(x uint64) uint64 { return leaf(x) + leaf(x+1) }

//go:noinline
func loopCalls(n int) {
	for i := 0; i < n; i++ {
		sink += nonLeaf(uint64(i))
	}
}

var regions = map[string]func(n int){
	"sum1024": func(n int) { loopSum(data1024, n) },
	"sum1034": func(n int) { loopSum(data1034, n) },
	"calls":   loopCalls,
}

func TestMain(m *testing.M) {
	req, err := Requested()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if req != nil {
		loop, ok := regions[req.Name]
		if !ok {
			fmt.Fprintf(os.Stderr, "valgrind test: no region %q\n", req.Name)
			os.Exit(2)
		}
		if err := req.Measure(loop); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if childDir != "" {
		os.RemoveAll(childDir)
	}
	os.Exit(code)
}

var (
	childOnce sync.Once
	childDir  string
	childPath string
	childErr  error
)

// child returns the test binary to run under callgrind: this one, or,
// when this one was built with -race or -cover (whose instrumentation
// would be counted), builtChild's.
func child(t *testing.T) string {
	t.Helper()
	if Instrumented() == "" {
		valgrindtest.Starts(t, os.Args[0])
		return os.Args[0]
	}
	return builtChild(t)
}

// builtChild returns the package's tests built without -race or -cover
// and with a symbol table (go test strips it from the binaries it runs),
// for tests that disassemble the binary they count.
func builtChild(t *testing.T) string {
	t.Helper()
	childOnce.Do(func() {
		childDir, childErr = os.MkdirTemp("", "chrono-valgrind-test-")
		if childErr != nil {
			return
		}
		childPath = filepath.Join(childDir, "valgrind.test")
		_, childErr = BuildTest(".", childPath)
	})
	if childErr != nil {
		t.Fatal(childErr)
	}
	valgrindtest.Starts(t, childPath)
	return childPath
}
