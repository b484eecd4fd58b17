// The CuTe DSL's MLIR: layouts inside !cute.* types.
func.func @kernel(%arg0: !cute.layout<"(4,8):(1,4)">) {
  // @hover("!cute")
  %0 = cute.static : !cute.layout<"((2,2),4):((1,2),4)">
  // @hover("!cute")
  %1 = cute.static : !cute.layout<"(4,2):(1,(2,3))">
  // @diag("(4,2)", "incongruent", "not congruent")
  %2 = cute.static : !cute.swizzle<"S<3,4,3>">
  // @hover("!cute")
  %3 = cute.static : !cute.layout<(4,2):(1,4)>
  // @diag("(4,2)", "syntax", "from a string") @fix("(4,2)", "Quote the descriptor")
  return
}
