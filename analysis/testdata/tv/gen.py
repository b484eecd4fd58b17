#!/usr/bin/env python3
"""Random TiledMMA / TiledCopy cases computed by CuTe C++ (host g++ build).

Writes JSON lines {"id", "expr", "expected"} (or "error") in the format of
../shared/tv/tv_cases.jsonl: expr in the sheet's syntax, expected as CuTe's
print() prints the same construction. See README.md beside this file.

    CUTLASS_INC=... CCCL_INC=... STUB_DIRS=a:b python3 gen.py --seed 1 --n 300 --out cases.jsonl
"""
import argparse, json, os, random, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ATOMS = os.path.join(HERE, '..', '..', '..', 'testdata', 'oracle', 'atoms.jsonl')


def cpp_tuple(t, outer='Shape'):
    if isinstance(t, tuple):
        return outer + '<' + ','.join(cpp_tuple(e, outer) for e in t) + '>'
    return 'Int<%d>' % t


def sheet_tuple(t):
    if isinstance(t, tuple):
        return '(' + ','.join(sheet_tuple(e) for e in t) + ')'
    return str(t)


class Lay:
    """A layout as the sheet writes it and as CuTe's type names it."""

    def __init__(self, shape, stride=None):
        self.shape, self.stride = shape, stride

    def sheet(self):
        if self.stride is None:
            return 'make_layout(%s)' % sheet_tuple(self.shape)
        return '%s:%s' % (sheet_tuple(self.shape), sheet_tuple(self.stride))

    def cpp(self):
        if self.stride is None:
            return 'Layout<%s>' % cpp_tuple(self.shape)
        return 'Layout<%s,%s>' % (cpp_tuple(self.shape), cpp_tuple(self.stride, 'Stride'))


def size(t):
    if isinstance(t, tuple):
        n = 1
        for e in t:
            n *= size(e)
        return n
    return t


def load_atoms():
    mmas, copies = [], []
    for line in open(ATOMS):
        d = json.loads(line)
        if d['kind'] == 'mma':
            if 'complex' in d['name'] or 'C64' in d['name'] or 'C32' in d['name']:
                continue
            mmas.append(d)
        elif 'TMA' not in d['name'] and 'BULK' not in d['name']:
            copies.append(d)
    return mmas, copies


def parse_shape(s):
    return eval(s.replace('_', '').split(':')[0].replace('(', '(').replace(')', ',)') if s.startswith('(') else s.replace('_', '').split(':')[0])


def mnk(d):
    s = d['Shape_MNK'].replace('_', '')
    return tuple(int(x) for x in s.strip('()').split(','))


def pick_mma(r, mmas):
    fam = r.choice(['SM80', 'SM80', 'SM75', 'SM70', 'SM89', 'SM90_16', 'GMMA', 'GMMA', 'SM100', 'SM61'])
    pool = [d for d in mmas if (fam == 'GMMA' and d['name'].startswith('SM90_64x')) or
            (fam == 'SM90_16' and d['name'].startswith('SM90_16x')) or
            (fam not in ('GMMA', 'SM90_16') and d['name'].startswith(fam))]
    if fam == 'GMMA':
        pool = [d for d in pool if int(re.match(r'SM90_64x(\d+)', d['name']).group(1)) <= 256]
    if fam == 'SM100':
        pool = [d for d in pool if 'x2SM' not in d['name'] and '2x1SM' not in d['name']]
    return r.choice(pool or mmas)


def rand_atom_layout(r):
    a, b, c = r.choice([1, 2, 4]), r.choice([1, 2, 4]), r.choice([1, 1, 1, 2])
    while a * b * c > 8:
        a, b, c = r.choice([1, 2]), r.choice([1, 2, 4]), 1
    k = r.random()
    if k < 0.5:
        return Lay((a, b, c))
    if k < 0.8:  # row-major over (M,N)
        return Lay((a, b, c), (b, 1, 0 if c == 1 else a * b))
    return Lay((a, b))  # rank 2: padded to rank 3 by make_tiled_mma


def rand_perm(r, atom_mnk, lay):
    if r.random() < 0.35:
        return None
    thr = list(lay.shape) + [1] * (3 - len(lay.shape))
    modes = []
    for i in range(3):
        base = atom_mnk[i] * thr[i]
        k = r.random()
        if k < 0.25:
            modes.append(('_', 'Underscore'))
        elif k < 0.55:
            n = base * r.choice([1, 1, 2]) + (r.choice([0, 0, 0, 0, 0, 0, 8]) if base > 8 else 0)
            modes.append(('%d:1' % n, 'Layout<Int<%d>>' % n))
        elif k < 0.7:
            n = base * r.choice([1, 2])
            modes.append(('%d' % n, 'Int<%d>' % n))
        else:
            h = max(base // 2, 1)
            if h * 2 != base or base < 4:
                modes.append(('%d:1' % base, 'Layout<Int<%d>>' % base))
            else:
                # interleave two halves: (h,2):(1,2h) stretched over 2*base
                modes.append(('(%d,2):(1,%d)' % (h, 2 * h), 'Layout<Shape<Int<%d>,Int<2>>,Stride<Int<1>,Int<%d>>>' % (h, 2 * h)))
    return modes


def rand_tensor(r, m, n, rank3=False):
    fm, fn = r.choice([1, 1, 2, 4]), r.choice([1, 1, 2, 4])
    M, N = m * fm, n * fn
    if M * N > 1 << 16:
        M, N = m, n
    if r.random() < 0.5:
        shape, stride = (M, N), (1, M)
    else:
        shape, stride = (M, N), (N, 1)
    if rank3:
        shape, stride = shape + (2,), stride + (M * N,)
    return Lay(shape, stride)


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.mmas, self.copies = load_atoms()
        self.cases = []  # (id, expr, cpp statements)

    def add(self, cid, expr, body):
        self.cases.append((cid, expr, body))

    def mma(self, k):
        r = self.r
        d = pick_mma(r, self.mmas)
        op = d.get('instantiated_as') or d['name']
        amnk = mnk(d)
        lay = rand_atom_layout(r)
        perm = rand_perm(r, amnk, lay)
        sexpr = 'make_tiled_mma(mma_atom("%s"), %s' % (d['name'], lay.sheet())
        cexpr = 'make_tiled_mma(%s{}, %s{}' % (op, lay.cpp())
        if perm:
            sexpr += ', [%s]' % ';'.join(p[0] for p in perm)
            cexpr += ', Tile<%s>{}' % ','.join(p[1] for p in perm)
        sexpr += ')'
        cexpr += ')'
        pre = 'S%d-M%d' % (self.seed, k)
        for x in 'ABC':
            self.add(pre + x, 'get_layout%s_TV(%s)' % (x, sexpr), 'auto m = %s; print(m.get_layout%s_TV());' % (cexpr, x))
        for i in range(3):
            self.add(pre + 't%d' % i, 'tile_size<%d>(%s)' % (i, sexpr), 'auto m = %s; print(tile_size<%d>(m));' % (cexpr, i))
        self.add(pre + 'n', 'size(%s)' % sexpr, 'auto m = %s; print(size(m));' % cexpr)
        # sizes of the tiles, known only after C++ ran: partition tensors are
        # built from the atom tile times the atom layout, which divides them
        thr = list(lay.shape) + [1] * (3 - len(lay.shape))
        tm, tn, tk = [amnk[i] * thr[i] for i in range(3)]
        if perm:
            sz = []
            for i, p in enumerate(perm):
                if p[0] == '_':
                    sz.append([tm, tn, tk][i])
                else:
                    m_ = re.match(r'\((\d+),2\)', p[0])
                    sz.append(int(m_.group(1)) * 2 if m_ else int(p[0].split(':')[0]))
            tm, tn, tk = sz
        nthr = size(tuple(thr)) * size(eval(d['ThrID'].replace('_', '').split(':')[0]))
        for x, (a, b) in (('A', (tm, tk)), ('B', (tn, tk)), ('C', (tm, tn))):
            if r.random() < 0.6:
                continue
            L = rand_tensor(r, a, b, rank3=r.random() < 0.15)
            for t in sorted({0, 1, r.randrange(max(nthr, 1) * 2), r.randrange(max(nthr, 1))}):
                self.add(pre + 'p%s%d' % (x, t), 'partition_%s(%s, %d, %s)' % (x, sexpr, t, L.sheet()),
                         'auto m = %s; auto T = make_tensor(make_gmem_ptr(base), %s{}); auto p = m.get_slice(thr(%d)).partition_%s(T); print(p.layout()); printf(" + %%ld", (long)(p.data().get() - base));' % (cexpr, L.cpp(), t, x))
        return d, lay, perm, sexpr, cexpr, (tm, tn, tk)

    def copy(self, k):
        r = self.r
        d = r.choice(self.copies)
        vt = r.choice(['half_t', 'half_t', 'float', 'uint8_t', 'double', 'bfloat16_t', 'int8_t', 'uint32_t'])
        if d['name'].startswith('UniversalCopy') and r.random() < 0.5:
            vt = {8: 'uint8_t', 16: 'half_t', 32: 'float', 64: 'double', 128: 'uint128_t'}[int(re.search(r'(\d+)', d['name'][13:]).group(1))]
        atom_s = 'copy_atom("%s", "%s")' % (d['name'], vt)
        atom_c = 'Copy_Atom<%s, %s>{}' % (d['name'], vt)
        pre = 'S%d-C%d' % (self.seed, k)
        if r.random() < 0.3:
            md = pick_mma(r, [m for m in self.mmas if m['name'].startswith(('SM80', 'SM75', 'SM90_64'))])
            lay = rand_atom_layout(r)
            x = r.choice('ABC')
            op = md.get('instantiated_as') or md['name']
            sexpr = 'make_tiled_copy_%s(%s, make_tiled_mma(mma_atom("%s"), %s))' % (x, atom_s, md['name'], lay.sheet())
            cexpr = 'make_tiled_copy_%s(%s, make_tiled_mma(%s{}, %s{}))' % (x, atom_c, op, lay.cpp())
            amnk = mnk(md)
            thr = list(lay.shape) + [1] * (3 - len(lay.shape))
            t = [amnk[i] * thr[i] for i in range(3)]
            tile = {'A': (t[0], t[2]), 'B': (t[1], t[2]), 'C': (t[0], t[1])}[x]
            nthr = size(tuple(thr)) * size(eval(md['ThrID'].replace('_', '').split(':')[0]))
        else:
            tsz = r.choice([32, 64, 128, 128, 256])
            a = r.choice([s for s in (1, 2, 4, 8, 16, 32, 64) if tsz % s == 0 and tsz // s <= 64])
            b = tsz // a
            thr = Lay((a, b)) if r.random() < 0.5 else Lay((a, b), (b, 1))
            v1, v2 = r.choice([(1, 1), (1, 2), (1, 4), (1, 8), (2, 1), (4, 1), (8, 1), (2, 4), (2, 2), (1, 16)])
            val = Lay((v1, v2)) if r.random() < 0.7 else Lay((v1, v2), (v2, 1))
            sexpr = 'make_tiled_copy(%s, %s, %s)' % (atom_s, thr.sheet(), val.sheet())
            cexpr = 'make_tiled_copy(%s, %s{}, %s{})' % (atom_c, thr.cpp(), val.cpp())
            tile = (a * v1, b * v2)
            nthr = tsz
        for x in 'SD':
            self.add(pre + x, 'get_layout%s_TV(%s)' % (x, sexpr), 'auto c = %s; print(c.get_layout%s_TV());' % (cexpr, x))
        self.add(pre + 'n', 'size(%s)' % sexpr, 'auto c = %s; print(size(c));' % cexpr)
        for i in range(2):
            self.add(pre + 't%d' % i, 'tile_size<%d>(%s)' % (i, sexpr), 'auto c = %s; print(tile_size<%d>(c));' % (cexpr, i))
        for x in 'SD':
            L = rand_tensor(r, tile[0], tile[1])
            for t in sorted({0, 1, r.randrange(nthr)}):
                self.add(pre + 'p%s%d' % (x, t), 'partition_%s(%s, %d, %s)' % (x, sexpr, t, L.sheet()),
                         'auto c = %s; auto T = make_tensor(make_gmem_ptr(base), %s{}); auto p = c.get_slice(thr(%d)).partition_%s(T); print(p.layout()); printf(" + %%ld", (long)(p.data().get() - base));' % (cexpr, L.cpp(), t, x))


def copy_more(g, k):
    """make_tiled_copy_C_atom, make_tiled_copy_S/D, make_cotiled_copy and
    retile_S/D: copies whose tile is a tuple of layouts rather than a shape."""
    r = g.r
    pre = 'S%d-X%d' % (g.seed, k)
    kind = r.choice(['c_atom', 'c_atom', 'sd', 'cotiled', 'cotiled'])
    stores = ['SM90_U32x1_STSM_N', 'SM90_U32x2_STSM_N', 'SM90_U32x4_STSM_N', 'SM90_U16x2_STSM_T',
              'SM90_U16x4_STSM_T', 'SM90_U16x8_STSM_T', 'UniversalCopy<uint32_t>', 'UniversalCopy<uint64_t>',
              'UniversalCopy<uint128_t>', 'UniversalCopy<uint16_t>']
    vt = r.choice(['half_t', 'half_t', 'bfloat16_t', 'float'])
    op = r.choice(stores)
    atom_s = 'copy_atom("%s", "%s")' % (op, vt)
    atom_c = 'Copy_Atom<%s, %s>{}' % (op, vt)
    if kind in ('c_atom', 'sd'):
        md = pick_mma(r, [m for m in g.mmas if m['name'].startswith(('SM80_16x8', 'SM75_16x8', 'SM90_64'))])
        lay = rand_atom_layout(r)
        mop = md.get('instantiated_as') or md['name']
        ms = 'make_tiled_mma(mma_atom("%s"), %s)' % (md['name'], lay.sheet())
        mc = 'make_tiled_mma(%s{}, %s{})' % (mop, lay.cpp())
        amnk = mnk(md)
        thr = list(lay.shape) + [1] * (3 - len(lay.shape))
        tm, tn = amnk[0] * thr[0], amnk[1] * thr[1]
        nthr = size(tuple(thr)) * size(eval(md['ThrID'].replace('_', '').split(':')[0]))
        if kind == 'c_atom':
            sexpr = 'make_tiled_copy_C_atom(%s, %s)' % (atom_s, ms)
            cexpr = 'make_tiled_copy_C_atom(%s, %s)' % (atom_c, mc)
        else:
            x = r.choice('SD')
            op2 = r.choice(stores)
            inner_s = 'make_tiled_copy_C(%s, %s)' % (atom_s, ms)
            inner_c = 'make_tiled_copy_C(%s, %s)' % (atom_c, mc)
            if r.random() < 0.5:
                inner_s, inner_c = inner_s.replace('make_tiled_copy_C(', 'make_tiled_copy_C_atom('), inner_c.replace('make_tiled_copy_C(', 'make_tiled_copy_C_atom(')
            sexpr = 'make_tiled_copy_%s(copy_atom("%s", "%s"), %s)' % (x, op2, vt, inner_s)
            cexpr = 'make_tiled_copy_%s(Copy_Atom<%s, %s>{}, %s)' % (x, op2, vt, inner_c)
        tile = (tm, tn)
        vals = max(tm * tn // max(nthr, 1), 1)
    else:
        # an atom's (thread, value) -> address over a data layout of the addresses
        nt = r.choice([32, 32, 64, 128])
        nv = r.choice([1, 2, 4, 8])
        if r.random() < 0.6:
            atv = Lay((nt, nv), (nv, 1))
        else:
            atv = Lay((nt, nv), (1, nt))
        total = nt * nv * r.choice([1, 1, 2])
        m = r.choice([d for d in (4, 8, 16, 32, 64, 128) if total % d == 0 and total // d <= 256])
        n = total // m
        data = r.choice([Lay((m, n), (n, 1)), Lay((m, n), (1, m)), Lay((m, n))])
        if r.random() < 0.2:
            data = Lay((m, n), (n + 1, 1))  # padded: not every address is in the data
        sexpr = 'make_cotiled_copy(%s, %s, %s)' % (atom_s, atv.sheet(), data.sheet())
        cexpr = 'make_cotiled_copy(%s, %s{}, %s{})' % (atom_c, atv.cpp(), data.cpp())
        tile = (m, n)
        nthr, vals = nt, nv
    for x in 'SD':
        g.add(pre + x, 'get_layout%s_TV(%s)' % (x, sexpr), 'auto c = %s; print(c.get_layout%s_TV());' % (cexpr, x))
    g.add(pre + 'n', 'size(%s)' % sexpr, 'auto c = %s; print(size(c));' % cexpr)
    for i in range(2):
        g.add(pre + 't%d' % i, 'tile_size<%d>(%s)' % (i, sexpr), 'auto c = %s; print(tile_size<%d>(c));' % (cexpr, i))
    for x in 'SD':
        L = rand_tensor(r, tile[0], tile[1])
        for t in sorted({0, r.randrange(nthr)}):
            g.add(pre + 'p%s%d' % (x, t), 'partition_%s(%s, %d, %s)' % (x, sexpr, t, L.sheet()),
                  'auto c = %s; auto T = make_tensor(make_gmem_ptr(base), %s{}); auto p = c.get_slice(thr(%d)).partition_%s(T); print(p.layout()); printf(" + %%ld", (long)(p.data().get() - base));' % (cexpr, L.cpp(), t, x))
    # a register fragment (values, m, n) retiled for the copy
    F = Lay((vals, r.choice([1, 1, 2]), r.choice([1, 2, 4])))
    for x in 'SD':
        g.add(pre + 'r%s' % x, 'retile_%s(%s, %s)' % (x, sexpr, F.sheet()),
              'auto c = %s; auto T = make_tensor(make_rmem_ptr(base), %s{}); print(c.get_slice(thr(0)).retile_%s(T).layout());' % (cexpr, F.cpp(), x))


def swizzled(g, k):
    """partition_A/B/C and partition_S/D of swizzled tensors Sw<B,M,S> o L, as
    CuTe slices a ComposedLayout tensor (the thread index is a run-time int)."""
    r = g.r
    pre = 'S%d-W%d' % (g.seed, k)
    B, M, S = r.choice([(3, 3, 3), (3, 4, 3), (2, 4, 3), (2, 3, 3), (1, 4, 3), (3, 2, 3), (2, 1, 3), (3, 1, 3)])
    if r.random() < 0.5:
        md = pick_mma(r, [m for m in g.mmas if m['name'].startswith(('SM80_16x8', 'SM75_16x8', 'SM80_8x8'))])
        lay = rand_atom_layout(r)
        mop = md.get('instantiated_as') or md['name']
        sexpr = 'make_tiled_mma(mma_atom("%s"), %s)' % (md['name'], lay.sheet())
        cexpr = 'make_tiled_mma(%s{}, %s{})' % (mop, lay.cpp())
        amnk = mnk(md)
        thr = list(lay.shape) + [1] * (3 - len(lay.shape))
        t = [amnk[i] * thr[i] for i in range(3)]
        nthr = size(tuple(thr)) * size(eval(md['ThrID'].replace('_', '').split(':')[0]))
        x = r.choice('ABC')
        tile = {'A': (t[0], t[2]), 'B': (t[1], t[2]), 'C': (t[0], t[1])}[x]
        get = 'get_slice(thr(%d)).partition_' + x
        sname = 'partition_' + x
    else:
        d = r.choice([c for c in g.copies if c['name'].startswith(('UniversalCopy', 'SM75_U32', 'SM80_CP_ASYNC'))])
        vt = r.choice(['half_t', 'half_t', 'float'])
        a, b = r.choice([(8, 4), (4, 8), (16, 8), (32, 4), (16, 2)])
        thr_l = Lay((a, b), (b, 1)) if r.random() < 0.5 else Lay((a, b))
        v1, v2 = r.choice([(1, 8), (1, 4), (8, 1), (1, 2), (2, 4)])
        val = Lay((v1, v2))
        sexpr = 'make_tiled_copy(copy_atom("%s", "%s"), %s, %s)' % (d['name'], vt, thr_l.sheet(), val.sheet())
        cexpr = 'make_tiled_copy(Copy_Atom<%s, %s>{}, %s{}, %s{})' % (d['name'], vt, thr_l.cpp(), val.cpp())
        tile, nthr = (a * v1, b * v2), a * b
        x = r.choice('SD')
        get = 'get_slice(thr(%d)).partition_' + x
        sname = 'partition_' + x
    L = rand_tensor(r, tile[0], tile[1])
    for t_ in sorted({0, 1, r.randrange(max(nthr, 1)), r.randrange(max(nthr, 1))}):
        g.add(pre + 'p%s%d' % (x, t_), '%s(%s, %d, composition(Sw<%d,%d,%d>, %s))' % (sname, sexpr, t_, B, M, S, L.sheet()),
              'auto o = %s; auto T = make_tensor(make_gmem_ptr(base), composition(Swizzle<%d,%d,%d>{}, %s{})); auto p = o.%s(T); print(p.layout()); printf(" + %%ld", (long)(p.data().get() - base));' % (cexpr, B, M, S, L.cpp(), get % t_))


def layout_tv(g, k):
    r = g.r
    a, b = r.choice([(4, 8), (8, 4), (2, 16), (16, 8), (32, 4), (8, 8), (2, 3), (4, 1)])
    thr = Lay((a, b)) if r.random() < 0.5 else Lay((a, b), (b, 1))
    v1, v2 = r.choice([(1, 1), (2, 2), (1, 4), (4, 1), (2, 1), (1, 8), (3, 1)])
    val = Lay((v1, v2)) if r.random() < 0.6 else Lay((v1, v2), (v2, 1))
    g.add('S%d-L%d' % (g.seed, k), 'make_layout_tv(%s, %s)' % (thr.sheet(), val.sheet()),
          'auto c = make_tiled_copy(Copy_Atom<UniversalCopy<uint8_t>, uint8_t>{}, %s{}, %s{}); print(typename decltype(c)::TiledLayout_TV{});' % (thr.cpp(), val.cpp()))


PRELUDE = r'''
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm90.hpp>
#include <cstdio>
#include <cstdlib>
using namespace cute;
static float* base = reinterpret_cast<float*>(1 << 20);
static volatile int thr_sink;
static int thr(int t) { thr_sink = t; return thr_sink; }
'''


def rejection(case, flags, work):
    """CuTe's reason for rejecting one case: the first static_assert its own
    translation unit fails (a batch's messages cannot be told apart)."""
    src = os.path.join(work, 'one.cpp')
    open(src, 'w').write(PRELUDE + 'void c0() { %s }\nint main() { c0(); }\n' % case[2])
    p = subprocess.run(['g++', '-fsyntax-only'] + flags + [src], capture_output=True, text=True)
    msg = re.findall(r'static assertion failed: ?([^\n]*)', p.stderr)
    return msg[0].strip() if msg else 'rejected'


def build(cases, flags, work):
    """Compiles and runs cases; returns {id: ('ok', text) | ('error', why)}."""
    out = {}
    todo = list(cases)
    while todo:
        lines = [PRELUDE]
        where = []
        for i, (cid, _, body) in enumerate(todo):
            start = sum(x.count('\n') for x in lines) + 1
            lines.append('void c%d() { %s }\n' % (i, body))
            where.append(start)
        lines.append('int main(int argc, char** argv) {\n')
        for i in range(len(todo)):
            lines.append('  if (argc < 2 || atoi(argv[1]) <= %d) { printf("@@%d "); c%d(); printf("\\n"); fflush(stdout); }\n' % (i, i, i))
        lines.append('}\n')
        src = os.path.join(work, 'tu.cpp')
        open(src, 'w').write(''.join(lines))
        p = subprocess.run(['g++'] + flags + [src, '-o', os.path.join(work, 'tu')], capture_output=True, text=True)
        if p.returncode != 0:
            bad = set()
            for m in re.finditer(r"In function 'void c(\d+)\(\)'", p.stderr):
                bad.add(int(m.group(1)))
            for m in re.finditer(r"tu\.cpp:(\d+):\d+:\s+required from here", p.stderr):
                ln = int(m.group(1))
                for i, s in enumerate(where):
                    if s == ln:
                        bad.add(i)
            if not bad:
                sys.exit('compile failed, no case to blame:\n' + p.stderr[:3000])
            for i in bad:
                out[todo[i][0]] = ('error', 'compile: ' + rejection(todo[i], flags, work))
            todo = [c for i, c in enumerate(todo) if i not in bad]
            continue
        start = 0
        while start < len(todo):
            q = subprocess.run([os.path.join(work, 'tu'), str(start)], capture_output=True, text=True)
            done = {}
            for m in re.finditer(r'@@(\d+) ([^\n]*)\n', q.stdout):
                done[int(m.group(1))] = m.group(2)
            for i, text in done.items():
                out[todo[i][0]] = ('ok', text)
            if q.returncode == 0:
                break
            nxt = max(done) + 1 if done else start
            out[todo[nxt][0]] = ('error', 'runtime: the program died (signal %d)' % -q.returncode)
            start = nxt + 1
        todo = []
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--mma', type=int, default=20)
    ap.add_argument('--copy', type=int, default=20)
    ap.add_argument('--more', type=int, default=0, help='copies of copy_more (C_atom, S/D, cotiled, retile)')
    ap.add_argument('--swizzled', type=int, default=0, help='partitions of swizzled tensors')
    ap.add_argument('--batch', type=int, default=60)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    flags = ['-std=c++17', '-O0', '-w', '-D__device__=', '-D__host__=', '-D__global__=', '-D__shared__=',
             '-D__forceinline__=inline', '-DCUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED',
             '-I' + os.environ['CUTLASS_INC']] + ['-I' + d for d in os.environ['STUB_DIRS'].split(':')] + ['-I' + os.environ['CCCL_INC']]
    g = Gen(a.seed)
    for k in range(a.mma):
        g.mma(k)
    for k in range(a.copy):
        g.copy(k)
    for k in range(a.copy // 2):
        layout_tv(g, k)
    for k in range(a.more):
        copy_more(g, k)
    for k in range(a.swizzled):
        swizzled(g, k)
    results = {}
    with tempfile.TemporaryDirectory() as work:
        for i in range(0, len(g.cases), a.batch):
            results.update(build(g.cases[i:i + a.batch], flags, work))
            print('%d/%d' % (min(i + a.batch, len(g.cases)), len(g.cases)), file=sys.stderr)
    with open(a.out, 'w') as f:
        for cid, expr, _ in g.cases:
            kind, text = results[cid]
            rec = {'id': cid, 'expr': expr}
            if kind == 'ok':
                rec['expected'] = text
            else:
                rec['error'] = text
            f.write(json.dumps(rec) + '\n')


if __name__ == '__main__':
    main()
