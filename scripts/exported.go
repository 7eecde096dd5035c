//go:build ignore

// Command exported counts the exported API of each package of a Go module:
// exported top-level funcs, types, vars and consts, and exported methods
// of exported types (struct fields and interface methods are not counted).
// Test files, package main and internal packages are skipped unless -all.
//
// Usage: go run exported.go [-all] [-v] [-fields] DIR
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	all := flag.Bool("all", false, "include internal packages and package main")
	verbose := flag.Bool("v", false, "list the identifiers")
	fields := flag.Bool("fields", false, "also count exported fields of exported struct types (separate column)")
	flag.Parse()
	root := flag.Arg(0)
	type pkgCount struct {
		funcs, types, vars, consts, methods, fields int
		names                                       []string
		seen                                        map[string]bool
	}
	pkgs := map[string]*pkgCount{}
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			n := info.Name()
			if n == ".git" || n == "testdata" || (strings.HasPrefix(n, ".") && p != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		if !*all && (f.Name.Name == "main" || rel == "internal" || strings.HasPrefix(rel, "internal/") || strings.Contains(rel, "/internal/") || strings.HasPrefix(rel, "examples/")) {
			return nil
		}
		c := pkgs[rel]
		if c == nil {
			c = &pkgCount{}
			pkgs[rel] = c
		}
		add := func(kind, name string, n *int) {
			// Platform files define the same names (clock_linux.go,
			// clock_other.go): count each name once per package.
			if c.seen == nil {
				c.seen = map[string]bool{}
			}
			if c.seen[kind+" "+name] {
				return
			}
			c.seen[kind+" "+name] = true
			*n++
			c.names = append(c.names, kind+" "+name)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					add("func", d.Name.Name, &c.funcs)
					continue
				}
				t := d.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if ix, ok := t.(*ast.IndexExpr); ok {
					t = ix.X
				}
				if id, ok := t.(*ast.Ident); ok && id.IsExported() {
					add("method", id.Name+"."+d.Name.Name, &c.methods)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						add("type", s.Name.Name, &c.types)
						if st, ok := s.Type.(*ast.StructType); ok && *fields {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									if n.IsExported() {
										c.fields++
									}
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							if d.Tok == token.CONST {
								add("const", n.Name, &c.consts)
							} else {
								add("var", n.Name, &c.vars)
							}
						}
					}
				}
			}
		}
		return nil
	})
	var names []string
	for n := range pkgs {
		names = append(names, n)
	}
	sort.Strings(names)
	total, totalTop, totalFields := 0, 0, 0
	fmt.Printf("%-22s %5s %5s %5s %5s %5s %5s %6s", "package", "func", "type", "var", "const", "meth", "top", "total")
	if *fields {
		fmt.Printf(" %6s", "fields")
	}
	fmt.Println()
	for _, n := range names {
		c := pkgs[n]
		top := c.funcs + c.types + c.vars + c.consts
		t := top + c.methods
		if t == 0 {
			continue
		}
		total += t
		totalTop += top
		totalFields += c.fields
		fmt.Printf("%-22s %5d %5d %5d %5d %5d %5d %6d", n, c.funcs, c.types, c.vars, c.consts, c.methods, top, t)
		if *fields {
			fmt.Printf(" %6d", c.fields)
		}
		fmt.Println()
		if *verbose {
			sort.Strings(c.names)
			for _, x := range c.names {
				fmt.Println("    " + x)
			}
		}
	}
	fmt.Printf("%-22s %35d %6d", "TOTAL", totalTop, total)
	if *fields {
		fmt.Printf(" %6d", totalFields)
	}
	fmt.Println()
}
