package clock

// counter is a timestamp-counter source (Kind Counter, Unit "ticks").
type counter struct {
	name, desc string
	ordered    bool
	err        error // non-nil: unavailable
	read       func() uint64
	loop       func(n int) uint64 // n direct reads, returns the last
}

func (c counter) Name() string { return c.name }

func (c counter) Now() int64 {
	if c.err != nil || c.read == nil {
		return 0
	}
	return int64(c.read())
}

func (c counter) readN(n int) int64 {
	if c.err != nil || c.loop == nil {
		return 0
	}
	return int64(c.loop(n))
}

func (c counter) Props() Props {
	p := Props{
		Name: c.name, Description: c.desc, Kind: Counter, Unit: "ticks",
		Path: PathInstruction, PathBasis: "assembly in this package issues the instruction",
		Ordered: c.ordered, Err: c.err,
	}
	if c.err != nil {
		p.Unavailable = c.err.Error()
	}
	return p
}
