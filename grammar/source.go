package grammar

// sliceSource is where the readers take tokens from: a token slice;
// past its end it returns eof. (A concrete type, not an interface: the
// readers' sources then stay on the stack.)
type sliceSource struct {
	toks []token
	i    int
	eof  token
	// arena is where the readers take nodes from (nil: each its own).
	arena *arena
}

func (s *sliceSource) Peek() *token {
	if s.i < len(s.toks) {
		return &s.toks[s.i]
	}
	return &s.eof
}

func (s *sliceSource) Next() *token {
	t := s.Peek()
	if s.i < len(s.toks) {
		s.i++
	}
	return t
}

func (s *sliceSource) PeekAfter() *token {
	if s.i+1 < len(s.toks) {
		return &s.toks[s.i+1]
	}
	return &s.eof
}
