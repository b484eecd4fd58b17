package grammar

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar. participle parses the statements (one parser per statement
// kind: assert, binding, expression) and the pointer, MLIR type and
// angle-list constructs; the productions every statement is made of (layout
// literals, calls, tilers, swizzles, TIRx layouts and the "o" chain of
// stages) are read by hand (expr.go, literal.go) as participle.Parseable
// types, because participle's reflection over them cost several times the
// time budget of a 5,000-line sheet. In a sheet participle sees each statement's shell with
// every expression as one Expr token (see stmtLexer). Each statement is
// parsed on its own, so one error never hides the next statement. End
// positions come from the last token of a node (participle's EndPos would
// include the whitespace after it).
//
// Expression grammar:
//
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

type gAssert struct {
	Kw    lexer.Token `parser:"@'assert'"`
	Left  *gExpr      `parser:"@@"`
	Op    lexer.Token `parser:"@( '==' | 'is' )"`
	Right *gExpr      `parser:"@@"`
}

type gBinding struct {
	Name  lexer.Token `parser:"@Ident '='"`
	Value *gExpr      `parser:"@@"`
}

type gExprStmt struct {
	X *gExpr `parser:"@@"`
}

// gLayout is a layout or an IntTuple literal: tuple [":" tuple], read by
// hand (literal.go).
type gLayout struct {
	Node Node
	Errs []*Error
}

type gPointer struct {
	Kind  lexer.Token  `parser:"@Ident '['"`
	Bits  lexer.Token  `parser:"@( Word | Int ) ']'"`
	Open  lexer.Token  `parser:"@'('"`
	Addr  []gAddrToken `parser:"@@*"`
	Close lexer.Token  `parser:"@')'"`
}

// gAddrToken is one token of a pointer's address: a capture into a
// []lexer.Token field would keep only the last one.
type gAddrToken struct {
	Tok lexer.Token `parser:"@( Ident | Int | Word | '+' | '*' | '.' )"`
}

type gMLIR struct {
	Bang    lexer.Token  `parser:"@'!'"`
	Dialect lexer.Token  `parser:"@Ident '.'"`
	Kind    lexer.Token  `parser:"@Ident '<'"`
	Payload *lexer.Token `parser:"( @String"`
	Inner   *gExpr       `parser:"| @@ )"`
	Close   lexer.Token  `parser:"@'>'"`
}

type gAngle struct {
	Open  lexer.Token `parser:"@'<'"`
	Modes []*gLayout  `parser:"@@ ( ',' @@ )*"`
	Close lexer.Token `parser:"@'>'"`
}

var (
	parserOptions = []participle.Option{
		participle.Lexer(definition{}),
		participle.UseLookahead(0),
	}
	assertParser  = participle.MustBuild[gAssert](parserOptions...)
	bindingParser = participle.MustBuild[gBinding](parserOptions...)
	exprParser    = participle.MustBuild[gExprStmt](parserOptions...)
	pointerParser = participle.MustBuild[gPointer](parserOptions...)
	mlirParser    = participle.MustBuild[gMLIR](parserOptions...)
	angleParser   = participle.MustBuild[gAngle](parserOptions...)
)
