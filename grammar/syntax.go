package grammar

// The grammar, read by a hand-written recursive-descent parser (the model
// is go/parser): parseStatement reads a statement's shell (see stmtLexer),
// readExpr and exprReader each expression (expr.go), literalParser the
// layout literals (literal.go). Each statement is parsed on its own, so one
// error never hides the next statement. A reader that meets a token the
// grammar does not allow there stops with unexpected(token); syntaxError
// (expect.go) turns that into the *Error a user reads, naming what may
// follow the tokens before it. End positions come from the last token of a
// node. A first parse reads the commonest line, a binding of literals and
// calls on one line, from its bytes straight into the same nodes
// (fastBinding, fast.go), and takes the nodes from blocks (arena.go).
//
// Statement and expression grammar:
//
//	stmt    = Name "=" expr | "assert" expr ( "==" | "is" ) expr | expr
//	expr    = stage { "o" stage }           (a swizzle glued to a pointer by "_" is two stages)
//	stage   = layout | call | tiler | swizzle | mlir | tirx | pointer | angle
//	layout  = tuple [ ":" tuple ]
//	tuple   = "(" [ tuple { "," tuple } [ "," ] ] ")" | leaf
//	leaf    = ( Int | Static | unknown | "_" | Name [ "{" "}" ] ) [ "/" Int ] { "@" ( Int | Name ) }
//	unknown = "?" [ "{" { Ident | Int | Word | "=" | "," } "}" ]
//	call    = Name "(" [ expr { "," expr } ] ")"
//	tiler   = "[" [ expr { ";" expr } ] "]"
//	swizzle = ( ( "Swizzle" | "swizzle" | "Sw" | "S" ) "<" int "," int "," int ">" | SW_B_M_S ) [ "{" "}" ]
//	mlir    = "!" Name "." Name "<" ( String | expr ) ">"
//	tirx    = ( "S" | "R" ) "[" layout "]" { "+" ( "R" "[" layout "]" | leaf ) }
//	pointer = [ swizzle "_" ] Name "[" ( Word | Int ) "]" "(" { Name | Int | Word | "+" | "*" | "." } ")"
//	        | ( "ArithTuple" | "counting_iter" ) tuple
//	angle   = "<" layout { "," layout } ">"
