// The AVX-512 form of an inline loop (cgen_fuse.c, cgen_fuse_scalar.c).
//
// With TLC_V512 (the prelude's test of the compiler's target flags) a group's
// loop runs 16 elements at a time on intrinsics, then a scalar tail; the
// helpers (tlc_z_*) compute the scalar forms' results bit for bit. Values are
// kept in their storage form (float32 as __m512, 16-bit types as __m256i, ...),
// like the scalar locals, and each written span is stored once at the end of
// the iteration with its last value: the spans of a group are equal or
// disjoint, so no read in the iteration sees the stores.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cgen_fuse_int.h"

static const char *zstore_type(tl_dtype_t t)
{
    switch (t) {
    case TL_F32: return "__m512";
    case TL_I8: return "__m128i";
    case TL_I32: return "__m512i";
    default: return "__m256i"; // bfloat16, float16, int16
    }
}

static void zvalue(emit_t *e, int i, char *out, size_t cap)
{
    const span_t *sp = &e->gr->sp[i];
    if (sp->vec) {
        snprintf(out, cap, "y%d_%d", e->base, i);
        return;
    }
    if (e->val[i] < 0) {
        char p[48];
        e->val[i] = e->tmp++;
        snprintf(p, sizeof p, "p%d_%d + j", e->base, i);
        const char *t = zstore_type(sp->buf->dtype);
        switch (sp->buf->dtype) {
        case TL_F32:
            tl_cgen_line(e->g, "const %s z%d_%d = _mm512_loadu_ps(%s);", t, e->base, e->val[i], p);
            break;
        case TL_I32:
            tl_cgen_line(e->g, "const %s z%d_%d = _mm512_loadu_si512(%s);", t, e->base, e->val[i],
                         p);
            break;
        case TL_I8:
            tl_cgen_line(e->g, "const %s z%d_%d = _mm_loadu_si128((const __m128i *)(%s));", t,
                         e->base, e->val[i], p);
            break;
        default:
            tl_cgen_line(e->g, "const %s z%d_%d = _mm256_loadu_si256((const __m256i *)(%s));", t,
                         e->base, e->val[i], p);
            break;
        }
    }
    snprintf(out, cap, "z%d_%d", e->base, e->val[i]);
}

static void zresult(emit_t *e, int i, const char *v)
{
    int t = e->tmp++;
    tl_cgen_line(e->g, "const %s z%d_%d = %s;", zstore_type(e->gr->sp[i].buf->dtype), e->base, t,
                 v);
    e->val[i] = t;
    e->dirty[i] = true;
}

static void zstore(emit_t *e, int i)
{
    int b = e->base, v = e->val[i], out = e->gr->sp[i].out;
    if (out) { // into GM, with streaming stores when W<id>_s says so
        static const char *const form[] = {
            "_mm512_stream_ps(p%d_%d + j, z%d_%d);",
            "_mm512_stream_si512((void *)(p%d_%d + j), z%d_%d);",
            "_mm_stream_si128((__m128i *)(p%d_%d + j), z%d_%d);",
            "_mm256_stream_si256((__m256i *)(p%d_%d + j), z%d_%d);",
        };
        tl_dtype_t t = e->gr->sp[i].buf->dtype;
        int f = t == TL_F32 ? 0 : t == TL_I32 ? 1 : t == TL_I8 ? 2 : 3;
        tl_cgen_line(e->g, "if (W%d_s)", out - 1);
        e->g->indent++;
        tl_cgen_line(e->g, form[f], b, i, b, v);
        e->g->indent--;
        tl_cgen_line(e->g, "else");
        e->g->indent++;
    }
    switch (e->gr->sp[i].buf->dtype) {
    case TL_F32: tl_cgen_line(e->g, "_mm512_storeu_ps(p%d_%d + j, z%d_%d);", b, i, b, v); break;
    case TL_I32: tl_cgen_line(e->g, "_mm512_storeu_si512(p%d_%d + j, z%d_%d);", b, i, b, v); break;
    case TL_I8:
        tl_cgen_line(e->g, "_mm_storeu_si128((__m128i *)(p%d_%d + j), z%d_%d);", b, i, b, v);
        break;
    default:
        tl_cgen_line(e->g, "_mm256_storeu_si256((__m256i *)(p%d_%d + j), z%d_%d);", b, i, b, v);
        break;
    }
    if (out) e->g->indent--;
}

// x: the source value; r: what is known of it as float32 (after a float16
// source's widening).
static void zcast(char *out, size_t cap, tl_dtype_t dt, tl_dtype_t st, const char *x,
                  const vrange_t *r)
{
    char w[96];
    const char *to = st == TL_BF16  ? "tlc_z_bf16_f32(%s)"
                     : st == TL_F16 ? "_mm512_cvtph_ps(%s)"
                     : st == TL_I32 ? "_mm512_cvtepi32_ps(%s)"
                                    : "%s";
    snprintf(w, sizeof w, to, x);
    // in range (or NaN): no saturation; a NaN converts to 0x80000000, whose
    // low 8 or 16 bits are the 0 that the saturating forms give
    bool fits8 = r->known && r->lo >= -128 && r->hi <= 127;
    bool fits16 = r->known && r->lo >= -32768 && r->hi <= 32767;
    switch (dt) {
    case TL_I8:
        snprintf(out, cap,
                 fits8 ? "_mm512_cvtepi32_epi8(_mm512_cvtps_epi32(%s))" : "tlc_z_f32_i8(%s)", w);
        break;
    case TL_I16:
        snprintf(out, cap,
                 fits16 ? "_mm512_cvtepi32_epi16(_mm512_cvtps_epi32(%s))" : "tlc_z_f32_i16(%s)", w);
        break;
    case TL_I32: snprintf(out, cap, "tlc_z_f32_i32(%s)", w); break;
    case TL_BF16: snprintf(out, cap, "tlc_z_f32_bf16(%s)", w); break;
    case TL_F16: snprintf(out, cap, "tlc_z_f32_f16(%s)", w); break;
    default: snprintf(out, cap, "%s", w); break;
    }
}

// Op o in vector form; zsc: its scalar operands broadcast.
// The value of a constant scalar operand as the library reads it (float32).
static bool const_scalar(const tl_expr_t *x, double *v)
{
    if (!x) return false;
    switch (x->kind) {
    case TL_EX_FLOAT: *v = x->f; break;
    case TL_EX_INT: *v = (double)x->i; break;
    case TL_EX_CAST:
        if ((x->dtype != TL_F32 && x->dtype != TL_F64) || !const_scalar(x->arg, v)) return false;
        break;
    case TL_EX_UN:
        if (x->op.op != TL_UN_NEG || !const_scalar(x->op.a, v)) return false;
        *v = -*v;
        break;
    default: return false;
    }
    *v = (double)(float)*v;
    return *v == *v;
}

// Op o in vector form; zsc: its scalar operands broadcast. What is known of
// the values (vrange_t) shortens a few forms, with the same bits: a clamp
// with constant bounds lo <= hi as max then min (either returns its second
// operand for a NaN or for equal values, as the compare-and-select of the
// scalar form does); a conversion to int8 / int16 of round(x) in range as
// that of x (vcvtps2dq rounds in the current mode, as the round does); a
// float16 value that is an integer of at most 2048 in
// magnitude (or NaN) as the float32 it came from when it is converted to an
// integer (NaN gives 0 either way); a float -> int8 / int16 conversion of a
// value in range without saturation.
static void zemit_op(emit_t *e, const fop_t *o, const char *const *zsc)
{
    tl_opcode_t code = o->s->op.code;
    char a[48], b[48], v[512];
    const group_t *gr = e->gr;
    vrange_t out = {false, false, 0, 0};
    int exact = -1, unround = -1;
    if (is_reduce(code) && o->absmax) {
        // |x| has the sign bit clear: its bits order as unsigned integers as
        // the values do, and a NaN's bits are above those of infinity
        int k = (int)(o - gr->op);
        zvalue(e, o->sp[1], a, sizeof a);
        tl_cgen_line(e->g, "a%d_%d = _mm512_max_epu32(a%d_%d, _mm512_castps_si512(%s));", e->base,
                     k, e->base, k, a);
        return;
    }
    if (is_reduce(code)) { // a NaN operand leaves the accumulator as it is
        int k = (int)(o - gr->op);
        zvalue(e, o->sp[1], a, sizeof a);
        tl_cgen_line(e->g, "q%d_%d |= _mm512_cmp_ps_mask(%s, %s, _CMP_UNORD_Q);", e->base, k, a, a);
        tl_cgen_line(e->g, "a%d_%d = _mm512_%s_ps(%s, a%d_%d);", e->base, k,
                     code == TL_OP_REDUCE_MAX ? "max" : "min", a, e->base, k);
        return;
    }
    if (code == TL_OP_FILL) {
        zresult(e, o->sp[0], zsc[0]);
        return;
    }
    zvalue(e, o->sp[1], a, sizeof a);
    if (code == TL_OP_COPY) {
        zresult(e, o->sp[0], a);
        return;
    }
    if (o->nspan > 2)
        zvalue(e, o->sp[2], b, sizeof b);
    else if (o->nsc)
        snprintf(b, sizeof b, "%s", zsc[0]);
    // the vector form of each operator (fuse_binop); max and min keep a NaN in a
    static const char *const zbin[TL_BIN_COUNT] = {
        [TL_BIN_ADD] = "_mm512_add_ps", [TL_BIN_SUB] = "_mm512_sub_ps",
        [TL_BIN_MUL] = "_mm512_mul_ps", [TL_BIN_DIV] = "_mm512_div_ps",
        [TL_BIN_MAX] = "tlc_z_max",     [TL_BIN_MIN] = "tlc_z_min"};
    tl_binop_t bin = fuse_binop(o);
    switch (code) {
    case TL_OP_ABS: snprintf(v, sizeof v, "_mm512_abs_ps(%s)", a); break;
    case TL_OP_RELU: snprintf(v, sizeof v, "tlc_z_relu(%s)", a); break;
    case TL_OP_ROUND:
        snprintf(v, sizeof v, "_mm512_roundscale_ps(%s, _MM_FROUND_CUR_DIRECTION)", a);
        break;
    case TL_OP_SQRT: snprintf(v, sizeof v, "_mm512_sqrt_ps(%s)", a); break;
    case TL_OP_RECIPROCAL:
        snprintf(v, sizeof v, "_mm512_div_ps(_mm512_set1_ps(1.0f), %s)", a);
        break;
    case TL_OP_CLAMP: {
        double lo, hi;
        const tl_op_t *op = &o->s->op;
        if (!const_scalar(op->args[2].scalar, &lo) || !const_scalar(op->args[3].scalar, &hi) ||
            lo > hi) {
            snprintf(v, sizeof v, "tlc_z_clamp(%s, %s, %s)", a, zsc[0], zsc[1]);
            break;
        }
        snprintf(v, sizeof v, "_mm512_min_ps(%s, _mm512_max_ps(%s, %s))", zsc[1], zsc[0], a);
        const vrange_t *r = &e->rng[o->sp[1]];
        out = (vrange_t){true, r->integral && lo == floor(lo) && hi == floor(hi), lo, hi};
        break;
    }
    case TL_OP_CAST: {
        tl_dtype_t dt = gr->sp[o->sp[0]].buf->dtype, st = gr->sp[o->sp[1]].buf->dtype;
        const vrange_t *r = &e->rng[o->sp[1]];
        int from = e->exact[o->sp[1]];
        bool to_int = dt == TL_I8 || dt == TL_I16 || dt == TL_I32;
        int pre = e->unround[o->sp[1]];
        bool fits = r->known && r->lo >= (dt == TL_I8 ? -128 : -32768) &&
                    r->hi <= (dt == TL_I8 ? 127 : 32767) && (dt == TL_I8 || dt == TL_I16);
        if (st == TL_F16 && from >= 0 && to_int) { // the float32 value it came from
            char f[48];
            snprintf(f, sizeof f, "z%d_%d", e->base, fits && pre >= 0 ? pre : from);
            zcast(v, sizeof v, dt, TL_F32, f, &e->rng[o->sp[1]]);
            break;
        }
        vrange_t none = {false, false, 0, 0};
        if (st == TL_F32 && pre >= 0 && fits) snprintf(a, sizeof a, "z%d_%d", e->base, pre);
        zcast(v, sizeof v, dt, st, a, st == TL_F32 ? r : &none);
        if (st == TL_F32 && dt == TL_F16 && r->known && r->integral && r->lo >= -2048 &&
            r->hi <= 2048) {
            exact = e->val[o->sp[1]];
            out = *r;
            unround = pre;
        }
        break;
    }
    default: // the binary ops, then the copy
        if (bin != TL_BIN_NONE)
            snprintf(v, sizeof v, "%s(%s, %s)", zbin[bin], a, b);
        else
            snprintf(v, sizeof v, "%s", a);
        break;
    }
    if (code == TL_OP_ROUND && e->rng[o->sp[1]].known)
        out = (vrange_t){true, true, floor(e->rng[o->sp[1]].lo), ceil(e->rng[o->sp[1]].hi)};
    if (code == TL_OP_ROUND) unround = e->val[o->sp[1]];
    zresult(e, o->sp[0], v);
    e->rng[o->sp[0]] = out;
    e->exact[o->sp[0]] = exact;
    e->unround[o->sp[0]] = unround;
}

// The group's loop in vector form: per row (row_expand groups) 16 columns at
// a time, then the remaining columns one by one through the scalar ops.
void fuse_emit_vector(emit_t *e, const char *const (*sc)[2], int64_t cols)
{
    tl_cgen_t *g = e->g;
    group_t *gr = e->gr;
    char zn[MAX_OPS][2][48];
    const char *zsc[MAX_OPS][2];
    for (int k = 0; k < gr->nop; k++)
        for (int j = 0; j < gr->op[k].nsc; j++) {
            snprintf(zn[k][j], sizeof zn[k][j], "v%d_%d_%d", e->base, k, j);
            tl_cgen_line(g, "const __m512 %s = _mm512_set1_ps(%s);", zn[k][j], sc[k][j]);
            zsc[k][j] = zn[k][j];
        }
    // rows shorter than a vector (row_expand over cols dividing 16): the tile
    // is one run, a vector holds 16 / cols rows, the row operands are spread
    // over it (lane l takes row l / cols of the vector's first row)
    bool packed = gr->cols && gr->cols < 16;
    int64_t len = packed ? gr->n : cols;
    char j[64];
    snprintf(j, sizeof j, gr->cols && !packed ? "r * INT64_C(%" PRId64 ") + c" : "c", cols);
    // the prefetches of GM regions read in place go out one line per iteration,
    // into L2 (prefetcht1; to L1 they hold its miss buffers, which the loop's
    // own loads then wait for)
    if (g->views) { // (the pointer copied: one whose address is taken may live in memory)
        tl_cgen_line(g, "uintptr_t f%d_0 = 0;", e->base);
        tl_cgen_line(g, "const int64_t n%d = tlc_pf_take(&Q, &f%d_0);", e->base, e->base);
        tl_cgen_line(g, "uintptr_t f%d = f%d_0;", e->base, e->base);
        tl_cgen_line(g, "int64_t m%d = n%d;", e->base, e->base);
    }
    if (packed) {
        tl_buf_t q;
        tl_buf_init(&q);
        for (int l = 15; l >= 0; l--) tl_buf_printf(&q, "%s%d", l < 15 ? ", " : "", l / (int)cols);
        tl_cgen_line(g, "const __m512i q%d = _mm512_set_epi32(%s);", e->base, tl_buf_cstr(&q));
        tl_buf_free(&q);
    } else if (gr->cols) {
        tl_cgen_line(g, "for (int64_t r = 0; r < INT64_C(%" PRId64 "); r++) {", gr->n / gr->cols);
        g->indent++;
        for (int i = 0; i < gr->nsp; i++)
            if (gr->sp[i].vec) {
                tl_cgen_line(g, "const float w%d_%d = p%d_%d[r];", e->base, i, e->base, i);
                tl_cgen_line(g, "const __m512 y%d_%d = _mm512_set1_ps(w%d_%d);", e->base, i,
                             e->base, i);
            }
        for (int k = 0; k < gr->nop; k++)
            if (gr->op[k].absmax) // +0: the least |x|
                tl_cgen_line(g, "__m512i a%d_%d = _mm512_setzero_si512();", e->base, k);
            else if (is_reduce(gr->op[k].s->op.code)) {
                tl_cgen_line(g, "__m512 a%d_%d = _mm512_set1_ps(%s);", e->base, k,
                             fuse_red_fill(&gr->op[k]));
                tl_cgen_line(g, "__mmask16 q%d_%d = 0;", e->base, k);
            }
    }
    tl_cgen_line(g, "int64_t c = 0;");
    tl_cgen_line(g, "for (; c + 16 <= INT64_C(%" PRId64 "); c += 16) {", len);
    g->indent++;
    tl_cgen_line(g, "const int64_t j = %s;", j);
    if (g->views)
        tl_cgen_line(g, "if (m%d) __builtin_prefetch((const void *)f%d, 0, 2), f%d += 64, m%d--;",
                     e->base, e->base, e->base, e->base);
    for (int i = 0; packed && i < gr->nsp; i++)
        if (gr->sp[i].vec) // a masked load: no read past the row operand
            tl_cgen_line(g,
                         "const __m512 y%d_%d = _mm512_permutexvar_ps(q%d, "
                         "_mm512_maskz_loadu_ps(0x%xu, p%d_%d + j / INT64_C(%" PRId64 ")));",
                         e->base, i, e->base, (1u << (16 / cols)) - 1, e->base, i, cols);
    for (int i = 0; i < gr->nsp; i++) {
        e->val[i] = e->exact[i] = e->unround[i] = -1, e->dirty[i] = false;
        e->rng[i] = (vrange_t){false, false, 0, 0};
    }
    for (int k = 0; k < gr->nop; k++) zemit_op(e, &gr->op[k], zsc[k]);
    for (int i = 0; i < gr->nsp; i++)
        if (e->dirty[i] && !gr->sp[i].dead) zstore(e, i);
    g->indent--;
    tl_cgen_line(g, "}");
    for (int k = 0; k < gr->nop; k++)
        if (gr->op[k].absmax) { // the tail goes on from the maximum (or NaN) so far
            int b = e->base;
            tl_cgen_line(g, "const uint32_t b%d_%d = _mm512_reduce_max_epu32(a%d_%d);", b, k, b, k);
            tl_cgen_line(g, "float t%d_%d;", b, k);
            tl_cgen_line(g, "memcpy(&t%d_%d, &b%d_%d, 4);", b, k, b, k);
            tl_cgen_line(g, "int32_t u%d_%d = b%d_%d > 0x7f800000u;", b, k, b, k);
        } else if (is_reduce(gr->op[k].s->op.code)) {
            tl_cgen_line(g, "float t%d_%d = _mm512_reduce_%s_ps(a%d_%d);", e->base, k,
                         gr->op[k].s->op.code == TL_OP_REDUCE_MAX ? "max" : "min", e->base, k);
            tl_cgen_line(g, "int32_t u%d_%d = q%d_%d != 0;", e->base, k, e->base, k);
        }
    e->tail = true;
    for (int i = 0; i < gr->nsp; i++) e->val[i] = -1;
    tl_cgen_line(g, "for (; c < INT64_C(%" PRId64 "); c++) {", len);
    g->indent++;
    tl_cgen_line(g, "const int64_t j = %s;", j);
    if (packed) {
        tl_cgen_line(g, "const int64_t r = j / INT64_C(%" PRId64 ");", cols);
        for (int i = 0; i < gr->nsp; i++)
            if (gr->sp[i].vec)
                tl_cgen_line(g, "const float w%d_%d = p%d_%d[r];", e->base, i, e->base, i);
    }
    for (int k = 0; k < gr->nop; k++) fuse_emit_op(e, &gr->op[k], sc[k]);
    g->indent--;
    tl_cgen_line(g, "}");
    e->tail = false;
    if (gr->cols && !packed) {
        fuse_red_end(e, true);
        g->indent--;
        tl_cgen_line(g, "}");
    }
    if (g->views) tl_cgen_line(g, "tlc_pf_give(&Q, n%d, m%d);", e->base, e->base);
    for (int i = 0; i < gr->nsp; i++)
        if (gr->sp[i].out) tl_cgen_line(g, "if (W%d_s) _mm_sfence();", gr->sp[i].out - 1);
}
