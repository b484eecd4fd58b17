package grammar

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// nodeTypesInSource are the names of the package's types that implement
// Node, found by type-checking the package's own source (test files
// excluded): a type added to the AST is in this list whether or not a test
// mentions it.
func nodeTypesInSource(t *testing.T) []string {
	t.Helper()
	fset := gotoken.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	// Only the declarations of this package matter: the packages it
	// imports are left empty rather than compiled (the errors this makes,
	// in function bodies, are ignored).
	empty := func(path string) (*types.Package, error) {
		return types.NewPackage(path, filepath.Base(path)), nil
	}
	conf := types.Config{Importer: importerFunc(empty), Error: func(error) {}}
	pkg, _ := conf.Check("github.com/cute-lsp/cute-lsp/grammar", fset, files, nil)
	node, ok := pkg.Scope().Lookup("Node").(*types.TypeName)
	if !ok {
		t.Fatal("no Node in the package's source")
	}
	iface := node.Type().Underlying().(*types.Interface)
	var out []string
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		// A type embedding one of the emptied imports' counts as
		// implementing every interface; node() is found only on Node's.
		ptr := types.NewPointer(tn.Type())
		if m, _, _ := types.LookupFieldOrMethod(ptr, true, pkg, "node"); m == nil {
			continue
		}
		if types.Implements(tn.Type(), iface) || types.Implements(ptr, iface) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// TestNodeTypesListsEveryNodeType: nodeTypes, which the test sheet of the
// cache's tests must cover (TestEveryKindHasEveryNodeType), is every type
// of the package that implements Node.
func TestNodeTypesListsEveryNodeType(t *testing.T) {
	var listed []string
	for _, n := range nodeTypes {
		listed = append(listed, reflect.TypeOf(n).Elem().Name())
	}
	sort.Strings(listed)
	inSource := nodeTypesInSource(t)
	if !reflect.DeepEqual(listed, inSource) {
		t.Fatalf("nodeTypes lists\n%v\nthe package's Node types are\n%v", listed, inSource)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
