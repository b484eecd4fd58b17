package analysis

import (
	"strings"
	"sync"
)

// textMemo keeps values by the text (or key bytes) they are a function of,
// shared by every sheet and safe for concurrent use: a generated sheet
// writes the same few literals and calls on thousands of lines. It holds at
// most textMemoMax entries and starts over when full, so a sheet of all
// different texts costs a bounded map. What it keeps is never changed once
// made.
type textMemo[K hostText, V any] struct {
	mu sync.Mutex
	m  map[string]V
}

const textMemoMax = 4096

// get is the value kept for key, if any.
func (c *textMemo[K, V]) get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[string(key)]
	return v, ok
}

// put keeps v for key, in a copy of its own (a string key may be part of
// a longer text, which the memo would otherwise keep alive).
func (c *textMemo[K, V]) put(key K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]V)
	}
	if len(c.m) >= textMemoMax {
		clear(c.m)
	}
	k := string(key)
	if _, isString := any(key).(string); isString {
		k = strings.Clone(k)
	}
	c.m[k] = v
}

// len is the number of values kept.
func (c *textMemo[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// reset forgets every value kept.
func (c *textMemo[K, V]) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
}
