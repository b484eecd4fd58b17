package grammar

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar. Its structs are the concrete syntax; convert.go
// turns them into the AST, checking what a context-free grammar cannot
// (integer ranges, denominators, basis modes) and computing every end
// position from the last token of a node (participle's EndPos would include
// the whitespace after it). Each statement kind has a parser of its own, and
// every statement is parsed from its own slice of tokens, so one error never
// hides the next statement.
//
// Expression grammar, informally:
//
//	expr    = stage { "o" stage }
//	stage   = tirx | swizzle | pointer | mlir | tiler | angle | call | layout
//	layout  = tuple [ ":" tuple ]
//	tuple   = "(" [ tuple { "," tuple } [ "," ] ] ")" | leaf
//	leaf    = ( Int | Static | unknown | "_" | Name [ "{" "}" ] ) [ "/" Int ] { "@" ( Int | Name ) }
//	unknown = "?" [ "{" { Ident | Int | Word | "=" | "," } "}" ]
//	swizzle = ( ( "Swizzle" | "swizzle" | "Sw" | "S" ) "<" int "," int "," int ">" | SW_B_M_S ) [ "{" "}" ]
//	pointer = Name "[" ( Word | Int ) "]" "(" { any but ")" } ")"
//	mlir    = "!" Name "." Name "<" ( String | expr ) ">"
//	tiler   = "[" [ expr { ";" expr } ] "]"
//	angle   = "<" layout { "," layout } ">"
//	call    = Name "(" [ expr { "," expr } ] ")"
//	tirx    = ( "S" | "R" ) "[" layout "]" { "+" ( "R" "[" layout "]" | leaf ) }

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

type gExpr struct {
	Stages []*gStage `parser:"@@ ( 'o' @@ )*"`
}

type gStage struct {
	Layout  *gLayout  `parser:"  @@"`
	Call    *gCall    `parser:"| (?= Ident '(' ) @@"`
	Swizzle *gSwizzle `parser:"| (?= ( 'Swizzle' | 'swizzle' | 'Sw' | 'S' ) '<' | PySwizzle ) @@"`
	Tirx    *gTirx    `parser:"| (?= ( 'S' | 'R' ) '[' ) @@"`
	Pointer *gPointer `parser:"| (?= Ident '[' ) @@"`
	Tiler   *gTiler   `parser:"| @@"`
	MLIR    *gMLIR    `parser:"| @@"`
	Angle   *gAngle   `parser:"| @@"`
}

// gLayout is a layout or an IntTuple literal: tuple [":" tuple]. It is
// parsed by hand (layout.go): literals are most of the tokens of a sheet, and
// participle's reflection over the four nested productions of a literal cost
// five times the time budget of a 5,000-line sheet.
type gLayout struct {
	Node Node
	Errs []*Error
}

type gSwizzle struct {
	Kw     lexer.Token  `parser:"(  @( 'Swizzle' | 'swizzle' | 'Sw' | 'S' ) '<'"`
	B      lexer.Token  `parser:"   @( Int | Static ) ','"`
	M      lexer.Token  `parser:"   @( Int | Static ) ','"`
	S      lexer.Token  `parser:"   @( Int | Static )"`
	Close  lexer.Token  `parser:"   @'>'"`
	Py     *lexer.Token `parser:"| @PySwizzle )"`
	Braces *lexer.Token `parser:"( '{' @'}' )?"`
}

type gPointer struct {
	Kind  lexer.Token `parser:"@Ident '['"`
	Bits  lexer.Token `parser:"@( Word | Int ) ']'"`
	Open  lexer.Token `parser:"@'('"`
	Addr  []string    `parser:"@( !')' )*"`
	Close lexer.Token `parser:"@')'"`
}

type gMLIR struct {
	Bang    lexer.Token  `parser:"@'!'"`
	Dialect lexer.Token  `parser:"@Ident '.'"`
	Kind    lexer.Token  `parser:"@Ident '<'"`
	Payload *lexer.Token `parser:"( @String"`
	Inner   *gExpr       `parser:"| @@ )"`
	Close   lexer.Token  `parser:"@'>'"`
}

type gTiler struct {
	Open  lexer.Token `parser:"@'['"`
	Modes []*gExpr    `parser:"( @@ ( ';' @@ )* )?"`
	Close lexer.Token `parser:"@']'"`
}

type gAngle struct {
	Open  lexer.Token `parser:"@'<'"`
	Modes []*gLayout  `parser:"@@ ( ',' @@ )*"`
	Close lexer.Token `parser:"@'>'"`
}

type gCall struct {
	Fun   lexer.Token `parser:"@Ident '('"`
	Args  []*gExpr    `parser:"( @@ ( ',' @@ )* )?"`
	Close lexer.Token `parser:"@')'"`
}

type gTirx struct {
	Kw    lexer.Token  `parser:"@( 'S' | 'R' ) '['"`
	Shard *gLayout     `parser:"@@"`
	Close lexer.Token  `parser:"@']'"`
	Terms []*gTirxTerm `parser:"( '+' @@ )*"`
}

type gTirxTerm struct {
	Kw     *lexer.Token `parser:"(  (?= 'R' '[' ) @'R' '['"`
	Layout *gLayout     `parser:"   @@"`
	Close  lexer.Token  `parser:"   @']'"`
	Offset *gLayout     `parser:") | @@"`
}

var (
	parserOptions = []participle.Option{
		participle.Lexer(definition{}),
		participle.UseLookahead(0),
	}
	assertParser  = participle.MustBuild[gAssert](parserOptions...)
	bindingParser = participle.MustBuild[gBinding](parserOptions...)
	exprParser    = participle.MustBuild[gExprStmt](parserOptions...)
)
