// The scalar form of an inline loop (cgen_fuse.c): the group's loop over its
// elements, ops one after another per element, and the chunked loop of groups
// with float16 casts; the AVX-512 form (cgen_fuse_avx.c) is emitted next to
// it under #if TLC_V512.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cgen_fuse_int.h"

const char *fuse_store_type(tl_dtype_t t)
{
    switch (t) {
    case TL_F32: return "float";
    case TL_BF16:
    case TL_F16: return "uint16_t";
    case TL_I8: return "int8_t";
    case TL_I16: return "int16_t";
    default: return "int32_t";
    }
}

// The name of the current element of span i (loaded on first use).
void fuse_value(emit_t *e, int i, char *out, size_t cap)
{
    if (e->gr->sp[i].vec) {
        snprintf(out, cap, "w%d_%d", e->base, i);
        return;
    }
    if (e->gr->sp[i].buf->dtype == TL_F16 && !e->tail) { // widened at the start of the segment
        snprintf(out, cap, "h%d_%d[c - c0]", e->base, i);
        return;
    }
    if (e->val[i] < 0) {
        e->val[i] = e->tmp++;
        tl_cgen_line(e->g, "const %s x%d_%d = p%d_%d[j];", fuse_store_type(e->gr->sp[i].buf->dtype),
                     e->base, e->val[i], e->base, i);
    }
    snprintf(out, cap, "x%d_%d", e->base, e->val[i]);
}

// Stores expression `v` (in the destination's storage type) to span i (only
// in a local when the span is dead).
void fuse_result(emit_t *e, int i, const char *v)
{
    int t = e->tmp++;
    tl_cgen_line(e->g, "const %s x%d_%d = %s;", fuse_store_type(e->gr->sp[i].buf->dtype), e->base,
                 t, v);
    if (!e->gr->sp[i].dead) tl_cgen_line(e->g, "p%d_%d[j] = x%d_%d;", e->base, i, e->base, t);
    e->val[i] = t;
}

static void cast_value(char *out, size_t cap, tl_dtype_t dt, tl_dtype_t st, const char *x,
                       bool tail)
{
    char w[96];
    snprintf(w, sizeof w,
             st == TL_BF16          ? "tlc_bf16_f32(%s)"
             : st == TL_F16 && tail ? "tlc_f16_f32(%s)"
                                    : "%s",
             x);
    switch (dt) {
    case TL_F16: snprintf(out, cap, "tlc_f32_f16(%s)", w); break; // tails only
    case TL_I8: snprintf(out, cap, "(int8_t)tlc_v_sat(%s, -128.0f, 127.0f)", w); break;
    case TL_I16: snprintf(out, cap, "(int16_t)tlc_v_sat(%s, -32768.0f, 32767.0f)", w); break;
    case TL_I32: snprintf(out, cap, "tlc_v_sat32(%s)", w); break;
    case TL_BF16: snprintf(out, cap, "tlc_v_f32_bf16(%s)", w); break;
    default: snprintf(out, cap, st == TL_I32 ? "(float)%s" : "%s", w); break;
    }
}

void fuse_emit_op(emit_t *e, const fop_t *o, const char *const *sc)
{
    tl_opcode_t code = o->s->op.code;
    char a[48], b[48], v[512];
    const group_t *gr = e->gr;
    if (is_reduce(code)) {
        fuse_value(e, o->sp[1], a, sizeof a);
        fuse_red_fold(e, o, a);
        return;
    }
    if (code == TL_OP_FILL) {
        fuse_result(e, o->sp[0], sc[0]);
        return;
    }
    if (code == TL_OP_COPY) { // sp[0] is the destination (operand 1), sp[1] the source
        fuse_value(e, o->sp[1], a, sizeof a);
        fuse_result(e, o->sp[0], a);
        return;
    }
    fuse_value(e, o->sp[1], a, sizeof a);
    if (o->nspan > 2)
        fuse_value(e, o->sp[2], b, sizeof b);
    else if (o->nsc)
        snprintf(b, sizeof b, "%s", sc[0]);
    tl_binop_t bin = fuse_binop(o);
    switch (code) {
    case TL_OP_ABS: snprintf(v, sizeof v, "__builtin_fabsf(%s)", a); break;
    case TL_OP_RELU: snprintf(v, sizeof v, "%s < 0 ? 0.0f : %s", a, a); break;
    case TL_OP_ROUND: snprintf(v, sizeof v, "__builtin_rintf(%s)", a); break;
    case TL_OP_SQRT: snprintf(v, sizeof v, "__builtin_sqrtf(%s)", a); break;
    case TL_OP_RECIPROCAL: snprintf(v, sizeof v, "1.0f / %s", a); break;
    case TL_OP_CLAMP:
        snprintf(v, sizeof v, "%s < %s ? %s : %s > %s ? %s : %s", a, sc[0], sc[0], a, sc[1], sc[1],
                 a);
        break;
    case TL_OP_CAST:
        cast_value(v, sizeof v, gr->sp[o->sp[0]].buf->dtype, gr->sp[o->sp[1]].buf->dtype, a,
                   e->tail);
        break;
    default: // the binary ops (max and min keep a NaN in a), then the copy
        if (bin == TL_BIN_MAX || bin == TL_BIN_MIN)
            snprintf(v, sizeof v, "%s %s %s || %s != %s ? %s : %s", a,
                     bin == TL_BIN_MAX ? ">" : "<", b, a, a, a, b);
        else if (bin != TL_BIN_NONE)
            snprintf(v, sizeof v, "%s %s %s", a, tl_binop_text(bin), b);
        else
            snprintf(v, sizeof v, "%s", a);
        break;
    }
    fuse_result(e, o->sp[0], v);
}

static bool narrows(const group_t *gr, const fop_t *o)
{
    return o->s->op.code == TL_OP_CAST && gr->sp[o->sp[0]].buf->dtype == TL_F16;
}

static bool widens(const group_t *gr, const fop_t *o)
{
    return o->s->op.code == TL_OP_CAST && gr->sp[o->sp[1]].buf->dtype == TL_F16;
}

enum { CHUNK = 256 }; // elements per chunk of a loop with float16 casts

// The loop of a group with float16 casts, in chunks of CHUNK elements of a
// row: each chunk runs the ops as segments split at the float32 -> float16
// casts, which convert the chunk with tlc_f2h from the stored source; a
// segment first widens the chunk of each float16 span it reads (tlc_h2f), as
// those are written only by the casts between segments. Every element still
// goes through the ops in order (element j depends on element j only), and
// the chunk stays in L1 between segments.
static void emit_chunked(emit_t *e, const char *const (*sc)[2], int64_t cols)
{
    tl_cgen_t *g = e->g;
    group_t *gr = e->gr;
    char j0[64];
    snprintf(j0, sizeof j0, gr->cols ? "r * INT64_C(%" PRId64 ") + c0" : "c0", cols);
    tl_cgen_line(g, "for (int64_t c0 = 0; c0 < INT64_C(%" PRId64 "); c0 += %d) {", cols, CHUNK);
    g->indent++;
    tl_cgen_line(
        g, "const int64_t cn = INT64_C(%" PRId64 ") - c0 < %d ? INT64_C(%" PRId64 ") - c0 : %d;",
        cols, CHUNK, cols, CHUNK);
    for (int k = 0; k < gr->nop;) {
        const fop_t *o = &gr->op[k];
        if (narrows(gr, o)) {
            tl_cgen_line(g, "tlc_f2h(p%d_%d + %s, p%d_%d + %s, cn);", e->base, o->sp[1], j0,
                         e->base, o->sp[0], j0);
            k++;
            continue;
        }
        int end = k;
        while (end < gr->nop && !narrows(gr, &gr->op[end])) end++;
        tl_cgen_line(g, "{");
        g->indent++;
        bool wide[MAX_SPANS] = {false};
        for (int m = k; m < end; m++) {
            int i = gr->op[m].sp[1];
            if (!widens(gr, &gr->op[m]) || wide[i]) continue;
            wide[i] = true;
            tl_cgen_line(g, "float h%d_%d[%d];", e->base, i, CHUNK);
            tl_cgen_line(g, "tlc_h2f(p%d_%d + %s, h%d_%d, cn);", e->base, i, j0, e->base, i);
        }
        for (int i = 0; i < gr->nsp; i++) e->val[i] = -1;
        tl_cgen_line(g, "_Pragma(\"GCC ivdep\") for (int64_t c = c0; c < c0 + cn; c++) {");
        g->indent++;
        if (gr->cols)
            tl_cgen_line(g, "const int64_t j = r * INT64_C(%" PRId64 ") + c;", cols);
        else
            tl_cgen_line(g, "const int64_t j = c;");
        for (int m = k; m < end; m++) fuse_emit_op(e, &gr->op[m], sc[m]);
        g->indent--;
        tl_cgen_line(g, "}");
        g->indent--;
        tl_cgen_line(g, "}");
        k = end;
    }
    g->indent--;
    tl_cgen_line(g, "}");
}

void fuse_emit(tl_cgen_t *g, group_t *gr)
{
    emit_t e;
    memset(&e, 0, sizeof e);
    e.g = g;
    e.gr = gr;
    e.base = g->tmp++;
    tl_cgen_line(g, "{");
    g->indent++;
    for (int i = 0; i < gr->nsp; i++) {
        const span_t *s = &gr->sp[i];
        const char *t = fuse_store_type(s->buf->dtype);
        tl_buf_t base;
        tl_buf_init(&base);
        if (s->out)
            tl_buf_printf(&base, "W%d", s->out - 1);
        else
            tl_cgen_ub_base(g, &base, s->buf);
        tl_cgen_line(g, "%s *const p%d_%d = (%s *)(%s) + %s;", t, e.base, i, t, tl_buf_cstr(&base),
                     s->off);
        tl_buf_free(&base);
        if (g->first_pass && (s->written || s->red)) tl_cgen_view_write(g, s->buf);
        e.val[i] = -1;
    }
    char names[MAX_OPS][2][48];
    const char *sc[MAX_OPS][2];
    for (int k = 0; k < gr->nop; k++)
        for (int j = 0; j < gr->op[k].nsc; j++) {
            snprintf(names[k][j], sizeof names[k][j], "s%d_%d_%d", e.base, k, j);
            tl_cgen_line(g, "const float %s = %s;", names[k][j], gr->op[k].sc[j]);
            sc[k][j] = names[k][j];
        }
    int64_t cols = gr->cols ? gr->cols : gr->n;
    // the vector form, when the target has AVX-512: rows of 16 or more, or
    // short rows packed 16 / cols to a vector
    bool vec = cols >= 16 || (gr->cols && 16 % gr->cols == 0 && gr->n >= 16);
    if (vec) {
        g->uses_f16 = true;
        tl_cgen_line(g, "#if TLC_V512");
        fuse_emit_vector(&e, (const char *const(*)[2])sc, cols);
        tl_cgen_line(g, "#else");
        for (int i = 0; i < gr->nsp; i++) e.val[i] = -1;
    }
    if (gr->cols) {
        tl_cgen_line(g, "for (int64_t r = 0; r < INT64_C(%" PRId64 "); r++) {", gr->n / gr->cols);
        g->indent++;
        for (int i = 0; i < gr->nsp; i++)
            if (gr->sp[i].vec)
                tl_cgen_line(g, "const float w%d_%d = p%d_%d[r];", e.base, i, e.base, i);
        fuse_red_begin(&e);
    }
    bool f16 = false;
    for (int k = 0; k < gr->nop; k++) f16 |= narrows(gr, &gr->op[k]) || widens(gr, &gr->op[k]);
    if (f16) {
        // the segments of a chunk hand their values over in memory
        for (int i = 0; i < gr->nsp; i++) gr->sp[i].dead = false;
        g->uses_f16 = true;
        emit_chunked(&e, (const char *const(*)[2])sc, cols);
    } else {
        tl_cgen_line(
            g, "_Pragma(\"GCC ivdep\") for (int64_t c = 0; c < INT64_C(%" PRId64 "); c++) {", cols);
        g->indent++;
        if (gr->cols)
            tl_cgen_line(g, "const int64_t j = r * INT64_C(%" PRId64 ") + c;", cols);
        else
            tl_cgen_line(g, "const int64_t j = c;");
        for (int k = 0; k < gr->nop; k++) fuse_emit_op(&e, &gr->op[k], sc[k]);
        g->indent--;
        tl_cgen_line(g, "}");
    }
    if (gr->cols) {
        fuse_red_end(&e, false);
        g->indent--;
        tl_cgen_line(g, "}");
    }
    if (vec) tl_cgen_line(g, "#endif");
    g->indent--;
    tl_cgen_line(g, "}");
}
