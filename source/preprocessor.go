package source

import "bytes"

// disabledRegions are the stretches of C++ source a preprocessor never
// compiles whatever is defined: the body of "#if 0" (or "#if false") up to
// its #else, #elif or #endif, and the #else branch of "#if 1" ("#if true").
// Code there may be anything (an old version, a sketch): analysis reports
// nothing in it. Directives nest; other conditions are not judged.
func disabledRegions(src []byte) []Range {
	type cond struct {
		constant int // 0 or 1 for "#if 0" / "#if 1"; -1 for any other condition
		start    int // where the disabled stretch began; -1 when none is open
	}
	var out []Range
	var stack []cond
	disabledDepth := -1 // index in stack of the condition disabling code; -1 if none
	for at := 0; at < len(src); {
		// Only a line with a "#" may be a directive: the next "#" is
		// found at memchr speed, then its line (at is a line's start).
		hash := bytes.IndexByte(src[at:], '#')
		if hash < 0 {
			break
		}
		hash += at
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
		line := bytes.TrimSpace(src[at:end])
		if len(line) > 1 && line[0] == '#' {
			w, rest := directive(line[1:])
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
					out = append(out, Range{top.start, at})
					top.start, disabledDepth = -1, -1
					if top.constant == 0 && word != "else" {
						top.constant = -1 // #elif X after #if 0: judged no further
					}
				case disabledDepth < 0 && top.constant == 1:
					top.start, disabledDepth = end, len(stack)-1 // #if 1 ... #else: the rest is never compiled
				}
			case "endif":
				if len(stack) == 0 {
					break
				}
				if disabledDepth == len(stack)-1 {
					out = append(out, Range{stack[len(stack)-1].start, at})
					disabledDepth = -1
				}
				stack = stack[:len(stack)-1]
			}
		}
		at = end + 1
	}
	if disabledDepth >= 0 {
		out = append(out, Range{stack[disabledDepth].start, len(src)})
	}
	return out
}

// directive splits a preprocessor line after its "#" into the directive's
// word and the rest, trimmed ("if 0" -> "if", "0"; "  endif" -> "endif").
func directive(s []byte) ([]byte, []byte) {
	s = bytes.TrimLeft(s, " \t")
	i := 0
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	rest := bytes.TrimSpace(s[i:])
	if j := bytes.Index(rest, []byte("//")); j >= 0 {
		rest = bytes.TrimSpace(rest[:j])
	}
	return s[:i], rest
}
