package bank

import "testing"

// TestBankOfAgreesWithAnalyze: two active lanes of 4-byte loads cost two
// wavefronts exactly when BankOf puts them in one bank on different lines.
func TestBankOfAgreesWithAnalyze(t *testing.T) {
	for a := int64(0); a < 512; a += 4 {
		for b := int64(0); b < 512; b += 4 {
			in := Instruction{Op: Load, Width: 4, Inactive: ^uint32(3)}
			in.Addrs[0], in.Addrs[1] = a, b
			c, err := Analyze(&in)
			if err != nil {
				t.Fatal(err)
			}
			ba, la := BankOf(a)
			bb, lb := BankOf(b)
			if want := 1 + boolInt(ba == bb && la != lb); c.Wavefronts != want {
				t.Fatalf("lanes at %d (bank %d, line %d) and %d (bank %d, line %d): %d wavefronts, BankOf says %d", a, ba, la, b, bb, lb, c.Wavefronts, want)
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
