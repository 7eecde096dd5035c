// Command pipeline is a small pipeline of goroutines (read → parse ×2 →
// compute → write) instrumented with both of chronograph's in-place
// timers: package scope aggregates the time of each stage per name, and
// package tracer records every span, instant and counter into a flight
// recorder whose dump `chrono trace` summarizes and draws. Each request
// carries a flow id, so its path through the stages can be followed and
// its end-to-end latency measured with `chrono trace --between --per-flow`.
// Every 50th request stalls in compute for 2 ms (as if waiting for a
// disk): a trigger keeps the events around each such stall.
//
//	go run ./examples/pipeline -o /tmp/pipeline.json
//	chrono trace /tmp/pipeline.json --between read 'write:end' --per-flow
//	chrono trace /tmp/pipeline.json --html /tmp/pipeline.html
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/chronograph/chronograph/scope"
	"github.com/chronograph/chronograph/tracer"
)

// Event names, interned once.
var (
	evRead    = tracer.Intern("read")
	evParse   = tracer.Intern("parse")
	evCompute = tracer.Intern("compute")
	evHash    = tracer.Intern("hash")
	evStall   = tracer.Intern("stall")
	evWrite   = tracer.Intern("write")
	evQueued  = tracer.Intern("queued")
	evBacklog = tracer.Intern("backlog")
)

// Scope timers, kept in variables (a lookup by name also works:
// scope.Start("parse")).
var (
	scParse   = scope.New("parse")
	scCompute = scope.New("compute")
)

type request struct {
	id   uint64
	data [256]byte
	sum  [32]byte
}

// work hashes the request's data rounds times: CPU work of a fixed size.
func work(r *request, rounds int) {
	for range rounds {
		r.sum = sha256.Sum256(r.data[:])
		r.data[0] = r.sum[0]
	}
}

func main() {
	out := flag.String("o", "pipeline.json", "write the trace-event JSON dump here")
	n := flag.Int("n", 200, "number of requests")
	slowDir := flag.String("slow", "", "directory to write the trigger's dumps around slow compute spans (none when empty)")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintln(os.Stderr, "pipeline: -n must be at least 1")
		os.Exit(2)
	}

	trig := &tracer.Trigger{
		Name: evCompute, Longer: 1500 * time.Microsecond, Before: 2 * time.Millisecond, After: time.Millisecond,
		Handle: func(w *tracer.Trace, info tracer.TriggerInfo) {
			if *slowDir == "" {
				return
			}
			path := fmt.Sprintf("%s/slow-%d.json", *slowDir, info.End)
			if err := tracer.WriteChromeFile(path, w); err != nil {
				fmt.Fprintln(os.Stderr, "pipeline:", err)
			}
		},
	}
	tr, err := tracer.New(tracer.Options{RingEvents: 4096, Trigger: trig})
	if err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(1)
	}
	defer tr.Close()

	parsed := make(chan *request, 8)
	computed := make(chan *request, 8)
	raw := make(chan *request, 8)
	var wg sync.WaitGroup

	// read: make each request.
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(raw)
		lane := tr.Lane("read")
		for i := range uint64(*n) {
			r := &request{id: i + 1}
			sp := lane.BeginFlow(evRead, r.id)
			r.data[0], r.data[1] = byte(i), byte(i>>8)
			work(r, 20)
			sp.End()
			raw <- r
			lane.InstantFlow(evQueued, r.id, uint64(len(raw)))
			tr.Counter(evBacklog, float64(len(raw)))
		}
	}()

	// parse: two workers.
	var parsers sync.WaitGroup
	for w := range 2 {
		parsers.Add(1)
		go func() {
			defer parsers.Done()
			lane := tr.Lane(fmt.Sprintf("parse %d", w+1))
			for r := range raw {
				t := scParse.Start()
				sp := lane.BeginFlow(evParse, r.id)
				work(r, 60)
				sp.End()
				t.Stop()
				parsed <- r
			}
		}()
	}
	go func() { parsers.Wait(); close(parsed) }()

	// compute: hashing, nested spans, and a stall every 50th request.
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(computed)
		lane := tr.Lane("compute")
		for r := range parsed {
			scope.Measure(scCompute, func() struct{} {
				sp := lane.BeginFlow(evCompute, r.id)
				defer sp.End()
				for range 2 {
					h := lane.Begin(evHash)
					work(r, 40)
					h.End()
				}
				if r.id%50 == 0 {
					st := lane.Begin(evStall)
					time.Sleep(2 * time.Millisecond)
					st.End()
				}
				return struct{}{}
			})
			computed <- r
		}
	}()

	// write: the end of each request's flow.
	wg.Add(1)
	go func() {
		defer wg.Done()
		lane := tr.Lane("write")
		for r := range computed {
			sp := lane.BeginFlow(evWrite, r.id)
			work(r, 10)
			sp.End()
		}
	}()
	wg.Wait()

	snap, err := tr.Snapshot()
	if err == nil {
		err = tracer.WriteChromeFile(*out, snap)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(1)
	}
	for _, st := range scope.Snapshot() {
		fmt.Println(st)
	}
	fmt.Printf("wrote %s: %d events, clock %s\n", *out, len(snap.Events), tr.Clock())
}
