package analysis

// Finding codes. They are stable: editors, lint configuration and SARIF
// rules refer to them.
const (
	CodeSyntax           = "syntax"
	CodeUndefined        = "undefined-name"
	CodeUnused           = "unused-name"
	CodeRedefined        = "redefined-name"
	CodeIncongruent      = "incongruent"
	CodeNonPositiveShape = "non-positive-shape"
	CodeZeroDenominator  = "zero-denominator"
	CodeNonIntegralBasis = "non-integral-basis"
	CodeOverflow         = "overflow"
	CodeBadSwizzle       = "invalid-swizzle"
	CodeAlgebra          = "precondition"
	CodeUnknownValue     = "unknown-value"
	CodeAssertFailed     = "assert-failed"
	CodeType             = "type-mismatch"
	CodeUnknownOp        = "unknown-operation"
	CodeUnsupported      = "unsupported"
	CodeNoValue          = "no-value"
	CodeInexact          = "inexact"
	CodeCoalescible      = "coalescible"
	CodeZeroStride       = "zero-stride"
	CodeNonCompact       = "non-compact"
	CodeNotCanonical     = "not-canonical"
	CodeUnknownAtom      = "unknown-atom"
	CodeBankConflict     = "bank-conflict"
	CodeVectorWidth      = "vector-width"
	CodeNoAdvice         = "no-swizzle-advice"
	CodeTooLarge         = "too-large"
	// CodeStaleComment: a layout comment beside code states another value.
	CodeStaleComment = "stale-comment"
	// CodeUnknownSuppression: a suppression comment names no finding code.
	CodeUnknownSuppression = "unknown-suppression"
)

// CodeDoc describes a finding code for rule lists (SARIF, editor docs).
type CodeDoc struct {
	Code    string
	Summary string
}

// Codes lists every finding code with what it means.
var Codes = []CodeDoc{
	{CodeSyntax, "The text does not parse as a descriptor or sheet statement."},
	{CodeUndefined, "A name is used before or without a binding."},
	{CodeUnused, "A value overwritten by a new binding of its name before anything reads it."},
	{CodeRedefined, "A name bound again without reading its earlier value."},
	{CodeIncongruent, "Shape and stride are not congruent trees."},
	{CodeNonPositiveShape, "A shape leaf is zero or negative."},
	{CodeZeroDenominator, "A basis count has a zero denominator (1/0@d)."},
	{CodeNonIntegralBasis, "A basis count is not an integer (1/2@0 as a stride)."},
	{CodeOverflow, "An offset or size overflows int64."},
	{CodeBadSwizzle, "Swizzle<B,M,S> parameters that CuTe rejects."},
	{CodeAlgebra, "A CuTe operation's precondition fails (divisibility, injectivity, ranks)."},
	{CodeUnknownValue, "The result needs a value known only at run time (?)."},
	{CodeAssertFailed, "An assert does not hold."},
	{CodeType, "A value of the wrong kind for its place."},
	{CodeUnknownOp, "A call of a name that is not a CuTe operation."},
	{CodeUnsupported, "Read, but not evaluated by cute-lsp."},
	{CodeInexact, "CuTe accepts the call, but its weak divisibility check lets through a result that is not the mathematical one (a composition that is not A o B, a divide larger than its input)."},
	{CodeCoalescible, "The layout has a shorter form with the same function."},
	{CodeZeroStride, "A mode with stride 0 broadcasts one element."},
	{CodeNonCompact, "The layout's image has holes: it is not compact."},
	{CodeUnknownAtom, "An atom name CuTe does not define (with the closest names)."},
	{CodeNotCanonical, "A shared-memory layout no GMMA/UMMA descriptor describes: the mode at fault and why."},
	{CodeBankConflict, "A shared-memory access takes more wavefronts than the ideal (bank_conflicts, bank_wavefronts)."},
	{CodeVectorWidth, "A requested access width is wider than the layouts' contiguous, aligned runs allow."},
	{CodeUnknownSuppression, "A cute-lsp: ignore[...] comment names a code that no finding has, so it silences nothing."},
	{CodeNoAdvice, "No swizzle or padding of the shared-memory layout makes the access conflict-free at its vector width."},
	{CodeStaleComment, "A layout comment beside a binding in C++/CUDA or Python code states a different layout than the code evaluates to (static marks and one-element tuples aside)."},
	{CodeTooLarge, "A value with more leaves (over 1,048,576) or deeper nesting (over 256 levels) than any CuTe code needs: an error, not an allocation."},
}
