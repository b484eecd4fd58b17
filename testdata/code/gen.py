#!/usr/bin/env python3
"""Generates hover test cases for CuTe code (C++ and CuTe DSL Python) with CuTe C++ as the oracle.

Every case is a small snippet in the style of CUTLASS code whose last line binds an expression.
The C++ snippet (for Python: its C++ equivalent) is compiled host-only with g++ against the CuTe
headers and run; what cute::print writes is the expected value.  A snippet that CuTe rejects with
a static_assert is kept with expected_error and the assertion's message.  See README.md.
"""
import argparse
import collections
import concurrent.futures as cf
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile

# ----------------------------------------------------------------------------
# Integer tuples
# ----------------------------------------------------------------------------


def is_tup(x):
    return isinstance(x, tuple)


def leaves(t):
    return [y for x in t for y in leaves(x)] if is_tup(t) else [t]


def product(t):
    p = 1
    for v in leaves(t):
        p *= v
    return p


def rebuild(vals, like):
    it = iter(vals)

    def rec(x):
        return tuple(rec(y) for y in x) if is_tup(x) else next(it)
    return rec(like)


def rand_leaf(rng):
    if rng.random() < 0.6:
        return rng.choice([1, 2, 2, 4, 4, 8, 8, 16])
    return rng.randint(1, 16)


def rand_shape(rng, max_rank=3, depth=2):
    """A shape of rank 1..max_rank, depth <= depth, leaves in 1..16; sometimes a bare integer."""
    if depth == 0 or rng.random() < 0.12:
        return rand_leaf(rng)
    rank = rng.randint(1, max_rank)
    out = []
    for _ in range(rank):
        if depth > 1 and rng.random() < 0.3:
            out.append(rand_shape(rng, 3, depth - 1) if rng.random() < 0.9 else rand_leaf(rng))
        else:
            out.append(rand_leaf(rng))
    return tuple(out)


def compact_left(shape):
    acc, out = 1, []
    for v in leaves(shape):
        out.append(acc)
        acc *= v
    return rebuild(out, shape)


def rand_stride(rng, shape):
    r = rng.random()
    if r < 0.45:  # a permuted compact stride, as in most CUTLASS layouts
        ls = leaves(shape)
        order = list(range(len(ls)))
        rng.shuffle(order)
        st, acc = [0] * len(ls), 1
        for i in order:
            st[i] = acc
            acc *= ls[i]
        return rebuild(st, shape)
    if r < 0.6:
        return compact_left(shape)
    return rebuild([rng.choice([0, 1, 1, 2, 4, 8, 16, rng.randint(0, 16)]) for _ in leaves(shape)], shape)


# ----------------------------------------------------------------------------
# C++ spelling
# ----------------------------------------------------------------------------

NAMED_STATIC = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104,
                112, 120, 128, 256, 512, 1024}


class Snippet:
    """Prelude lines (bindings the expression uses) and fresh names."""

    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.used = set()
        self.all_static = True

    def fresh(self, base):
        name, k = base, 2
        while name in self.used:
            name, k = '%s%d' % (base, k), k + 1
        self.used.add(name)
        return name

    def cpp_static_value(self, v):
        """A value expression of a static integer v."""
        rng = self.rng
        r = rng.random()
        if r < 0.4:
            return 'Int<%d>{}' % v
        if r < 0.65 and v in NAMED_STATIC:
            return '_%d{}' % v
        if r < 0.75:
            return 'C<%d>{}' % v
        if r < 0.85:
            n = self.fresh(rng.choice(['bM', 'bN', 'bK', 'kTile', 'kBlk']))
            self.lines.append('constexpr int %s = %d;' % (n, v))
            return 'Int<%s>{}' % n
        if r < 0.93 and v % 2 == 0 and v > 2:
            n = self.fresh(rng.choice(['bM', 'bN', 'bK']))
            self.lines.append('auto %s = Int<%d>{};' % (n, v // 2))
            return '%s * Int<2>{}' % n
        return 'Int<%d>{}' % v

    def cpp_dynamic_value(self, v):
        self.all_static = False
        rng = self.rng
        r = rng.random()
        if r < 0.5:
            return str(v)
        if r < 0.75:
            n = self.fresh(rng.choice(['M', 'N', 'K', 'm', 'n', 'ldA', 'ldB']))
            self.lines.append('int %s = %d;' % (n, v))
            return n
        if r < 0.87 and v % 2 == 0 and v > 0:
            n = self.fresh(rng.choice(['bM', 'bN', 'bK']))
            self.lines.append('auto %s = Int<%d>{};' % (n, v // 2))
            return '%s * 2' % n
        n = self.fresh(rng.choice(['kBlock', 'kStages', 'kWidth']))
        self.lines.append('constexpr int %s = %d;' % (n, v))
        return n  # a constexpr int passed by value is a run-time int to CuTe

    def cpp_value(self, v, p_dyn):
        return self.cpp_dynamic_value(v) if self.rng.random() < p_dyn else self.cpp_static_value(v)

    def cpp_tuple(self, t, maker, p_dyn):
        if not is_tup(t):
            return self.cpp_value(t, p_dyn)
        return '%s(%s)' % (maker, ', '.join(self.cpp_tuple(x, maker, p_dyn) for x in t))

    def cpp_type_leaf(self, v):
        if v < 0:
            return 'Int<%d>' % v
        if v in NAMED_STATIC and self.rng.random() < 0.8:
            return '_%d' % v
        return 'Int<%d>' % v

    def cpp_type(self, t, kind):
        """Shape<...> / Stride<...> spelling of a static tuple (kind 'Shape' or 'Stride')."""
        if not is_tup(t):
            return self.cpp_type_leaf(t)
        return '%s<%s>' % (kind, ','.join(self.cpp_type(x, kind) for x in t))


def cpp_layout_expr(sn, shape, stride, p_dyn, allow_type=True):
    """A C++ expression for the layout shape:stride (stride None: the default, LayoutLeft)."""
    rng = sn.rng
    if allow_type and p_dyn == 0 and rng.random() < 0.35:
        st = sn.cpp_type(shape, 'Shape')
        if stride is None:
            return 'Layout<%s>{}' % st
        return 'Layout<%s, %s>{}' % (st, sn.cpp_type(stride, 'Stride'))
    if p_dyn == 0 and is_tup(shape) and rng.random() < 0.25:
        s_txt = sn.cpp_type(shape, 'Shape') + '{}'
        d_txt = None if stride is None else sn.cpp_type(stride, 'Stride') + '{}'
    else:
        s_txt = sn.cpp_tuple(shape, 'make_shape', p_dyn)
        d_txt = None if stride is None else sn.cpp_tuple(stride, 'make_stride', p_dyn)
    if d_txt is None:
        return 'make_layout(%s)' % s_txt
    return 'make_layout(%s, %s)' % (s_txt, d_txt)


# ----------------------------------------------------------------------------
# Case builders: each returns (snippet, final line) or None
# ----------------------------------------------------------------------------

def pdyn(rng):
    r = rng.random()
    return 0 if r < 0.55 else (0.3 if r < 0.85 else 1.0)


def bind_layout(sn, base, shape=None, stride='rand', p=None, allow_type=True):
    rng = sn.rng
    shape = rand_shape(rng) if shape is None else shape
    if stride == 'rand':
        stride = None if rng.random() < 0.25 else rand_stride(rng, shape)
    p = pdyn(rng) if p is None else p
    name = sn.fresh(base)
    sn.lines.append('auto %s = %s;' % (name, cpp_layout_expr(sn, shape, stride, p, allow_type)))
    return name, shape


def case_make_layout(rng):
    sn = Snippet(rng)
    shape = rand_shape(rng)
    r = rng.random()
    p = pdyn(rng)
    if r < 0.5:
        stride = None if rng.random() < 0.2 else rand_stride(rng, shape)
        expr = cpp_layout_expr(sn, shape, stride, p)
    else:
        tag = rng.choice(['LayoutLeft', 'LayoutRight', 'GenRowMajor', 'GenColMajor'])
        expr = 'make_layout(%s, %s{})' % (sn.cpp_tuple(shape, 'make_shape', p), tag)
    return sn, 'auto %s = %s;' % (sn.fresh(rng.choice(['layout', 'sA', 'tile', 'L', 'gmem'])), expr)


def case_using(rng):
    sn = Snippet(rng)
    shape = rand_shape(rng)
    if not is_tup(shape):
        shape = (shape,)
    stride = rand_stride(rng, shape)
    name = sn.fresh(rng.choice(['ALayout', 'BLayout', 'CLayout', 'SmemLayout', 'ThrLayout']))
    st = sn.cpp_type(shape, 'Shape')
    if rng.random() < 0.2:
        txt = 'Layout<%s>' % st
    else:
        txt = 'Layout<%s,\n%s Stride<%s>>' % (st, ' ' * (len('using %s = Layout' % name)),
                                              sn.cpp_type(stride, 'Stride')[len('Stride<'):-1]) \
            if is_tup(stride) else 'Layout<%s, %s>' % (st, sn.cpp_type(stride, 'Stride'))
    return sn, 'using %s = %s;' % (name, txt)


def tiler_for(sn, shape, p, risky):
    """make_tile(...) of per-mode layouts or ints, a single layout, or a shape."""
    rng = sn.rng
    modes = shape if is_tup(shape) else (shape,)
    k = rng.randint(1, len(modes)) if not risky or rng.random() < 0.7 else len(modes) + 1
    parts = []
    for i in range(k):
        m = product(modes[i]) if i < len(modes) else 4
        divs = [d for d in range(1, m + 1) if m % d == 0]
        t = rng.choice(divs) if not risky or rng.random() < 0.6 else rng.randint(1, 12)
        r = rng.random()
        if r < 0.4:
            parts.append(sn.cpp_static_value(t) if p == 0 or rng.random() < 0.5 else sn.cpp_dynamic_value(t))
        elif r < 0.85:
            stv = rng.choice([1, 1, 2]) if m // max(t, 1) >= 2 else 1
            parts.append('Layout<%s,%s>{}' % (sn.cpp_type_leaf(t), sn.cpp_type_leaf(stv)))
        else:
            parts.append('make_layout(%s, %s)' % (sn.cpp_static_value(t), sn.cpp_static_value(1)))
    if len(parts) == 1 and rng.random() < 0.3 and parts[0].startswith('Layout'):
        return parts[0]
    return 'make_tile(%s)' % ', '.join(parts)


DIVIDES = ['logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide']
PRODUCTS = ['logical_product', 'zipped_product', 'tiled_product', 'flat_product',
            'blocked_product', 'raked_product']


def case_divide(rng, risky=False):
    sn = Snippet(rng)
    p = pdyn(rng) if rng.random() < 0.4 else 0
    a, shape = bind_layout(sn, rng.choice(['layout', 'gA', 'sA', 'mA']), p=p)
    t = tiler_for(sn, shape, p, risky)
    if rng.random() < 0.5:
        tn = sn.fresh(rng.choice(['tiler', 'cta_tiler', 'tile']))
        sn.lines.append('auto %s = %s;' % (tn, t))
        t = tn
    op = rng.choice(DIVIDES)
    return sn, 'auto %s = %s(%s, %s);' % (sn.fresh('result'), op, a, t)


def case_product(rng):
    sn = Snippet(rng)
    a, _ = bind_layout(sn, rng.choice(['atom', 'vec', 'layoutA']), shape=rand_shape(rng, 2, 1),
                       p=0 if rng.random() < 0.7 else 0.3)
    b, _ = bind_layout(sn, rng.choice(['tile', 'thr', 'layoutB']), shape=rand_shape(rng, 2, 1),
                       p=0 if rng.random() < 0.7 else 0.3)
    op = rng.choice(PRODUCTS)
    return sn, 'auto %s = %s(%s, %s);' % (sn.fresh('result'), op, a, b)


def case_composition(rng, risky=False):
    sn = Snippet(rng)
    a, sa = bind_layout(sn, 'a', p=0 if rng.random() < 0.7 else 0.3)
    size_a = product(sa)
    bshape = rand_shape(rng, 2, 1)
    if not risky:
        # keep B inside A's domain most of the time
        while product(bshape) > size_a and rng.random() < 0.9:
            bshape = rand_shape(rng, 2, 1)
    b, _ = bind_layout(sn, 'b', shape=bshape, p=0 if rng.random() < 0.8 else 0.3)
    return sn, 'auto %s = composition(%s, %s);' % (sn.fresh(rng.choice(['layoutR', 'result', 'c'])), a, b)


def case_complement(rng):
    sn = Snippet(rng)
    a, sa = bind_layout(sn, 'layout', p=0 if rng.random() < 0.8 else 0.3)
    r = rng.random()
    if r < 0.3:
        return sn, 'auto %s = complement(%s);' % (sn.fresh('result'), a)
    cot = rng.choice([16, 32, 64, 128, 256, rng.randint(1, 256)])
    c = sn.cpp_value(cot, 0.3)
    if r < 0.6:
        cn = sn.fresh('cotarget')
        sn.lines.append('auto %s = %s;' % (cn, c))
        c = cn
    return sn, 'auto %s = complement(%s, %s);' % (sn.fresh('result'), a, c)


def case_unary(rng):
    sn = Snippet(rng)
    a, sa = bind_layout(sn, rng.choice(['layout', 'tv', 'sB']))
    op = rng.choice(['coalesce', 'flatten', 'filter', 'filter_zeros', 'size', 'cosize', 'rank',
                     'depth', 'right_inverse', 'left_inverse', 'shape', 'stride'])
    return sn, 'auto %s = %s(%s);' % (sn.fresh('result'), op, a)


def case_modes(rng):
    sn = Snippet(rng)
    shape = rand_shape(rng)
    if not is_tup(shape) or len(shape) < 2 and rng.random() < 0.7:
        shape = (rand_leaf(rng), rand_shape(rng, 2, 1), rand_leaf(rng))[:rng.randint(2, 3)]
    a, _ = bind_layout(sn, rng.choice(['layout', 'tCsA', 'L']), shape=shape)
    rank = len(shape)
    r = rng.random()
    out = sn.fresh(rng.choice(['m', 'mode', 'sub', 'x']))
    if r < 0.45:
        op = rng.choice(['get', 'size', 'shape', 'stride', 'layout', 'cosize'])
        i = rng.randrange(rank) if rng.random() < 0.93 else rank
        idx = str(i)
        sub = shape[i] if i < rank else None
        if is_tup(sub) and rng.random() < 0.4 and op != 'cosize':
            idx += ',%d' % rng.randrange(len(sub))
        return sn, 'auto %s = %s<%s>(%s);' % (out, op, idx, a)
    if r < 0.6:
        k = rng.randint(1, rank)
        idx = sorted(rng.sample(range(rank), k)) if rng.random() < 0.7 else [rng.randrange(rank) for _ in range(k)]
        return sn, 'auto %s = select<%s>(%s);' % (out, ','.join(map(str, idx)), a)
    if r < 0.8:
        b = rng.randrange(rank)
        e = rng.randint(b + 1, rank) if rng.random() < 0.9 else rank + 1
        return sn, 'auto %s = %s<%d,%d>(%s);' % (out, rng.choice(['take', 'group']), b, e, a)
    if r < 0.9:
        return sn, 'auto %s = %s.%s();' % (out, a, rng.choice(['shape', 'stride', 'layout']))
    return sn, 'auto %s = %s(%s);' % (out, rng.choice(['size', 'shape']), a + '.layout()')


def case_append(rng):
    sn = Snippet(rng)
    a, _ = bind_layout(sn, 'layout', shape=rand_shape(rng, 2, 2))
    b, _ = bind_layout(sn, 'mode', shape=rand_shape(rng, 1, 1), p=0)
    op = rng.choice(['append', 'prepend'])
    if rng.random() < 0.3:
        return sn, 'auto %s = %s<%d>(%s, %s);' % (sn.fresh('result'), op, rng.randint(2, 4), a, b)
    return sn, 'auto %s = %s(%s, %s);' % (sn.fresh('result'), op, a, b)


def case_cast(rng):
    sn = Snippet(rng)
    shape = rand_shape(rng, 2, 1)
    a, _ = bind_layout(sn, rng.choice(['layout', 'sA']), shape=shape,
                       stride=rand_stride(rng, shape), p=0 if rng.random() < 0.8 else 0.3)
    n = rng.choice([2, 2, 4, 8])
    op = rng.choice(['upcast', 'downcast'])
    return sn, 'auto %s = %s<%d>(%s);' % (sn.fresh('result'), op, n, a)


def case_tile_to_shape(rng):
    sn = Snippet(rng)
    atom_shape = (rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4, 8]))
    a, _ = bind_layout(sn, rng.choice(['atom', 'smem_atom']), shape=atom_shape,
                       stride=rand_stride(rng, atom_shape), p=0)
    tgt = tuple(x * rng.choice([1, 2, 3, 4]) if rng.random() < 0.9 else rng.randint(1, 16) for x in atom_shape)
    if rng.random() < 0.3:
        tgt = tgt + (rng.choice([1, 2, 3]),)
    t = sn.cpp_tuple(tgt, 'make_shape', 0 if rng.random() < 0.7 else 0.5)
    extra = ''
    if rng.random() < 0.4:
        order = list(range(len(tgt)))
        rng.shuffle(order)
        extra = ', Step<%s>{}' % ','.join('_%d' % o for o in order)
    return sn, 'auto %s = tile_to_shape(%s, %s%s);' % (sn.fresh('sA'), a, t, extra)


def case_ordered(rng):
    sn = Snippet(rng)
    shape = rand_shape(rng, 3, 1)
    if not is_tup(shape):
        shape = (shape,)
    order = list(range(len(shape)))
    rng.shuffle(order)
    p = pdyn(rng)
    s = sn.cpp_tuple(shape, 'make_shape', p)
    o = 'make_step(%s)' % ', '.join(sn.cpp_static_value(x) for x in order)
    return sn, 'auto %s = make_ordered_layout(%s, %s);' % (sn.fresh('layout'), s, o)


def case_tuple(rng):
    sn = Snippet(rng)
    maker = rng.choice(['make_shape', 'make_stride', 'make_coord', 'make_step', 'make_tile'])
    t = rand_shape(rng)
    if not is_tup(t):
        t = (t,)
    return sn, 'auto %s = %s;' % (sn.fresh(rng.choice(['shape', 'coord', 'tile', 's'])),
                                  sn.cpp_tuple(t, maker, pdyn(rng)))


def case_swizzle(rng):
    sn = Snippet(rng)
    b, m = rng.randint(1, 3), rng.randint(0, 4)
    s = rng.choice([b, b + 1, 3]) if rng.random() < 0.85 else -rng.randint(b, 3)
    shape = (rng.choice([8, 16]), rng.choice([8, 16, 32, 64]))
    stride = (shape[1], 1) if rng.random() < 0.5 else (1, shape[0])
    inner = cpp_layout_expr(sn, shape, stride, 0)
    r = rng.random()
    name = sn.fresh(rng.choice(['sw_layout', 'sA', 'smem']))
    if r < 0.5:
        return sn, 'auto %s = composition(Swizzle<%d,%d,%d>{}, %s);' % (name, b, m, s, inner)
    if r < 0.75:
        return sn, 'auto %s = make_composed_layout(Swizzle<%d,%d,%d>{}, %s, %s);' % (
            name, b, m, s, sn.cpp_static_value(0) if rng.random() < 0.8 else '_0{}', inner)
    return sn, 'auto %s = Swizzle<%d,%d,%d>{};' % (name, b, m, s)


GMMA_ATOMS = ['Layout_MN_INTER_Atom', 'Layout_MN_SW32_Atom', 'Layout_MN_SW64_Atom', 'Layout_MN_SW128_Atom',
              'Layout_K_INTER_Atom', 'Layout_K_SW32_Atom', 'Layout_K_SW64_Atom', 'Layout_K_SW128_Atom']
GMMA_TYPES = ['half_t', 'bfloat16_t', 'float', 'tfloat32_t', 'int8_t', 'uint8_t', 'float_e4m3_t', 'double']


def case_gmma(rng):
    sn = Snippet(rng)
    atom = 'GMMA::%s<%s>' % (rng.choice(GMMA_ATOMS), rng.choice(GMMA_TYPES))
    r = rng.random()
    if r < 0.4:
        return sn, 'auto %s = %s{};' % (sn.fresh('atom'), atom)
    if r < 0.55:
        return sn, 'using %s = %s;' % (sn.fresh('SmemLayoutAtomA'), atom)
    shape = (rng.choice([64, 128, 256]), rng.choice([64, 128]))
    if rng.random() < 0.3:
        shape = shape + (rng.choice([2, 3, 4]),)
    return sn, 'auto %s = tile_to_shape(%s{}, %s);' % (
        sn.fresh('sA'), atom, sn.cpp_tuple(shape, 'make_shape', 0))


BUILDERS = [  # (weight, builder)
    (14, case_make_layout), (6, case_using), (12, lambda r: case_divide(r, False)),
    (4, lambda r: case_divide(r, True)), (8, case_product), (8, lambda r: case_composition(r, False)),
    (3, lambda r: case_composition(r, True)), (5, case_complement), (8, case_unary), (12, case_modes),
    (4, case_append), (5, case_cast), (4, case_tile_to_shape), (4, case_ordered), (5, case_tuple),
    (5, case_swizzle), (4, case_gmma),
]


def pick(rng, table):
    tot = sum(w for w, _ in table)
    x = rng.uniform(0, tot)
    for w, b in table:
        x -= w
        if x <= 0:
            return b
    return table[-1][1]


NAME_RE = re.compile(r'^(?:auto|using) (\w+) = (?:GMMA::)?(\w+)')


def finish_cpp(sn, last):
    """-> dict with text, line, character, the value to print and all_static."""
    text_lines = sn.lines + last.split('\n')
    first_last = len(sn.lines)
    line0 = text_lines[first_last]
    m = re.match(r'^(auto|using) (\w+) = (.*)$', line0)
    name = m.group(2)
    rhs = m.group(3)
    # hover on the name the expression starts with (function or type), one character in
    hm = re.match(r'(?:GMMA::)?([A-Za-z_]\w*)', rhs)
    col = len(line0) - len(rhs) + hm.start(1)
    if re.match(r'\w+\.', rhs):  # a.shape(): hover on the member function
        col = len(line0) - len(rhs) + rhs.index('.') + 1
    value = name + '{}' if m.group(1) == 'using' else name
    return {'text': '\n'.join(text_lines), 'line': first_last, 'character': col + 1,
            'value': value, 'all_static': sn.all_static}


# ----------------------------------------------------------------------------
# CuTe DSL (Python) cases, each with its C++ equivalent
# ----------------------------------------------------------------------------

class PySnippet:
    def __init__(self, rng):
        self.rng = rng
        self.py = []
        self.cpp = []
        self.used = set()
        self.all_static = True

    def fresh(self, base):
        name, k = base, 2
        while name in self.used:
            name, k = '%s%d' % (base, k), k + 1
        self.used.add(name)
        return name

    def leaf(self, v, p_dyn):
        rng = self.rng
        if rng.random() < p_dyn:
            self.all_static = False
            if rng.random() < 0.5:
                return 'cutlass.Int32(%d)' % v, str(v)
            n = self.fresh(rng.choice(['m', 'n', 'k']))
            self.py.append('%s = cutlass.Int32(%d)' % (n, v))
            self.cpp.append('int %s = %d;' % (n, v))
            return n, n
        if rng.random() < 0.15:
            n = self.fresh(rng.choice(['bM', 'bN', 'bK', 'tile_m']))
            self.py.append('%s = %d' % (n, v))
            self.cpp.append('constexpr int %s = %d;' % (n, v))
            return n, 'Int<%s>{}' % n
        return str(v), 'Int<%d>{}' % v

    def tup(self, t, maker, p_dyn):
        if not is_tup(t):
            return self.leaf(t, p_dyn)
        parts = [self.tup(x, maker, p_dyn) for x in t]
        py = '(' + ', '.join(a for a, _ in parts) + (',)' if len(parts) == 1 else ')')
        return py, '%s(%s)' % (maker, ', '.join(b for _, b in parts))

    def layout(self, base, shape=None, stride='rand', p=None):
        rng = self.rng
        shape = rand_shape(rng) if shape is None else shape
        if stride == 'rand':
            stride = None if rng.random() < 0.25 else rand_stride(rng, shape)
        p = (0 if rng.random() < 0.7 else 0.3) if p is None else p
        sp, sc = self.tup(shape, 'make_shape', p)
        name = self.fresh(base)
        if stride is None:
            self.py.append('%s = cute.make_layout(%s)' % (name, sp))
            self.cpp.append('auto %s = make_layout(%s);' % (name, sc))
        else:
            dp, dc = self.tup(stride, 'make_stride', p)
            self.py.append('%s = cute.make_layout(%s, stride=%s)' % (name, sp, dp))
            self.cpp.append('auto %s = make_layout(%s, %s);' % (name, sc, dc))
        return name, shape


def py_case(rng):
    ps = PySnippet(rng)
    r = rng.random()
    out = ps.fresh(rng.choice(['layout', 'L', 'result', 'tiled', 'sA']))
    if r < 0.2:
        shape = rand_shape(rng)
        p = 0 if rng.random() < 0.7 else 0.3
        sp, sc = ps.tup(shape, 'make_shape', p)
        if rng.random() < 0.3:
            return ps, 'cute.make_layout(%s)' % sp, 'make_layout(%s)' % sc, out
        st = rand_stride(rng, shape)
        dp, dc = ps.tup(st, 'make_stride', p)
        return ps, 'cute.make_layout(%s, stride=%s)' % (sp, dp), 'make_layout(%s, %s)' % (sc, dc), out
    if r < 0.3:
        a, _ = ps.layout('a')
        b, _ = ps.layout('b', shape=rand_shape(rng, 2, 1))
        return ps, 'cute.composition(%s, %s)' % (a, b), 'composition(%s, %s)' % (a, b), out
    if r < 0.45:
        a, shape = ps.layout('layout')
        modes = shape if is_tup(shape) else (shape,)
        k = rng.randint(1, len(modes))
        parts = []
        for i in range(k):
            m = product(modes[i])
            t = rng.choice([d for d in range(1, m + 1) if m % d == 0])
            parts.append(t)
        tp, tc = ps.tup(tuple(parts), 'make_shape', 0)
        op = rng.choice(DIVIDES)
        if rng.random() < 0.5:
            # a tuple of layouts as tiler
            tp = '(' + ', '.join('cute.make_layout(%d)' % t for t in parts) + (',)' if k == 1 else ')')
            tc = 'make_tile(' + ', '.join('make_layout(Int<%d>{})' % t for t in parts) + ')'
        return ps, 'cute.%s(%s, %s)' % (op, a, tp), '%s(%s, %s)' % (op, a, tc), out
    if r < 0.55:
        a, _ = ps.layout('atom', shape=rand_shape(rng, 2, 1), p=0)
        b, _ = ps.layout('tile', shape=rand_shape(rng, 2, 1), p=0)
        op = rng.choice(PRODUCTS)
        return ps, 'cute.%s(%s, %s)' % (op, a, b), '%s(%s, %s)' % (op, a, b), out
    if r < 0.62:
        shape = rand_shape(rng, 3, 1)
        shape = shape if is_tup(shape) else (shape,)
        order = list(range(len(shape)))
        rng.shuffle(order)
        sp, sc = ps.tup(shape, 'make_shape', 0 if rng.random() < 0.8 else 0.3)
        op_, oc = ps.tup(tuple(order), 'make_step', 0)
        return ps, 'cute.make_ordered_layout(%s, order=%s)' % (sp, op_), \
            'make_ordered_layout(%s, %s)' % (sc, oc), out
    if r < 0.72:
        a, _ = ps.layout('layout')
        op = rng.choice(['coalesce', 'flatten', 'size', 'cosize', 'filter', 'right_inverse'])
        return ps, 'cute.%s(%s)' % (op, a), '%s(%s)' % (op, a), out
    if r < 0.8:
        a, sa = ps.layout('layout')
        cot = rng.choice([32, 64, 128, 256])
        return ps, 'cute.complement(%s, %d)' % (a, cot), 'complement(%s, Int<%d>{})' % (a, cot), out
    if r < 0.9:
        shape = (rand_leaf(rng), rand_shape(rng, 2, 1), rand_leaf(rng))[:rng.randint(2, 3)]
        a, _ = ps.layout('layout', shape=shape)
        i = rng.randrange(len(shape))
        op = rng.choice(['get', 'size', 'select', 'group_modes'])
        if op == 'select':
            idx = sorted(rng.sample(range(len(shape)), rng.randint(1, len(shape))))
            return ps, 'cute.select(%s, mode=[%s])' % (a, ', '.join(map(str, idx))), \
                'select<%s>(%s)' % (','.join(map(str, idx)), a), out
        if op == 'group_modes':
            b = rng.randrange(len(shape))
            e = rng.randint(b + 1, len(shape))
            return ps, 'cute.group_modes(%s, %d, %d)' % (a, b, e), 'group<%d,%d>(%s)' % (b, e, a), out
        return ps, 'cute.%s(%s, mode=[%d])' % (op, a, i), '%s<%d>(%s)' % (op, i, a), out
    b, m = rng.randint(1, 3), rng.randint(0, 4)
    s = rng.choice([b, 3])
    shape = (8, rng.choice([8, 16, 32, 64]))
    a, _ = ps.layout('outer', shape=shape, stride=(shape[1], 1), p=0)
    sw = ps.fresh('sw')
    ps.py.append('%s = cute.make_swizzle(%d, %d, %d)' % (sw, b, m, s))
    ps.cpp.append('auto %s = Swizzle<%d,%d,%d>{};' % (sw, b, m, s))
    return ps, 'cute.make_composed_layout(%s, 0, %s)' % (sw, a), \
        'make_composed_layout(%s, Int<0>{}, %s)' % (sw, a), out


def finish_py(ps, expr_py, expr_cpp, out):
    last = '%s = %s' % (out, expr_py)
    text_lines = ps.py + [last]
    col = len(out) + 3 + (len('cute.') if expr_py.startswith('cute.') else 0)
    cpp = '\n'.join(ps.cpp + ['auto %s = %s;' % (out, expr_cpp)])
    return {'text': '\n'.join(text_lines), 'line': len(ps.py), 'character': col + 1,
            'cpp_equivalent': cpp, 'value': out, 'all_static': ps.all_static}


# ----------------------------------------------------------------------------
# Compilation: many cases per translation unit, static_assert failures attributed per case
# ----------------------------------------------------------------------------

HERE = os.path.dirname(os.path.abspath(__file__))
TU_HEAD = r'''// generated by testdata/code/gen.py
#include <cute/layout.hpp>
#include <cute/layout_composed.hpp>
#include <cute/swizzle.hpp>
#include <cute/swizzle_layout.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cstdio>
#include <cstdlib>
using namespace cute;
template <class T> static void emit(int id, T const& v) { printf("@@%d\t", id); print(v); printf("\n"); fflush(stdout); }
'''


def render(items):
    """items: [(cid, body)] -> (source, {line: cid}); each case is one function."""
    lines = TU_HEAD.rstrip('\n').split('\n')
    owner = {}
    for cid, body in items:
        blines = ('static void c%d() {\n%s\n}' % (cid, body)).split('\n')
        for b in blines:
            lines.append(b)
            owner[len(lines)] = cid
    lines.append('typedef void (*case_fn)();')
    lines.append('static case_fn cases[] = {%s};' % ', '.join('c%d' % c for c, _ in items))
    lines.append('int main(int argc, char** argv) {')
    lines.append('  int from = argc > 1 ? atoi(argv[1]) : 0;')
    lines.append('  for (int i = from; i < %d; ++i) { printf("@@start\\t%%d\\n", i); fflush(stdout); cases[i](); }' % len(items))
    lines.append('  return 0;\n}')
    return '\n'.join(lines) + '\n', owner


def first_errors(stderr, owner):
    """{cid: message} for each case a compile error is attributed to (static_assert preferred)."""
    errs = {}
    cur = None
    for k, line in enumerate(stderr.splitlines()):
        m = re.match(r"^tu\.cpp: In function 'void c(\d+)\(\)'", line)
        if m:
            cur = int(m.group(1))
            continue
        m = re.match(r'^tu\.cpp:(\d+):\d+:\s+required from here', line)
        if m and int(m.group(1)) in owner:
            cur = owner[int(m.group(1))]
            continue
        m = re.match(r'^(.*?):(\d+):\d+: (?:fatal )?error: (.*)$', line)
        if not m:
            continue
        cid = owner.get(int(m.group(2))) if m.group(1) == 'tu.cpp' else None
        cid = cur if cid is None else cid
        if cid is None:
            continue
        msg = m.group(3)
        prev = errs.get(cid)
        if prev is None or ('static assertion' in msg and 'static assertion' not in prev):
            errs[cid] = msg
    return errs


def static_assert_message(msg):
    m = re.match(r'static assertion failed(?::\s*(.*))?$', msg)
    if not m:
        return None
    return (m.group(1) or '').strip() or '(no message)'


class Compiler:
    def __init__(self, cxx, flags, build):
        self.cxx, self.flags, self.build = cxx, flags, build

    def run_tu(self, items, tag):
        d = os.path.join(self.build, tag)
        os.makedirs(d, exist_ok=True)
        src, owner = render(items)
        with open(os.path.join(d, 'tu.cpp'), 'w') as f:
            f.write(src)
        p = subprocess.run([self.cxx] + self.flags + ['tu.cpp', '-o', 'tu.bin'], cwd=d, capture_output=True,
                           text=True, env=dict(os.environ, LC_ALL='C', LANG='C'))
        return p, owner, d

    def compile_all(self, items, batch, jobs):
        """compile_cases over items in batches of batch, jobs at a time -> (outs, errs)"""
        batches = [items[i:i + batch] for i in range(0, len(items), batch)]
        outs, errs = {}, {}
        with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
            futs = [ex.submit(self.compile_cases, b, 'tu%03d' % k) for k, b in enumerate(batches)]
            for k, f in enumerate(cf.as_completed(futs)):
                o, e = f.result()
                outs.update(o)
                errs.update(e)
                print('batch %d/%d done' % (k + 1, len(batches)), file=sys.stderr, flush=True)
        return outs, errs

    def compile_cases(self, items, tag):
        """-> ({cid: printed}, {cid: ('static_assert'|'error', message)})"""
        errors = {}
        active = list(items)
        for _ in range(8):
            if not active:
                return {}, errors
            p, owner, d = self.run_tu(active, tag)
            if p.returncode == 0:
                return self.execute(active, d, errors)
            errs = first_errors(p.stderr, owner)
            if not errs:
                break
            for cid, msg in errs.items():
                sa = static_assert_message(msg)
                errors[cid] = ('static_assert', sa) if sa is not None else ('error', msg)
            active = [x for x in active if x[0] not in errs]
        if len(active) == 1:
            errors[active[0][0]] = ('error', 'unattributed')
            return {}, errors
        h = len(active) // 2
        o1, e1 = self.compile_cases(active[:h], tag + 'a')
        o2, e2 = self.compile_cases(active[h:], tag + 'b')
        o1.update(o2)
        e1.update(e2)
        e1.update(errors)
        return o1, e1

    def execute(self, active, d, errors):
        out = {}
        start = 0
        while start < len(active):
            r = subprocess.run([os.path.join(d, 'tu.bin'), str(start)], capture_output=True, text=True, timeout=120)
            last = start
            for line in r.stdout.splitlines():
                if line.startswith('@@start\t'):
                    last = int(line.split('\t')[1])
                elif line.startswith('@@'):
                    cid, _, rest = line[2:].partition('\t')
                    out[int(cid)] = rest
            if r.returncode == 0:
                break
            errors[active[last][0]] = ('error', 'run-time failure (rc=%d)' % r.returncode)
            start = last + 1
        return out, errors


# ----------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--cpp', type=int, default=3000, help='C++ cases to draw')
    ap.add_argument('--py', type=int, default=600, help='Python cases to draw')
    ap.add_argument('--seed', type=int, default=20261125)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--batch', type=int, default=150, help='cases per translation unit')
    ap.add_argument('--out', default=HERE)
    ap.add_argument('--build', default=os.path.join(tempfile.gettempdir(), 'codeoracle_build'))
    args = ap.parse_args()
    cutlass = os.environ.get('CUTLASS_DIR')
    cccl = os.environ.get('CCCL_INC')
    if not cutlass or not cccl:
        sys.exit('set CUTLASS_DIR (a CUTLASS checkout) and CCCL_INC (CCCL libcudacxx/include)')
    stub = os.environ.get('CUDA_STUB', os.path.join(HERE, '../../../shared/oracle/stub'))
    flags = ['-std=c++17', '-O0', '-w', '-I' + os.path.join(cutlass, 'include'), '-I' + os.path.abspath(stub),
             '-I' + cccl]
    comp = Compiler(os.environ.get('CXX', 'g++'), flags, args.build)

    rng = random.Random(args.seed)
    cases, seen = [], set()
    while len([c for c in cases if c['lang'] == 'cpp']) < args.cpp:
        sn, last = pick(rng, BUILDERS)(rng)
        c = finish_cpp(sn, last)
        if c['text'] in seen:
            continue
        seen.add(c['text'])
        c['lang'] = 'cpp'
        c['body'] = c['text']
        cases.append(c)
    npy = 0
    while npy < args.py:
        c = finish_py(*py_case(rng))
        if c['text'] in seen:
            continue
        seen.add(c['text'])
        c['lang'] = 'python'
        c['body'] = c['cpp_equivalent']
        cases.append(c)
        npy += 1

    items = [(i, c['body'] + '\nemit(%d, %s);' % (i, c['value'])) for i, c in enumerate(cases)]
    outs, errs = comp.compile_all(items, args.batch, args.jobs)

    dropped = collections.Counter()
    written = collections.Counter()
    files = {'cpp': open(os.path.join(args.out, 'cpp_cases.jsonl'), 'w'),
             'python': open(os.path.join(args.out, 'py_cases.jsonl'), 'w')}
    for i, c in enumerate(cases):
        rec = collections.OrderedDict()
        rec['id'] = '%s%05d' % ('C' if c['lang'] == 'cpp' else 'P', i)
        rec['lang'] = c['lang']
        rec['source'] = 'gen.py seed %d' % args.seed
        rec['text'] = c['text']
        rec['line'] = c['line']
        rec['character'] = c['character']
        if i in outs:
            rec['expected'] = outs[i]
            rec['all_static'] = c['all_static']
        elif i in errs and errs[i][0] == 'static_assert':
            rec['expected_error'] = True
            rec['error'] = errs[i][1]
            rec['all_static'] = c['all_static']
        else:
            dropped[(errs.get(i) or ('error', 'no output'))[1][:80]] += 1
            continue
        if c['lang'] == 'python':
            rec['cpp_equivalent'] = c['cpp_equivalent']
        files[c['lang']].write(json.dumps(rec) + '\n')
        written[(c['lang'], 'error' if rec.get('expected_error') else 'value')] += 1
    for f in files.values():
        f.close()
    print('written:', dict(written), file=sys.stderr)
    print('dropped (not a static_assert):', sum(dropped.values()), file=sys.stderr)
    for msg, n in dropped.most_common(15):
        print('  %4d  %s' % (n, msg), file=sys.stderr)


if __name__ == '__main__':
    main()
