package valgrind

import (
	"slices"
	"strings"
	"testing"
)

func TestRequestCheck(t *testing.T) {
	for _, tt := range []struct {
		r    Request
		want string // "" = valid
	}{
		{Request{Name: "a", Iterations: []int{1, 2}}, ""},
		{Request{Name: "a", Iterations: []int{10, 20, 30}, Warmup: 5}, ""},
		{Request{Iterations: []int{1, 2}}, "has no name"},
		{Request{Name: "a", Iterations: []int{1}}, "1 iteration counts for region \"a\", want at least 2"},
		{Request{Name: "a"}, "0 iteration counts"},
		{Request{Name: "a", Iterations: []int{2, 2}}, "must be positive and increasing"},
		{Request{Name: "a", Iterations: []int{3, 2}}, "must be positive and increasing"},
		{Request{Name: "a", Iterations: []int{0, 2}}, "must be positive and increasing"},
		{Request{Name: "a", Iterations: []int{1, 2}, Warmup: -1}, "warm-up of -1 iterations"},
		{Request{Name: "a", Iterations: []int{1, 2}, Repeats: 3}, ""},
		{Request{Name: "a", Iterations: []int{1, 2}, Repeats: -1}, "-1 repeats of region"},
	} {
		err := tt.r.check()
		if tt.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", tt.r, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "valgrind: ") {
			t.Errorf("%+v: err = %v, want %q", tt.r, err, tt.want)
		}
	}
}

func TestRequested(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want *Request
		err  string
	}{
		{`{"name":"sum","iterations":[1000,2000],"warmup":10}`, &Request{Name: "sum", Iterations: []int{1000, 2000}, Warmup: 10}, ""},
		{`{"name":"sum","iterations":[1000,2000],"warmup":10,"repeats":3}`, &Request{Name: "sum", Iterations: []int{1000, 2000}, Warmup: 10, Repeats: 3}, ""},
		{`not json`, nil, "is not a region request"},
		{`{"name":"sum","iterations":[1000,2000],"extra":1}`, nil, `unknown field "extra"`},
		{`{"name":"sum","iterations":[2000,1000]}`, nil, "must be positive and increasing"},
	} {
		t.Setenv(EnvRegion, tt.env)
		got, err := Requested()
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err = %v, want %q", tt.env, err, tt.err)
			}
			continue
		}
		if err != nil || got == nil || got.Name != tt.want.Name || !slices.Equal(got.Iterations, tt.want.Iterations) || got.Warmup != tt.want.Warmup || got.Repeats != tt.want.Repeats {
			t.Errorf("%s: %+v, %v, want %+v", tt.env, got, err, tt.want)
		}
		// What Session passes is what Requested reads.
		t.Setenv(EnvRegion, strings.TrimPrefix(got.env(), EnvRegion+"="))
		if again, err := Requested(); err != nil || again.Name != got.Name || !slices.Equal(again.Iterations, got.Iterations) || again.Repeats != got.Repeats {
			t.Errorf("round trip of %+v: %+v, %v", got, again, err)
		}
	}
}

func TestRequestedUnset(t *testing.T) {
	// TestMain has already handled a set variable; here it is unset.
	if r, err := Requested(); r != nil || err != nil {
		t.Errorf("Requested() = %+v, %v without %s", r, err, EnvRegion)
	}
}

// TestMeasureNative: Measure refuses to run outside valgrind, without
// running the loop.
func TestMeasureNative(t *testing.T) {
	r := &Request{Name: "sum", Iterations: []int{1, 2}}
	ran := false
	err := r.Measure(func(int) { ran = true })
	if err == nil || !strings.Contains(err.Error(), "does not run under valgrind") || ran {
		t.Errorf("Measure natively: err = %v, loop ran: %v", err, ran)
	}
	bad := &Request{Name: "sum", Iterations: []int{1}}
	if err := bad.Measure(func(int) { ran = true }); err == nil || ran {
		t.Errorf("Measure of a bad request: err = %v, loop ran: %v", err, ran)
	}
}

func TestChildEnv(t *testing.T) {
	req := Request{Name: "sum", Iterations: []int{1, 2}}
	for _, tt := range []struct {
		base, extra []string
		godebug     string
	}{
		{[]string{"PATH=/bin"}, nil, "asyncpreemptoff=1"},
		{[]string{"GODEBUG=madvdontneed=1"}, nil, "madvdontneed=1,asyncpreemptoff=1"},
		{[]string{"GODEBUG=madvdontneed=1"}, []string{"GODEBUG=gctrace=1"}, "gctrace=1,asyncpreemptoff=1"},
		{[]string{"GODEBUG="}, nil, "asyncpreemptoff=1"},
	} {
		env := childEnv(tt.base, tt.extra, req)
		if got := lastValue(env, "GODEBUG"); got != tt.godebug {
			t.Errorf("%v + %v: GODEBUG=%s, want %s", tt.base, tt.extra, got, tt.godebug)
		}
		for key, want := range map[string]string{"GOMAXPROCS": "1", "GOGC": "off", EnvRegion: strings.TrimPrefix(req.env(), EnvRegion+"=")} {
			if got := lastValue(env, key); got != want {
				t.Errorf("%s=%s, want %s", key, got, want)
			}
		}
		if !slices.Equal(env[:len(tt.base)], tt.base) {
			t.Errorf("the parent's environment is not kept: %v", env)
		}
	}
}

// lastValue returns the value of the last setting of key in env, the one
// a program sees (os/exec keeps the last of duplicates).
func lastValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if after, ok := strings.CutPrefix(kv, key+"="); ok {
			v = after
		}
	}
	return v
}
