package env

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzParseCPUList: ParseCPUList never panics; an error is one short line
// starting with "env: "; a list is sorted, distinct, within [0, maxCPU]
// (so at most maxCPU+1 numbers, whatever the input), and FormatCPUList
// writes it as a list that parses back to it.
func FuzzParseCPUList(f *testing.F) {
	for _, s := range []string{"", "(null)", "0", "0-3", "0-1,4,6-7\n", "3,1,2", "3-1", "a", "-1", "+3", "0-65535",
		"0-65536", "0-999999999", "1,1,1-2,0-1", " 2 , 5-6 ", "0-3,2-5,9", "99999999999999999999"} {
		f.Add(s)
	}
	// The CPU lists of the fixture hosts (online, isolated, affinity).
	filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (d.Name() == "online" || d.Name() == "isolated" || d.Name() == "possible") {
			if b, err := os.ReadFile(path); err == nil {
				f.Add(string(b))
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, s string) {
		cpus, err := ParseCPUList(s)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "env: ") || strings.ContainsAny(msg, "\n\r") || len(msg) > 400 {
				t.Fatalf("error is not one short line starting with \"env: \" (%d bytes): %.1000q", len(msg), msg)
			}
			return
		}
		if len(cpus) > maxCPU+1 {
			t.Fatalf("%d CPUs", len(cpus))
		}
		for i, c := range cpus {
			if c < 0 || c > maxCPU || i > 0 && c <= cpus[i-1] {
				t.Fatalf("ParseCPUList(%q) = %v: not sorted, distinct CPUs in [0, %d]", s, cpus, maxCPU)
			}
		}
		back, err := ParseCPUList(FormatCPUList(cpus))
		if err != nil || !reflect.DeepEqual(back, cpus) {
			t.Fatalf("ParseCPUList(FormatCPUList(%v)) = %v, %v (list %q)", cpus, back, err, FormatCPUList(cpus))
		}
	})
}

// TestParseCPUListBounds: a range the size of a typo is refused before it
// is expanded, overlapping ranges are merged rather than expanded once
// each (a 1 MB list of "0-65535" used to take billions of steps), and
// the error quotes a short prefix of the list.
func TestParseCPUListBounds(t *testing.T) {
	if _, err := ParseCPUList("0-999999999"); err == nil || !strings.Contains(err.Error(), "CPU 999999999 is above 65535") {
		t.Errorf("0-999999999: error %v", err)
	}
	all, err := ParseCPUList(strings.Repeat("0-65535,", 1<<17) + "7")
	if err != nil || len(all) != maxCPU+1 || all[maxCPU] != maxCPU {
		t.Errorf("2^17 overlapping ranges: %d CPUs, %v", len(all), err)
	}
	_, err = ParseCPUList(strings.Repeat("x", 1<<20))
	if err == nil || len(err.Error()) > 200 {
		t.Errorf("1 MB of junk: error %.300v", err)
	}
}

// FuzzHostFiles feeds the parsers of /proc and /sys files with the files
// of the fixture hosts (testdata/kvm, laptop, server), mutated. They
// read what the kernel wrote, so the properties are modest: no panic,
// no more records than lines, unescaping never lengthens a path, and an
// error is one line.
func FuzzHostFiles(f *testing.F) {
	filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(path, ".json") && !strings.HasSuffix(path, ".py") {
			if b, err := os.ReadFile(path); err == nil && len(b) < 64<<10 {
				f.Add(string(b))
			}
		}
		return nil
	})
	f.Add("max 100000")
	f.Add("35 root /mnt/a\\040b rw - ext4 /dev/sda1 rw,relatime\n36 35 0:1 / /x rw - cgroup cgroup rw,cpu\\")
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Count(s, "\n") + 1
		if ci := parseCPUInfo(s); ci.Processors > lines {
			t.Fatalf("parseCPUInfo counted %d processors in %d lines", ci.Processors, lines)
		}
		if ms := parseMountinfo(s); len(ms) > lines {
			t.Fatalf("parseMountinfo found %d mounts in %d lines", len(ms), lines)
		}
		if u := unescapeMount(s); len(u) > len(s) {
			t.Fatalf("unescapeMount lengthened %q to %q", s, u)
		}
		if m := parseOSRelease(s); len(m) > lines {
			t.Fatalf("parseOSRelease found %d keys in %d lines", len(m), lines)
		}
		iso := cmdlineIsolation(s)
		for _, w := range iso {
			if !slices.Contains(strings.Fields(s), w) {
				t.Fatalf("cmdlineIsolation(%q) returned %q, not a word of it", s, w)
			}
		}
		_ = selectedMode(s)
		_ = hypervisorFromKernelLog(s)
		_ = hypervisorFromSignature(s)
		_ = hypervisorFromDMI(s, s)
		if _, err := parseLoadAvg(s); err != nil && strings.ContainsAny(err.Error(), "\n\r") {
			t.Fatalf("parseLoadAvg error is not one line: %q", err)
		}
		if q, p, ok, err := parseCPUMax(s); err != nil && (ok || strings.ContainsAny(err.Error(), "\n\r")) {
			t.Fatalf("parseCPUMax(%q) = %d, %d, %v, %v", s, q, p, ok, err)
		}
	})
}
