//go:build ignore

// Command longest lists the longest function declarations of the Go
// files under DIR (test files excluded unless -tests): lines from the
// func keyword to the closing brace, with the position.
//
// Usage: go run longest.go [-n 15] [-tests] DIR
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
	n := flag.Int("n", 15, "how many to list")
	tests := flag.Bool("tests", false, "include _test.go files")
	flag.Parse()
	root := flag.Arg(0)
	type fn struct {
		name, pos string
		lines     int
	}
	var fns []fn
	fset := token.NewFileSet()
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() && (info.Name() == ".git" || info.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, ".go") || (!*tests && strings.HasSuffix(p, "_test.go")) {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				t := fd.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if id, ok := t.(*ast.Ident); ok {
					name = id.Name + "." + name
				}
			}
			a, b := fset.Position(fd.Pos()), fset.Position(fd.End())
			fns = append(fns, fn{f.Name.Name + "." + name, fmt.Sprintf("%s:%d", rel, a.Line), b.Line - a.Line + 1})
		}
		return nil
	})
	sort.SliceStable(fns, func(i, j int) bool { return fns[i].lines > fns[j].lines })
	for i := 0; i < *n && i < len(fns); i++ {
		fmt.Printf("%4d  %-40s %s\n", fns[i].lines, fns[i].name, fns[i].pos)
	}
}
