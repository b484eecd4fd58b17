package analysis

import (
	"slices"
	"strconv"
	"sync"

	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/source"
)

// CodeCache keeps the values of the names a file binds from one reading of
// it to the next: an editor asks for the inlay hints of a CUDA file after
// each edit, and an edit changes the values of a few names at most.
//
// A binding's value is a function of what it reads: its value's tree (the
// kinds, names, numbers and operators, not the offsets) and, for each name
// in it, the binding that name resolves to (by its own key, recursively)
// or, where none, whether CuTe's names are visible there. The key of a
// binding says all of that, so a value found under it is the value a fresh
// evaluation gives. A file whose names refer to each other in a cycle, or
// whose evaluation could reach maxEvalDepth, does not use the cache: there
// a value may depend on the order of evaluation.
//
// It is safe for concurrent use; it holds at most codeCacheKeys keys (and
// their values), and starts afresh when full.
type CodeCache struct {
	mu     sync.Mutex
	ids    map[string]uint64 // interned binding keys
	next   uint64            // never reused: an id names one key for good
	values map[uint64]cachedValue
	// errors are the algebra's answers on calls (Code.algebraError) by
	// the call's key, written as a binding's is: a call's findings are a
	// function of its operands' values, as a binding's value is.
	errors map[string]cachedError
}

type cachedError struct {
	err *layout.Error // nil: the algebra accepts the call
	ok  bool
}

type cachedValue struct {
	v       layout.Value // nil: no value
	printed string       // CuTePrint(v), once asked
}

// codeCacheKeys bounds a CodeCache: well above the distinct bindings of
// the files open in an editor (a 720-line kernel has a few hundred), and a
// few MB at most (a key and its value take a few hundred bytes each).
const codeCacheKeys = 1 << 13

// sharedCodeCache is the cache every Code read by ReadCode uses: the keys
// are about content only, so one cache serves every file, version and
// server (the editor's hints, hovers and findings after each edit, lint).
var sharedCodeCache = NewCodeCache()

// NewCodeCache makes an empty cache.
func NewCodeCache() *CodeCache {
	return &CodeCache{ids: map[string]uint64{}, values: map[uint64]cachedValue{}, errors: map[string]cachedError{}}
}

// UseCache makes c take binding values from cache and put them there
// (nil: from none) instead of the shared cache ReadCode gives it; values
// already evaluated stay as they are (they are the same).
func (c *Code) UseCache(cache *CodeCache) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cache, c.keys = cache, nil
}

// maxCachedDepth bounds the evaluation depth a file may reach and still
// use the cache: below maxEvalDepth, so no evaluation is cut short.
const maxCachedDepth = maxEvalDepth - 4

// bindingKeys are the cache ids of a Code's bindings.
type bindingKeys struct {
	usable bool     // no cycle, no evaluation near maxEvalDepth
	ids    []uint64 // per binding
	// reach is, per binding, a bound on the depth its evaluation reaches
	// (below 0 while being computed: a cycle).
	reach []int
	head  []byte // what every key starts with: the language, Python's CuTe modules
	buf   []byte // the keys being written
}

// cacheID is the cache id of binding i; ok is false where the cache is
// not used. c.mu is held.
func (c *Code) cacheID(i int) (uint64, bool) {
	if !c.cacheUsable() {
		return 0, false
	}
	return c.keys.ids[i], true
}

// cacheUsable reports whether c uses a cache, keying its bindings on first
// use. c.mu is held.
//
// A file read for lint (source.File.ForLint) is evaluated afresh: lint
// reads it once, so the keys of all its bindings, built on the first
// evaluation, cost more than the values found under them save (10-16% of
// lint's CPU on the traits headers and layout.hpp). A value under a key is
// the fresh evaluation's, so the findings and counts are the same.
func (c *Code) cacheUsable() bool {
	if c.cache == nil || c.File.ForLint {
		return false
	}
	if c.keys == nil {
		c.keys = &bindingKeys{}
		c.cache.mu.Lock()
		c.keys.usable = c.computeKeys()
		c.cache.mu.Unlock()
	}
	return c.keys.usable
}

// cachedAlgebraError is c.algebraError(n), from the cache when it is
// there. The key is n's tree with what its names resolve to, written as a
// binding's value's is (nodeReach), after the file's head and a mark of
// its own. c.mu is held.
func (c *Code) cachedAlgebraError(n *source.Call) (*layout.Error, bool) {
	if !c.cacheUsable() {
		return c.algebraError(n)
	}
	k := c.keys
	base := len(k.buf)
	k.buf = append(k.buf, k.head...)
	k.buf = append(k.buf, "E|"...)
	reach, ok := c.nodeReach(n, true)
	key := string(k.buf[base:])
	k.buf = k.buf[:base]
	if !ok || reach > maxCachedDepth {
		return c.algebraError(n)
	}
	c.cache.mu.Lock()
	r, there := c.cache.errors[key]
	c.cache.mu.Unlock()
	if there {
		return r.err, r.ok
	}
	e, found := c.algebraError(n)
	c.cache.mu.Lock()
	if len(c.cache.errors) >= codeCacheKeys {
		c.cache.errors = map[string]cachedError{} // start afresh: bounded
	}
	c.cache.errors[key] = cachedError{err: e, ok: found}
	c.cache.mu.Unlock()
	return e, found
}

// computeKeys interns the key of every binding and checks that the file
// may use the cache. c.cache.mu is held.
func (c *Code) computeKeys() bool {
	k := c.keys
	n := len(c.File.Bindings)
	k.ids = make([]uint64, n)
	k.reach = make([]int, n)
	if c.python {
		k.head = append(k.head, "py"...)
		names := make([]string, 0, len(c.File.Modules))
		for m, ok := range c.File.Modules {
			if ok {
				names = append(names, m)
			}
		}
		slices.Sort(names)
		for _, m := range names {
			k.head = append(k.head, ' ')
			k.head = append(k.head, m...)
		}
	}
	k.head = append(k.head, '|')
	if len(c.cache.ids)+n > codeCacheKeys {
		c.cache.ids = map[string]uint64{}
		c.cache.values = map[uint64]cachedValue{}
	}
	for i := range n {
		if _, ok := c.bindingKey(i); !ok {
			return false
		}
	}
	// Roots are evaluated from depth 0 too (hover, Values); those that are
	// bindings' values (in the same order) have been measured above.
	next := 0
	for _, r := range c.File.Roots {
		for next < n && c.File.Bindings[next].Value == nil {
			next++
		}
		if next < n && c.File.Bindings[next].Value == r {
			next++
			continue
		}
		if d, ok := c.nodeReach(r, false); !ok || d > maxCachedDepth {
			return false
		}
	}
	return true
}

// bindingKey computes the key of binding i (and of those it refers to)
// and its reach; ok is false on a cycle or too deep a reach.
func (c *Code) bindingKey(i int) (int, bool) {
	k := c.keys
	switch {
	case k.reach[i] < 0:
		return 0, false // a cycle
	case k.ids[i] != 0:
		return k.reach[i], true
	}
	k.reach[i] = -1
	b := &c.File.Bindings[i]
	// The key is written at the end of k.buf, after the unfinished keys of
	// the bindings that refer to this one, and cut off once interned.
	base := len(k.buf)
	k.buf = append(k.buf, k.head...)
	k.buf = appendFlags(k.buf, b.Value == nil, b.Unknown, b.Reassigned, b.Template)
	for _, p := range b.Params {
		k.buf = append(k.buf, p...)
		k.buf = append(k.buf, ',')
	}
	k.buf = append(k.buf, '|')
	reach := 0
	if b.Value != nil {
		var ok bool
		reach, ok = c.nodeReach(b.Value, true)
		if !ok || reach > maxCachedDepth {
			return 0, false
		}
	}
	key := k.buf[base:]
	id, ok := c.cache.ids[string(key)]
	if !ok {
		c.cache.next++
		id = c.cache.next
		c.cache.ids[string(key)] = id
	}
	k.buf = k.buf[:base]
	k.ids[i], k.reach[i] = id, reach
	return reach, true
}

func appendFlags(b []byte, flags ...bool) []byte {
	for _, f := range flags {
		if f {
			b = append(b, '1')
		} else {
			b = append(b, '0')
		}
	}
	return b
}

// nodeReach bounds the evaluation depth of n (one per level of the tree,
// three more through a name to its binding's value) and, when key is
// true, appends n's part of its binding's key to c.keys.buf.
func (c *Code) nodeReach(n source.Node, key bool) (int, bool) {
	k := c.keys
	if n == nil {
		if key {
			k.buf = append(k.buf, '~')
		}
		return 0, true
	}
	tag := func(s string) {
		if key {
			k.buf = append(k.buf, s...)
		}
	}
	reach := 0
	sub := func(x source.Node) bool {
		d, ok := c.nodeReach(x, key)
		reach = max(reach, d+1)
		return ok && reach <= maxCachedDepth
	}
	switch n := n.(type) {
	case *source.Int:
		if key {
			k.buf = append(k.buf, 'N')
			k.buf = strconv.AppendInt(k.buf, n.Value, 10)
			k.buf = appendFlags(k.buf, n.Static)
		}
		return 0, true
	case *source.Ident:
		if n == nil {
			return 0, false
		}
		return c.identReach(n, key)
	case *source.Call:
		tag("C(")
		if key {
			k.buf = appendFlags(k.buf, n.HasTArgs, n.Paren, n.Braced, n.Recv != nil)
		}
		if n.Recv != nil && !sub(n.Recv) {
			return 0, false
		}
		if !sub(n.Fun) {
			return 0, false
		}
		tag("<")
		for _, a := range n.TArgs {
			if !sub(a) {
				return 0, false
			}
			tag(",")
		}
		tag(">(")
		for _, a := range n.Args {
			if !sub(a) {
				return 0, false
			}
			tag(",")
		}
		tag(")")
		for _, kw := range n.Keywords {
			tag(kw.Name)
			tag("=")
			if !sub(kw.Value) {
				return 0, false
			}
			tag(",")
		}
		tag(")")
	case *source.Binary:
		tag("B")
		tag(n.Op)
		tag("(")
		if !sub(n.X) || !sub(n.Y) {
			return 0, false
		}
		tag(")")
	case *source.Unary:
		tag("U")
		tag(n.Op)
		tag("(")
		if !sub(n.X) {
			return 0, false
		}
		tag(")")
	case *source.Tuple:
		tag("T(")
		for _, e := range n.Elems {
			if !sub(e) {
				return 0, false
			}
			tag(",")
		}
		tag(")")
	case *source.Attr:
		tag("A")
		tag(n.Name)
		tag("(")
		if !sub(n.X) {
			return 0, false
		}
		tag(")")
	case *source.String:
		tag("S")
	case *source.Opaque:
		tag("O")
	default:
		return 0, false // a node this key does not know: no caching
	}
	return reach, true
}

// identReach is nodeReach for a name: what it resolves to where it is
// written (the names Code.ident and Code.call look up), or whether CuTe's
// unqualified names are visible there.
func (c *Code) identReach(n *source.Ident, key bool) (int, bool) {
	k := c.keys
	if key {
		k.buf = append(k.buf, 'I')
		k.buf = append(k.buf, n.Full...)
		k.buf = append(k.buf, ' ')
		k.buf = append(k.buf, n.Name...)
	}
	reach := 0
	first := firstDotted(n.Full)
	for _, name := range [2]string{n.Name, first} {
		j, ok := c.lookup(name, n.Start)
		if !ok {
			if key {
				k.buf = append(k.buf, '-')
			}
		} else {
			d, ok := c.bindingKey(j)
			if !ok {
				return 0, false
			}
			reach = max(reach, d+3)
			if key {
				k.buf = append(k.buf, '#')
				k.buf = strconv.AppendUint(k.buf, k.ids[j], 10)
			}
		}
		if first == n.Name {
			break
		}
	}
	if j, ok := c.scopedBinding(n); ok {
		// Traits::X reads the member X of a struct of this file.
		d, ok := c.bindingKey(j)
		if !ok {
			return 0, false
		}
		reach = max(reach, d+3)
		if key {
			k.buf = append(k.buf, 'M')
			k.buf = strconv.AppendUint(k.buf, k.ids[j], 10)
		}
	}
	if key {
		k.buf = appendFlags(k.buf, c.File.CuteAt(n.Start))
	}
	return reach, reach <= maxCachedDepth
}

// cachedBinding is binding i's value from the cache, if it is there.
// c.mu is held.
func (c *Code) cachedBinding(i int) (layout.Value, bool) {
	id, ok := c.cacheID(i)
	if !ok {
		return nil, false
	}
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	e, ok := c.cache.values[id]
	return e.v, ok
}

// rememberBinding puts binding i's value in the cache. c.mu is held.
func (c *Code) rememberBinding(i int, v layout.Value) {
	id, ok := c.cacheID(i)
	if !ok {
		return
	}
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	// A Code read before the cache last started afresh may still put
	// values under its older keys: never past the bound.
	if _, there := c.cache.values[id]; !there && len(c.cache.values) < codeCacheKeys {
		c.cache.values[id] = cachedValue{v: v}
	}
}

// printedBinding is CuTePrint of binding i's value v, printed once per
// cache entry. c.mu is held.
func (c *Code) printedBinding(i int, v layout.Value) string {
	id, ok := c.cacheID(i)
	if !ok {
		return CuTePrint(v)
	}
	c.cache.mu.Lock()
	e, there := c.cache.values[id]
	c.cache.mu.Unlock()
	if there && e.printed != "" {
		return e.printed
	}
	s := CuTePrint(v)
	if there {
		c.cache.mu.Lock()
		if e, still := c.cache.values[id]; still {
			e.printed = s
			c.cache.values[id] = e
		}
		c.cache.mu.Unlock()
	}
	return s
}
