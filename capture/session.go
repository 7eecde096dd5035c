package capture

import (
	"archive/zip"
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/warn"
)

// sessionSource decodes the logic samples of a sigrok session file
// (libsigrok src/output/srzip.c): a zip holding "version" ("2"),
// "metadata" (INI: [device 1] samplerate, total probes, probeN = name,
// unitsize, capturefile) and the samples in members CAPTUREFILE-1,
// CAPTUREFILE-2, ... (or one member CAPTUREFILE), unitsize bytes per
// sample, probe N in bit N-1 (little-endian across the bytes).
type sessionSource struct {
	chunks   []*zip.File
	chunk    int
	rc       io.ReadCloser
	br       *bufio.Reader
	unitsize int
	bits     []int // bit of each signal
	sample   []byte
	prev     []byte
	n        uint64 // samples read
	changeQueue
}

// NewSessionReader reads a sigrok session file (.sr) of size bytes from
// r: its metadata now, its samples as Next asks for them.
func NewSessionReader(r io.ReaderAt, size int64) (*Reader, error) {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("capture: not a sigrok session file (a zip): %w", err)
	}
	members := map[string]*zip.File{}
	for _, f := range z.File {
		members[f.Name] = f
	}
	version, err := readMember(members, "version", 16)
	if err != nil {
		return nil, err
	}
	if v := strings.TrimSpace(version); v != "1" && v != "2" {
		return nil, fmt.Errorf("capture: version: session file version %q: this reader knows versions 1 and 2", clip([]byte(v)))
	}
	meta, err := readMember(members, "metadata", 1<<20)
	if err != nil {
		return nil, err
	}
	ini, err := parseINI(meta)
	if err != nil {
		return nil, err
	}
	s := &sessionSource{}
	rd := &Reader{info: Info{Format: Session}, src: s}
	in := &rd.info
	in.Version = ini["global"]["sigrok version"]
	if in.Version != "" {
		in.Version = "libsigrok " + in.Version
	}
	dev, ok := ini["device 1"]
	if !ok {
		return nil, errors.New("capture: metadata: no [device 1] section: not a sigrok session file")
	}
	if _, ok := ini["device 2"]; ok {
		in.Warnings = append(in.Warnings, warn.New("capture-devices", "the session file holds several devices: only device 1 is read", ""))
	}
	if rate, ok := dev["samplerate"]; ok {
		hz, err := parseSampleRate(rate)
		if err != nil {
			return nil, fmt.Errorf("capture: metadata: %v", err)
		}
		in.SampleRate = hz
		in.Tick = Resolution{Num: 1, Den: hz}
	} else {
		in.Warnings = append(in.Warnings, warn.New("capture-no-samplerate",
			"the session file gives no sample rate: times are counted in samples of unknown length", ""))
	}
	capturefile := dev["capturefile"]
	if capturefile == "" {
		return nil, errors.New("capture: metadata: no capturefile: the session file holds no logic samples (analog captures are not read)")
	}
	if s.unitsize, err = strconv.Atoi(dev["unitsize"]); err != nil || s.unitsize < 1 || s.unitsize > 64 {
		return nil, fmt.Errorf("capture: metadata: unitsize %q is not a number of bytes from 1 to 64", dev["unitsize"])
	}
	type probe struct {
		n    int
		name string
	}
	var probes []probe
	for k, name := range dev {
		if !strings.HasPrefix(k, "probe") {
			continue
		}
		n, err := strconv.Atoi(k[len("probe"):])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("capture: metadata: key %q is not probe<number>", clip([]byte(k)))
		}
		if n > 8*s.unitsize {
			return nil, fmt.Errorf("capture: metadata: %s is beyond the %d bits of a %d-byte sample", k, 8*s.unitsize, s.unitsize)
		}
		probes = append(probes, probe{n, name})
	}
	if len(probes) == 0 {
		return nil, errors.New("capture: metadata: no probe<N> keys: the session file names no logic channel")
	}
	slices.SortFunc(probes, func(a, b probe) int { return a.n - b.n })
	seen := map[string]int{}
	gap := false
	for i, p := range probes {
		if q, ok := seen[p.name]; ok {
			return nil, fmt.Errorf("capture: metadata: channel %s named twice (probe%d and probe%d): a capture names each channel once", p.name, q, p.n)
		}
		seen[p.name] = p.n
		in.Signals = append(in.Signals, Signal{Name: p.name, Width: 1, Kind: "logic"})
		s.bits = append(s.bits, p.n-1)
		gap = gap || p.n != i+1
	}
	if gap {
		in.Warnings = append(in.Warnings, warn.New("capture-probe-gap",
			fmt.Sprintf("the probes are not numbered 1 to %d: probe N is read from bit N-1, as libsigrok's session loader and PulseView read it, but sigrok-cli 0.7's demo device packs the enabled channels' bits densely", len(probes)),
			"capture with every channel up to the last one enabled, or check a channel against sigrok-cli -i FILE -O vcd"))
	}
	if n, err := strconv.Atoi(dev["total analog"]); err == nil && n > 0 {
		in.Warnings = append(in.Warnings, warn.Warning{Code: "capture-analog-ignored", Severity: warn.Note,
			Message: fmt.Sprintf("%d analog channels are not read (logic channels only)", n)})
	}
	// The chunks, in the order of their numbers.
	type chunk struct {
		n int
		f *zip.File
	}
	var chunks []chunk
	for name, f := range members {
		if name == capturefile {
			chunks = append(chunks, chunk{0, f})
			continue
		}
		rest, ok := strings.CutPrefix(name, capturefile+"-")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 {
			continue
		}
		chunks = append(chunks, chunk{n, f})
	}
	slices.SortFunc(chunks, func(a, b chunk) int { return a.n - b.n })
	for i, c := range chunks {
		if c.n != i+1 && !(i == 0 && c.n == 0 && len(chunks) == 1) {
			return nil, fmt.Errorf("capture: %s-%d is missing (the session file is incomplete)", capturefile, i+1)
		}
		s.chunks = append(s.chunks, c.f)
	}
	if len(s.chunks) == 0 {
		return nil, fmt.Errorf("capture: no member %s-1: the session file holds no samples", capturefile)
	}
	s.sample = make([]byte, s.unitsize)
	s.prev = make([]byte, s.unitsize)
	s.levels = make([]Level, len(s.bits))
	return rd, nil
}

func readMember(members map[string]*zip.File, name string, limit int64) (string, error) {
	f, ok := members[name]
	if !ok {
		return "", fmt.Errorf("capture: no member %q: not a sigrok session file", name)
	}
	rc, err := f.Open()
	if err != nil {
		return "", fmt.Errorf("capture: %s: %w", name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return "", fmt.Errorf("capture: %s: %w", name, err)
	}
	if int64(len(b)) > limit {
		return "", fmt.Errorf("capture: %s is longer than %d bytes: not a sigrok session file", name, limit)
	}
	return string(b), nil
}

// parseINI reads a GLib key file as sigrok writes it: [section] lines,
// key=value lines, # comments.
func parseINI(text string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	var cur map[string]string
	for i, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' {
			continue
		}
		if l[0] == '[' {
			if !strings.HasSuffix(l, "]") {
				return nil, fmt.Errorf("capture: metadata: line %d: section %q has no ']'", i+1, clip([]byte(l)))
			}
			name := l[1 : len(l)-1]
			if out[name] == nil {
				out[name] = map[string]string{}
			}
			cur = out[name]
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok || cur == nil {
			return nil, fmt.Errorf("capture: metadata: line %d: %q is not key=value in a [section]", i+1, clip([]byte(l)))
		}
		k = strings.TrimSpace(k)
		if _, dup := cur[k]; dup {
			return nil, fmt.Errorf("capture: metadata: line %d: key %q given twice", i+1, clip([]byte(k)))
		}
		cur[k] = strings.TrimSpace(v)
	}
	return out, nil
}

func (s *sessionSource) end() uint64 { return s.n }

func (s *sessionSource) next(c *Change) error { return s.pop(c, s.read) }

// read reads samples until one changes a signal (the first sample gives
// every signal its value).
func (s *sessionSource) read() error {
	for {
		if s.br == nil {
			if s.chunk == len(s.chunks) {
				return io.EOF
			}
			f := s.chunks[s.chunk]
			rc, err := f.Open()
			if err != nil {
				return fmt.Errorf("capture: %s: %w", f.Name, err)
			}
			s.rc, s.br = rc, bufio.NewReaderSize(rc, 1<<16)
		}
		if _, err := io.ReadFull(s.br, s.sample); err != nil {
			name := s.chunks[s.chunk].Name
			s.rc.Close()
			s.rc, s.br = nil, nil
			if err == io.EOF {
				s.chunk++
				continue
			}
			if err == io.ErrUnexpectedEOF {
				return fmt.Errorf("capture: %s: its length is not a whole number of %d-byte samples (the file is cut or damaged)", name, s.unitsize)
			}
			return fmt.Errorf("capture: %s: %w", name, err)
		}
		t := s.n
		s.n++
		if t > 0 && string(s.sample) == string(s.prev) {
			continue
		}
		s.pending = s.pending[:0]
		for i, b := range s.bits {
			l := Level(s.sample[b/8] >> (b % 8) & 1)
			if t == 0 || l != Level(s.prev[b/8]>>(b%8)&1) {
				s.levels[i] = l
				s.pending = append(s.pending, i)
			}
		}
		copy(s.prev, s.sample)
		if len(s.pending) > 0 {
			s.now = t
			return nil
		}
	}
}
