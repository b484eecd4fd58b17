package analysis

import (
	"fmt"
	"strings"
)

// KeywordMeaning says what a bare word an operation reads (Op.Keywords)
// selects: the shared-memory instruction of the bank operations, the
// architecture of gmma_desc. ok is false for a word the operation does
// not read.
func KeywordMeaning(opName, word string) (string, bool) {
	op, found := LookupOp(opName)
	if !found || !op.isKeyword(word) {
		return "", false
	}
	switch word {
	case "ld":
		return "plain shared-memory loads (ld.shared, LDS): each lane reads its own address, at the access's vector width", true
	case "st":
		return "plain shared-memory stores (st.shared, STS): each lane writes its own address, at the access's vector width", true
	case "sm90":
		return "the Hopper (SM90) GMMA descriptor (GmmaDescriptor), the default", true
	case "sm100":
		return "the Blackwell (SM100) UMMA descriptor (UMMA::SmemDescriptor)", true
	}
	base, trans := strings.CutSuffix(word, "_trans")
	base, count, hasCount := strings.Cut(base, "_x")
	if !hasCount {
		count = "4"
	}
	dir, verb := "ldmatrix", "reads"
	if base == "stmatrix" {
		dir, verb = "stmatrix", "writes"
	}
	ptx := fmt.Sprintf("%s.sync.aligned.m8n8.x%s", dir, count)
	if trans {
		ptx += ".trans"
	}
	text := fmt.Sprintf("%s.shared.b16: each warp instruction %s %s 8x8 matrices of 16-bit elements, one 16-byte row per lane address (lanes 0-%d give the rows)",
		ptx, verb, count, 8*atoiOr(count, 4)-1)
	if !hasCount {
		text += "; x4 when no count is written"
	}
	if trans {
		text += "; .trans transposes each matrix in the registers, not in memory"
	}
	return text, true
}

func atoiOr(s string, def int) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return def
		}
		n = n*10 + int(c-'0')
	}
	return n
}
