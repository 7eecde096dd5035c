package profiles

import (
	"debug/dwarf"
	"debug/elf"
	"debug/gosym"
	"debug/macho"
	"debug/pe"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Names is the set of function names of one build: what a profile's
// functions are looked up in to tell whether it is stale.
type Names struct {
	// Source says where the names came from: the binary's path and the
	// tables read ("symbols", "dwarf", "pclntab").
	Source string
	// Inlined reports whether functions that exist only inlined into
	// others are among the names (they are when the binary has DWARF):
	// without them, a function the compiler inlined everywhere would
	// look gone.
	Inlined bool
	set     map[string]bool
}

// NewNames returns the set of the given function names, for a build
// known some other way (and for tests).
func NewNames(source string, inlined bool, names ...string) *Names {
	n := &Names{Source: source, Inlined: inlined, set: map[string]bool{}}
	for _, s := range names {
		n.add(s)
	}
	return n
}

// Len returns the number of distinct names.
func (n *Names) Len() int { return len(n.set) }

// Has reports whether the build has a function of the given name, as a
// profile writes it. Type arguments are not compared ("pkg.F[...]" in a
// profile is "pkg.F[go.shape.int]" in the binary), nor ABI suffixes.
func (n *Names) Has(name string) bool { return n.set[canonical(name)] }

func (n *Names) add(name string) {
	if name != "" {
		n.set[canonical(name)] = true
	}
}

// canonical writes every bracketed type-argument list as "[...]", as
// runtime/pprof names generic functions, and drops the ".abi0" of an
// assembly function's symbol (runtime/pprof names runtime.open.abi0
// runtime.open).
func canonical(name string) string {
	name = strings.TrimSuffix(name, ".abi0")
	if !strings.Contains(name, "[") {
		return name
	}
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '[':
			if depth == 0 {
				b.WriteString("[...]")
			}
			depth++
		case r == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// BinaryNames reads the function names of the executable at path: an
// ELF, PE or Mach-O file. It reads the symbol table, the DWARF
// subprograms (which name the functions that were inlined everywhere and
// have no symbol of their own) and, for a binary stripped of both (go
// build -ldflags=-s -w), Go's own function table (pclntab), which only
// names functions that exist out of line.
//
// The binary, not the source, is asked because it is what the compiler
// will match the profile against: it names closures (pkg.F.func1),
// methods and generic instantiations as profiles do, and it holds the
// standard library and the dependencies, which often hold most of a
// profile's time.
func BinaryNames(path string) (*Names, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("profiles: %w", err)
	}
	defer f.Close()
	var b binary
	if e, err := elf.NewFile(f); err == nil {
		b = elfBinary{e}
	} else if m, err := macho.NewFile(f); err == nil {
		b = machoBinary{m}
	} else if p, err := pe.NewFile(f); err == nil {
		b = peBinary{p}
	} else {
		return nil, fmt.Errorf("profiles: %s is not an ELF, PE or Mach-O executable", path)
	}
	n := &Names{set: map[string]bool{}}
	var tables []string
	if syms := b.symbols(); len(syms) > 0 {
		for _, s := range syms {
			n.add(s)
		}
		tables = append(tables, "symbols")
	}
	if d, err := b.dwarf(); err == nil {
		if k, err := dwarfNames(d, n); err == nil && k > 0 {
			n.Inlined = true
			tables = append(tables, "dwarf")
		}
	}
	if len(tables) == 0 {
		if k, err := pclntabNames(b, n); err == nil && k > 0 {
			tables = append(tables, "pclntab")
		}
	}
	if len(tables) == 0 {
		return nil, fmt.Errorf("profiles: %s has no symbol table, DWARF or Go function table: build it without -ldflags=-s -w", path)
	}
	n.Source = path + " (" + strings.Join(tables, ", ") + ")"
	return n, nil
}

// binary is what BinaryNames reads of an executable, whatever its format.
type binary interface {
	symbols() []string           // names of function symbols
	dwarf() (*dwarf.Data, error) // the DWARF data, if any
	section(name string) []byte  // a section's data, nil if absent
	textStart() uint64           // the address of the text section
}

// dataOf returns a section's contents, nil if they cannot be read.
func dataOf(s interface{ Data() ([]byte, error) }) []byte {
	data, err := s.Data()
	if err != nil {
		return nil
	}
	return data
}

type elfBinary struct{ f *elf.File }

func (b elfBinary) symbols() []string {
	syms, err := b.f.Symbols()
	if err != nil {
		return nil
	}
	var out []string
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			out = append(out, s.Name)
		}
	}
	return out
}
func (b elfBinary) dwarf() (*dwarf.Data, error) { return b.f.DWARF() }
func (b elfBinary) section(name string) []byte {
	if s := b.f.Section(name); s != nil {
		return dataOf(s)
	}
	return nil
}
func (b elfBinary) textStart() uint64 {
	if s := b.f.Section(".text"); s != nil {
		return s.Addr
	}
	return 0
}

type machoBinary struct{ f *macho.File }

func (b machoBinary) symbols() []string {
	if b.f.Symtab == nil {
		return nil
	}
	var out []string
	for _, s := range b.f.Symtab.Syms {
		// N_SECT symbols in a text section; Mach-O prefixes C names
		// with an underscore, and Go's linker does so for Go names too.
		if s.Type&0x0e != 0x0e || s.Sect == 0 || int(s.Sect) > len(b.f.Sections) {
			continue
		}
		if sec := b.f.Sections[s.Sect-1]; sec.Seg != "__TEXT" {
			continue
		}
		out = append(out, strings.TrimPrefix(s.Name, "_"))
	}
	return out
}
func (b machoBinary) dwarf() (*dwarf.Data, error) { return b.f.DWARF() }
func (b machoBinary) section(name string) []byte {
	if s := b.f.Section("__" + strings.TrimPrefix(name, ".")); s != nil {
		return dataOf(s)
	}
	return nil
}
func (b machoBinary) textStart() uint64 {
	if s := b.f.Section("__text"); s != nil {
		return s.Addr
	}
	return 0
}

type peBinary struct{ f *pe.File }

func (b peBinary) symbols() []string {
	var out []string
	for _, s := range b.f.Symbols {
		// Section numbers start at 1; Go puts functions in .text.
		if s.SectionNumber <= 0 || int(s.SectionNumber) > len(b.f.Sections) {
			continue
		}
		if b.f.Sections[s.SectionNumber-1].Name == ".text" {
			out = append(out, s.Name)
		}
	}
	return out
}
func (b peBinary) dwarf() (*dwarf.Data, error) { return b.f.DWARF() }
func (b peBinary) section(string) []byte       { return nil } // pclntab has no section of its own in PE
func (b peBinary) textStart() uint64           { return 0 }

// dwarfNames adds the names of d's subprograms (concrete and abstract:
// Go writes an abstract subprogram for each function it inlined) to n,
// and returns how many it saw.
func dwarfNames(d *dwarf.Data, n *Names) (int, error) {
	r := d.Reader()
	k := 0
	for {
		e, err := r.Next()
		if err != nil {
			return k, err
		}
		if e == nil {
			return k, nil
		}
		if e.Tag != dwarf.TagSubprogram {
			continue
		}
		if name, ok := e.Val(dwarf.AttrName).(string); ok {
			n.add(name)
			k++
		}
	}
}

// pclntabNames adds the names of the functions in Go's function table
// (the .gopclntab section) to n, and returns how many.
func pclntabNames(b binary, n *Names) (int, error) {
	data := b.section(".gopclntab")
	if data == nil {
		return 0, errors.New("no .gopclntab section")
	}
	t, err := gosym.NewTable(nil, gosym.NewLineTable(data, b.textStart()))
	if err != nil {
		return 0, err
	}
	for _, fn := range t.Funcs {
		n.add(fn.Name)
	}
	return len(t.Funcs), nil
}
