#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seed corpus of fuzz_ops (tests/fuzz/corpus/) from readable
scenarios. Each scenario is encoded with the same grammar fuzz_ops.c decodes;
keep the two in step when the harness changes. Deterministic: running it
again rewrites the same files.

    python3 tests/fuzz/make_corpus.py [output-dir]
"""
import os
import random
import struct
import sys

# Operation codes, in the order of the enum in fuzz_ops.c.
(CREATE, CREATE_MANY, DESTROY, SET_PARENT, SET_LOCAL, SET_LOCAL2, SET_TRS, UPDATE,
 UPDATE2, READ, WORLD_NOW_ALL, USER, RESERVE, COMPACT, FAIL_ALLOC, BAD_ARGS,
 RECREATE, SLOTS, TRACKER_CREATE, TRACKER_DESTROY, COLLECT, COLLECT2, SET_CREATE,
 SET_DESTROY, SET_MEMBER, SET_MEMBER2, SET_QUERY, SET_COMBINE, SET_FROM_CHANGES,
 BATCH_LOCAL, BATCH_TRS, UPDATE_PARALLEL, BULK, CHURN, SET_WORLD, BOUNDS, CULL,
 WRITER_CREATE, WRITER_DESTROY, WRITER_WRITE, WRITER_IN_PLACE, RECREATE_LARGE, SET_ANCHOR,
 SET_ORIGIN, LARGE_READ) = range(45)

# Shapes of BULK and patterns of CHURN.
BULK_CHAIN, BULK_FAN, BULK_TREE, BULK_ROOTS = range(4)
CHURN_UNDER_LATER, CHURN_DETACH_NEWEST, CHURN_RECREATE, CHURN_PINGPONG = range(4)
# Scene configuration bit 7: reclaim holes as soon as they outnumber live nodes.
CFG_RECLAIM_EAGER = 0x80
# Configurations with the CPU's kernel and previous worlds kept (bit 4 xor
# bit 7), without and with eager reclamation (both keep boxes too: bit 5 xor
# bit 6).
CFG_PREV, CFG_PREV_EAGER = 0x50, 0xA0
# Boxes on the 4-wide kernel with subtree boxes (bit 0), on the CPU's kernel
# with previous worlds, eager reclamation and subtree boxes, and on the
# widest kernel without subtree boxes.
CFG_BOUNDS_X4_TREE, CFG_BOUNDS_ALL, CFG_BOUNDS_WIDE = 0x21, 0xA1, 0x40

# Float kinds of rd_float().
F_SMALL, F_ZERO, F_NEGZERO, F_ONE, F_MONE, F_NAN, F_INF, F_NINF = 0, 6, 7, 8, 9, 10, 11, 12
F_MAX, F_NMAX, F_1E30, F_1EM30, F_DENORM, F_RAW, F_HALF, F_TWO = 13, 14, 15, 16, 17, 18, 19, 20
F_NEGNAN, F_1E19, F_FRAC = 21, 22, 23


class Program:
    def __init__(self, cfg0=(0,), cfg1=(0,)):
        self.b = bytearray()
        self.b += bytes(cfg0)
        self.b += bytes(cfg1)
        self.max_nodes = [bool(cfg0[0] & 4), bool(cfg1[0] & 4)]

    def u8(self, v):
        self.b.append(v & 0xFF)

    def u16(self, v):
        self.b += struct.pack('<H', v & 0xFFFF)

    def u32(self, v):
        self.b += struct.pack('<I', v & 0xFFFFFFFF)

    def op(self, code, scene=0):
        self.u8((code << 1) | scene)

    # handles
    def h_zero(self):
        self.u8(0)

    def h_live(self, k):
        """k-th live node in the model's (arbitrary but deterministic) order"""
        self.u8(1)
        self.u16(k)

    def h_hist(self, k):
        self.u8(5)
        self.u8(k)

    def h_other(self, k):
        self.u8(6)
        self.u16(k)

    def h_raw(self, v):
        self.u8(7)
        self.u32(v)

    def h_flip(self, k, bit):
        self.u8(8)
        self.u16(k)
        self.u8(bit)

    def h_gen(self, k, high):
        self.u8(9)
        self.u16(k)
        self.u8(high)

    # floats
    def f(self, kind, arg=None):
        self.u8(kind)
        if kind < 6:
            self.u8(arg if arg is not None else 136)  # (136-128)/8 = 1.0
        elif kind == F_RAW:
            self.u32(arg)
        elif kind == F_FRAC:
            self.u16(arg)

    def small(self, x):
        """x in [-16, 15.875], a multiple of 1/8"""
        self.f(F_SMALL, int(round(x * 8)) + 128)

    # matrices
    def m_identity(self):
        self.u8(0)

    def m_translate(self, x, y, z):
        self.u8(1)
        for v in (x, y, z):
            self.small(v)

    def m_scale_kinds(self, a, b, c):
        self.u8(2)
        for k in (a, b, c):
            self.f(k)

    def m_special(self, index, kind, arg=None):
        self.u8(6)
        self.u8(index)
        self.f(kind, arg)

    def m_copy(self, handle_fn):
        self.u8(4)
        handle_fn()

    def m_rot(self, c, tkind=F_ONE):
        self.u8(7)
        self.u8(c)
        self.f(tkind)

    # operations
    def create(self, parent_fn, scene=0):
        self.op(CREATE, scene)
        parent_fn()

    def create_many(self, k, shape, scene=0):
        self.op(CREATE_MANY, scene)
        self.u8(k - 1)
        self.u8(shape)

    def destroy(self, fn, scene=0):
        self.op(DESTROY, scene)
        fn()

    def set_parent(self, n_fn, p_fn, keep, scene=0):
        self.op(SET_PARENT, scene)
        n_fn()
        p_fn()
        self.u8(keep if keep in (0, 1) else keep + 252)

    def set_local(self, fn, mfn, scene=0):
        self.op(SET_LOCAL, scene)
        fn()
        mfn()

    def set_world(self, fn, mfn, scene=0):
        self.op(SET_WORLD, scene)
        fn()
        mfn()

    def set_trs(self, fn, t, q, s, scene=0):
        self.op(SET_TRS, scene)
        fn()
        for k in t:
            self.f(*k) if isinstance(k, tuple) else self.f(k)
        if q is None:
            self.u8(0)
            self.u8(32)  # 45 degrees
            self.u8(2)   # about z
        else:
            self.u8(1)
            for k in q:
                self.f(*k) if isinstance(k, tuple) else self.f(k)
        for k in s:
            self.f(*k) if isinstance(k, tuple) else self.f(k)

    def update(self, scene=0):
        self.op(UPDATE, scene)

    def update_once(self, scene=0):
        """an update without the second one that must recompute nothing"""
        self.op(UPDATE2, scene)

    def read(self, fn, scene=0):
        self.op(READ, scene)
        fn()

    def world_now_all(self, scene=0):
        self.op(WORLD_NOW_ALL, scene)

    def user(self, fn, value, scene=0):
        self.op(USER, scene)
        fn()
        self.u32(value >> 32)
        self.u32(value)

    def reserve_small(self, n, scene=0):
        self.op(RESERVE, scene)
        self.u8(0)
        self.u16(n)

    def reserve_huge(self, scene=0):
        self.op(RESERVE, scene)
        self.u8(2)

    def reserve_max_plus(self, extra, scene=0):
        self.op(RESERVE, scene)
        self.u8(1)
        if self.max_nodes[scene]:
            self.u8(extra)
        else:
            self.u16(extra)

    def compact(self, scene=0):
        self.op(COMPACT, scene)

    def fail_alloc(self, nth, scene=0):
        self.op(FAIL_ALLOC, scene)
        self.u8(nth - 1)

    def bad_args(self, fn, result, scene=0):
        self.op(BAD_ARGS, scene)
        fn()
        self.u8(result)

    def recreate(self, cfg, scene=0):
        self.op(RECREATE, scene)
        self.b += bytes(cfg)
        self.max_nodes[scene] = bool(cfg[0] & 4)

    def recreate_large(self, cfg, scene=0):
        """the scene again, as a large world (SGRT_SCENE_LARGE_WORLD) with
        what the configuration bytes choose besides"""
        self.op(RECREATE_LARGE, scene)
        self.b += bytes(cfg)
        self.max_nodes[scene] = bool(cfg[0] & 4)

    def slots(self, a, b, scene=0):
        self.op(SLOTS, scene)
        self.u16(a)
        self.u32(b)


def floats(p, kinds):
    """floats given as rd_float kinds, or (kind, arg) tuples"""
    for k in kinds:
        p.f(*k) if isinstance(k, tuple) else p.f(k)


def batch_count(p, n):
    """the count of a batch: 0 to 8 in one byte; 9 to 136 as 0xE0 and n - 9"""
    assert 0 <= n <= 136
    if n <= 8:
        p.u8(n)
    else:
        p.u8(0xE0)
        p.u8(n - 9)


def batch_local(p, entries, scene=0):
    """sgrt_nodes_set_local: entries (handle function, matrix function); the
    single calls in order up to the first refused entry"""
    p.op(BATCH_LOCAL, scene)
    batch_count(p, len(entries))
    for hfn, mfn in entries:
        hfn()
        mfn()


def batch_trs(p, entries, scene=0):
    """sgrt_nodes_set_trs: entries (handle function, t, q, s), each of t, q, s
    a list of float kinds (q: 4 of them)"""
    p.op(BATCH_TRS, scene)
    batch_count(p, len(entries))
    for hfn, t, q, s in entries:
        hfn()
        for j in range(3):
            floats(p, [t[j], s[j]])
        floats(p, q)


def update_parallel(p, workers, seed=3, scene=0):
    """the parallel update with 1 to 70 workers (tasks run on one thread in
    an order drawn from `seed`), then a serial one that recomputes nothing"""
    p.op(UPDATE_PARALLEL, scene)
    p.u8(seed)
    p.u8(workers - 1)


# Object picks of pick_tracker()/pick_set(): 0..2 own, 3 the other scene's,
# 4 NULL.
OWN0, OWN1, OWN2, OTHER, NULLOBJ = 0, 1, 2, 3, 4


def bulk(p, shape, thousands, seed=1, scene=0):
    """64 * thousands nodes in one op (capped by the harness at 2,048 live):
    the shape byte at 0xF0 or more asks for sixty-fours rather than fours."""
    p.op(BULK, scene)
    p.u8(0xF0 | shape)
    p.u8(thousands - 1)
    p.u32(seed)


def churn(p, kind, sixteens, seed=1, scene=0):
    """16 * sixteens iterations of a hole-making pattern (the kind byte at
    0xF0 or more asks for sixteens rather than fours)."""
    p.op(CHURN, scene)
    p.u8(0xF0 | kind)
    p.u8(sixteens - 1)
    p.u32(seed)


def tracker_create(p, k, scene=0):
    p.op(TRACKER_CREATE, scene)
    p.u8(k)


def tracker_destroy(p, pick, scene=0):
    p.op(TRACKER_DESTROY, scene)
    p.u8(pick)


def collect(p, pick, max_choice, gap_choice, null_out=False, scene=0):
    """max_choice: 0 -> 0, 1 -> 1, 2 -> 3, 3 -> 1000;
    gap_choice: 0 -> 0, 1 -> 1, 2 -> 2, 3 -> 40, 4 -> UINT32_MAX"""
    p.op(COLLECT, scene)
    p.u8(pick)
    p.u8(max_choice)
    p.u8(gap_choice)
    p.u8(0 if null_out else 1)


def set_create(p, k, scene=0):
    p.op(SET_CREATE, scene)
    p.u8(k)


def set_destroy(p, pick, scene=0):
    p.op(SET_DESTROY, scene)
    p.u8(pick)


def set_member(p, pick, handle_fn, add, scene=0):
    p.op(SET_MEMBER, scene)
    p.u8(pick)
    handle_fn()
    p.u8(1 if add else 0)


def set_query(p, pick, clear=False, start=5, scene=0):
    """walks the set, then next() from cursor `start`, then maybe clears it"""
    p.op(SET_QUERY, scene)
    p.u8(pick)
    p.u8(0)
    p.u16(start)
    p.u8(0 if clear else 1)


def set_combine(p, dst, a, op, b, scene=0):
    p.op(SET_COMBINE, scene)
    p.u8(dst)
    p.u8(a)
    p.u8(b)
    p.u8(op if op in (0, 1, 2) else op + 253)


def set_from_changes(p, dst, tracker, b, op, consume, scene=0):
    p.op(SET_FROM_CHANGES, scene)
    p.u8(dst)
    p.u8(tracker)
    if b is None:
        p.u8(0)
    else:
        p.u8(1)
        p.u8(b)
    p.u8(op if op in (0, 1, 2) else op + 253)
    p.u8(1 if consume else 0)


def live(p, k):
    return lambda: p.h_live(k)


def box_values(p, handle_fn, c, e):
    """a node and its box: center c, half extents e (floats from p.small)"""
    handle_fn()
    for a in range(3):
        p.small(c[a])
        p.small(e[a])


def bounds_set(p, handle_fn, c, e, scene=0):
    p.op(BOUNDS, scene)
    p.u8(0)
    box_values(p, handle_fn, c, e)


def bounds_batch(p, entries, scene=0):
    """entries: (handle_fn, c, e, negative_y) each"""
    p.op(BOUNDS, scene)
    p.u8(1)
    p.u8(len(entries))
    for handle_fn, c, e, neg in entries:
        box_values(p, handle_fn, c, e)
        p.u8(0xFF if neg else 0)


def bounds_clear(p, handle_fn, scene=0):
    p.op(BOUNDS, scene)
    p.u8(2)
    handle_fn()


def bounds_read(p, handle_fn, scene=0):
    p.op(BOUNDS, scene)
    p.u8(3)
    handle_fn()


def cull(p, planes, out, only=None, stats=True, count=None, scene=0):
    """planes: up to 9 (n, d) as 4 floats, each a number or an F_ kind"""
    p.op(CULL, scene)
    p.u8(len(planes) if count is None else count)
    for k in range(9):
        for c in range(4):
            v = planes[k][c] if k < len(planes) else 0.0
            if isinstance(v, tuple):
                p.f(*v)
            else:
                p.small(v)
    p.u8(out)
    p.b += bytes([0] if only is None else [1, only])
    p.u8(1 if stats else 0)


# Writers. Entries of writer_create: W_HANDLES (handles of any kind), W_SORTED
# (live nodes by their place in the model, put in slot order without
# repeats), W_SUBTREE (a node's subtree in slot order), W_ANY (live nodes,
# repeats, any order). Flags bytes: W_PLAIN (flags 0, the only writer there
# is), w_bad(i) (flags that are refused: 0 -> 1, the removed
# SGRT_WRITER_WORLDS_NOW; 1 -> 2; 2 -> 0x80000000; 3 -> UINT32_MAX),
# W_NULL_NODES, W_NULL_OUT.
W_HANDLES, W_SORTED, W_SUBTREE, W_ANY = range(4)
W_PLAIN, W_NULL_NODES, W_NULL_OUT = 0, 0xC0, 0xA0


def w_bad(i):
    return 7 | (i << 3)


def writer_create(p, k, mode, flags, entries, scene=0):
    """entries: W_HANDLES: handle functions; W_SORTED / W_ANY: indices of
    live nodes; W_SUBTREE: one handle function"""
    p.op(WRITER_CREATE, scene)
    p.u8(k)
    p.u8(mode)
    p.u8(flags)
    if mode == W_HANDLES:
        p.u8(len(entries))
        for fn in entries:
            fn()
    elif mode == W_SUBTREE:
        entries()
    else:
        p.u8(len(entries) - 1)
        for i in entries:
            p.u16(i)


def writer_destroy(p, pick, again=False, scene=0):
    p.op(WRITER_DESTROY, scene)
    p.u8(pick)
    p.u8(1 if again else 0)


def writer_set_local(p, pick, matrix_fns, null_input=False, scene=0):
    """one matrix function per entry of the writer (one for a writer that
    is not this scene's)"""
    p.op(WRITER_WRITE, scene)
    p.u8(pick)
    p.u8(0x1E if null_input else 0)
    for fn in matrix_fns:
        fn()


def writer_set_trs(p, pick, entries, scene=0):
    """entries: (t, q, s) as set_trs takes them (q None: 45 degrees about z)"""
    p.op(WRITER_WRITE, scene)
    p.u8(pick)
    p.u8(1)
    for t, q, s in entries:
        for k in t:
            p.f(*k) if isinstance(k, tuple) else p.f(k)
        if q is None:
            p.u8(0)
            p.u8(32)
            p.u8(2)
        else:
            p.u8(1)
            for k in q:
                p.f(*k) if isinstance(k, tuple) else p.f(k)
        for k in s:
            p.f(*k) if isinstance(k, tuple) else p.f(k)


def writer_in_place(p, pick, first, chunks, uncommitted=None, scene=0):
    """begin, then up to three chunks of entries from `first`: each a list,
    one item per entry, None (left as it is) or a matrix function (written
    in place); each chunk committed (commit only marks: a NaN stays in
    storage until the update repairs it), except chunk `uncommitted` (0 to
    2), written and not committed"""
    p.op(WRITER_IN_PLACE, scene)
    p.u8(pick)
    p.u8(0 if uncommitted is None else 4 | (uncommitted << 4))
    n = sum(len(c) for c in chunks)
    p.u8(first)
    p.u8(n - 1)
    for i, c in enumerate(chunks):
        if i < 2:
            p.u8(len(c) - 1)
        for fn in c:
            if fn is None:
                p.u8(0)
            else:
                p.u8(1)
                fn()


def writer_begin_refused(p, pick, null_out=False, scene=0):
    """begin with a writer of the other scene, NULL, NULL outputs, or a dead
    entry: refused, nothing more read"""
    p.op(WRITER_IN_PLACE, scene)
    p.u8(pick)
    p.u8(0xF0 if null_out else 0)


def writer_commit_past(p, pick, first_mod3, first_byte, wrap, count_byte, scene=0):
    """begin, then a commit range past the entries: refused, nothing marked"""
    p.op(WRITER_IN_PLACE, scene)
    p.u8(pick)
    p.u8(5)
    p.u8(first_mod3)
    p.u8(first_byte)
    p.u8(1 if wrap else 0)
    p.u8(count_byte)


# Calls between begin and commit (writer_in_between).
IB_DESTROY, IB_COMPACT, IB_CREATE, IB_REPARENT = range(4)


def writer_in_between(p, pick, call, handle_fns=(), writes=None, scene=0):
    """begin, writes in place (`writes`: one item per entry of the writer,
    None or a matrix function; None: no writes), one call, then a commit of
    every entry: refused as STALE when nodes died or moved to other slots or
    storage grew (the writes stay uncommitted), else every entry marked"""
    p.op(WRITER_IN_PLACE, scene)
    p.u8(pick)
    p.u8(6 if writes is None else 7)
    for fn in writes or ():
        if fn is None:
            p.u8(0)
        else:
            p.u8(1)
            fn()
    p.u8(call)
    for fn in handle_fns:
        fn()


# Large worlds. Points of rd_point(): each a kind byte, then its coordinates.
(PT_SAME, PT_SMALL, PT_NUDGE, PT_TINY, PT_GRID, PT_JUMP, PT_FAR, PT_NEAR_ROOT, PT_EDGE,
 PT_HOSTILE, PT_RAW, PT_ZEROS) = range(12)
# PT_EDGE codes: 2^60, -2^60 (taken), the doubles past them, 2^60 - 256,
# -(2^60 - 256) (taken), 2^61 (refused), 7: the coordinate kept.
E_MAX, E_MIN, E_PAST_MAX, E_PAST_MIN, E_BELOW_MAX, E_ABOVE_MIN, E_TWICE, E_KEEP = range(8)
# PT_HOSTILE codes: NaN, +Inf, -Inf, 1e300, -1e19 (refused), -0, the
# smallest denormal (taken), DBL_MAX (refused).
H_NAN, H_INF, H_NINF, H_1E300, H_M1E19, H_NEGZERO, H_DENORM, H_DBL_MAX = range(8)


def pt_same(p):
    p.u8(PT_SAME)


def pt_small(p, xyz):
    """multiples of 1/8 in [-16, 16)"""
    p.u8(PT_SMALL)
    for v in xyz:
        p.u8(int(round(v * 8)) + 128)


def pt_nudge(p, xyz):
    """the current point moved by multiples of 1/64 in [-2, 2)"""
    p.u8(PT_NUDGE)
    for v in xyz:
        p.u8(int(round(v * 64)) + 128)


def pt_tiny(p, codes):
    """per coordinate: ('ulps', n) n in -3..3 ulps, or ('pow', e) + 2^-e"""
    p.u8(PT_TINY)
    for kind, v in codes:
        if kind == 'pow':
            p.u8(0x80 | v)
        else:
            p.u8(abs(v) | (4 if v < 0 else 0))


def pt_grid(p, cell_log2, cells):
    """snapped to the grid of 2^cell_log2 (4 to 19), moved by cells (-2..2)"""
    p.u8(PT_GRID)
    p.u8(cell_log2 - 4)
    for c in cells:
        p.u8(c + 2)


def pt_jump(p, ks):
    """the current point moved by k x 1e12, k in -128..127"""
    p.u8(PT_JUMP)
    for k in ks:
        p.u8(k + 128)


def far_coord(p, x):
    """x as m x 2^k (m < 2^32, -32 <= k <= 28) with its sign"""
    k = -32
    while abs(x) / 2.0 ** k >= 2 ** 32:
        k += 1
    assert k <= 28, x
    m = min(int(round(abs(x) / 2.0 ** k)), 2 ** 32 - 1)
    target = k + 32
    if x < 0:
        e = target + 122 if target + 122 >= 128 else target + 183
    else:
        e = target
    assert e % 61 == target and bool(e & 0x80) == (x < 0) and e < 256
    p.u8(e)
    p.u32(m)


def pt_far(p, xyz):
    """anywhere within 2^60 (each coordinate rounded to 32 significant bits)"""
    p.u8(PT_FAR)
    for v in xyz:
        far_coord(p, v)


def pt_near_root(p, k, xyz):
    """the anchor of the root of the k-th live node, moved by multiples of
    1/8 in [-16, 16)"""
    p.u8(PT_NEAR_ROOT)
    p.u16(k)
    for v in xyz:
        p.u8(int(round(v * 8)) + 128)


def pt_edge(p, codes):
    p.u8(PT_EDGE)
    for c in codes:
        p.u8(c)


def pt_hostile(p, axis, code):
    p.u8(PT_HOSTILE)
    p.u8(axis)
    p.u8(code)


def pt_raw(p, xyz):
    """doubles given as numbers or as 64-bit patterns (ints)"""
    p.u8(PT_RAW)
    for v in xyz:
        bits = v if isinstance(v, int) else struct.unpack('<Q', struct.pack('<d', v))[0]
        p.u32(bits & 0xFFFFFFFF)
        p.u32(bits >> 32)


def pt_zeros(p):
    """the current point with its zero coordinates' signs flipped"""
    p.u8(PT_ZEROS)


def r_root(p, k):
    """the root of the k-th live node"""
    return lambda: (p.u8(0), p.u16(k))


def r_handle(p, fn):
    """a handle of any kind (rd_handle): a node with a parent, stale, ..."""
    return lambda: (p.u8(3), fn())


def set_anchor(p, root_fn, point_fn, null=False, scene=0):
    """sgrt_node_set_anchor; the point is read from the root's anchor (the
    origin for a handle that is not a live root)"""
    p.op(SET_ANCHOR, scene)
    root_fn()
    p.u8(0x0F if null else 0)
    point_fn()


def set_origin(p, point_fn, null=False, no_update=False, scene=0):
    """sgrt_scene_set_origin; the same origin is followed by an update that
    must recompute nothing (when nothing else moved) unless no_update"""
    p.op(SET_ORIGIN, scene)
    p.u8((0x0F if null else 0) | (0x10 if no_update else 0))
    point_fn()


# large_read: NULL outputs for the anchor, the origin, the world in double;
# the calls on a NULL scene.
LR_NULL_ANCHOR, LR_NULL_ORIGIN, LR_NULL_WORLD, LR_NULL_SCENE = 1, 2, 4, 8


def large_read(p, root_fn, how=0, scene=0):
    p.op(LARGE_READ, scene)
    root_fn()
    p.u8(how)


# A box of planes: -x0 <= x <= x0 and so on.
def cube(x0):
    return [(1, 0, 0, x0), (-1, 0, 0, x0), (0, 1, 0, x0), (0, -1, 0, x0), (0, 0, 1, x0),
            (0, 0, -1, x0)]


def scenarios():
    out = {}

    p = Program()
    p.create(p.h_zero)
    for i in range(6):
        p.create(live(p, i))
    p.update()
    for i in range(7):
        p.read(live(p, i))
    p.world_now_all()
    out['chain'] = p

    # Nystrom's pirate: ship -> nest -> pirate -> parrot, all moved.
    p = Program()
    p.create(p.h_zero)
    p.create(live(p, 0))
    p.create(live(p, 1))
    p.create(live(p, 2))
    p.update()
    for i in range(4):
        p.set_local(live(p, i), lambda: p.m_translate(i + 1, 0, 0))
    p.update()
    p.world_now_all()
    out['pirate'] = p

    p = Program()
    p.create(p.h_zero)
    p.create(live(p, 0))
    p.update()
    for idx in (0, 5, 12, 15):
        for kind in (F_NAN, F_INF, F_NINF, F_NEGNAN):
            p.set_local(live(p, 1), lambda: p.m_special(idx, kind))
    p.set_local(live(p, 1), lambda: p.m_special(13, F_RAW, 0x7FA00000))
    p.set_trs(live(p, 0), [F_NAN, F_ZERO, F_ZERO], None, [F_ONE, F_ONE, F_ONE])
    p.set_trs(live(p, 0), [F_ZERO, F_ZERO, F_ZERO], [F_ONE, F_ONE, F_ONE, F_ONE],
              [F_MAX, F_MAX, F_MAX])
    p.set_trs(live(p, 0), [F_ZERO, F_ZERO, F_ZERO], None, [F_ONE, F_INF, F_ONE])
    p.update()
    p.world_now_all()
    out['nonfinite_refused'] = p

    p = Program()
    p.create(p.h_zero)
    p.create(p.h_zero)
    p.create(live(p, 0))
    p.create(live(p, 2))
    p.create(live(p, 1))
    p.set_local(live(p, 0), lambda: p.m_scale_kinds(F_1E30, F_1E30, F_1E30))
    p.set_local(live(p, 2), lambda: p.m_scale_kinds(F_1E30, F_ZERO, F_1E30))
    p.set_local(live(p, 3), lambda: p.m_special(0, F_ZERO))
    p.update()
    p.world_now_all()
    p.set_parent(live(p, 4), live(p, 3), 0)
    p.update()
    p.set_parent(live(p, 4), p.h_zero, 0)
    p.set_parent(live(p, 4), live(p, 3), 1)
    p.set_parent(live(p, 3), p.h_zero, 1)
    p.update()
    p.world_now_all()
    out['overflow_subtree'] = p

    p = Program()
    p.create(p.h_zero)
    p.create(p.h_zero)
    p.create(live(p, 1))
    p.set_local(live(p, 0), lambda: p.m_rot(200, F_TWO))
    p.set_local(live(p, 1), lambda: p.m_translate(3, -2, 1))
    p.set_local(live(p, 2), lambda: p.m_scale_kinds(F_TWO, F_HALF, F_ONE))
    p.update()
    p.set_parent(live(p, 2), live(p, 0), 1)
    p.world_now_all()
    p.set_parent(live(p, 0), live(p, 2), 1)
    p.set_parent(live(p, 2), live(p, 2), 1)
    p.set_parent(live(p, 1), p.h_zero, 1)
    p.update()
    p.set_local(live(p, 0), lambda: p.m_scale_kinds(F_ZERO, F_ONE, F_ONE))
    p.set_parent(live(p, 1), live(p, 0), 1)
    p.set_parent(live(p, 1), live(p, 0), 7)
    p.set_parent(live(p, 1), live(p, 0), -2)
    p.update()
    p.world_now_all()
    out['keep_world'] = p

    # Destroyed handles, one bit flipped, generation 0 and 255, made up. A
    # root that survives (created last, history 3) keeps a live node for
    # the handle kinds that read their index only when one lives.
    p = Program()
    p.create(p.h_zero)
    p.create(live(p, 0))
    p.create(live(p, 1))
    p.destroy(live(p, 1))
    p.create(p.h_zero)
    for k in range(3):
        p.read(lambda: p.h_hist(k))
        p.set_local(lambda: p.h_hist(k), lambda: p.m_translate(1, 1, 1))
        p.destroy(lambda: p.h_hist(k))
        p.set_parent(lambda: p.h_hist(k), live(p, 0), 0)
        p.create(lambda: p.h_hist(k))
    for bit in (0, 5, 23, 24, 31):
        p.read(lambda: p.h_flip(0, bit))
    p.read(lambda: p.h_gen(0, 0))
    p.read(lambda: p.h_gen(0, 1))
    p.read(lambda: p.h_raw(0xFFFFFFFF))
    p.read(lambda: p.h_raw(0x01000001))
    p.update()
    out['stale_handles'] = p

    p = Program()
    for s in (0, 1):
        p.create(p.h_zero, s)
        p.create(live(p, 0), s)
    p.read(lambda: p.h_other(0), 0)
    p.set_parent(live(p, 1), lambda: p.h_other(0), 0, 0)
    p.destroy(lambda: p.h_other(1), 1)
    p.create(lambda: p.h_other(0), 1)
    p.set_local(lambda: p.h_other(1), lambda: p.m_identity(), 0)
    p.update(0)
    p.update(1)
    out['two_scenes'] = p

    for nth in (1, 2, 3):
        p = Program(cfg0=(1,))
        p.create(p.h_zero)
        p.fail_alloc(nth)
        p.create_many(40, 0)
        p.fail_alloc(nth)
        p.reserve_small(3000)
        p.fail_alloc(nth)
        p.compact()
        p.create(p.h_zero)
        p.fail_alloc(1)
        p.set_parent(live(p, 0), live(p, 40), 0)
        p.update()
        p.world_now_all()
        out['fail_alloc_%d' % nth] = p

    p = Program(cfg0=(8, 0), cfg1=(9, 2))
    p.create(p.h_zero)
    p.create(p.h_zero, 1)
    p.update()
    out['fail_scene_create'] = p

    p = Program(cfg0=(4 | 2, 4, 5))  # initial 4, max_nodes 6
    p.create_many(10, 1)
    p.reserve_max_plus(0)
    p.reserve_max_plus(1)
    p.reserve_huge()
    p.destroy(live(p, 2))
    p.create_many(3, 0)
    p.update()
    out['max_nodes'] = p

    p = Program(cfg0=(1,))
    p.create_many(64, 0)
    p.create_many(64, 1)
    p.create_many(64, 2)
    p.update()
    p.destroy(live(p, 5))
    p.destroy(live(p, 70))
    p.create(p.h_zero)
    p.set_parent(live(p, 3), live(p, 150), 0)
    p.set_parent(live(p, 9), live(p, 149), 1)
    p.update()
    p.compact()
    p.world_now_all()
    p.update()
    out['grow_relocate_compact'] = p

    p = Program()
    p.create(p.h_zero)
    p.create(live(p, 0))
    p.user(live(p, 1), 0xDEADBEEFCAFEF00D)
    p.user(live(p, 0), 1)
    p.user(p.h_zero, 5)
    p.create(p.h_zero)
    p.set_parent(live(p, 0), live(p, 2), 0)
    p.compact()
    p.read(live(p, 1))
    p.slots(0, 1)
    p.slots(3, 0xFFFFFFFF)
    out['user_and_slots'] = p

    p = Program()
    p.create(p.h_zero)
    for k in (0, 1, 5, 7):
        p.bad_args(live(p, 0), k)
    p.bad_args(p.h_zero, 0xF9)
    p.bad_args(lambda: p.h_raw(0x12345678), 0x80)
    out['bad_args'] = p

    p = Program()
    p.create(p.h_zero)
    p.create(live(p, 0))
    p.recreate((4, 1))
    p.read(lambda: p.h_hist(0))
    p.create(p.h_zero)
    p.create(p.h_zero)
    p.create(p.h_zero)
    p.recreate((3, 200))
    p.create_many(50, 2)
    p.update()
    out['recreate'] = p

    p = Program()
    p.create(p.h_zero)
    p.create(live(p, 0))
    p.update()
    p.set_local(live(p, 1), lambda: p.m_copy(live(p, 1)))  # bit-identical
    p.set_local(live(p, 1), lambda: p.m_special(1, F_NEGZERO))
    p.set_local(live(p, 1), lambda: p.m_special(2, F_DENORM))
    p.set_local(live(p, 0), lambda: p.m_special(12, F_MAX))
    p.set_local(live(p, 1), lambda: p.m_special(12, F_MAX))
    p.update()
    p.world_now_all()
    out['finite_edges'] = p

    p = Program()
    p.create(p.h_zero)
    p.create_many(64, 0)
    p.create_many(64, 0)
    p.update()
    p.set_local(live(p, 0), lambda: p.m_translate(1, 2, 3))
    p.world_now_all()
    p.read(live(p, 100))
    p.update()
    out['deep_chain'] = p

    # Renderer hand-off: trackers through growth, relocation, destroy, compact.
    p = Program(cfg0=(1,))
    p.create(p.h_zero)
    tracker_create(p, 0)
    tracker_create(p, 1)
    p.create_many(40, 0)
    p.update()
    collect(p, OWN0, 3, 0)
    p.set_local(live(p, 3), lambda: p.m_translate(1, 0, 0))
    p.update()
    collect(p, OWN0, 1, 1)
    p.create(p.h_zero)
    p.set_parent(live(p, 0), live(p, 41), 0)
    p.destroy(live(p, 10))
    collect(p, OWN1, 0, 0)
    collect(p, OWN1, 2, 3)
    p.compact()
    collect(p, OWN0, 3, 2)
    p.set_local(live(p, 1), lambda: p.m_translate(0, 0, 1))
    p.update()
    collect(p, OWN0, 3, 4)
    collect(p, OTHER, 3, 0)
    collect(p, NULLOBJ, 3, 0)
    collect(p, OWN0, 3, 0, null_out=True)
    tracker_destroy(p, OWN1)
    tracker_destroy(p, OTHER)
    tracker_create(p, 2)
    p.update()
    collect(p, OWN2, 1, 0)
    out['trackers'] = p

    p = Program()
    p.create_many(20, 1)
    set_create(p, 0)
    set_create(p, 1)
    set_create(p, 2)
    tracker_create(p, 0)
    for i in range(0, 20, 3):
        set_member(p, OWN0, live(p, i), True)
    for i in range(0, 20, 2):
        set_member(p, OWN1, live(p, i), True)
    set_member(p, OWN1, live(p, 4), False)
    set_member(p, OTHER, live(p, 1), True)
    set_member(p, OWN0, lambda: p.h_raw(0x01000005), True)
    set_query(p, OWN0)
    set_combine(p, OWN2, OWN0, 0, OWN1)
    set_combine(p, OWN2, OWN0, 1, OWN1)
    set_combine(p, OWN2, OWN0, 2, OWN1)
    set_combine(p, OWN2, OWN0, 5, OWN1)
    set_combine(p, OWN2, OTHER, 0, OWN1)
    p.update()
    collect(p, OWN0, 3, 0)
    p.set_local(live(p, 0), lambda: p.m_translate(0, 1, 0))
    p.update()
    set_from_changes(p, OWN2, OWN0, OWN1, 0, True)
    set_from_changes(p, OWN2, OWN0, None, 0, False)
    set_query(p, OWN2)
    collect(p, OWN0, 3, 0)
    p.destroy(live(p, 3))
    p.create(p.h_zero)
    p.set_parent(live(p, 1), live(p, 15), 0)
    p.compact()
    set_query(p, OWN1)
    set_query(p, OWN0, clear=True)
    set_destroy(p, OWN2)
    set_destroy(p, OTHER)
    set_query(p, OWN1)
    out['node_sets'] = p

    # Scale: a 1,024-deep chain, exact worlds now, keep-world moves at depth.
    p = Program()
    bulk(p, BULK_CHAIN, 16)
    p.update()
    p.world_now_all()
    p.set_parent(live(p, 9000), live(p, 100), 1)
    p.set_parent(live(p, 50), live(p, 16000), 1)
    p.update()
    p.world_now_all()
    out['scale_deep_chain'] = p

    # Scale: holes under every churn pattern, with a tracker watching, with
    # the default reclamation threshold and the eager one.
    for eager in (0, CFG_RECLAIM_EAGER):
        p = Program(cfg0=(eager,))
        tracker_create(p, 0)
        bulk(p, BULK_TREE, 8, seed=7)
        bulk(p, BULK_ROOTS, 1)
        p.update()
        for kind in (CHURN_UNDER_LATER, CHURN_DETACH_NEWEST, CHURN_RECREATE):
            churn(p, kind, 64, seed=kind + 3)
            p.update()
            collect(p, OWN0, 3, 0)
        p.destroy(live(p, 5))
        churn(p, CHURN_UNDER_LATER, 32, seed=11)
        p.compact()
        p.update()
        p.world_now_all()
        out['scale_churn' + ('_eager' if eager else '')] = p

    # Scale: one wide fan, then everything re-parented under later nodes.
    p = Program(cfg0=(CFG_RECLAIM_EAGER,))
    bulk(p, BULK_ROOTS, 1)
    bulk(p, BULK_FAN, 1)
    p.update()
    churn(p, CHURN_UNDER_LATER, 64, seed=5)
    churn(p, CHURN_DETACH_NEWEST, 64, seed=6)
    p.update()
    p.world_now_all()
    out['scale_fan'] = p

    # The ping-pong of two nodes that used to fill storage with holes, among
    # few and among many live nodes, with the default and eager thresholds.
    for name, cfg, thousands in (('pingpong', 0, 0), ('pingpong_eager', CFG_RECLAIM_EAGER, 0),
                                 ('pingpong_many', CFG_RECLAIM_EAGER, 2)):
        p = Program(cfg0=(cfg,))
        tracker_create(p, 0)
        p.create(p.h_zero)
        p.create(p.h_zero)
        if thousands:
            bulk(p, BULK_TREE, thousands, seed=3)
        p.update()
        churn(p, CHURN_PINGPONG, 64, seed=1)
        p.update()
        collect(p, OWN0, 3, 0)
        p.world_now_all()
        out['scale_' + name] = p

    # set_world: roots, children of moved (not yet updated) parents, a
    # singular parent, non-finite targets, stale handles.
    p = Program()
    p.create(p.h_zero)
    p.create(live(p, 0))
    p.create(live(p, 1))
    p.set_local(live(p, 0), lambda: p.m_rot(1))
    p.set_local(live(p, 1), lambda: p.m_translate(1, 2, 3))
    p.update()
    p.set_world(live(p, 0), lambda: p.m_translate(4, -2, 0.5))
    p.set_world(live(p, 2), lambda: p.m_translate(-3, 1, 7))
    p.world_now_all()
    p.update()
    p.set_world(live(p, 2), lambda: p.m_copy(live(p, 2)))
    p.set_local(live(p, 1), lambda: p.m_scale_kinds(F_ZERO, F_ONE, F_ONE))
    p.set_world(live(p, 2), lambda: p.m_translate(1, 1, 1))
    p.set_world(live(p, 1), lambda: p.m_special(5, F_NAN))
    p.set_world(live(p, 1), lambda: p.m_special(12, F_INF))
    p.set_world(p.h_zero, lambda: p.m_identity())
    p.set_world(lambda: p.h_hist(0), lambda: p.m_identity())
    p.set_local(live(p, 1), lambda: p.m_scale_kinds(F_1E30, F_1E30, F_1E30))
    p.set_world(live(p, 2), lambda: p.m_rot(2, F_TWO))
    p.update()
    p.world_now_all()
    out['set_world'] = p

    # Previous worlds: moves, stops (the catch-up a tracker reports), new
    # nodes, relocation, compaction and reclamation carrying them.
    for name, cfg in (('prev_worlds', CFG_PREV), ('prev_worlds_eager', CFG_PREV_EAGER)):
        p = Program(cfg0=(cfg,))
        tracker_create(p, 0)
        for i in range(6):
            p.create(p.h_zero if i % 3 == 0 else live(p, i - 1))
        p.update_once()
        collect(p, OWN0, 3, 0)
        for frame in range(3):
            p.set_local(live(p, frame), lambda: p.m_translate(frame + 1, 0, 0))
            p.update_once()
            collect(p, OWN0, 3, 0)
        p.create(live(p, 2))
        p.set_parent(live(p, 0), live(p, 5), 0)
        p.update_once()
        p.destroy(live(p, 1))
        p.update_once()
        collect(p, OWN0, 3, 1)
        p.compact()
        p.set_local(live(p, 3), lambda: p.m_rot(1))
        p.update()
        collect(p, OWN0, 3, 0)
        churn(p, CHURN_PINGPONG, 4, seed=2)
        p.update_once()
        p.update_once()
        collect(p, OWN0, 3, 0)
        p.world_now_all()
        out[name] = p

    # Boxes and culls: boxes set, moved, cleared, batched (with a bad
    # entry), relocated, compacted, destroyed; culls restricted and in place,
    # before and after updates, and refused (no plane, nine, NaN, a set of
    # the other scene).
    for name, cfg in (('bounds_x4_tree', CFG_BOUNDS_X4_TREE), ('bounds_all', CFG_BOUNDS_ALL),
                      ('bounds_wide', CFG_BOUNDS_WIDE)):
        p = Program(cfg0=(cfg,))
        tracker_create(p, 0)
        set_create(p, 0)
        set_create(p, 1)
        for i in range(14):
            p.create(p.h_zero if i % 7 == 0 else live(p, i - 1 - (i % 3 == 0)))
            bounds_set(p, live(p, i), (0, 0.5, 0), (1, 1, 0.5))
        for i in range(0, 14, 2):
            p.set_local(live(p, i), lambda: p.m_translate(i - 7, 1, -2))
            set_member(p, OWN1, live(p, i), True)
        p.update_once()
        collect(p, OWN0, 3, 0)
        cull(p, cube(6), OWN0)
        cull(p, cube(3)[:4], OWN1, only=OWN1)
        bounds_set(p, live(p, 5), (2, 0, 0), (3, 0.25, 0))
        bounds_clear(p, live(p, 6))
        bounds_batch(p, [(live(p, 1), (1, 1, 1), (0, 0, 0), False),
                         (live(p, 2), (0, 0, 0), (2, 2, 2), True)])
        bounds_batch(p, [(live(p, 1), (1, 1, 1), (0, 0, 0), False),
                         (live(p, 3), (-1, 0, 0), (0.5, 0.5, 0.5), False)])
        bounds_read(p, live(p, 3))
        p.update_once()
        collect(p, OWN0, 3, 0)
        cull(p, cube(2) + [(1, 1, 0, (F_ZERO,))], OWN0)
        cull(p, cube(2), OWN0, count=0)
        cull(p, cube(2) * 2, OWN0, count=9)
        cull(p, [(1, 0, 0, (F_NAN,))] + cube(2), OWN0)
        cull(p, cube(2), OTHER)
        cull(p, cube(2), OWN0, only=OTHER)
        p.set_parent(live(p, 0), live(p, 12), 0)
        cull(p, cube(8), OWN0)
        p.update_once()
        cull(p, cube(8), OWN0)
        p.compact()
        cull(p, cube(8), OWN1, only=OWN1)
        p.update_once()
        p.destroy(live(p, 4))
        cull(p, cube(8), OWN0)
        p.update()
        bulk(p, BULK_TREE, 1, seed=5)
        bounds_batch(p, [(live(p, k), (0, 0, 0), (1, 1, 1), False) for k in range(100, 108)])
        p.op(UPDATE_PARALLEL)
        p.u8(3)
        p.u8(3)
        cull(p, cube(10), OWN0)
        collect(p, OWN0, 3, 0)
        out[name] = p

    # Writers over handles of every kind, live nodes in slot order, a
    # subtree, repeats; written through set_local, set_trs and in place
    # (chunks; NaN and Inf left in storage by a commit, which only marks,
    # and made the identity by the update); refused writes that stop at
    # their first bad entry (a NaN, a quaternion off unit length in
    # validation mode: the entries before it written); stale after a
    # destroy (refused before anything is written, a NaN before the dead
    # entry notwithstanding), resolved again after relocation and
    # compaction; calls between begin and commit; refusals (the other
    # scene's writer, NULL, flags that are not 0 -- 1 among them, once
    # SGRT_WRITER_WORLDS_NOW --, a commit range past the entries, a
    # destroyed writer destroyed again).
    for name, cfg in (('writers', 0), ('writers_prev_bounds', CFG_BOUNDS_ALL),
                      ('writers_validate', CFG_PREV_EAGER)):
        p = Program(cfg0=(cfg,), cfg1=(cfg,))
        tracker_create(p, 0)
        p.create(p.h_zero)                       # 0: a skeleton
        for i in range(1, 8):
            p.create(live(p, i - 1 if i < 5 else 1))
        p.create(p.h_zero)                       # 8: a second root
        p.create(live(p, 8))                     # 9
        p.create(p.h_zero, 1)
        if cfg:
            set_create(p, 0)
            for i in range(10):
                bounds_set(p, live(p, i), (0, 0.5, 0), (1, 1, 0.5))
        p.update_once()
        writer_create(p, 0, W_SORTED, W_PLAIN, list(range(8)))
        writer_create(p, 1, W_SUBTREE, W_PLAIN, live(p, 1))
        writer_create(p, 2, W_ANY, W_PLAIN, [9, 3, 3, 0])  # repeats, out of slot order
        writer_create(p, 0, W_HANDLES, W_PLAIN, [], scene=1)  # count 0: refused
        writer_create(p, 0, W_HANDLES, W_PLAIN, [live(p, 0), lambda: p.h_raw(0x01000001)],
                      scene=1)
        writer_create(p, 0, W_SORTED, w_bad(0), [0], scene=1)  # flags 1: refused
        writer_create(p, 0, W_SORTED, w_bad(2), [0], scene=1)
        writer_create(p, 0, W_SORTED, W_NULL_NODES, [0], scene=1)
        writer_create(p, 0, W_SORTED, W_NULL_OUT, [0], scene=1)
        writer_create(p, 1, W_SORTED, W_PLAIN, [0], scene=1)
        writer_set_local(p, OWN0, [lambda i=i: p.m_translate(i, 1, 0) for i in range(8)])
        collect(p, OWN0, 3, 0)
        p.read(live(p, 7))
        writer_set_trs(p, OWN0, [([F_ONE, F_ZERO, F_TWO], None, [F_ONE, F_ONE, F_HALF])] * 8)
        writer_set_local(p, OWN2, [lambda: p.m_rot(40), lambda: p.m_translate(0, 0, 2),
                                   lambda: p.m_copy(live(p, 3)), lambda: p.m_identity()])
        p.set_local(live(p, 0), lambda: p.m_translate(0, 3, 0))  # above the entries
        writer_set_local(p, OWN0, [lambda: p.m_copy(live(p, 0))] +
                         [lambda i=i: p.m_translate(0, i, 1) for i in range(1, 8)])
        p.update_once()
        collect(p, OWN0, 3, 0)
        # Refused writes, stopping at their first bad entry: a NaN at entry
        # 3 (entries 0-2 written), a quaternion off unit length at entry 5
        # (validation mode: entries 0-4 written; else all 8), NULL input,
        # the other scene's writer, NULL.
        writer_set_local(p, OWN0, [lambda i=i: p.m_translate(5, i, 0) for i in range(3)] +
                         [lambda: p.m_special(5, F_NAN)] + [lambda: p.m_identity()] * 4)
        writer_set_trs(p, OWN0, [([F_ZERO] * 3, None, [F_ONE] * 3)] * 5 +
                       [([F_ZERO] * 3, [F_ONE, F_ZERO, F_ZERO, F_ONE], [F_ONE] * 3)] * 3)
        writer_set_local(p, OWN0, [lambda: p.m_identity()] * 8, null_input=True)
        writer_set_local(p, OTHER, [lambda: p.m_identity()])
        writer_set_local(p, NULLOBJ, [lambda: p.m_identity()])
        writer_begin_refused(p, OTHER)
        writer_begin_refused(p, OWN0, null_out=True)
        writer_commit_past(p, OWN0, 0, 1, False, 0)
        writer_commit_past(p, OWN0, 1, 3, True, 5)
        # In place: whole, then chunked with an Inf and a NaN left in
        # storage (read back as written), committed, then repaired by the
        # update (two of them, the first in entry 4's slot).
        writer_in_place(p, OWN0, 0, [[lambda i=i: p.m_translate(i, 0, 0) for i in range(8)]])
        writer_in_place(p, OWN0, 2, [[None, lambda: p.m_rot(9)],
                                     [lambda: p.m_special(3, F_INF)],
                                     [None, lambda: p.m_translate(1, 1, 1), None]])
        writer_in_place(p, OWN2, 0, [[lambda: p.m_special(0, F_NAN), None, None, None]])
        p.read(live(p, 4))
        p.world_now_all()
        p.update_once()
        # Calls between begin and commit, with writes in place before some.
        writer_in_between(p, OWN0, IB_CREATE, [live(p, 9)])      # node 10, under 9
        writer_in_between(p, OWN0, IB_REPARENT, [lambda: p.h_hist(1), lambda: p.h_hist(10)],
                          writes=[None, lambda: p.m_special(12, F_NAN)] + [None] * 6)
        writer_in_between(p, OWN0, IB_COMPACT,
                          writes=[lambda: p.m_translate(0, 0, 4)] + [None] * 7)
        writer_in_between(p, OWN0, IB_DESTROY, [lambda: p.h_raw(0x01000001)])  # refused
        writer_set_local(p, OWN0, [lambda i=i: p.m_translate(i, 2, 0) for i in range(8)])
        writer_in_between(p, OWN0, IB_REPARENT, [lambda: p.h_hist(9), lambda: p.h_hist(8)],
                          writes=[None] * 6 + [lambda: p.m_special(0, F_INF), None])
        p.update_once()
        writer_in_between(p, OWN1, IB_DESTROY, [lambda: p.h_hist(2)])
        # Stale: entries destroyed (2 on). Refused before anything is
        # written, though entry 1 holds a NaN.
        writer_set_local(p, OWN0, [lambda: p.m_identity(), lambda: p.m_special(0, F_NAN)] +
                         [lambda: p.m_identity()] * 6)
        writer_begin_refused(p, OWN0)
        p.update()
        writer_destroy(p, OWN0, again=True)
        writer_destroy(p, OTHER)
        writer_destroy(p, NULLOBJ)
        writer_create(p, 0, W_SUBTREE, W_PLAIN, lambda: p.h_hist(8))
        writer_in_place(p, OWN0, 0, [[lambda: p.m_translate(2, 0, 0)] * 2,
                                     [lambda: p.m_rot(7)] * 2, [None] * 3])
        cull(p, cube(4), OWN0) if cfg else p.read(live(p, 2))
        p.update_once()
        collect(p, OWN0, 3, 0)
        p.world_now_all()
        out[name] = p

    # Writes in place that are not finite, on every kernel level: commit
    # only marks, and the update makes each such local it reads the
    # identity (in storage too), counts it and reports the first
    # (sgrt_scene_nonfinite_locals). Committed at a root, in a chain and
    # through a writer with repeats; uncommitted under a clean parent (not
    # read, also beside a node that moves in the same word of slots) until
    # the parent moves; uncommitted and re-parented keeping the local (read)
    # or the world (replaced); copied from storage by set_local (refused),
    # then replaced; a finite uncommitted write that set_local repeats bit
    # for bit (nothing marked); writes left uncommitted by a stale commit,
    # committed later without new writes; the parallel update with repairs
    # in two ranges of 1,024 slots.
    for name, cfg in (('inplace_nonfinite', 0), ('inplace_nonfinite_scalar', 0x10),
                      ('inplace_nonfinite_x4', 0x20), ('inplace_nonfinite_avx', 0x30),
                      ('inplace_nonfinite_avx512', 0x40)):
        p = Program(cfg0=(cfg,))
        tracker_create(p, 0)
        p.create(p.h_zero)                       # 0: A
        p.create(live(p, 0))                     # 1: B under A
        p.create(live(p, 1))                     # 2: C under B
        p.create(p.h_zero)                       # 3: D
        p.create(live(p, 3))                     # 4: E under D
        p.create(p.h_zero)                       # 5: F
        p.create(live(p, 0))                     # 6: G under A (not an entry)
        for i in range(7):
            p.set_local(live(p, i), lambda i=i: p.m_translate(i, 1, 0))
            if (cfg & 0x60) in (0x20, 0x40):     # boxes kept
                bounds_set(p, live(p, i), (0, 0, 0), (1, 1, 1))
        p.update_once()
        writer_create(p, 0, W_SORTED, W_PLAIN, list(range(6)))
        writer_create(p, 1, W_ANY, W_PLAIN, [4, 2, 4])
        # Committed: NaN at A, Inf at C, -NaN at E; repaired: 3, first A.
        writer_in_place(p, OWN0, 0, [[lambda: p.m_special(5, F_NAN), None,
                                      lambda: p.m_special(12, F_INF)],
                                     [lambda: p.m_translate(1, 2, 3)],
                                     [lambda: p.m_special(0, F_NEGNAN), None]])
        p.read(live(p, 0))
        p.world_now_all()
        p.update_once()
        p.world_now_all()
        collect(p, OWN0, 3, 0)
        # Through repeats: E written twice (the second wins), C once.
        writer_in_place(p, OWN1, 0, [[lambda: p.m_special(1, F_INF),
                                      lambda: p.m_special(2, F_NAN),
                                      lambda: p.m_translate(0, 0, 1)]])
        p.update()
        # Uncommitted NaN at C: not read while B is clean, nor when D (the
        # next slot) moves; read once B moves.
        writer_in_place(p, OWN0, 2, [[lambda: p.m_special(10, F_NAN)]], uncommitted=0)
        p.read(live(p, 2))
        p.world_now_all()
        p.update_once()
        p.set_local(live(p, 3), lambda: p.m_translate(0, 2, 0))
        p.update_once()
        p.set_local(live(p, 1), lambda: p.m_translate(0, 0, 2))
        p.world_now_all()
        p.update_once()
        # Uncommitted at D (read: D re-parented keeping its local) and at E
        # (replaced: E re-parented keeping its world).
        writer_in_place(p, OWN0, 3, [[lambda: p.m_special(15, F_INF),
                                      lambda: p.m_special(4, F_NAN)]], uncommitted=0)
        p.set_parent(live(p, 3), live(p, 5), 0)
        p.set_parent(live(p, 4), live(p, 0), 1)
        p.update_once()
        # Uncommitted Inf at F: set_local of what storage holds is refused,
        # the identity replaces it.
        writer_in_place(p, OWN0, 5, [[lambda: p.m_special(13, F_NINF)]], uncommitted=0)
        p.set_local(live(p, 5), lambda: p.m_copy(live(p, 5)))
        p.set_local(live(p, 5), lambda: p.m_identity())
        p.update_once()
        # A finite uncommitted write at A that set_local repeats bit for bit:
        # nothing marked, nothing recomputed.
        writer_in_place(p, OWN0, 0, [[lambda: p.m_translate(7, 0, 0)]], uncommitted=0)
        p.set_local(live(p, 0), lambda: p.m_copy(live(p, 0)))
        p.update_once()
        # A stale commit (G destroyed in between) leaves the writes at A and
        # B uncommitted; a commit without new writes marks them: one repair.
        writer_in_between(p, OWN0, IB_DESTROY, [live(p, 6)],
                          writes=[lambda: p.m_translate(0, 7, 0),
                                  lambda: p.m_special(6, F_NAN)] + [None] * 4)
        p.update_once()
        p.world_now_all()
        writer_in_place(p, OWN0, 0, [[None, None]])
        p.update_once()
        # The parallel update: NaNs over two ranges of slots.
        bulk(p, BULK_ROOTS, 2, seed=9)
        writer_create(p, 2, W_SORTED, W_PLAIN, [10, 1000, 2000])
        writer_in_place(p, OWN2, 0, [[lambda: p.m_special(0, F_NAN),
                                      lambda: p.m_special(7, F_INF),
                                      lambda: p.m_special(14, F_NAN)]])
        update_parallel(p, 4)
        writer_in_place(p, OWN2, 1, [[lambda: p.m_special(3, F_NAN)]], uncommitted=0)
        writer_in_place(p, OWN2, 2, [[lambda: p.m_special(3, F_INF)]])
        update_parallel(p, 2, seed=7)
        collect(p, OWN0, 3, 0)
        p.world_now_all()
        out[name] = p

    # Batches stop at their first refused entry: the entries before it are
    # written (and mark as their single calls), it and the rest are not.
    # Refusals in the middle: a NaN, a stale handle, a stale handle with a
    # NaN (STALE_HANDLE: the handle first), a quaternion off unit length
    # (validation mode), a TRS whose matrix overflows; a repeat of a node
    # before the refusal; 40 entries refused past the library's chunk of 32
    # and within the first chunk; the first entry refused (nothing written).
    for name, cfg in (('batch_prefix', 0), ('batch_prefix_validate', 0x01),
                      ('batch_prefix_x4', 0x20)):
        p = Program(cfg0=(cfg,))
        tracker_create(p, 0)
        p.create_many(40, 1)
        p.update_once()
        p.destroy(live(p, 39))
        nan = lambda: p.m_special(13, F_NAN)
        tr = lambda i: (lambda: p.m_translate(i % 16, 1, 0))
        batch_local(p, [(live(p, 0), tr(1)), (live(p, 1), tr(2)), (live(p, 2), nan),
                        (live(p, 3), tr(4))])
        batch_local(p, [(live(p, 4), tr(1)), (live(p, 4), tr(2)), (lambda: p.h_hist(39), tr(3)),
                        (live(p, 5), tr(4))])
        batch_local(p, [(live(p, 6), tr(1)), (lambda: p.h_hist(39), nan), (live(p, 7), nan)])
        batch_local(p, [(live(p, 8), nan), (live(p, 9), tr(1))])
        p.update_once()
        off = [F_ONE, F_ZERO, F_ZERO, F_ONE]  # |q|^2 = 2
        qh = [F_HALF] * 4  # unit: 120 degrees about (1, 1, 1)
        batch_trs(p, [(live(p, 10), [F_ONE, F_ZERO, F_ZERO], qh, [F_ONE] * 3),
                      (live(p, 11), [F_ZERO] * 3, off, [F_ONE] * 3),
                      (live(p, 12), [F_ZERO] * 3, qh, [F_TWO] * 3)])
        batch_trs(p, [(live(p, 13), [F_ZERO] * 3, qh, [F_ONE] * 3),
                      (lambda: p.h_hist(39), [F_ZERO] * 3, off, [F_ONE] * 3),
                      (live(p, 14), [F_ZERO] * 3, qh, [F_ONE] * 3)])
        batch_trs(p, [(live(p, 15), [F_ZERO] * 3, qh, [F_ONE] * 3),
                      (live(p, 16), [F_ZERO] * 3, [F_TWO] * 4, [F_MAX] * 3),
                      (live(p, 17), [F_NAN] * 3, qh, [F_ONE] * 3)])
        p.update_once()
        batch_local(p, [(live(p, i), tr(i)) for i in range(35)] + [(live(p, 35), nan)] +
                    [(live(p, i), tr(i)) for i in range(36, 39)] + [(live(p, 0), tr(3))])
        batch_local(p, [(live(p, i), tr(i + 1)) for i in range(33)] +
                    [(lambda: p.h_hist(39), tr(0))] + [(live(p, i), tr(i)) for i in range(34, 39)] +
                    [(live(p, 0), nan)])
        batch_trs(p, [(live(p, i), [F_ONE, F_ZERO, F_ZERO], qh, [F_ONE] * 3) for i in range(20)] +
                  [(live(p, 20), [F_ZERO] * 3, off, [F_ONE] * 3)] +
                  [(live(p, i), [F_ZERO] * 3, qh, [F_HALF] * 3) for i in range(21, 39)] +
                  [(live(p, 0), [F_INF, F_ZERO, F_ZERO], qh, [F_ONE] * 3)])
        p.world_now_all()
        p.update_once()
        collect(p, OWN0, 3, 0)
        # A writer of 38 live nodes: refused at entry 34 (a NaN), at 33 (a
        # quaternion off unit length, validation mode), past the chunk.
        writer_create(p, 0, W_SORTED, W_PLAIN, list(range(38)))
        writer_set_local(p, OWN0, [tr(i + 2) for i in range(34)] + [nan] +
                         [tr(i) for i in range(35, 38)])
        writer_set_trs(p, OWN0, [([F_ONE, F_ZERO, F_ZERO], qh, [F_TWO] * 3)] * 33 +
                       [([F_ZERO] * 3, off, [F_ONE] * 3)] +
                       [([F_ZERO] * 3, qh, [F_ONE] * 3)] * 4)
        p.update_once()
        collect(p, OWN0, 3, 0)
        p.world_now_all()
        out[name] = p

    # Batches of three and four chunks of 32 entries, each stored while the
    # next is checked: accepted whole, and refused in the third chunk (a
    # NaN, a stale handle) and in the fourth (an infinite translation).
    for name, cfg in (('batch_chunks', 0), ('batch_chunks_x4', 0x20)):
        p = Program(cfg0=(cfg,))
        tracker_create(p, 0)
        p.create_many(64, 1)
        p.create_many(40, 2)
        p.update_once()
        p.destroy(live(p, 103))
        nan = lambda: p.m_special(13, F_NAN)
        rot = lambda i: (lambda: p.m_rot(i * 2 + 1))
        qh = [F_HALF] * 4  # unit: 120 degrees about (1, 1, 1)
        batch_local(p, [(live(p, i), rot(i)) for i in range(70)])
        p.update_once()
        batch_local(p, [(live(p, i), rot(i + 1)) for i in range(66)] + [(live(p, 66), nan)] +
                    [(live(p, i), rot(i)) for i in range(67, 70)])
        batch_local(p, [(live(p, i), rot(i + 3)) for i in range(40)] +
                    [(lambda: p.h_hist(103), rot(0))] + [(live(p, i), rot(i)) for i in range(41, 70)])
        p.world_now_all()
        p.update_once()
        collect(p, OWN0, 3, 0)
        batch_trs(p, [(live(p, i), [F_ONE, F_ZERO, F_ZERO], qh, [F_TWO] * 3) for i in range(100)])
        batch_trs(p, [(live(p, i), [F_ZERO] * 3, qh, [F_HALF] * 3) for i in range(97)] +
                  [(live(p, 97), [F_INF, F_ZERO, F_ZERO], qh, [F_ONE] * 3)] +
                  [(live(p, i), [F_ZERO] * 3, qh, [F_ONE] * 3) for i in range(98, 100)])
        p.update_once()
        collect(p, OWN0, 3, 0)
        p.world_now_all()
        out[name] = p

    # Large worlds: roots anchored far from zero (1e12 to 7e17) with the
    # origin beside one of them, children below; the same anchor (nothing
    # marked); anchors at the limit's edges; refusals (NaN, infinities,
    # past the limit, a node with a parent, stale, zero and foreign
    # handles, NULL; both calls on the other scene, which is no large
    # world); reads of anchors, the origin and worlds in double, into NULL
    # and on a NULL scene.
    p = Program()
    p.recreate_large((0,))
    p.create(p.h_zero)                     # 0: A
    p.create(live(p, 0))                   # 1: B under A
    p.create(p.h_zero)                     # 2: C
    p.create(live(p, 2))                   # 3: D under C
    p.create(live(p, 3))                   # 4: E under D
    p.create(p.h_zero, 1)
    p.create(live(p, 0), 1)
    p.set_local(live(p, 0), lambda: p.m_rot(200, F_TWO))
    p.set_local(live(p, 1), lambda: p.m_translate(1, 2, 3))
    p.set_local(live(p, 3), lambda: p.m_translate(-4, 0.5, 8))
    p.set_local(live(p, 4), lambda: p.m_scale_kinds(F_TWO, F_HALF, F_ONE))
    set_anchor(p, r_root(p, 1), lambda: pt_far(p, [1.5e15, -2.25e12, 7e17]))
    set_anchor(p, r_root(p, 4), lambda: pt_jump(p, [3, -7, 100]))
    set_origin(p, lambda: pt_near_root(p, 1, [1, -0.5, 2]))
    p.update()
    p.world_now_all()
    large_read(p, r_root(p, 4))
    large_read(p, r_handle(p, live(p, 4)))
    large_read(p, r_root(p, 0), LR_NULL_ANCHOR | LR_NULL_ORIGIN | LR_NULL_WORLD | LR_NULL_SCENE)
    set_anchor(p, r_root(p, 0), lambda: pt_same(p))
    p.update()
    set_anchor(p, r_root(p, 2), lambda: pt_edge(p, [E_MAX, E_MIN, E_BELOW_MAX]))
    set_anchor(p, r_root(p, 2), lambda: pt_edge(p, [E_KEEP, E_PAST_MAX, E_KEEP]))
    set_anchor(p, r_root(p, 2), lambda: pt_edge(p, [E_TWICE, E_KEEP, E_KEEP]))
    for code in range(8):
        set_anchor(p, r_root(p, 0), lambda: pt_hostile(p, code % 3, code))
    set_anchor(p, r_root(p, 0), lambda: pt_raw(p, [0x7FF8000000000001, 1.0, 2.0]))
    set_anchor(p, r_handle(p, live(p, 1)), lambda: pt_small(p, [1, 1, 1]))
    set_anchor(p, r_handle(p, lambda: p.h_other(0)), lambda: pt_small(p, [1, 1, 1]))
    set_anchor(p, r_handle(p, p.h_zero), lambda: pt_small(p, [1, 1, 1]))
    set_anchor(p, r_root(p, 0), lambda: pt_small(p, [1, 1, 1]), null=True)
    p.update()
    p.world_now_all()
    p.destroy(live(p, 2))                  # C, D, E
    set_anchor(p, r_handle(p, lambda: p.h_hist(2)), lambda: pt_small(p, [1, 1, 1]))
    large_read(p, r_handle(p, lambda: p.h_hist(3)))
    set_anchor(p, r_root(p, 0), lambda: pt_small(p, [1, 1, 1]), scene=1)
    set_origin(p, lambda: pt_small(p, [1, 1, 1]), scene=1)
    large_read(p, r_root(p, 1), scene=1)
    p.update()
    p.world_now_all()
    out['large_anchors'] = p

    # Origin moves with a tracker watching: the same origin (an update
    # right after recomputes nothing), signs of zero flipped (another
    # origin), moves of 2^-20 to 2^-40 lost at 1e15 (the same origin) and
    # of a few ulps, a move next to a far root, grid moves (one to the cell
    # it is in: the same origin), 1e12 jumps there and back between two
    # updates, refusals (NaN, infinities, 1e300, -1e19, DBL_MAX, past the
    # limit, NULL), the limit's edges, a denormal; a root made there.
    p = Program()
    p.recreate_large((0,))
    tracker_create(p, 0)
    p.create(p.h_zero)                     # 0: A
    p.create(live(p, 0))
    p.create(live(p, 1))
    p.create(p.h_zero)                     # 3: B
    p.set_local(live(p, 1), lambda: p.m_rot(77, F_ONE))
    p.set_local(live(p, 2), lambda: p.m_translate(0.5, -3, 2))
    set_anchor(p, r_root(p, 0), lambda: pt_far(p, [1e15, 1e15, -1e15]))
    set_anchor(p, r_root(p, 3), lambda: pt_small(p, [3, 0, -1]))
    p.update_once()
    collect(p, OWN0, 3, 0)
    set_origin(p, lambda: pt_same(p))
    set_origin(p, lambda: pt_zeros(p))
    p.update_once()
    collect(p, OWN0, 3, 0)
    set_origin(p, lambda: pt_small(p, [2, 0, -1]))
    p.update_once()
    set_origin(p, lambda: pt_near_root(p, 0, [1, -2, 0.5]))
    p.update_once()
    collect(p, OWN0, 3, 0)
    set_origin(p, lambda: pt_tiny(p, [('pow', 20), ('pow', 30), ('pow', 40)]))
    set_origin(p, lambda: pt_tiny(p, [('ulps', 1), ('ulps', -2), ('ulps', 0)]))
    p.update_once()
    set_origin(p, lambda: pt_grid(p, 12, [0, 1, -2]))
    p.update_once()
    set_origin(p, lambda: pt_grid(p, 12, [0, 0, 0]))
    p.update_once()
    set_origin(p, lambda: pt_jump(p, [1, -1, 5]))
    set_origin(p, lambda: pt_jump(p, [-1, 1, -5]))
    p.update_once()
    collect(p, OWN0, 3, 0)
    p.world_now_all()
    for code in (H_NAN, H_INF, H_NINF, H_1E300, H_M1E19, H_DBL_MAX):
        set_origin(p, lambda: pt_hostile(p, code % 3, code))
    set_origin(p, lambda: pt_edge(p, [E_PAST_MAX, E_KEEP, E_KEEP]))
    set_origin(p, lambda: pt_edge(p, [E_KEEP, E_TWICE, E_KEEP]))
    set_origin(p, lambda: pt_raw(p, [0x7FF0000000000000, 0.0, 0.0]))
    set_origin(p, lambda: pt_small(p, [0, 0, 0]), null=True)
    p.update()
    set_origin(p, lambda: pt_edge(p, [E_MAX, E_MIN, E_ABOVE_MIN]))
    set_origin(p, lambda: pt_hostile(p, 1, H_DENORM))
    p.update()
    p.world_now_all()
    set_origin(p, lambda: pt_same(p), no_update=True)
    set_anchor(p, r_root(p, 0), lambda: pt_nudge(p, [1, 0, 0]))
    p.update_once()
    collect(p, OWN0, 3, 0)
    p.destroy(live(p, 3))
    p.create(p.h_zero)                     # a new root, at the origin
    p.create(live(p, 3))
    p.update_once()
    p.world_now_all()
    out['large_origin'] = p

    # Previous worlds and boxes in a large world: an origin move shifts the
    # previous worlds the next update saves into the new frame (one move:
    # bit for bit; two: within rounding), boxes and culls follow the worlds
    # relative to the origin (before the update: those of the last one); a
    # keep-world and a keep-local move to the root level (anchored at the
    # origin), set_world on a root anchored elsewhere (re-anchored: a move),
    # a keep-world move under another root, compaction.
    p = Program()
    p.recreate_large((CFG_BOUNDS_ALL,))
    tracker_create(p, 0)
    set_create(p, 0)
    for i in range(8):
        p.create(p.h_zero if i % 4 == 0 else live(p, i - 1))
        bounds_set(p, live(p, i), (0, 0.5, 0), (1, 1, 0.5))
    for i in range(8):
        p.set_local(live(p, i), lambda i=i: p.m_translate(i % 4, 1, -1))
    set_anchor(p, r_root(p, 0), lambda: pt_far(p, [2e12, 0, -3e12]))
    set_anchor(p, r_root(p, 4), lambda: pt_far(p, [2e12 + 64, 8, -3e12]))
    set_origin(p, lambda: pt_near_root(p, 0, [2, 0, -1]))
    p.update_once()
    p.update_once()
    cull(p, cube(8), OWN0)
    set_origin(p, lambda: pt_nudge(p, [1.5, -0.25, 0]))
    cull(p, cube(8), OWN0)
    p.update_once()
    collect(p, OWN0, 3, 0)
    cull(p, cube(8), OWN0)
    set_origin(p, lambda: pt_grid(p, 6, [1, 0, 0]))
    set_origin(p, lambda: pt_nudge(p, [-0.5, 0.75, 1]))
    p.update_once()
    p.update_once()
    p.set_parent(live(p, 2), p.h_zero, 1)
    p.set_parent(live(p, 6), p.h_zero, 0)
    p.set_world(live(p, 4), lambda: p.m_translate(1, 2, 3))
    p.update_once()
    cull(p, cube(4), OWN0)
    p.set_parent(live(p, 2), live(p, 5), 1)
    p.compact()
    set_origin(p, lambda: pt_jump(p, [1, 0, 0]))
    p.update()
    cull(p, cube(8), OWN0)
    collect(p, OWN0, 3, 0)
    p.world_now_all()
    out['large_prev_bounds'] = p

    # Every kernel's root branch in a large world (scalar, 4-wide, AVX,
    # AVX-512 where the CPU has them), two at a time: roots anchored far
    # out with the origin beside them, a root with a projective local (its
    # bottom row not 0 0 0 1), worlds now before the update, non-finite
    # locals written in place at a root (made the identity by the update,
    # then anchored), an origin move.
    p = Program()
    for cfgs in ((0x10, 0x20), (0x30, 0x40)):
        for sc, cfg in enumerate(cfgs):
            p.recreate_large((cfg,), sc)
            tracker_create(p, 0, sc)
            p.create(p.h_zero, sc)
            p.create(live(p, 0), sc)
            p.create(p.h_zero, sc)
            p.create(live(p, 2), sc)
            p.set_local(live(p, 0), lambda: p.m_special(3, F_HALF), sc)
            p.set_local(live(p, 2), lambda: p.m_rot(40, F_ONE), sc)
            p.set_local(live(p, 3), lambda: p.m_translate(2, -1, 0.5), sc)
            set_anchor(p, r_root(p, 0), lambda: pt_far(p, [-7e14, 3e9, 1e16]), scene=sc)
            set_anchor(p, r_root(p, 2), lambda: pt_jump(p, [9, 9, 9]), scene=sc)
            set_origin(p, lambda: pt_near_root(p, 0, [3, 3, -3]), scene=sc)
            p.world_now_all(sc)
            p.update(sc)
            writer_create(p, 0, W_SORTED, W_PLAIN, [0, 2], scene=sc)
            writer_in_place(p, OWN0, 0, [[lambda: p.m_special(5, F_NAN),
                                          lambda: p.m_translate(1, 1, 1)]], scene=sc)
            set_origin(p, lambda: pt_nudge(p, [0.25, 0, -1]), scene=sc)
            p.world_now_all(sc)
            p.update(sc)
            collect(p, OWN0, 3, 0, scene=sc)
            p.world_now_all(sc)
    out['large_kernels'] = p

    # The parallel update of a large world: 2,048 roots and a tree, anchors
    # set on some, origin moves (every node recomputed, over many ranges),
    # the executor calling into the scene while the tasks are handed out
    # (seeds 3 and 11: refused with EXECUTOR, nothing changed), batches and
    # in-place writes at roots, roots made and made again by churn (each
    # anchored at the origin), a destroy, compaction.
    p = Program()
    p.recreate_large((0,))
    tracker_create(p, 0)
    bulk(p, BULK_ROOTS, 2, seed=9)
    bulk(p, BULK_TREE, 1, seed=4)
    for k in (0, 700, 1500, 2047):
        set_anchor(p, r_root(p, k), lambda: pt_far(p, [k * 1e9, -k * 3e11, 5e14]))
    update_parallel(p, 4)
    set_origin(p, lambda: pt_near_root(p, 700, [0, 1, 2]))
    update_parallel(p, 8, seed=7)
    collect(p, OWN0, 3, 0)
    batch_local(p, [(live(p, i), (lambda i=i: p.m_translate(i % 16, 0, 1)))
                    for i in range(0, 2048, 64)])
    batch_trs(p, [(live(p, i), [F_ONE, F_ZERO, F_HALF], [F_HALF] * 4, [F_ONE] * 3)
                  for i in range(1, 200, 40)])
    writer_create(p, 0, W_SORTED, W_PLAIN, [3, 700, 1999])
    writer_in_place(p, OWN0, 0, [[lambda: p.m_special(12, F_INF), None,
                                  lambda: p.m_translate(3, 3, 3)]])
    set_origin(p, lambda: pt_jump(p, [0, 0, 1]))
    update_parallel(p, 3, seed=11)
    churn(p, CHURN_PINGPONG, 4, seed=2)
    churn(p, CHURN_DETACH_NEWEST, 2, seed=5)
    p.destroy(live(p, 5))
    p.compact()
    set_anchor(p, r_root(p, 10), lambda: pt_nudge(p, [1, 1, 1]))
    update_parallel(p, 4)
    collect(p, OWN0, 3, 0)
    p.world_now_all()
    out['large_parallel'] = p

    # Validation mode in a large world: world reads say PENDING after an
    # anchor is set and after an origin move (every world changes), not
    # after the same origin; TRS writes at a far root, one refused (a
    # quaternion off unit length).
    p = Program()
    p.recreate_large((0x01,))
    p.create(p.h_zero)
    p.create(live(p, 0))
    p.create(p.h_zero)
    p.set_trs(live(p, 0), [F_ONE, F_TWO, F_HALF], None, [F_ONE] * 3)
    set_anchor(p, r_root(p, 0), lambda: pt_far(p, [3e17, 3e17, 3e17]))
    p.read(live(p, 0))
    p.read(live(p, 1))
    p.update()
    set_origin(p, lambda: pt_near_root(p, 0, [0, 0, 0]))
    p.read(live(p, 1))
    p.read(live(p, 2))
    p.update()
    set_origin(p, lambda: pt_same(p))
    p.read(live(p, 1))
    set_anchor(p, r_root(p, 2), lambda: pt_near_root(p, 0, [-1, 0, 0.5]))
    p.read(live(p, 2))
    p.set_trs(live(p, 2), [F_HALF, F_ZERO, F_ZERO], [F_ONE, F_ZERO, F_ZERO, F_ONE], [F_ONE] * 3)
    p.set_trs(live(p, 2), [F_HALF, F_ZERO, F_ZERO], None, [F_ONE] * 3)
    p.update()
    p.world_now_all()
    out['large_validate'] = p

    # Precision: roots anchored at the limit's edges, the origin a few ulps
    # (256 to 768) from one of them, a chain below; anchors moved by one
    # ulp; keep-world moves under a root anchored a few ulps away and to
    # the root level; the origin next to a root near 1e15, set_world under
    # it. Every world relative to the origin is held in double to within
    # float precision of its own size: a world placed to the precision of
    # its anchor's distance from zero would miss by up to 2^36.
    p = Program()
    p.recreate_large((0,))
    p.create(p.h_zero)                     # 0: A
    for i in range(1, 4):
        p.create(live(p, i - 1))           # 1..3: a chain under A
    p.create(p.h_zero)                     # 4: B
    p.create(live(p, 4))                   # 5
    p.create(p.h_zero)                     # 6: C
    p.set_local(live(p, 0), lambda: p.m_rot(150, F_ONE))
    for i in range(1, 4):
        p.set_local(live(p, i), lambda i=i: p.m_translate(0.25 * i, -1, 0.125))
    p.set_local(live(p, 5), lambda: p.m_rot(60, F_HALF))
    set_anchor(p, r_root(p, 0), lambda: pt_edge(p, [E_BELOW_MAX, E_MIN, E_MAX]))
    set_anchor(p, r_root(p, 4), lambda: pt_far(p, [1.125e15, -1e15, 1e13]))
    set_origin(p, lambda: pt_near_root(p, 0, [0, 0, 0]))
    set_origin(p, lambda: pt_tiny(p, [('ulps', 2), ('ulps', 1), ('ulps', -3)]))
    set_anchor(p, r_root(p, 6), lambda: pt_near_root(p, 0, [0, 0, 0]))
    set_anchor(p, r_root(p, 6), lambda: pt_tiny(p, [('ulps', -1), ('ulps', 2), ('ulps', 0)]))
    p.update()
    p.world_now_all()
    set_anchor(p, r_root(p, 0), lambda: pt_tiny(p, [('ulps', 1), ('ulps', 1), ('ulps', -1)]))
    p.update()
    p.set_parent(live(p, 2), live(p, 6), 1)
    p.set_parent(live(p, 3), p.h_zero, 1)
    p.set_world(live(p, 1), lambda: p.m_translate(1, 1, 1))
    p.update()
    p.world_now_all()
    set_origin(p, lambda: pt_near_root(p, 4, [-1, 0.5, 3]))
    p.set_world(live(p, 5), lambda: p.m_rot(9, F_HALF))
    p.update()
    p.world_now_all()
    large_read(p, r_root(p, 3))
    large_read(p, r_handle(p, live(p, 1)))
    out['large_precision'] = p

    # Two origin moves between updates, the first far out (2^60) and the
    # second back next to the start (0.5): a still root's previous world is
    # its world before, in the new origin's frame (x = -0.5), as its world
    # is; a shift summed move by move rounds the 0.5 away at 2^60.
    p = Program()
    p.recreate_large((CFG_PREV,))
    p.create(p.h_zero)
    p.update_once()
    set_origin(p, lambda: pt_edge(p, [E_MAX, E_KEEP, E_KEEP]))
    set_origin(p, lambda: pt_small(p, [0.5, 0, 0]))
    p.update_once()
    out['large_prev_round_trip'] = p

    # A cull with a finite plane whose every coefficient is FLT_MAX: past
    # the header's 2^125 on |d| + |n|_1 x the box's largest coordinate the
    # test's float sums overflow, and the box outside it is kept
    # (conservative); nothing else may go wrong.
    p = Program(cfg0=(CFG_BOUNDS_WIDE,))
    set_create(p, 0)
    p.create(p.h_zero)
    bounds_set(p, live(p, 0), (0, 0.5, 0), (1, 1, 0.5))
    p.set_local(live(p, 0), lambda: p.m_translate(-7, 1, -2))
    p.update()
    cull(p, [((F_MAX,), (F_MAX,), (F_MAX,), (F_MAX,))], OWN0)
    out['cull_plane_overflow'] = p

    # Random programs: every operation with random arguments.
    rng = random.Random(20240601)
    for n in range(18):
        p = Program(cfg0=(rng.randrange(16),) + (rng.randrange(256),) * 3,
                    cfg1=(rng.randrange(16),) + (rng.randrange(256),) * 3)
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(64, 600)))
        p.b += body
        out['random_%02d' % n] = p
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'corpus')
    os.makedirs(dest, exist_ok=True)
    for name, prog in sorted(scenarios().items()):
        with open(os.path.join(dest, name), 'wb') as fh:
            fh.write(bytes(prog.b))
    print('%d inputs written to %s' % (len(scenarios()), dest))


if __name__ == '__main__':
    main()
