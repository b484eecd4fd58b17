package source

// Names is a fixed set of names that the scans look words up in: the map,
// and the shapes of its names (for each first byte, and for each last
// byte, a bit per length) that turn most words away before the map is
// asked. Made once by NewNames and never changed after, one set serves
// every file and goroutine (FindingCalls, analysis's names of findings).
type Names struct {
	set         map[string]bool
	first, last wordShapes
}

// NewNames is the set of names.
func NewNames(names ...string) *Names {
	n := &Names{set: make(map[string]bool, len(names))}
	for _, w := range names {
		n.set[w] = true
		n.first.add(w)
		n.last.addEnd(w)
	}
	return n
}

// Has reports whether w is a name of the set: the map is asked only where
// w's first and last bytes and length fit a name of it.
func (n *Names) Has(w []byte) bool {
	if len(w) == 0 {
		return false
	}
	b := uint64(1) << min(len(w), 63)
	return n.first[w[0]]&b != 0 && n.last[w[len(w)-1]]&b != 0 && n.set[string(w)]
}

// Contains reports whether name is in the set.
func (n *Names) Contains(name string) bool { return n.set[name] }
