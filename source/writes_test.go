package source

import (
	"strconv"
	"strings"
	"testing"
)

// writeLines are the source lines holding a write of name, 1-based, joined by ",".
func writeLines(src string, f *File, name string) string {
	var out []string
	for _, w := range f.Writes {
		if w.Name == name {
			out = append(out, strconv.Itoa(strings.Count(src[:w.At.Start], "\n")+1))
		}
	}
	return strings.Join(out, ",")
}

// TestWrites: the occurrences of a bound name that may bind it again
// without being a binding, and none of its reads but one: "k * x" reads
// like the declaration "T* x" (a write taken for a read would be worse).
func TestWrites(t *testing.T) {
	cpp := `auto x = make_layout(Shape<_8>{});
auto a = coalesce(x);
print(x); f(x, y); x.shape(); S::x; p->x;
for (auto x : xs) {}
for (auto& x : xs) {}
auto [y, x] = foo();
Foo x(3);
std::tuple<int,int> x;
decltype(a) x;
return x;
auto b = k * x;
template <class x> struct T {};`
	if got, want := writeLines(cpp, ReadCpp([]byte(cpp)), "x"), "4,5,6,7,8,9,11,12"; got != want {
		t.Errorf("C++ writes of x on lines %s, want %s", got, want)
	}
	py := `import cutlass.cute as cute
x = cute.make_layout(8)
a = cute.coalesce(x)
print(x); f(x, k=x); x.shape; f(x=1)
for x in xs: pass
for i, x in xs: pass
with f() as x: pass
a, x = f()
x, a = f()
x += (1,)
x[0] = 1
x.append(2)
x.attr = 3
if (x := 4): pass
del x
global x
import x
from m import a, x
y = [x for x in xs]
f = lambda x: x
if x == 1 and x >= 2 and x != 3 and x <= 4: pass`
	if got, want := writeLines(py, ReadPython([]byte(py)), "x"), "5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"; got != want {
		t.Errorf("Python writes of x on lines %s, want %s", got, want)
	}
}
