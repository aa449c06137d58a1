// Instruction prices from the arch table (see cost.h).
//
// MTE2 (GM -> L1 / UB): the bytes at the core's read rate, the L2's hit
// latency and the transfer's start-up, an HBM read more on a miss. MTE3 (UB ->
// GM / L1): bytes at the core's write rate, and into GM the GM write latency
// and the start-up. MTE1 (L1 -> L0A / L0B): bytes
// at that path's rate, its latency. FIX (L0C -> GM / L1): elements at its rate,
// its latency (and the GM write latency into GM). M: ceil(m/16) ceil(n/16)
// ceil(k/k0) fractal steps, k0 the multiply-accumulates per cycle / 256, and the
// mmad start-up. V: the bytes it reads and writes at the UB's rate and a
// start-up (the transcendental class no faster than its published elements
// per cycle; the sorts: Sort32 and each merge round over every element, the
// gathers: their elements or bytes, at their own published rates), and the
// cost class's latency.
#include "target/cost.h"

#include <math.h>

static int64_t ceil_div(int64_t a, int64_t b)
{
    return b > 0 ? (a + b - 1) / b : 0;
}

// Cycles to move n units at rate units per cycle.
static int64_t at_rate(int64_t n, double rate)
{
    return (int64_t)ceil((double)n / rate);
}

// The sorts: a Sort32 pass (unless merge_only) and the 4-way merge rounds, each
// over every element at the published rate.
static int64_t sort_cycles(const tl_arch_t *a, const tl_work_t *w)
{
    int64_t passes = (w->merge_only ? 0 : 1) + w->sort_rounds;
    return passes * ceil_div(w->sort_pairs, a->vec_sort_epc);
}

// A vector instruction moving `moved` bytes through the UB.
static int64_t ub_occ(const tl_arch_t *a, int64_t moved)
{
    return a->vec_startup + at_rate(moved, a->vec_ub_bpc);
}

// One step of a chain whose instructions each wait for the previous one (a
// pipe_barrier(V) after each, or each reads the previous result): the next
// starts when this one has completed, or when the scalar unit has issued it.
static int64_t chained(const tl_arch_t *a, int64_t occ, int64_t lat)
{
    return TL_MAX(a->issue_cycles, occ + lat);
}

// A vector instruction of class `cost` over `elems` elements moving `moved`
// bytes through the UB, no faster than `floor` cycles (the transcendental
// class no faster than its published elements per cycle).
static int64_t vec_occ(const tl_arch_t *a, tl_cost_t cost, int64_t elems, int64_t moved,
                       int64_t floor)
{
    if (cost == TL_COST_VEXP || cost == TL_COST_VDIV)
        floor = TL_MAX(floor, at_rate(elems, a->vec_transcendental_epc));
    return a->vec_startup + TL_MAX(at_rate(moved, a->vec_ub_bpc), floor);
}

// One instruction of a library sequence: its class, the operands it reads and
// writes (each the sequence's width), whether a pipe_barrier(V) follows it.
typedef struct {
    tl_cost_t cost;
    int operands;
    bool barrier;
} lib_step_t;

// Sigmoid (impl/adv_api/detail/activation/sigmoid/sigmoid_v100_impl.h
// @0da921b, SigmoidIntrinsicsImpl, the dav_c220 path): x * -1, a barrier, exp,
// a barrier, + 1 and a Duplicate of 1 into the temporary, a barrier, 1 / that,
// a barrier; NormCompute runs it per 255 repeats and once more for a partial
// last repeat (normal mask mode).
static const lib_step_t lib_sigmoid[] = {{TL_COST_VMUL, 2, true},
                                         {TL_COST_VEXP, 2, true},
                                         {TL_COST_VADD, 2, false},
                                         {TL_COST_VOTHER, 1, true},
                                         {TL_COST_VDIV, 3, true}};
// Silu (impl/adv_api/detail/activation/silu/silu_common_impl.h @0da921b,
// SiluCalcSimplified): x * -1, exp, + 1, x / that, each behind a barrier, once
// over the whole count (counter mask mode on __NPU_ARCH__ 2201).
static const lib_step_t lib_silu[] = {{TL_COST_VMUL, 2, true},
                                      {TL_COST_VEXP, 2, true},
                                      {TL_COST_VADD, 2, true},
                                      {TL_COST_VDIV, 3, true}};

// Sin (impl/adv_api/detail/math/sin/sin_common_impl.h @0da921b, the float
// steps of SinRound, SinKpi, SinSignCompute and SinPolynomialApproximation;
// SinCast of sin_v220_impl.h is a float -> float Cast), each behind a
// pipe_barrier(V), once over the count in counter mode (the library's stack
// buffer holds a tile's three float temporaries: one split); a half source
// is cast to float before and back after, each behind a barrier.
static const lib_step_t lib_sin[] = {
    {TL_COST_VMUL, 2, true}, {TL_COST_VOTHER, 2, true}, // k = round(x / pi)
    {TL_COST_VMUL, 2, true}, {TL_COST_VADD, 3, true},   // x -= k * pi_0 .. pi_3
    {TL_COST_VMUL, 2, true}, {TL_COST_VADD, 3, true},   {TL_COST_VMUL, 2, true},
    {TL_COST_VADD, 3, true}, {TL_COST_VMUL, 2, true},   {TL_COST_VADD, 3, true},
    {TL_COST_VMUL, 3, true}, {TL_COST_VMUL, 2, true},   {TL_COST_VOTHER, 2, true}, // sign
    {TL_COST_VMUL, 2, true}, {TL_COST_VMUL, 2, true},   {TL_COST_VADD, 3, true},
    {TL_COST_VADD, 2, true}, {TL_COST_VMUL, 2, true},   {TL_COST_VADD, 2, true}, // P(x^2)
    {TL_COST_VMUL, 3, true}, {TL_COST_VADD, 2, true},   {TL_COST_VMUL, 3, true},
    {TL_COST_VADD, 2, true}, {TL_COST_VMUL, 3, true},   {TL_COST_VADD, 2, true},
    {TL_COST_VMUL, 3, true}, {TL_COST_VMUL, 3, true}};

// `nsteps` steps over `elems` elements of `size` bytes, added to *p: a step
// behind a barrier waits for the previous one's completion (the last one's
// latency is the op's unless more follows: `last` false).
static void lib_sequence(const tl_arch_t *a, const lib_step_t *st, int nsteps, int64_t elems,
                         int64_t size, bool last, tl_price_t *p)
{
    for (int i = 0; i < nsteps; i++) {
        int64_t occ = vec_occ(a, st[i].cost, elems, st[i].operands * elems * size, 0);
        int64_t lat = a->vec_latency[st[i].cost];
        p->occ += st[i].barrier && (i < nsteps - 1 || !last) ? chained(a, occ, lat) : occ;
        p->scalar += a->issue_cycles;
    }
    p->lat = a->vec_latency[st[nsteps - 1].cost];
}

// Sin's float steps; a half source: a cast to float before, one back after.
static void lib_sin_price(const tl_arch_t *a, int64_t n, int64_t size, tl_price_t *p)
{
    int nsteps = (int)(sizeof lib_sin / sizeof lib_sin[0]);
    if (size == 4) {
        lib_sequence(a, lib_sin, nsteps, n, 4, true, p);
        return;
    }
    int64_t cast = vec_occ(a, TL_COST_VOTHER, n, n * (4 + size), 0);
    p->occ += chained(a, cast, a->vec_latency[TL_COST_VOTHER]) + cast;
    p->scalar += 2 * a->issue_cycles;
    lib_sequence(a, lib_sin, nsteps, n, 4, false, p);
    p->lat = a->vec_latency[TL_COST_VOTHER];
}

// Sigmoid's calls: one per 255 full repeats, one for the rest of them, one for
// a partial repeat; consecutive calls are separated by the barrier after Div.
static void lib_sigmoid_price(const tl_arch_t *a, int64_t n, int64_t size, tl_price_t *p)
{
    int nsteps = (int)(sizeof lib_sigmoid / sizeof lib_sigmoid[0]);
    int64_t rep = TL_MAX(1, a->vec_bytes_per_repeat / size), full = n / rep;
    int64_t rounds = ceil_div(full, 255), calls = rounds + (n % rep > 0);
    for (int64_t c = 0; c < calls; c++) {
        int64_t e = c < rounds ? TL_MIN(full - 255 * c, 255) * rep : n % rep;
        if (c > 0) p->occ += p->lat; // the barrier after the previous call's Div
        lib_sequence(a, lib_sigmoid, nsteps, e, size, true, p);
    }
}

// Xor (impl/adv_api/detail/math/xor/xor_membase_impl.h @0da921b: A2 has no
// xor instruction): And and Or, a barrier, Not, a barrier, And, a barrier (the
// whole count in one pass).
static tl_price_t libcall_xor(const tl_arch_t *a, const tl_work_t *w)
{
    tl_price_t p = {0, 0, 0, 0};
    int64_t bin = ub_occ(a, 3 * w->bytes), un = ub_occ(a, 2 * w->bytes);
    p.lat = a->vec_latency[TL_COST_VINT];
    p.occ = 2 * bin + p.lat + un + p.lat + bin;
    p.scalar = 3 * a->issue_cycles;
    return p;
}

// CreateVecIndex (impl/basic_api/dav_c220/kernel_operator_vec_createvecindex_impl.h
// @0da921b): the first 32-byte block by scalar SetValue (bare stores: the
// kernel's build puts no barrier inside the library), an S -> V flag, then Adds
// filling blocks 2-8 of the first repeat from the block before, then one Adds
// per further repeat from the repeat before, each behind a pipe_barrier(V): a
// chain of elements / repeat + 6 dependent instructions.
static tl_price_t libcall_vec_index(const tl_arch_t *a, int64_t n, int64_t size)
{
    tl_price_t p = {0, 0, 0, 0};
    int64_t blk = TL_MAX(1, 32 / size), rep = TL_MAX(1, a->vec_bytes_per_repeat / size);
    int64_t stores = TL_MIN(n, blk);
    int64_t blocks = n <= blk ? 0 : n >= rep ? rep / blk - 1 : ceil_div(n, blk) - 1;
    int64_t repeats = n <= rep ? 0 : ceil_div(n, rep) - 1;
    p.lat = a->vec_latency[TL_COST_VADD];
    int64_t first = stores * tl_cost_scalar(a, TL_SCOPE_UB, true, false) + a->flag_latency;
    p.occ = first + blocks * chained(a, ub_occ(a, 64), p.lat) +
            repeats * chained(a, ub_occ(a, 2 * a->vec_bytes_per_repeat), p.lat);
    if (blocks + repeats > 0) p.occ -= p.lat; // the last one's latency is the op's
    p.scalar = first + TL_MAX(0, blocks + repeats - 1) * a->issue_cycles;
    return p;
}

// The library's sequence for a V op it does not run as one instruction
// (Ascend C's dav_c220 implementation, the one A2 / A3 kernels call).
static tl_price_t libcall_price(const tl_arch_t *a, const tl_work_t *w)
{
    tl_price_t p = {0, 0, 0, 0};
    int64_t n = w->elems, size = TL_MAX(w->elem_size, 1);
    switch (w->lib) {
    case TL_LIBCALL_XOR: return libcall_xor(a, w);
    case TL_LIBCALL_VEC_INDEX: return libcall_vec_index(a, n, size);
    case TL_LIBCALL_SIGMOID: lib_sigmoid_price(a, n, size, &p); break;
    case TL_LIBCALL_SIN: lib_sin_price(a, n, size, &p); break;
    case TL_LIBCALL_SILU:
        lib_sequence(a, lib_silu, (int)(sizeof lib_silu / sizeof lib_silu[0]), n, size, true, &p);
        break;
    case TL_LIBCALL_NONE: break; // not called for it
    }
    p.scalar = TL_MAX(0, p.scalar - a->issue_cycles); // beyond issuing one instruction
    return p;
}

tl_price_t tl_cost_price(const tl_arch_t *a, const tl_work_t *w)
{
    tl_price_t p = {0, 0, 0, 0};
    switch (w->pipe) {
    case TL_PIPE_MTE2:
        p.occ = at_rate(w->bytes, a->mte2_bpc);
        p.lat = a->l2_hit_latency + a->mte2_startup;
        p.miss = a->gm_read_latency;
        break;
    case TL_PIPE_MTE3:
        p.occ = at_rate(w->bytes, a->mte3_bpc);
        p.lat = w->dst == TL_SCOPE_GM ? a->gm_write_latency + a->mte3_startup : 0;
        break;
    case TL_PIPE_MTE1:
        p.occ = at_rate(w->bytes, w->dst == TL_SCOPE_L0A ? a->mte1_l0a_bpc : a->mte1_l0b_bpc);
        p.lat = a->mte1_latency;
        break;
    case TL_PIPE_FIX:
        p.occ = at_rate(w->elems, a->fix_elems_per_cycle);
        p.lat = a->fix_latency + (w->dst == TL_SCOPE_GM ? a->gm_write_latency : 0);
        break;
    case TL_PIPE_M: {
        int64_t k0 = TL_MAX(1, (w->in_s4 ? a->cube_mac_i4 : tl_arch_cube_macs(a, w->in)) / 256);
        p.occ = ceil_div(w->m, 16) * ceil_div(w->n, 16) * ceil_div(w->k, k0);
        p.lat = a->mmad_startup;
        break;
    }
    default: { // the vector pipe (and what no other pipe runs)
        if (w->lib != TL_LIBCALL_NONE) return libcall_price(a, w);
        int64_t moved = w->moved > 0 ? w->moved : w->bytes * (TL_MAX(w->reads, 1) + 1);
        if (w->sort_pairs > 0)
            p.occ = a->vec_startup + sort_cycles(a, w);
        else if (w->cost == TL_COST_VGATHER)
            p.occ = a->vec_startup + at_rate(w->elems, a->vec_gather_epc);
        else if (w->cost == TL_COST_VGATHERB)
            p.occ = a->vec_startup + at_rate(w->bytes, a->vec_gatherb_bpc);
        else if (w->cost == TL_COST_VGATHERMASK)
            p.occ = a->vec_startup + at_rate(w->bytes, a->vec_gather_mask_bpc);
        else {
            // no faster than the class's published rate where that is lower
            p.occ =
                vec_occ(a, w->cost, w->elems, moved, w->slow_repeats * a->vec_reduce_repeat_cycles);
        }
        p.lat = a->vec_latency[w->cost];
        break;
    }
    }
    return p;
}

int64_t tl_cost_scalar(const tl_arch_t *a, tl_scope_t s, bool store, bool barrier)
{
    if (store && s == TL_SCOPE_UB && barrier) return a->scalar_ub_store_cycles;
    return a->scalar_cycles + (s == TL_SCOPE_GM ? a->scalar_gm_cycles : 0);
}
