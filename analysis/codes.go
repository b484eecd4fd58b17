package analysis

// Finding codes. They are stable: editors, lint configuration and SARIF
// rules refer to them.
const (
	CodeSyntax           = "syntax"             // the text does not parse
	CodeUndefined        = "undefined-name"     // a name used before or without a binding
	CodeUnused           = "unused-name"        // a binding no statement uses
	CodeRedefined        = "redefined-name"     // a name bound twice
	CodeIncongruent      = "incongruent"        // shape and stride trees differ
	CodeNonPositiveShape = "non-positive-shape" // a shape leaf <= 0
	CodeZeroDenominator  = "zero-denominator"   // 1/0@d
	CodeNonIntegralBasis = "non-integral-basis" // 1/2@0 in a layout stride
	CodeOverflow         = "overflow"           // int64 overflow in the algebra
	CodeBadSwizzle       = "invalid-swizzle"    // Swizzle<B,M,S> CuTe rejects
	CodeAlgebra          = "precondition"       // an operation's CuTe precondition fails
	CodeUnknownValue     = "unknown-value"      // a result needs a run-time value (?)
	CodeAssertFailed     = "assert-failed"      // an assert does not hold
	CodeType             = "type-mismatch"      // a value of the wrong kind for its place
	CodeUnknownOp        = "unknown-operation"  // a call of a name that is no CuTe operation
	CodeUnsupported      = "unsupported"        // read, but not evaluated by cute-lsp
	CodeNoValue          = "no-value"           // internal: a use of a name whose definition failed
	CodeCoalescible      = "coalescible"        // hint: the layout has a shorter equal form
	CodeZeroStride       = "zero-stride"        // hint: a mode broadcasts
	CodeNonCompact       = "non-compact"        // hint: the image has holes
)
