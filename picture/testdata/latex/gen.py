#!/usr/bin/env python3
"""CuTe's own print_latex of TiledMMA and TiledCopy objects, cell by cell.

For each object below, compiles (host g++, no nvcc) a call of CuTe's
print_latex(tiled_mma) or print_latex(tiled_copy), runs it and reads each
TikZ node `\\node[fill=...] at (x,y) {\\shortstack{T<t> \\\\ V<v>}};` back to
its operand block, row and column. Writes one JSON line per object:
{"expr": <sheet expression>, "kind": "mma"|"copy",
 "ops": {"A"|"B"|"C"|"S"|"D": {"rows": R, "cols": C, "cells": [[row, col, thread, value], ...]}}}

    CUTLASS_INC=... CCCL_INC=... STUB_DIRS=a:b python3 gen.py --out cases.jsonl.gz

See README.md beside this file.
"""
import argparse, gzip, json, os, re, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

PER_TU = 8


def mma(name, lay_s, lay_c, perm=None):
    s = 'make_tiled_mma(mma_atom("%s"), %s' % (name, lay_s)
    c = 'make_tiled_mma(%s{}, %s{}' % (name, lay_c)
    if perm:
        s += ', [%s]' % ';'.join(p[0] for p in perm)
        c += ', Tile<%s>{}' % ','.join(p[1] for p in perm)
    return s + ')', c + ')'


def L(shape):
    """make_layout((a,b,c)) in both spellings."""
    return ('make_layout((%s))' % ','.join(map(str, shape)),
            'Layout<Shape<%s>>' % ','.join('Int<%d>' % x for x in shape))


def LS(shape, stride):
    return ('(%s):(%s)' % (','.join(map(str, shape)), ','.join(map(str, stride))),
            'Layout<Shape<%s>,Stride<%s>>' % (','.join('Int<%d>' % x for x in shape), ','.join('Int<%d>' % x for x in stride)))


U = ('_', 'Underscore')


def N1(n):
    return ('%d:1' % n, 'Layout<Int<%d>>' % n)


def I(n):
    return ('%d' % n, 'Int<%d>' % n)


def IL(n):
    """(q,2,2):(1,2q,q) with n = 4q: a permutation of 0..n-1 that swaps the
    middle quarters (a layout of cosize above n would make print_latex draw
    outside its own grid)."""
    q = n // 4
    return ('(%d,2,2):(1,%d,%d)' % (q, 2 * q, q),
            'Layout<Shape<Int<%d>,Int<2>,Int<2>>,Stride<Int<1>,Int<%d>,Int<%d>>>' % (q, 2 * q, q))


def objects():
    """(kind, sheet expression, C++ expression) for every object drawn."""
    out = []
    atoms = ['SM80_16x8x16_F32F16F16F32_TN', 'SM80_16x8x8_F32F16F16F32_TN', 'SM80_16x8x16_F32BF16BF16F32_TN',
             'SM80_16x8x8_F32TF32TF32F32_TN', 'SM80_16x8x32_S32S8S8S32_TN', 'SM80_8x8x4_F64F64F64F64_TN',
             'SM80_16x8x16_F16F16F16F16_TN', 'SM75_16x8x8_F32F16F16F32_TN']
    lays = [L((1, 1, 1)), L((2, 2, 1)), L((2, 1, 1)), L((1, 2, 1)), LS((2, 2, 1), (2, 1, 0)), L((4, 1, 1))]
    for i, a in enumerate(atoms):
        for j in (0, 1, 2 + i % 4):
            s, c = mma(a, lays[j][0], lays[j][1])
            out.append(('mma', s, c))
    # permutations (the atom 16x8xK with layout (2,2,1) tiles 32x16xK)
    k16 = {'SM80_16x8x16_F32F16F16F32_TN': 16, 'SM80_16x8x8_F32F16F16F32_TN': 8, 'SM80_16x8x8_F32TF32TF32F32_TN': 8}
    for a, K in k16.items():
        for perm in ([I(32), I(32), I(K)], [U, N1(32), U], [IL(32), U, U], [N1(32), IL(16), I(K)], [I(64), I(16), I(2 * K)]):
            s, c = mma(a, lays[1][0], lays[1][1], perm)
            out.append(('mma', s, c))
    # ldmatrix copies over the A and B operands of SM80 TiledMMAs
    ldsm = {'A': ['SM75_U32x4_LDSM_N', 'SM75_U16x8_LDSM_T', 'SM75_U32x2_LDSM_N'],
            'B': ['SM75_U32x2_LDSM_N', 'SM75_U16x4_LDSM_T', 'SM75_U32x1_LDSM_N']}
    for x, ops in ldsm.items():
        for op in ops:
            for lay in (lays[0], lays[1], lays[4]):
                ms, mc = mma('SM80_16x8x16_F32F16F16F32_TN', lay[0], lay[1])
                out.append(('copy', 'make_tiled_copy_%s(copy_atom("%s", "half_t"), %s)' % (x, op, ms),
                            'make_tiled_copy_%s(Copy_Atom<%s, half_t>{}, %s)' % (x, op, mc)))
    # x4 and x8 loads of B need 8 values of B per thread: twice the atom's N by a permutation
    for op in ('SM75_U32x4_LDSM_N', 'SM75_U16x8_LDSM_T'):
        for lay, perm in ((lays[1], [I(32), I(32), I(16)]), (lays[0], [U, N1(16), U]), (lays[2], [U, N1(16), U])):
            ms, mc = mma('SM80_16x8x16_F32F16F16F32_TN', lay[0], lay[1], perm)
            out.append(('copy', 'make_tiled_copy_B(copy_atom("%s", "half_t"), %s)' % (op, ms),
                        'make_tiled_copy_B(Copy_Atom<%s, half_t>{}, %s)' % (op, mc)))
    # universal copies of a thread layout times a value layout
    for vt, op, thr, val in (('half_t', 'UniversalCopy<uint128_t>', LS((8, 4), (4, 1)), L((1, 8))),
                             ('half_t', 'UniversalCopy<uint32_t>', L((16, 2)), L((2, 1))),
                             ('float', 'UniversalCopy<uint64_t>', LS((4, 8), (8, 1)), LS((1, 2), (2, 1))),
                             ('uint8_t', 'UniversalCopy<uint8_t>', L((8, 4)), L((1, 1))),
                             ('float', 'UniversalCopy<uint32_t>', L((32, 1)), L((1, 4))),
                             ('half_t', 'UniversalCopy<uint64_t>', L((4, 8)), L((4, 1)))):
        out.append(('copy', 'make_tiled_copy(copy_atom("%s", "%s"), %s, %s)' % (op, vt, thr[0], val[0]),
                    'make_tiled_copy(Copy_Atom<%s, %s>{}, %s{}, %s{})' % (op, vt, thr[1], val[1])))
    # SM90 warpgroup MMAs (wgmma): A and B from shared memory (SS: every thread holds all of A and
    # B, stride 0) or A from registers (RS); one warpgroup, or two along M or N
    kk = '<GMMA::Major::K, GMMA::Major::K>'
    gmma = [('SM90_64x8x16_F16F16F16_SS', kk, 0), ('SM90_64x64x16_F16F16F16_SS', kk, 0),
            ('SM90_64x256x16_F16F16F16_SS', kk, 0), ('SM90_64x16x16_F16F16F16_RS', kk, 0),
            ('SM90_64x32x16_F32F16F16_RS', kk, 2), ('SM90_64x128x16_F32F16F16_RS', kk, 0),
            ('SM90_64x16x16_F32BF16BF16_SS', kk, 2), ('SM90_64x64x16_F32BF16BF16_RS', kk, 3),
            ('SM90_64x16x8_F32TF32TF32_SS_TN', '', 0), ('SM90_64x64x8_F32TF32TF32_RS_TN', '', 2),
            ('SM90_64x8x32_F16E4M3E4M3_RS_TN', '', 0), ('SM90_64x32x32_F32E4M3E4M3_SS_TN', '', 3),
            ('SM90_64x16x32_S32S8S8_RS_TN', '', 0), ('SM90_64x64x32_S32S8S8_SS_TN', '', 2)]
    for name, targs, lay in gmma:
        sheet_name = name + targs if targs else name
        s = 'make_tiled_mma(mma_atom("%s"), %s)' % (sheet_name, lays[lay][0])
        c = 'make_tiled_mma(%s%s{}, %s{})' % (name, targs, lays[lay][1])
        out.append(('mma', s, c))
    # SM100 UMMA: one thread issues the whole MMA
    for m, n in ((64, 8), (64, 32), (128, 16)):
        atom = 'SM100_MMA_F16BF16_SS<half_t, half_t, float, %d, %d, UMMA::Major::K, UMMA::Major::K>' % (m, n)
        s, c = mma(atom, lays[0][0], lays[0][1])
        out.append(('mma', s, c))
    # stmatrix: the accumulator C of an SM80 TiledMMA or of a wgmma stored through make_tiled_copy_C
    for op in ('SM90_U32x1_STSM_N', 'SM90_U32x2_STSM_N', 'SM90_U32x4_STSM_N', 'SM90_U16x2_STSM_T',
               'SM90_U16x4_STSM_T', 'SM90_U16x8_STSM_T'):
        ms, mc = mma('SM80_16x8x16_F32F16F16F32_TN', lays[1][0], lays[1][1], [I(32), I(32), I(16)])
        out.append(('copy', 'make_tiled_copy_C(copy_atom("%s", "half_t"), %s)' % (op, ms),
                    'make_tiled_copy_C(Copy_Atom<%s, half_t>{}, %s)' % (op, mc)))
    for op in ('SM90_U32x4_STSM_N', 'SM90_U16x8_STSM_T'):
        s = 'make_tiled_mma(mma_atom("SM90_64x64x16_F32F16F16_SS%s"), %s)' % (kk, lays[0][0])
        c = 'make_tiled_mma(SM90_64x64x16_F32F16F16_SS%s{}, %s{})' % (kk, lays[0][1])
        out.append(('copy', 'make_tiled_copy_C(copy_atom("%s", "half_t"), %s)' % (op, s),
                    'make_tiled_copy_C(Copy_Atom<%s, half_t>{}, %s)' % (op, c)))
    return out


PRELUDE = r'''
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm75.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/atom/copy_traits_sm90.hpp>
#include <cute/util/print_latex.hpp>
#include <cstdio>
using namespace cute;
'''

NODE = re.compile(r'\\node\[fill=[^\]]*\] at \((-?\d+),(-?\d+)\) \{\\shortstack\{T(\d+) \\\\ V(\d+)\}\};')
GRID = re.compile(r'\\draw\[[^\]]*\] \((-?\d+),(-?\d+)\) grid \((-?\d+),(-?\d+)\);')


def run_tu(idx, batch, flags, work):
    src = os.path.join(work, 'tu%d.cpp' % idx)
    exe = os.path.join(work, 'tu%d' % idx)
    body = [PRELUDE]
    for i, (_, _, cexpr) in enumerate(batch):
        body.append('void c%d() { auto x = %s; printf("@@BEGIN\\n"); print_latex(x); printf("@@END\\n"); }' % (i, cexpr))
    body.append('int main() {%s}' % ''.join(' c%d();' % i for i in range(len(batch))))
    open(src, 'w').write('\n'.join(body) + '\n')
    p = subprocess.run(['g++'] + flags + [src, '-o', exe], capture_output=True, text=True)
    if p.returncode:
        sys.exit('g++ failed on %s:\n%s' % (src, p.stderr[:4000]))
    q = subprocess.run([exe], capture_output=True, text=True, check=True)
    outs = re.findall(r'@@BEGIN\n(.*?)@@END\n', q.stdout, re.S)
    assert len(outs) == len(batch), (src, len(outs))
    return outs


def parse(kind, tex):
    """Splits the TikZ text into operand blocks (at its grid lines) and maps
    each node back to (row, col) inside its block, undoing print_latex's offsets."""
    segs, grids = [[]], []
    for line in tex.splitlines():
        m = NODE.match(line)
        if m:
            segs[-1].append(tuple(int(g) for g in m.groups()))
            continue
        g = GRID.match(line)
        if g:
            grids.append(tuple(int(x) for x in g.groups()))
            segs.append([])
    ops = {}
    if kind == 'mma':
        (_, _, M, N), (_, k0, _, _), _ = grids
        K = -k0 - 1
        ops['C'] = (M, N, [[x, y, t, v] for x, y, t, v in segs[0]])
        ops['A'] = (M, K, [[x, y + K + 1, t, v] for x, y, t, v in segs[1]])
        ops['B'] = (N, K, [[y, x + K + 1, t, v] for x, y, t, v in segs[2]])
    else:
        (_, _, M, N), _ = grids
        ops['S'] = (M, N, [[x, y, t, v] for x, y, t, v in segs[0]])
        ops['D'] = (M, N, [[x, y - N - 3, t, v] for x, y, t, v in segs[1]])
    for name, (R, C, cells) in ops.items():
        for r, c, _, _ in cells:
            assert 0 <= r < R and 0 <= c < C, (name, r, c, R, C)
        assert len({(r, c) for r, c, _, _ in cells}) == len(cells), name
    return {n: {'rows': R, 'cols': C, 'cells': sorted(cells)} for n, (R, C, cells) in ops.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cases.jsonl.gz'))
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--raw', help='also keep the TikZ text of every object in this JSON file')
    args = ap.parse_args()
    flags = ['-std=c++17', '-O0', '-w', '-D__device__=', '-D__host__=', '-D__global__=', '-D__shared__=',
             '-D__forceinline__=inline', '-I' + os.environ['CUTLASS_INC']] + \
            ['-I' + d for d in os.environ['STUB_DIRS'].split(':')] + ['-I' + os.environ['CCCL_INC']]
    objs = objects()
    batches = [objs[i:i + PER_TU] for i in range(0, len(objs), PER_TU)]
    with tempfile.TemporaryDirectory() as work, ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda ib: run_tu(ib[0], ib[1], flags, work), enumerate(batches)))
    if args.raw:
        json.dump([[o[1], t] for b, outs in zip(batches, results) for o, t in zip(b, outs)], open(args.raw, 'w'))
    # gzip (mtime 0: the same objects give the same bytes) keeps the file small: 94 objects are 2.7 MB of JSON
    opener = (lambda p: gzip.GzipFile(p, 'wb', mtime=0)) if args.out.endswith('.gz') else (lambda p: open(p, 'wb'))
    with opener(args.out) as f:
        for batch, outs in zip(batches, results):
            for (kind, sexpr, _), tex in zip(batch, outs):
                try:
                    rec = parse(kind, tex)
                except AssertionError as e:
                    sys.exit("%s: %s" % (sexpr, e))
                f.write((json.dumps({'expr': sexpr, 'kind': kind, 'ops': rec}, separators=(',', ':')) + '\n').encode())
    print('%d objects written to %s' % (len(objs), args.out))


if __name__ == '__main__':
    main()
