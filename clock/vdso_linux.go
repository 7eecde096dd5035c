//go:build linux

package clock

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The vDSO (virtual dynamic shared object) is a small ELF shared library
// that the kernel maps into every process. Its clock_gettime reads the
// kernel's timekeeping data and the clocksource's counter (the TSC, or the
// paravirtual clock page of kvm-clock) in user space, without entering the
// kernel: about 25 ns instead of 0.4-1.5 µs for the system call. C
// programs reach it through glibc; the Go runtime finds it itself (for its
// own CLOCK_MONOTONIC and CLOCK_REALTIME reads only). This file finds it
// the same way for every other clock: the auxiliary vector entry
// AT_SYSINFO_EHDR gives the address of its ELF header, and its dynamic
// symbol table the address of each function.

// atSysinfoEHDR is the auxiliary vector key of the vDSO's ELF header.
const atSysinfoEHDR = 33

// vdsoSymbol names a vDSO function and the symbol version it must carry.
type vdsoSymbol struct {
	name, version string
}

// vdsoImage is what was found of the vDSO: the functions this package
// calls (0 when absent) and, when it could not be used, why.
type vdsoImage struct {
	base         uintptr
	clockGettime uintptr
	getcpu       uintptr
	// clockSym and getcpuSym name the symbols found, for the path labels.
	clockSym, getcpuSym string
	err                 error // why the vDSO or clock_gettime is not used
	getcpuErr           error // why getcpu is not used
}

// vdso is found once, at package initialization (parsing the ~8 KiB image
// takes tens of microseconds), so that every read costs one load of the
// function address and a compare.
var vdso = loadVDSO()

func loadVDSO() vdsoImage {
	var v vdsoImage
	auxv, err := unix.Auxv()
	if err != nil {
		v.err = fmt.Errorf("clock: reading the auxiliary vector: %w", err)
		v.getcpuErr = v.err
		return v
	}
	for _, kv := range auxv {
		if kv[0] == atSysinfoEHDR {
			v.base = kv[1]
		}
	}
	if v.base == 0 {
		v.err = errors.New("clock: the kernel mapped no vDSO into this process (no AT_SYSINFO_EHDR in the auxiliary vector)")
		v.getcpuErr = v.err
		return v
	}
	if !vdsoCallable {
		v.err, v.getcpuErr = errVDSONotCalled, errVDSONotCalled
		return v
	}
	mapStart, mapEnd := vdsoMapping()
	size, err := vdsoSize(v.base, mapStart, mapEnd)
	if err != nil {
		v.err, v.getcpuErr = err, err
		return v
	}
	img := memAt(v.base, size)
	syms, err := vdsoLookup(img, []vdsoSymbol{vdsoClockGettimeSym, vdsoGetcpuSym})
	if err != nil {
		v.err, v.getcpuErr = err, err
		return v
	}
	if off, ok := syms[vdsoClockGettimeSym.name]; ok {
		v.clockGettime, v.clockSym = v.base+off, vdsoClockGettimeSym.name+" ("+vdsoClockGettimeSym.version+")"
	} else {
		v.err = fmt.Errorf("clock: the vDSO has no %s symbol of version %s", vdsoClockGettimeSym.name, vdsoClockGettimeSym.version)
	}
	if vdsoGetcpuSym.name == "" {
		v.getcpuErr = errors.New("clock: the vDSO of " + vdsoArch + " has no getcpu")
	} else if off, ok := syms[vdsoGetcpuSym.name]; ok {
		v.getcpu, v.getcpuSym = v.base+off, vdsoGetcpuSym.name+" ("+vdsoGetcpuSym.version+")"
	} else {
		v.getcpuErr = fmt.Errorf("clock: the vDSO has no %s symbol of version %s", vdsoGetcpuSym.name, vdsoGetcpuSym.version)
	}
	return v
}

// vdsoMapping returns the address range of the [vdso] mapping from
// /proc/self/maps, or zeros when it cannot be read (no /proc).
func vdsoMapping() (start, end uintptr) {
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0, 0
	}
	return parseVDSOMapping(string(b))
}

// parseVDSOMapping finds the "[vdso]" line of /proc/self/maps text.
func parseVDSOMapping(maps string) (start, end uintptr) {
	for line := range strings.SplitSeq(maps, "\n") {
		if !strings.HasSuffix(strings.TrimSpace(line), "[vdso]") {
			continue
		}
		rng, _, _ := strings.Cut(line, " ")
		lo, hi, ok := strings.Cut(rng, "-")
		if !ok {
			return 0, 0
		}
		a, err1 := strconv.ParseUint(lo, 16, 64)
		b, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || b <= a {
			return 0, 0
		}
		return uintptr(a), uintptr(b)
	}
	return 0, 0
}

// vdsoSize returns the size of the ELF image at base: the end of its
// program headers' file contents or of its section headers, whichever is
// further. It reads only the 64-byte ELF header and the program headers,
// which lie in the first page of the mapping. When the [vdso] mapping is
// known (mapStart == base), the image must fit in it.
func vdsoSize(base uintptr, mapStart, mapEnd uintptr) (int, error) {
	hdr := memAt(base, 64)
	size, phoff, phnum, phentsize, err := elfExtent(hdr)
	if err != nil {
		return 0, err
	}
	if phoff+phnum*phentsize > 4096 {
		return 0, errors.New("clock: the vDSO's program headers lie beyond its first page")
	}
	ph := memAt(base+uintptr(phoff), phnum*phentsize)
	for i := range phnum {
		p := ph[i*phentsize:]
		off := binary.LittleEndian.Uint64(p[8:])
		filesz := binary.LittleEndian.Uint64(p[32:])
		size = max(size, off+filesz)
	}
	if mapStart == base && mapEnd > mapStart {
		if size > uint64(mapEnd-mapStart) {
			return 0, fmt.Errorf("clock: the vDSO's headers describe %d bytes but its mapping has %d", size, mapEnd-mapStart)
		}
	} else if size > 1<<20 {
		return 0, fmt.Errorf("clock: the vDSO's headers describe an implausible %d bytes", size)
	}
	return int(size), nil
}

// elfExtent checks that hdr is the header of a little-endian 64-bit ELF
// shared object and returns the end of its section header table and where
// its program headers are.
func elfExtent(hdr []byte) (shEnd uint64, phoff, phnum, phentsize int, err error) {
	if len(hdr) < 64 || string(hdr[:4]) != elf.ELFMAG {
		return 0, 0, 0, 0, errors.New("clock: the vDSO does not start with an ELF header")
	}
	if elf.Class(hdr[elf.EI_CLASS]) != elf.ELFCLASS64 || elf.Data(hdr[elf.EI_DATA]) != elf.ELFDATA2LSB {
		return 0, 0, 0, 0, errors.New("clock: the vDSO is not a little-endian 64-bit ELF image")
	}
	le := binary.LittleEndian
	phoff = int(le.Uint64(hdr[32:]))
	shoff := le.Uint64(hdr[40:])
	phentsize = int(le.Uint16(hdr[54:]))
	phnum = int(le.Uint16(hdr[56:]))
	shentsize := uint64(le.Uint16(hdr[58:]))
	shnum := uint64(le.Uint16(hdr[60:]))
	if phentsize < 56 || phnum == 0 {
		return 0, 0, 0, 0, errors.New("clock: the vDSO has no usable program headers")
	}
	return shoff + shnum*shentsize, phoff, phnum, phentsize, nil
}

// vdsoLookup returns the offsets from the image start of the wanted
// functions that are defined in img's dynamic symbol table with the wanted
// version. The offset is the symbol's value less the load bias of the
// first PT_LOAD segment (vaddr - offset), as the dynamic linker computes
// it. A symbol that is absent, undefined, not a function, or of another
// version is left out.
func vdsoLookup(img []byte, want []vdsoSymbol) (map[string]uintptr, error) {
	f, err := elf.NewFile(bytes.NewReader(img))
	if err != nil {
		return nil, fmt.Errorf("clock: parsing the vDSO: %w", err)
	}
	var bias uint64
	found := false
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD {
			bias, found = p.Vaddr-p.Off, true
			break
		}
	}
	if !found {
		return nil, errors.New("clock: the vDSO has no PT_LOAD segment")
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		return nil, fmt.Errorf("clock: reading the vDSO's dynamic symbols: %w", err)
	}
	out := map[string]uintptr{}
	for _, s := range syms {
		for _, w := range want {
			if s.Name != w.name || s.Section == elf.SHN_UNDEF || elf.ST_TYPE(s.Info) != elf.STT_FUNC ||
				!s.HasVersion || s.Version != w.version || s.Value < bias || s.Value-bias >= uint64(len(img)) {
				continue
			}
			out[w.name] = uintptr(s.Value - bias)
		}
	}
	return out, nil
}

// vdsoServed reports whether the kernel's vDSO reads clock id itself (on
// x86-64 and arm64 Linux: the high-resolution clocks REALTIME, MONOTONIC,
// BOOTTIME and TAI, MONOTONIC_RAW, and the COARSE clocks). For the others
// (the CPU-time clocks) the vDSO's clock_gettime makes the system call
// itself, in C programs too.
func vdsoServed(id int32) bool {
	switch id {
	case unix.CLOCK_REALTIME, unix.CLOCK_MONOTONIC, unix.CLOCK_MONOTONIC_RAW, unix.CLOCK_BOOTTIME, unix.CLOCK_TAI,
		unix.CLOCK_REALTIME_COARSE, unix.CLOCK_MONOTONIC_COARSE:
		return true
	}
	return false
}

// memAt returns the n bytes at address a of the vDSO mapping. That memory
// is not Go's: the kernel maps it for the life of the process, read-only,
// and it never moves, so holding a Go slice of it is safe. (Converting
// through a pointer to the uintptr, rather than uintptr to unsafe.Pointer
// directly, states that the address did not come from Go memory.)
func memAt(a uintptr, n int) []byte {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&a))
	return unsafe.Slice((*byte)(p), n)
}
