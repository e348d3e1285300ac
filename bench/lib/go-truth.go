// Reference resolution by go/types, for the benchmark: for every identifier use in the packages of
// a module (build constraints of this machine, tests left out), the declaration the type checker
// binds it to. Run: go run go-truth.go MODULE_ROOT
// Prints "use<TAB>decl" per use, positions as path:line:column (1-based, byte columns, paths
// relative to the module root); decl is "-" for declarations outside the module (the standard
// library, predeclared names). Package names of imports are left out.
package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

func main() {
	root, _ := filepath.Abs(os.Args[1])
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	modPath := regexp.MustCompile(`(?m)^module\s+"?([^\s"]+)`).FindSubmatch(mod)[1]
	fset := token.NewFileSet()
	std := importer.ForCompiler(fset, "source", nil)
	checked := map[string]*types.Package{}
	embedded := map[token.Pos]token.Pos{}
	infos := map[string]*types.Info{}
	var load func(path string) (*types.Package, error)
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == string(modPath) || strings.HasPrefix(path, string(modPath)+"/") {
			return load(path)
		}
		return std.Import(path)
	})
	load = func(path string) (*types.Package, error) {
		if p, ok := checked[path]; ok {
			return p, nil
		}
		dir := filepath.Join(root, strings.TrimPrefix(strings.TrimPrefix(path, string(modPath)), "/"))
		bp, err := build.ImportDir(dir, 0)
		if err != nil {
			return nil, err
		}
		var files []*ast.File
		for _, name := range bp.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
			// an embedded field's object sits at its type (`html.Config`); its name is `Config`
			ast.Inspect(f, func(n ast.Node) bool {
				if st, ok := n.(*ast.StructType); ok {
					for _, fl := range st.Fields.List {
						if len(fl.Names) == 0 {
							if id := embeddedName(fl.Type); id != nil {
								embedded[fl.Type.Pos()] = id.Pos()
							}
						}
					}
				}
				return true
			})
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		p, _ := conf.Check(path, fset, files, info)
		checked[path] = p
		infos[path] = info
		return p, nil
	}
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.IsDir() {
			base := fi.Name()
			if p != root && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" || base == "vendor") {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(root, p)
			path := string(modPath)
			if rel != "." {
				path += "/" + filepath.ToSlash(rel)
			}
			load(path)
		}
		return nil
	})
	rel := func(pos token.Position) string {
		r, _ := filepath.Rel(root, pos.Filename)
		return fmt.Sprintf("%s:%d:%d", filepath.ToSlash(r), pos.Line, pos.Column)
	}
	var lines []string
	for _, info := range infos {
		for id, obj := range info.Uses {
			if _, isPkg := obj.(*types.PkgName); isPkg {
				continue
			}
			decl := "-"
			if obj.Pkg() != nil && obj.Pos().IsValid() {
				pos := obj.Pos()
				if name, ok := embedded[pos]; ok {
					pos = name
				}
				if p := fset.Position(pos); strings.HasPrefix(p.Filename, root+string(filepath.Separator)) {
					decl = rel(p)
				}
			}
			lines = append(lines, rel(fset.Position(id.Pos()))+"\t"+decl)
		}
	}
	sort.Strings(lines)
	w := bufio.NewWriter(os.Stdout)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	w.Flush()
}

func embeddedName(e ast.Expr) *ast.Ident {
	switch t := e.(type) {
	case *ast.Ident:
		return t
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel
	case *ast.IndexExpr:
		return embeddedName(t.X)
	case *ast.IndexListExpr:
		return embeddedName(t.X)
	}
	return nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
