package prop

import "github.com/cute-lsp/cute-lsp/layout"

// InjectiveFromStrides is is_injective decided from L's strides alone,
// without enumerating its points: known is false where only enumeration
// can tell (IsInjective then enumerates). Callers on a hot path (the hints
// computed for every literal on every edit) use it to bound their work.
// Law: known implies injective == IsInjective(L).
func InjectiveFromStrides(l layout.Layout) (injective, known bool, err error) {
	return injectiveFromStrides("is_injective", l)
}
