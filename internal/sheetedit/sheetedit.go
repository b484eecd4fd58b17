// Package sheetedit makes the edits an editor sends while someone works on a
// layout sheet, for the fuzzers of the incremental parse (grammar) and the
// incremental analysis (analysis): text typed, pasted, deleted or replaced at
// any place, line breaks, whole lines inserted, deleted, duplicated or moved,
// a fragment typed halfway. The edits are decoded from bytes, so that a
// fuzzer's mutations of those bytes explore edit sequences; every byte
// string decodes to edits, and a text of valid UTF-8 stays valid.
package sheetedit

import "strings"

// OpSize is the number of bytes one edit is decoded from.
const OpSize = 5

// Fragments are pieces of real sheets: what a user types or pastes.
var Fragments = []string{
	// atoms named by strings
	`mma_atom("SM80_16x8x16_F32F16F16F32_TN")`, `copy_atom("SM75_U32x4_LDSM_N")`,
	`k = mma_atom("SM80_16x8x16_F32F16F16F32_TN")`, `cp = copy_atom("SM80_16x8x16_F32F16F16F32_TN")`,
	`typo = mma_atom("SM80_16x8x16_F32F16F16F32_NT")`, `"SM90_64x64x16_F32F16F16_SS"`, `"a\"b\\c"`, `""`, `"`,
	// layouts, tuples, basis strides, dynamic leaves
	"(4,8):(1,4)", "(2,(2,2)):(4,(2,1))", "(_8,_64):(_64,_1)", "((((2,2),2),2),2):((((1,2),4),8),16)",
	"(((((((1)))))))", "((1@0, 8@1), 1@2)", "1/2@0", "(?,?{i64}):(1,?{div=16})", "<8:1, 4:8>", "8:1",
	// tilers, swizzles, composed layouts
	"[(4,8):(1,4);_;32]", "[2:1;3:1]", "[4:1;_]", "Sw<3,4,3>", "Swizzle<2,3,3>{}", "S<3,4,3>", "SW_3_4_3",
	"Sw<3,4,3> o _0 o (8,64):(64,1)", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)",
	"composition(Sw<3,3,3>, (8,64):(64,1))", "tile_to_shape(Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1), (64,64))",
	// TIRx
	"S[(8,2):(4@laneid,1)] + R[2:4@warpid] + 5@warpid", "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]",
	"tirx_map(tile, (7,15), (8,16))", "R[4:32@TLane]",
	// MLIR types
	`!cute.layout<"(4,8):(1,4)">`, `!cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">`, `!cute.tile<"[4:1;8:1]">`,
	`!cute.layout<"`,
	// statements, asserts, calls
	"A = (4,2):(1,4)", "B = logical_divide(A, [2:1;3:1])", "C = coalesce(B)", "assert B == B",
	"assert coalesce(A) is (8,1):(1,8)", "assert size(A) == 24", "d = gmma_desc(sA, 16)",
	"c = bank_conflicts(64:1, 32:1, 32, ld)", "X = (4,2:(1,4)", "Y = coalesce(AA)", "A = A", "assert ",
	"(1,\n  2):(1,\n  2)", "zipped_divide(C, [4:1;_])", "make_layout((4,8), LayoutRight)", "LayoutLeft{}",
	// comments and tokens
	"x = 1:1", "# a comment", "// tail", "# @hover(\"mma_atom\")", "(", ")", ",", ":", "=", " o ", "@", "_", "?", ";", "[", "]",
	"<", ">", "{}", " ", "\t", "\n", "\n\n", "\r\n", "é", "𝔸", "\ufeff", "assert", " is ", "A", "B1", "1", "-4",
}

// Edit applies the edit op encodes to src and returns the new text. op[0]
// picks the kind of edit, op[1:3] the place (a fraction of the text),
// op[3] the fragment and op[4] a length or a second place.
func Edit(src string, op [OpSize]byte) string {
	at := place(src, int(op[1])<<8|int(op[2]))
	frag := Fragments[int(op[3])%len(Fragments)]
	n := int(op[4])
	lineStart := strings.LastIndexByte(src[:at], '\n') + 1
	lineEnd := len(src)
	if i := strings.IndexByte(src[at:], '\n'); i >= 0 {
		lineEnd = at + i + 1 // the line break included
	}
	switch op[0] % 12 {
	case 0: // type or paste a fragment
		return src[:at] + frag + src[at:]
	case 1: // Enter
		return src[:at] + "\n" + src[at:]
	case 2: // delete a few characters
		return src[:at] + src[runeEnd(src, at+1+n%16):]
	case 3: // select a few characters and type a fragment over them
		return src[:at] + frag + src[runeEnd(src, at+n%12):]
	case 4: // insert a whole line
		return src[:lineStart] + frag + "\n" + src[lineStart:]
	case 5: // delete a whole line
		return src[:lineStart] + src[lineEnd:]
	case 6: // duplicate a line
		return src[:lineStart] + lineWithBreak(src[lineStart:lineEnd]) + src[lineStart:]
	case 7: // replace a line, keeping its line break
		keep := ""
		if lineEnd > lineStart && src[lineEnd-1] == '\n' {
			keep = "\n"
		}
		return src[:lineStart] + frag + keep + src[lineEnd:]
	case 8: // move a line elsewhere
		line := lineWithBreak(src[lineStart:lineEnd])
		rest := src[:lineStart] + src[lineEnd:]
		to := place(rest, n*257)
		to = strings.LastIndexByte(rest[:to], '\n') + 1
		return rest[:to] + line + rest[to:]
	case 9: // a fragment typed halfway
		cut := runeStart(frag, n%(len(frag)+1))
		return src[:at] + frag[:cut] + src[at:]
	case 10: // delete to the end of the line
		end := lineEnd
		if end > at && src[end-1] == '\n' {
			end--
		}
		return src[:at] + src[end:]
	default: // cut from here, paste further on
		end := runeEnd(src, at+1+n*4)
		cut := src[at:end]
		rest := src[:at] + src[end:]
		to := place(rest, (n*97)%256*257)
		return rest[:to] + cut + rest[to:]
	}
}

// place maps frac (0..65535) to a byte offset of src at a rune's start.
func place(src string, frac int) int {
	return runeStart(src, frac*(len(src)+1)>>16)
}

// runeStart moves i back to the start of the rune it falls in.
func runeStart(s string, i int) int {
	i = min(i, len(s))
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// runeEnd moves i forward to the start of the next rune (or the end).
func runeEnd(s string, i int) int {
	i = min(i, len(s))
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return i
}

// lineWithBreak is line ending in a line break.
func lineWithBreak(line string) string {
	if strings.HasSuffix(line, "\n") {
		return line
	}
	return line + "\n"
}

// Script is a sequence of edits decoded from bytes: OpSize bytes an edit.
type Script []byte

// Next is the next edit applied to src; false once the script is done.
func (s *Script) Next(src string) (string, bool) {
	if len(*s) < OpSize {
		return src, false
	}
	var op [OpSize]byte
	copy(op[:], *s)
	*s = (*s)[OpSize:]
	return Edit(src, op), true
}
