package source

import "bytes"

// preprocessed is what the reader takes from a file's preprocessor lines.
// disabled are the stretches of C++ source a preprocessor never compiles
// whatever is defined: the body of "#if 0" (or "#if false") up to its
// #else, #elif or #endif, and the #else branch of "#if 1" ("#if true").
// Code there may be anything (an old version, a sketch): analysis reports
// nothing in it. Directives nest; other conditions are not judged. elses
// are the names a #define outside them makes "else" (#define ELSE else;
// nil when none), whose use is an if's else all the same
// (cppReader.isElseAt).
type preprocessed struct {
	disabled []Range
	elses    map[string]bool
}

// directives reads the preprocessor lines of src.
func directives(src []byte) (p preprocessed) {
	type cond struct {
		constant int // 0 or 1 for "#if 0" / "#if 1"; -1 for any other condition
		start    int // where the disabled stretch began; -1 when none is open
	}
	var stack []cond
	disabledDepth := -1 // index in stack of the condition disabling code; -1 if none
	// "%:" is the digraph of "#" ("%:if 0"); looked for only in a file
	// that holds one.
	digraphs, digraph := bytes.Contains(src, []byte("%:")), -1
	for at := 0; at < len(src); {
		// Only a line with a "#" may be a directive: the next "#" is
		// found at memchr speed, then its line (at is a line's start).
		hash := bytes.IndexByte(src[at:], '#')
		if hash >= 0 {
			hash += at
		}
		mark := 1 // the length of the "#" or "%:" at hash
		if digraphs && digraph < at {
			if digraph = bytes.Index(src[at:], []byte("%:")); digraph < 0 {
				digraphs = false
			} else {
				digraph += at
			}
		}
		if digraphs && (hash < 0 || digraph < hash) {
			hash, mark = digraph, 2
		}
		if hash < 0 {
			break
		}
		if nl := bytes.LastIndexByte(src[at:hash], '\n'); nl >= 0 {
			at += nl + 1
		}
		end := bytes.IndexByte(src[hash:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += hash
		}
		if len(bytes.TrimSpace(src[at:hash])) != 0 {
			at = end + 1 // a "#" after the line's start: no directive
			continue
		}
		if line := bytes.TrimSpace(src[hash+mark : end]); len(line) > 0 {
			w, rest := directive(line)
			switch word := string(w); word {
			case "if", "ifdef", "ifndef":
				c := cond{constant: -1, start: -1}
				if word == "if" {
					switch string(rest) {
					case "0", "false":
						c.constant = 0
					case "1", "true":
						c.constant = 1
					}
				}
				if c.constant == 0 && disabledDepth < 0 {
					c.start, disabledDepth = end, len(stack)
				}
				stack = append(stack, c)
			case "else", "elif", "elifdef", "elifndef":
				if len(stack) == 0 {
					break
				}
				top := &stack[len(stack)-1]
				switch {
				case disabledDepth == len(stack)-1 && top.start >= 0:
					p.disabled = append(p.disabled, Range{top.start, at})
					top.start, disabledDepth = -1, -1
					if top.constant == 0 && word != "else" {
						top.constant = -1 // #elif X after #if 0: judged no further
					}
				case disabledDepth < 0 && top.constant == 1:
					top.start, disabledDepth = end, len(stack)-1 // #if 1 ... #else: the rest is never compiled
				}
			case "define":
				if name, value := directive(rest); disabledDepth < 0 && len(name) > 0 && string(value) == "else" {
					if p.elses == nil {
						p.elses = map[string]bool{}
					}
					p.elses[string(name)] = true
				}
			case "endif":
				if len(stack) == 0 {
					break
				}
				if disabledDepth == len(stack)-1 {
					p.disabled = append(p.disabled, Range{stack[len(stack)-1].start, at})
					disabledDepth = -1
				}
				stack = stack[:len(stack)-1]
			}
		}
		at = end + 1
	}
	if disabledDepth >= 0 {
		p.disabled = append(p.disabled, Range{stack[disabledDepth].start, len(src)})
	}
	return p
}

// directive splits a preprocessor line after its "#" into the directive's
// word and the rest, trimmed ("if 0" -> "if", "0"; "  endif" -> "endif").
func directive(s []byte) ([]byte, []byte) {
	s = bytes.TrimLeft(s, " \t")
	i := 0
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	return s[:i], condition(s[i:])
}

// condition is the text of a directive's condition without its comments
// and outer parentheses ("(0) /* off */" -> "0"), as far as the line
// shows it. With a block comment left open it is nil, and a line joined
// to the next keeps its "\\": conditions no directive judges, since the
// condition goes on in a later line.
func condition(s []byte) []byte {
	var out []byte
	for {
		j := bytes.Index(s, []byte("/*"))
		k := bytes.Index(s, []byte("//"))
		if k >= 0 && (j < 0 || k < j) {
			s = s[:k]
			break
		}
		if j < 0 {
			break
		}
		end := bytes.Index(s[j+2:], []byte("*/"))
		if end < 0 {
			return nil
		}
		out = append(append(out, s[:j]...), ' ')
		s = s[j+2+end+2:]
	}
	c := s // a line without block comments: its own bytes (the caller compares them and keeps none)
	if out != nil {
		c = append(out, s...)
	}
	c = bytes.TrimSpace(c)
	for len(c) > 1 && c[0] == '(' && c[len(c)-1] == ')' && !bytes.ContainsAny(c[1:len(c)-1], "()") {
		c = bytes.TrimSpace(c[1 : len(c)-1])
	}
	return c
}
