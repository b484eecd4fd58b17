package grammar

import (
	"go/ast"
	"go/parser"
	"go/token"
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
	fset := token.NewFileSet()
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

// TestNodeTypesListsEveryNodeType: nodeTypes, which the mover's tests go
// through, is every type of the package that implements Node.
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

// fill sets every exported field under v: each Position to a distinct
// value, each pointer, Node and slice to filled children (an *Int for a
// Node, two elements for a slice), down to depth 3.
func fill(v reflect.Value, depth int, next *int) {
	if v.Type() == reflect.TypeOf(Position{}) {
		*next += 3
		v.Set(reflect.ValueOf(Position{Offset: *next, Line: *next + 1, Column: *next + 2}))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth, next)
			}
		}
	case reflect.Pointer:
		if depth < 3 {
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), depth+1, next)
		}
	case reflect.Interface:
		if depth < 3 && reflect.TypeOf(&Int{}).Implements(v.Type()) {
			child := &Int{}
			fill(reflect.ValueOf(child).Elem(), depth+1, next)
			v.Set(reflect.ValueOf(child))
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), depth, next)
		}
		v.Set(s)
	case reflect.String:
		v.SetString("s")
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Bool:
		v.SetBool(true)
	}
}

// TestMoverKnowsEveryNodeType: a node of each of the package's Node types,
// every field filled, is moved with every position in it moved and nothing
// shared with the original, its treeShape says it can be moved, and moving
// it back gives it again. A type the mover forgets fails here (with
// TestNodeTypesListsEveryNodeType, which keeps nodeTypes complete).
func TestMoverKnowsEveryNodeType(t *testing.T) {
	const dOff, dLine = 1000, 17
	for _, proto := range nodeTypes {
		n := reflect.New(reflect.TypeOf(proto).Elem())
		next := 0
		fill(n.Elem(), 0, &next)
		node := n.Interface().(Node)
		if shapeOf(node).unmovable {
			t.Errorf("%T: treeShape says it cannot be moved", node)
			continue
		}
		moved, ok := moveNode(node, dOff, dLine)
		if !ok {
			t.Errorf("%T: the mover does not know it", node)
			continue
		}
		var before, after []Position
		ptrsBefore, ptrsAfter := map[uintptr]bool{}, map[uintptr]bool{}
		positions(reflect.ValueOf(node), &before, ptrsBefore)
		positions(reflect.ValueOf(moved), &after, ptrsAfter)
		if len(before) != len(after) || len(before) == 0 {
			t.Errorf("%T: %d positions before, %d after", node, len(before), len(after))
			continue
		}
		for i := range before {
			want := Position{Offset: before[i].Offset + dOff, Line: before[i].Line + dLine, Column: before[i].Column}
			if after[i] != want {
				t.Errorf("%T: position %d moved to %+v, want %+v", node, i, after[i], want)
			}
		}
		for p := range ptrsAfter {
			if ptrsBefore[p] {
				t.Errorf("%T: the moved tree shares memory with the original", node)
				break
			}
		}
		if back, ok := moveNode(moved, -dOff, -dLine); !ok || !reflect.DeepEqual(back, node) {
			t.Errorf("%T: moving there and back changes the tree", node)
		}
	}
}
