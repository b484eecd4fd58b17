package source

// isEnumerator reports whether the name at i is declared as an enumerator
// of an unscoped enum (enum E { a, b = 2 }): such a name is declared in
// the scope around the enum, so it hides an outer binding of the same name
// there. A scoped enum's (enum class E { a }) are reached only as E::a.
func (r *cppReader) isEnumerator(i int) bool {
	if !r.isPunctAt(i-1, "{") && !r.isPunctAt(i-1, ",") ||
		!r.isPunctAt(i+1, "=") && !r.isPunctAt(i+1, ",") && !r.isPunctAt(i+1, "}") {
		return false
	}
	// Back over the enumerators before it to the brace opening the list;
	// an enumerator's value may hold brackets, and a ";" ends the search.
	depth := 0
	for k := i - 1; k >= 0 && i-k <= maxTargetTokens; k-- {
		switch r.toks[k].punct {
		case ')', ']', '}':
			depth++
		case '(', '[':
			if depth--; depth < 0 {
				return false
			}
		case '{':
			if depth == 0 {
				return r.opensUnscopedEnum(k)
			}
			depth--
		case ';':
			if depth == 0 {
				return false
			}
		}
	}
	return false
}

// opensUnscopedEnum reports whether the brace at open starts the
// enumerators of an unscoped enum: "enum", then maybe a name and a
// ": type" (enum E : std::uint8_t {), and no "class" or "struct".
func (r *cppReader) opensUnscopedEnum(open int) bool {
	for k := open - 1; k >= 0 && open-k <= 16; k-- {
		switch {
		case r.isWordAt(k, "enum"):
			return true
		case r.isWordAt(k, "class") || r.isWordAt(k, "struct"):
			return false // enum class: scoped; struct S {: not an enum
		case r.isIdent(k) || r.isPunctAt(k, ":") || r.isPunctAt(k, "::") || r.isPunctAt(k, "<") || r.isPunctAt(k, ">"):
			continue
		}
		return false
	}
	return false
}
