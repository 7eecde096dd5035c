package thread

import "testing"

// TestGoNeverOnMain: f never runs on the main thread, and Run waits for it.
func TestGoNeverOnMain(t *testing.T) {
	for range 20 {
		var onMain bool
		Run(func() { onMain = OnMain() })
		if onMain {
			t.Fatal("f ran on the main thread")
		}
	}
}
