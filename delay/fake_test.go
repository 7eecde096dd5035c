package delay

import "sync"

// fakeClock is a deterministic clock: every read advances time by step
// (so spins terminate), and block(abs) jumps to abs plus a lateness drawn
// from late.
type fakeClock struct {
	mu     sync.Mutex
	t      int64
	step   int64
	late   func() int64
	blocks []int64 // the wake times asked for
	yields []int64 // the times of the yields
	// fail, when set, makes block return its error without waiting.
	fail func() error
	// gate, when set, makes block wait for a value from it first
	// (without holding the clock).
	gate chan struct{}
}

func (c *fakeClock) now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t += c.step
	return c.t
}

func (c *fakeClock) block(abs int64) error {
	if c.gate != nil {
		<-c.gate
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.blocks = append(c.blocks, abs)
	if c.fail != nil {
		if err := c.fail(); err != nil {
			return err
		}
	}
	if abs > c.t {
		c.t = abs
	}
	if c.late != nil {
		c.t += c.late()
	}
	return nil
}

func (c *fakeClock) yield() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.yields = append(c.yields, c.t)
}

// holdClock is a fakeClock that can also hold: hold(abs) jumps to abs
// plus a lateness drawn from holdLate, and records the wake time asked
// for. Errors come from holdFail when set.
type holdClock struct {
	*fakeClock
	holdLate func() int64
	holds    []int64
	holdFail func() error
}

func (c *holdClock) hold(abs int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.holds = append(c.holds, abs)
	if c.holdFail != nil {
		if err := c.holdFail(); err != nil {
			return err
		}
	}
	if abs > c.t {
		c.t = abs
	}
	if c.holdLate != nil {
		c.t += c.holdLate()
	}
	return nil
}
