using namespace cute;
auto a = make_layout(Shape<_8,_8>{});
auto b = make_layout(Shape <Shape <_2, _2,_2>, Shape <_2,_2, _2>>{},
                     Stride<Stride<_1,_16,_4>, Stride<_8,_2,_32>>{});
auto layoutR = composition(a, b);
using SM80_16x8_Row = Layout<Shape <Shape < _4,_8>,Shape < _2,_2>>,
                             Stride<Stride<_32,_1>,Stride<_16,_8>>>;
