package analysis

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// Adversarial shapes for lint's partial read (source.ReadCppForLint's
// dropped runs, MayCall's filter, the descriptor scan's MayCall): each
// holds a call the algebra rejects (or would, read another way) beside
// statements lint's read may leave out that change the call's operands,
// whether it is read, or whether its rejection is certain.
var lintAdversarialShapes = []string{
	// A layout bound in a run, used through a macro, a typedef, decltype,
	// a struct member, an alias template, a lambda.
	"using L = Layout<Shape<_4,_3>>;\n#define M L\nint x0 = 1;\nint x1 = 2;\nauto r = logical_divide(M{}, make_tile(_2{}, _2{}, _2{}));\n",
	"typedef Layout<Shape<_4,_3>> L;\nint x0 = 1;\nint x1 = 2;\nauto r = logical_divide(L{}, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nusing D = decltype(a);\nint x1 = 2;\nauto r = logical_divide(D{}, make_tile(_2{}, _2{}, _2{}));\n",
	"struct S { static constexpr auto m = Layout<Shape<_4,_3>>{}; using T = Layout<Shape<_4,_3>>; };\nint x0 = 1;\nauto r = logical_divide(S::m, make_tile(_2{}, _2{}, _2{}));\nauto q = logical_divide(S::T{}, make_tile(_2{}, _2{}, _2{}));\n",
	"template <class X> using A = Layout<Shape<_4,_3>>;\nint x0 = 1;\nint x1 = 2;\nauto r = logical_divide(A<int>{}, make_tile(_2{}, _2{}, _2{}));\n",
	"auto f = [] { return Layout<Shape<_4,_3>>{}; };\nint x0 = 1;\nauto r = logical_divide(f(), make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nauto g = [&] { a = Layout<_8>{}; };\nint x0 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	// The operand declared again, assigned or written in a run.
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nauto [a, b] = f();\nint x0 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nFoo a;\nint x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nFoo const& a = b;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nFoo a{1}, c;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nint b, a;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nint b = 0, a = 3;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nint* a[4];\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nextern Foo a;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nvoid a();\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nstruct a {};\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nenum E { a, b };\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nusing a = int;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nusing m::a;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nnamespace a = m;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nint y = (a = Layout<_8>{}, 1);\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nint y = f(a = Layout<_8>{});\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nint y = std::swap(a, b);\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\ndecltype(a) a2 = a;\nauto r = logical_divide(a2, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nauto& b = a;\nint x1 = (b = Layout<_8>{}, 1);\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nint x1 = a.x = 3;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	// Preprocessor branches around the call, opened or closed in a run.
	"int x0 = 1;\n#if 0\nint x1 = 2;\nauto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n#endif\n",
	"int x0 = 1;\n#ifdef FOO\nint x1 = 2;\n#else\nint x2 = 2;\nauto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n#endif\n",
	"int x0 = 1;\n#if 0\nint x1 = 2;\n#elif 1\nint x2 = 2;\nauto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n#endif\n",
	"int x0 = 1;\n#if 0 \\\n  || 1\nint x1 = 2;\nauto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n#endif\n",
	"#define CUTE_GUARD if constexpr (false)\nvoid g() {\nint x0 = 1;\nCUTE_GUARD { auto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{})); }\n}\n",
	"auto a = Layout<Shape<_4,_3>>{};\n#if 0\nauto a = Layout<_8>{};\n#endif\nint x0 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\n#if 1\nint x0 = 1;\n#else\nint x1 = (a = Layout<_8>{}, 1);\n#endif\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	// if constexpr chains and static_assert around the call.
	"template <class T> void f() {\n  {\n    int x0 = 1;\n    if constexpr (sizeof(T) > 2) { int y = 1; } else if constexpr (sizeof(T) > 1) { int z = 2; }\n    else { auto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{})); }\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int x0 = 1;\n    if constexpr (sizeof(T) > 2) y = 1; else if (x0) z = 2;\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n  }\n}\n",
	"template <class T> void f() {\n  {\n    if constexpr (sizeof(T) > 2)\n      return;\n    int x0 = 1;\n    auto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n  }\n}\n",
	"template <class T> void f() {\n  {\n    if constexpr (sizeof(T) > 2) { return; } else {\n    int x0 = 1;\n    auto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{})); }\n  }\n}\n",
	"template <class T> void f() {\n  {\n    static_assert(sizeof(T) > 2);\n    int x0 = 1;\n    auto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n  }\n}\n",
	"void f() {\n  {\n    if (false) { int x0 = 1; } else { int x1 = 1; }\n    auto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n  }\n}\n",
	// Scopes opened or closed by tokens a run holds.
	"auto a = Layout<Shape<_4,_3>>{};\n#define OPEN namespace q {\n#define CLOSE }\nOPEN\nint x0 = 1;\nFoo a;\nCLOSE\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace q { int x0 = 1; }\nnamespace q { Foo a; }\nusing namespace q;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nclass C { int x0 = 1; public: Foo a; void g() { auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); } };\n",
	"auto a = Layout<Shape<_4,_3>>{};\nstruct C { void g() { auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); } int x0 = 1; Foo a; };\n",
	"auto a = Layout<Shape<_4,_3>>{};\nstruct C : B { using B::a; int x0 = 1; void g() { auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); } };\n",
	"auto a = Layout<Shape<_4,_3>>{};\nextern \"C\" { int x0 = 1; Foo a; }\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	// Strings, comments, continuations and digraphs holding braces or ";".
	"auto a = Layout<Shape<_4,_3>>{};\nconst char* s = R\"x(}; Foo a; {)x\";\nint x0 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nconst char* s = R\"(a\")\"; int x0 = 1;\nFoo a;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1; // a comment \\\nFoo a;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1; /* }; Foo a; { */\nchar c = '}';\nchar d = '{';\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace q <%\nint x0 = 1;\nFoo a;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n%>\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nFoo \\\na;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nauto r = logical_\\\ndivide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nauto r = logical_divide/**/(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nauto r = logical_divide\n#define Z 1\n(a, make_tile(_2{}, _2{}, _2{}));\n",
	// The call named through cute::, a using-declaration, a namespace alias.
	"auto a = cute::Layout<cute::Shape<cute::_4,cute::_3>>{};\nint x0 = 1;\nauto r = cute::logical_divide(a, cute::make_tile(cute::_2{}, cute::_2{}, cute::_2{}));\n",
	"using cute::logical_divide;\nauto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"namespace c = cute;\nauto a = c::Layout<c::Shape<c::_4,c::_3>>{};\nint x0 = 1;\nauto r = c::logical_divide(a, c::make_tile(c::_2{}, c::_2{}, c::_2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nauto r = logical_divide<>(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nauto r = (logical_divide)(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0 = 1;\nauto r = logical_divide (a, make_tile(_2{}, _2{}, _2{}));\n",
	// Integers the call reads, bound or changed in runs.
	"constexpr int n = 4;\nint x0 = 1;\nauto r = logical_divide(Layout<Shape<Int<n>,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n",
	"constexpr int n = 4;\nnamespace q { int x0 = 1; constexpr int n = 3; auto r = logical_divide(Layout<Shape<Int<n>,_3>>{}, make_tile(_2{}, _2{}, _2{}, _2{})); }\n",
	"constexpr int n = 2;\nint x0 = 1;\nvoid g() { n++; }\nauto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(Int<n>{}, _2{}, _2{}));\n",
	"constexpr int n = 2;\nint x0 = 1;\nvoid g() { for (int i = 0; i < 3; ++i) { n += i; } }\nauto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(Int<n>{}, _2{}, _2{}));\n",
	"enum { n = 2 };\nint x0 = 1;\nauto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(Int<n>{}, _2{}, _2{}));\n",
	"template <int N> struct K { static constexpr int v = N; };\nint x0 = 1;\nauto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(Int<K<2>::v>{}, _2{}, _2{}));\n",
	// Values the call reads that decide the finding (composition of
	// (4,3):(3,1) with 6 is rejected, with 4 not), bound in runs.
	"constexpr int n = 6;\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<n>>{});\n",
	"struct K { static constexpr int n = 6; };\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<K::n>>{});\n",
	"struct alignas(16) K { static constexpr int n = 6; };\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<K::n>>{});\n",
	"struct [[nodiscard]] K { static constexpr int n = 6; };\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<K::n>>{});\n",
	"template <int N> struct K;\ntemplate <> struct K<6> { static constexpr int n = 6; };\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<K<6>::n>>{});\n",
	"enum class E : int { n = 6 };\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<int(E::n)>>{});\n",
	"namespace q { constexpr int n = 6; }\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<q::n>>{});\n",
	"namespace q { constexpr int n = 6; }\nint x0 = 1;\nusing q::n;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<n>>{});\n",
	"constexpr int n = 4;\nnamespace q { int x0 = 1; constexpr int n = 6; }\nusing namespace q;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<n>>{});\n",
	"constexpr int n = 6;\nint x0 = 1;\nconstexpr int m = n;\nint x1 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<m>>{});\n",
	"constexpr int n = 6;\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<n>>{});\nint x1 = 1;\nconstexpr int n = 4;\n",
	"#define N 6\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<N>>{});\n",
	"constexpr int n = 1'000'000 / 1'000'000 * 6;\nint x0 = 1'0;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<Int<n>>{});\nint x1 = 2'0;\n",
	"auto L = Layout<Shape<_4,_3>, Stride<_3,_1>>{};\nint x0 = 1;\nauto r = composition(L, Layout<_6>{});\nvoid g() { int x1 = 1; L = Layout<_8>{}; }\n",
	"auto L = Layout<Shape<_4,_3>, Stride<_3,_1>>{};\nint x0 = 1;\nauto r = composition(L, Layout<_6>{});\nvoid g(decltype(L)& M) { int x1 = 1; M = Layout<_8>{}; }\n",
	"auto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<_6>{});\nint x0 = 1;\nauto s = logical_\\\ndivide(Layout<_4>{}, make_tile(_2{}, _2{}));\nauto t = logical_divide\\\n(Layout<_4>{}, make_tile(_2{}, _2{}));\n",
	"%:if 0\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<_6>{});\n%:endif\n",
	"??=if 0\nint x0 = 1;\nauto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<_6>{});\n??=endif\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x0<:2:> = <%1, 2%>;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	// Scopes a run opens and closes whole: namespaces (named, unnamed,
	// inline, nested), extern "C", structs declaring an object, blocks,
	// lambdas, statement expressions, conditions and range-for.
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace q { Foo a; } int x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace q { Foo a; } int x1 = 1;\nusing namespace q;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace { Foo a; } int x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\ninline namespace v1 { Foo a; } int x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nextern \"C\" { Foo a; } int x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nextern \"C\" { int a; } int x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace q { auto a = Layout<_8>{}; } int x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"namespace q { auto a = Layout<Shape<_4,_3>>{}; } int x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"namespace q { auto a = Layout<Shape<_4,_3>>{}; } int x1 = 1;\nauto r = logical_divide(q::a, make_tile(_2{}, _2{}, _2{}));\n",
	"extern \"C\" { auto a = Layout<Shape<_4,_3>>{}; } int x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"struct S { auto a = Layout<Shape<_4,_3>>{}; } s; int x1 = 1;\nauto r = logical_divide(s.a, make_tile(_2{}, _2{}, _2{}));\n",
	"struct { static constexpr auto a = Layout<Shape<_4,_3>>{}; } s; int x1 = 1;\nauto r = logical_divide(decltype(s)::a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x1 = [] { a = Layout<_8>{}; return 1; }();\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nint x1 = ({ Foo a; 1; });\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nnamespace q { namespace w { Foo a; } } int x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\n{ Foo a; } int x1 = 1;\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n",
	"auto a = Layout<Shape<_4,_3>>{};\nvoid g() { int y = 1; } int x1 = 1;\nvoid h() { Foo a; auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); }\n",
	"auto a = Layout<Shape<_4,_3>>{};\nvoid g() { { Foo a; } int y = 1; auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); }\n",
	"auto a = Layout<Shape<_4,_3>>{};\nvoid g() { [&] { int y = 1; Foo a; int z = 1; auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); }(); }\n",
	"auto a = Layout<Shape<_4,_3>>{};\nvoid g() { [&] { int y = 1; { Foo a; } int z = 1; auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); }(); }\n",
	"auto a = Layout<Shape<_4,_3>>{};\nvoid g() { [&] { int y = 1; if (y) { a = Layout<_8>{}; } int z = 1; auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); }(); }\n",
	"auto a = Layout<Shape<_4,_3>>{};\nvoid g() { [&] { int y = 1; for (Foo a : v) { } int z = 1; auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); }(); }\n",
	"auto a = Layout<Shape<_4,_3>>{};\nvoid g() { [&] { int y = 1; if (Foo a = f()) { } int z = 1; auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); }(); }\n",
	"auto a = Layout<Shape<_4,_3>>{};\nvoid g() { [&] { int y = 1; catch_(Foo a); int z = 1; auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); }(); }\n",
	// Lambdas and statement expressions in a call's operands; if and
	// if constexpr chains whose branches are single statements of every
	// kind (a nested if/else, loops, do-while, labels, case, attributes),
	// comments and #if lines before else, else by a macro.
	"auto a = Layout<Shape<_4,_3>>{};\nauto r = logical_divide(a, [&] { int x0 = 1; return make_tile(_2{}, _2{}, _2{}); }());\n",
	"auto a = Layout<Shape<_4,_3>>{};\nauto r = logical_divide(a, ({ int x0 = 1; make_tile(_2{}, _2{}, _2{}); }));\n",
	"auto r = logical_divide([&] { int x0 = 1; auto b = Layout<Shape<_4,_3>>{}; return b; }(), make_tile(_2{}, _2{}, _2{}));\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    else z = 1;\n    int w = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if (y) logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    else z = 1;\n    int w = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    else if constexpr (sizeof(T) > 1) z = 1;\n    else w = 2;\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) { logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{})); }\n    else z = 1;\n    int w = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) z = 1;\n    else if (y) w = 1;\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if (y) z = 1;\n    else if constexpr (sizeof(T) > 2) w = 1;\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) if (y) z = 1; else w = 2;\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) for (;;) z = 1;\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) while (y) z = 1;\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) do z = 1; while (y);\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) l: z = 1;\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) switch (y) case 1: z = 1;\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) [[likely]] z = 1;\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) z = 1; // ;\n    else /* ; */ logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) z = 1;\n#if 1\n    else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n#endif\n    int v = 1;\n  }\n}\n",
	"#define ELSE else\ntemplate <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) z = 1;\n    ELSE logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n    int v = 1;\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) z = 1;\n    else\n      logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) z = 1; else {}\n    logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) z = 1; else;\n    logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n  }\n}\n",
	"template <class T> void f() {\n  {\n    int y = 0;\n    if constexpr (sizeof(T) > 2) z = 1; else w = 2;\n    logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n  }\n}\n",
}

// lintAdversarialSource is a shape with what makes lint's read leave out
// runs around it: "using namespace cute;" and statements that call none
// of the algebra before and after.
func lintAdversarialSource(shape string) []byte {
	filler := func(p string) string {
		var b strings.Builder
		for i := range 8 {
			fmt.Fprintf(&b, "using %s%d = Layout<Shape<_1,_2,_3,_4,_5,_6,_7,_8>>;\n", p, i)
		}
		return b.String()
	}
	return []byte("using namespace cute;\n" + filler("Before") + shape + filler("After"))
}

// everyWayReader is the FindingsReader sameLintFindingsEveryWay reads
// every text with, each in the memory of the text before, as lint does.
var everyWayReader struct {
	sync.Mutex
	FindingsReader
}

// sameLintFindingsEveryWay fails t when lint's findings of src, as
// cmd/cute-lsp computes them with and without --code-stats, differ from
// the full read's (ReadCode, what the editor reports).
func sameLintFindingsEveryWay(t *testing.T, name string, src []byte) []Finding {
	t.Helper()
	path := name + ".cu"
	full := AnalyzeHostCode(path, src, ReadCode(LangCpp, src)).Findings
	if got := AnalyzeHostForFindings(path, src).Findings; !reflect.DeepEqual(full, got) {
		t.Errorf("%s: lint's findings (AnalyzeHostForFindings) differ from the full read's:\n got %v\nwant %v", name, got, full)
	}
	// As a lint worker reads it: in the memory of the file read before
	// (every text this helper is given shares one reader).
	everyWayReader.Lock()
	got := everyWayReader.AnalyzeHostForFindings(path, src).Findings
	everyWayReader.Unlock()
	if !reflect.DeepEqual(full, got) {
		t.Errorf("%s: lint's findings through a FindingsReader differ from the full read's:\n got %v\nwant %v", name, got, full)
	}
	if got := AnalyzeHostCode(path, src, ReadCodeForLint(LangCpp, src)).Findings; !reflect.DeepEqual(full, got) {
		t.Errorf("%s: lint --code-stats' findings differ from the full read's:\n got %v\nwant %v", name, got, full)
	}
	sameFindingsForLint(t, name, src)
	sameAlgebraForLint(t, name, src)
	return full
}

// TestLintReadAdversarial: on shapes made to catch lint's partial read
// out, its findings (errors, warnings, hints, their certainty) are the
// full read's, bare and among statements it leaves out.
func TestLintReadAdversarial(t *testing.T) {
	for i, shape := range lintAdversarialShapes {
		crlf := strings.ReplaceAll(shape, "\n", "\r\n")
		for _, src := range [][]byte{[]byte("using namespace cute;\n" + shape), lintAdversarialSource(shape),
			[]byte("\ufeffusing namespace cute;\r\n" + crlf), lintAdversarialSource(crlf)} {
			full := sameLintFindingsEveryWay(t, shape, src)
			if testing.Verbose() {
				c := ReadCodeForFindings(LangCpp, src)
				t.Logf("shape %d: %d findings, partial %v", i, len(full), c != nil && c.File.Partial)
			}
		}
	}
}

// lintAdversarialPython are CuTe DSL shapes for lint's filter of Python
// (MayCall over findingNames): the call reached through an alias, an
// import of the name, a module alias, a line continuation or a decorator.
var lintAdversarialPython = []string{
	"import cutlass.cute as cute\nL = cute.make_layout((8, 8))\nr = cute.logical_divide(L, (2, 2, 2))\n",
	"import cutlass.cute as c\nL = c.make_layout((8, 8))\nr = c.logical_divide(L, (2, 2, 2))\n",
	"from cutlass.cute import make_layout, logical_divide\nL = make_layout((8, 8))\nr = logical_divide(L, (2, 2, 2))\n",
	"from cutlass.cute import make_layout as ml, logical_divide as ld\nL = ml((8, 8))\nr = ld(L, (2, 2, 2))\n",
	"from cutlass import cute\nL = cute.make_layout((8, 8))\nr = cute.logical_divide(\\\n  L, (2, 2, 2))\n",
	"import cutlass.cute as cute\n@cute.jit\ndef f():\n    L = cute.make_layout((8, 8))\n    if False:\n        r = cute.logical_divide(L, (2, 2, 2))\n",
	"import cutlass.cute as cute\nL = cute.make_layout((4, 3), stride=(3, 1))  # (4,3):(1,4)\nr = cute.composition(L, cute.make_layout(6))\n",
	"import cutlass.cute as cute\nL = cute.make_layout((4, 3), stride=(3, 1))  # (4,3):(1,4)\n",
	"import cutlass.cute as cute\ns = \"\"\"\nr = cute.logical_divide(cute.make_layout((8, 8)), (2, 2, 2))\n\"\"\"\n",
	"import cutlass.cute as cute\nL = cute.make_layout((8, 8))\nL = 3\nr = cute.logical_divide(L, (2, 2, 2))\n",
	// Functions through aliases, calls split by continuations, comments,
	// spaces around the dot, star and keyword arguments.
	"import cutlass.cute as cute\nml = cute.make_layout\nld = cute.logical_divide\nr = ld(ml((8, 8)), (2, 2, 2))\n",
	"import cutlass.cute as cute\nr = cute.logical_divide \\\n  (cute.make_layout \\\n (8, 8), (2, 2, 2))\n",
	"import cutlass.cute as cute\nr = cute.logical_divide(cute.make_layout((8, 8)),\n  (2, 2, 2))\n",
	"import cutlass.cute as cute\nr = cute.logical_divide # c\n(cute.make_layout((8, 8)), (2, 2, 2))\n",
	"import cutlass.cute as cute\nr = cute.logical_divide(cute.make_layout((8, 8)), (2, 2, 2))  # cute\n",
	"from cutlass.cute import *\nr = logical_divide(make_layout((8, 8)), (2, 2, 2))\n",
	"import cutlass.cute as cute\nr = cute . logical_divide(cute . make_layout((8, 8)), (2, 2, 2))\n",
	"import cutlass.cute as cute\nr = cute.\\\nlogical_divide(cute.make_layout((8, 8)), (2, 2, 2))\n",
	"import cutlass.cute as cute\nr = cute.logical_divide(*[cute.make_layout((8, 8)), (2, 2, 2)])\n",
	"import cutlass.cute as cute\nr = cute.logical_divide(target=cute.make_layout((8, 8)), tiler=(2, 2, 2))\n",
}

// TestLintReadAdversarialPython: lint's findings of a DSL file (with and
// without --code-stats) are the full read's.
func TestLintReadAdversarialPython(t *testing.T) {
	for i, src := range lintAdversarialPython {
		path := fmt.Sprintf("shape%d.py", i)
		full := AnalyzeHostCode(path, []byte(src), ReadCode(LangPython, []byte(src))).Findings
		if got := AnalyzeHostForFindings(path, []byte(src)).Findings; !reflect.DeepEqual(full, got) {
			t.Errorf("%q: lint's findings differ from the full read's:\n got %v\nwant %v", src, got, full)
		}
		if got := AnalyzeHostCode(path, []byte(src), ReadCodeForLint(LangPython, []byte(src))).Findings; !reflect.DeepEqual(full, got) {
			t.Errorf("%q: lint --code-stats' findings differ from the full read's:\n got %v\nwant %v", src, got, full)
		}
		if testing.Verbose() {
			t.Logf("python shape %d: %d findings", i, len(full))
		}
	}
}

// FuzzLintHostFindings: on any text, lint's findings as cmd/cute-lsp
// computes them (AnalyzeHostForFindings, whose descriptor scan answers
// MayCall; ReadCodeForLint for --code-stats) are the full read's.
// FuzzLintFindingsRead reads the code the same way but scans the host
// text as the editor does; this one goes through lint's own scan.
func FuzzLintHostFindings(f *testing.F) {
	for _, shape := range lintAdversarialShapes {
		f.Add(shape)
	}
	for _, src := range callScanSeeds {
		f.Add(src)
	}
	for _, c := range readGapShapes {
		f.Add(c.src)
	}
	f.Add("asm volatile(\"x\" : '+r\"(b), \"=l\"(c)); /* (4,3):(1,4,5) */\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		sameLintFindingsEveryWay(t, "fuzz", []byte("using namespace cute;\n"+src))
	})
}
