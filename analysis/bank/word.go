package bank

// WordBytes is the width of the word a bank serves per wavefront.
const WordBytes = 4

// BankOf is the bank of the byte at address addr (addr >= 0) and its line,
// the 128-byte row of Banks words it lies in: bank = (addr / 4) mod 32,
// line = addr / 128. Two lanes of a phase conflict when they reach the
// same bank on different lines (different words), which is what Analyze
// counts.
func BankOf(addr int64) (bank, line int64) {
	word := addr / WordBytes
	return word % Banks, word / Banks
}
