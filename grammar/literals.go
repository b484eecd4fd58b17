package grammar

import "math/bits"

// literals shares the literal subtrees of a first parse's fast path among
// its lines: an Int, and a Tuple or Layout of shared literals alone, read
// at the same place relative to its statement (positions are relative, see
// Position) with the same text is one node, however many lines hold it. A
// generated sheet repeats a few literals over and over at the same places
// (`L17 = (4,8):(1,16)` and `L18 = (4,8):(1,16)`), and their nodes were
// most of what its trees kept. Trees are never changed once made (Cache),
// and the analysis tells nodes apart by identity for names alone
// (analysis.Sheet.Refs): a subtree holding a Name or a Call is never shared.
//
// The table is direct-mapped: a node found in its slot with the same
// content is taken, another replaces what the slot held. A line the fast
// path leaves to the parser has its nodes taken back (arena.reset), so the
// slots it filled are restored (undo) rather than left pointing at them.
type literals struct {
	slots []Node
	// lists are the argument lists of calls, by the same hashes: the
	// lists of calls of shared literals alone.
	lists [][]Node
	undo  []literalUndo // the slots the current line filled, what they held
}

type literalUndo struct {
	slot     int
	prev     Node
	prevList []Node
	list     bool // a slot of lists
}

// literalSlotsMax is the most slots of a table (640 KiB at 40 bytes a
// slot, freed with the parse); a small sheet's table is smaller.
const literalSlotsMax = 1 << 14

// literalSeed starts every hash: a hash of 0 says "not shared".
const literalSeed = 0x243f6a8885a308d3

func literalMix(h, v uint64) uint64 { return bits.RotateLeft64((h^v)*0x9e3779b97f4a7c15, 29) | 1 }

// slot is the slot of hash h, the table made for a text of n bytes on
// first use.
func (t *literals) slot(h uint64, n int) int {
	if t.slots == nil {
		size := 64
		for size < literalSlotsMax && size*32 < n {
			size *= 2
		}
		t.slots = make([]Node, size)
		t.lists = make([][]Node, size)
	}
	return int(h>>32) & (len(t.slots) - 1)
}

// put puts n in slot i, to be undone if the line fails.
func (t *literals) put(i int, n Node) {
	t.undo = append(t.undo, literalUndo{slot: i, prev: t.slots[i]})
	t.slots[i] = n
}

// putList puts the list l in slot i of lists, to be undone if the line fails.
func (t *literals) putList(i int, l []Node) {
	t.undo = append(t.undo, literalUndo{slot: i, prevList: t.lists[i], list: true})
	t.lists[i] = l
}

// commit keeps what the current line put; rollback restores the slots.
func (t *literals) commit() { t.undo = t.undo[:0] }

func (t *literals) rollback() {
	for k := len(t.undo) - 1; k >= 0; k-- {
		u := t.undo[k]
		if u.list {
			t.lists[u.slot] = u.prevList
		} else {
			t.slots[u.slot] = u.prev
		}
	}
	t.undo = t.undo[:0]
}
