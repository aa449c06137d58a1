// Scalar expressions to C with the reference executor's semantics
// (exec_expr.c): integers in 64 bits wrapped to their dtype after every op,
// `/` and `%` truncating, division by zero and out-of-range shifts reported
// at run time; float32 in float, 16-bit floats computed in float and rounded
// after every op, float64 in double; float -> int casts truncate and
// saturate (NaN -> 0); element loads bounds-checked unless the index ranges
// are known to fit. A check that fails records the error in the function's
// tlc_err_t `E` and yields a harmless value; the statement's code returns
// the error right after it (cgen.c).
#include "cpu/cgen.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *tl_cgen_vtype(tl_dtype_t t)
{
    if (t == TL_F64) return "double";
    if (tl_dtype_is_float(t)) return "float";
    return t == TL_U64 ? "uint64_t" : "int64_t";
}

int tl_cgen_site(tl_cgen_t *g, tl_cgen_site_kind_t kind, const tl_stmt_t *s, tl_loc_t loc,
                 const char *fmt, ...)
{
    if (g->nsites == g->capsites) {
        int cap = g->capsites ? g->capsites * 2 : 64;
        tl_cgen_site_t *n = realloc(g->sites, sizeof *n * (size_t)cap);
        if (!n) {
            g->st = TL_ERR_NOMEM;
            return 0;
        }
        g->sites = n;
        g->capsites = cap;
    }
    if (g->nsites == 0) g->nsites = 1; // site 0 means "no error"
    tl_cgen_site_t *site = &g->sites[g->nsites];
    memset(site, 0, sizeof *site);
    site->kind = kind;
    site->stmt = s;
    site->loc = loc.line > 0 || !s ? loc : s->loc;
    site->lane = g->lane;
    if (fmt) {
        tl_buf_t m;
        tl_buf_init(&m);
        va_list ap;
        va_start(ap, fmt);
        tl_buf_vprintf(&m, fmt, ap);
        va_end(ap);
        site->msg = tl_buf_take(&m);
    }
    if (kind == TL_CGEN_SITE_ERR) g->checked = true;
    return g->nsites++;
}

// --- constants and conversions -----------------------------------------------------------

static void put_num(tl_buf_t *b, tl_num_t v)
{
    if (tl_dtype_is_float(v.t)) {
        const char *sfx = v.t == TL_F64 ? "" : "f";
        if (isnan(v.f))
            tl_buf_printf(b, "(%s__builtin_nan%s(\"\"))", signbit(v.f) ? "-" : "", sfx);
        else if (isinf(v.f))
            tl_buf_printf(b, "(%s__builtin_inf%s())", v.f < 0 ? "-" : "", sfx);
        else
            tl_buf_printf(b, "(%a%s)", v.f, sfx);
    } else if (v.t == TL_U64) {
        tl_buf_printf(b, "UINT64_C(%" PRIu64 ")", (uint64_t)v.i);
    } else if (v.i == INT64_MIN) {
        tl_buf_puts(b, "INT64_MIN");
    } else {
        tl_buf_printf(b, "INT64_C(%" PRId64 ")", v.i);
    }
}

static void wrap(tl_buf_t *b, tl_dtype_t t, const char *text)
{
    switch (t) {
    case TL_BOOL: tl_buf_printf(b, "((int64_t)((%s) != 0))", text); break;
    case TL_I8:
    case TL_I16:
    case TL_I32: {
        int bits = tl_dtype_bits(t);
        tl_buf_printf(b, "((int64_t)(int%d_t)(uint%d_t)(%s))", bits, bits, text);
        break;
    }
    case TL_U8:
    case TL_U16:
    case TL_U32: tl_buf_printf(b, "((int64_t)(uint%d_t)(%s))", tl_dtype_bits(t), text); break;
    case TL_U64: tl_buf_printf(b, "((uint64_t)(%s))", text); break;
    default: tl_buf_printf(b, "((int64_t)(%s))", text); break;
    }
}

// Rounds a float-computed value `text` to float dtype t (f32 and f64: as is).
static void narrow(tl_buf_t *b, tl_dtype_t t, const char *text)
{
    if (t == TL_BF16)
        tl_buf_printf(b, "tlc_rn_bf16(%s)", text);
    else if (t == TL_F16)
        tl_buf_printf(b, "tlc_rn_f16(%s)", text);
    else if (t == TL_F8E4M3 || t == TL_F8E5M2)
        tl_buf_printf(b, "((float)rt->round(%d, (double)(%s), 0, 0))", (int)t, text);
    else
        tl_buf_puts(b, text);
}

void tl_cgen_cast(tl_cgen_t *g, tl_buf_t *b, tl_dtype_t to, tl_dtype_t from, const char *text)
{
    (void)g;
    if (to == from) {
        tl_buf_puts(b, text);
        return;
    }
    bool ff = tl_dtype_is_float(from);
    if (tl_dtype_is_float(to)) {
        if (to == TL_F64) {
            tl_buf_printf(b, "((double)(%s))", text);
        } else if (ff && from != TL_F64) {
            narrow(b, to, text); // from a float-held value: one rounding
        } else if (to == TL_F32) {
            tl_buf_printf(b, "((float)(%s))", text);
        } else if (ff) {
            tl_buf_printf(b, "((float)rt->round(%d, (double)(%s), 0, 0))", (int)to, text);
        } else {
            tl_buf_printf(b, "((float)rt->round(%d, 0, (int64_t)(%s), %d))", (int)to, text,
                          from == TL_U64 ? 2 : 1);
        }
        return;
    }
    if (to == TL_BOOL) {
        tl_buf_printf(b, "((int64_t)((%s) != 0))", text);
    } else if (ff) {
        if (to == TL_U64) {
            tl_buf_printf(b, "tlc_f2u64((double)(%s))", text);
        } else {
            tl_num_t lo = {TL_I64, (int64_t)tl_dtype_min(to), 0};
            int64_t hi = to == TL_I64 ? INT64_MAX : (int64_t)tl_dtype_max(to);
            tl_buf_printf(b, "tlc_f2s((double)(%s), ", text);
            put_num(b, lo);
            tl_buf_printf(b, ", INT64_C(%" PRId64 "))", hi);
        }
    } else {
        wrap(b, to, text);
    }
}

// --- ranges ------------------------------------------------------------------------------

static tl_cgen_range_t unknown(void)
{
    tl_cgen_range_t r = {false, 0, 0};
    return r;
}

static tl_cgen_range_t known(int64_t lo, int64_t hi)
{
    tl_cgen_range_t r = {true, lo, hi};
    return r;
}

static bool small(int64_t v)
{
    return v > -(INT64_C(1) << 40) && v < (INT64_C(1) << 40);
}

tl_cgen_range_t tl_cgen_range(const tl_cgen_t *g, const tl_expr_t *e)
{
    if (!e || tl_dtype_is_float(e->dtype) || e->dtype == TL_U64) return unknown();
    tl_cgen_range_t r = unknown(), a, b;
    switch (e->kind) {
    case TL_EX_INT: r = known(e->i, e->i); break;
    case TL_EX_VAR:
        if (e->var->kind == TL_VAR_SUBBLOCK) r = known(0, 1);
        if (e->var->kind == TL_VAR_LOOP || e->var->kind == TL_VAR_LET) r = g->ranges[e->var->id];
        break;
    case TL_EX_LOAD:
        if (tl_dtype_size(e->dtype) <= 2)
            r = known((int64_t)tl_dtype_min(e->dtype), (int64_t)tl_dtype_max(e->dtype));
        break;
    case TL_EX_CAST:
        if (!tl_dtype_is_float(e->arg->dtype)) r = tl_cgen_range(g, e->arg);
        break;
    case TL_EX_BIN:
        a = tl_cgen_range(g, e->op.a);
        b = tl_cgen_range(g, e->op.b);
        if (!a.known || !b.known || !small(a.lo) || !small(a.hi) || !small(b.lo) || !small(b.hi))
            break;
        switch (e->op.op) {
        case TL_BIN_ADD: r = known(a.lo + b.lo, a.hi + b.hi); break;
        case TL_BIN_SUB: r = known(a.lo - b.hi, a.hi - b.lo); break;
        case TL_BIN_MUL: {
            int64_t p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
            r = known(p[0], p[0]);
            for (int i = 1; i < 4; i++) r.lo = TL_MIN(r.lo, p[i]), r.hi = TL_MAX(r.hi, p[i]);
            break;
        }
        case TL_BIN_DIV:
        case TL_BIN_FLOORDIV:
            if (b.lo > 0 && a.lo >= 0) r = known(a.lo / b.hi, a.hi / b.lo);
            break;
        case TL_BIN_MOD:
        case TL_BIN_FLOORMOD:
            if (b.lo > 0 && a.lo >= 0) r = known(0, TL_MIN(a.hi, b.hi - 1));
            break;
        case TL_BIN_MIN: r = known(TL_MIN(a.lo, b.lo), TL_MIN(a.hi, b.hi)); break;
        case TL_BIN_MAX: r = known(TL_MAX(a.lo, b.lo), TL_MAX(a.hi, b.hi)); break;
        default: break;
        }
        break;
    default: break;
    }
    if (r.known && e->dtype != TL_BOOL &&
        (r.lo < tl_dtype_min(e->dtype) || r.hi > tl_dtype_max(e->dtype)))
        return unknown(); // it may wrap
    return r;
}

// --- variables and elements -----------------------------------------------------------------

bool tl_cgen_const(const tl_cgen_t *g, const tl_expr_t *e, int64_t *v)
{
    tl_cgen_range_t r = tl_cgen_range(g, e);
    if (!r.known || r.lo != r.hi) return false;
    *v = r.lo;
    return true;
}

bool tl_cgen_var(tl_cgen_t *g, tl_buf_t *b, const tl_var_t *v)
{
    switch (v->kind) {
    case TL_VAR_DIM:
    case TL_VAR_PARAM: tl_buf_printf(b, "g%d", v->id); return true;
    case TL_VAR_BLOCK: tl_buf_puts(b, "vcid"); return true;
    case TL_VAR_SUBBLOCK: tl_buf_printf(b, "vvid%d", g->lane); return true;
    default:
        if (g->first_pass || (g->defs[v->id] >> g->lane & 1)) {
            tl_buf_printf(b, "v%d_%d", v->id, g->lane);
            return true;
        }
        return false;
    }
}

static void fail_value(tl_buf_t *b, tl_dtype_t t, int site)
{
    tl_buf_printf(b, "((%s)tlc_err(&E, %d, 0, 0, 0, 0, 0))", tl_cgen_vtype(t), site);
}

// The memory of buffer `buf` on the current lane as a byte pointer, or NULL
// (with an error site) when the lane cannot access it element-wise.
static bool base_of(tl_cgen_t *g, tl_buf_t *b, const tl_buffer_t *buf)
{
    if (buf->scope == TL_SCOPE_GM) {
        tl_buf_printf(b, "G%d", buf->id);
        return true;
    }
    // lane 0 is the cube agent in both modes; scalar access needs the owner
    if ((tl_scope_side(buf->scope) == TL_SIDE_CUBE) != (g->lane == 0)) return false;
    tl_buf_printf(b, "(M%d_%d + %" PRId64 ")", g->lane, (int)buf->scope, g->addr[buf->id]);
    return true;
}

// flat = (flat) * size + term (flat = term for the first dimension).
static void flat_step(tl_buf_t *flat, int i, const char *size, const char *term)
{
    if (!i) {
        tl_buf_printf(flat, "(%s)", term);
        return;
    }
    char *prev = tl_buf_take(flat);
    tl_buf_printf(flat, "(%s * %s + %s)", prev ? prev : "0", size, term);
    free(prev);
}

void tl_cgen_elem(tl_cgen_t *g, tl_buf_t *b, const tl_buffer_t *buf, int n, tl_expr_t *const *idx,
                  tl_loc_t loc)
{
    const char *ctype = tl_dtype_ctype(buf->dtype);
    tl_buf_t base;
    tl_buf_init(&base);
    bool var = buf->scope == TL_SCOPE_VAR;
    int ndim = buf->ndim;
    int64_t numel = tl_buffer_numel(buf);
    if (var) {
        tl_buf_printf(&base, "r%d_%d", buf->id, g->lane);
        if (n != ndim) ndim = 1;
    } else if (buf->scope == TL_SCOPE_L0A || buf->scope == TL_SCOPE_L0B ||
               buf->scope == TL_SCOPE_L0C) {
        int s = tl_cgen_site(g, TL_CGEN_SITE_ERR, NULL, loc,
                             "scalar access to %s buffer '%s': only GM, UB, L1 and alloc_var "
                             "buffers can be read or written element by element",
                             tl_scope_name(buf->scope), buf->name);
        tl_buf_printf(b, "((%s *)&D + tlc_err(&E, %d, 0, 0, 0, 0, 0))", ctype, s);
        tl_buf_free(&base);
        return;
    } else if (!base_of(g, &base, buf)) {
        int s = tl_cgen_site(g, TL_CGEN_SITE_ERR, NULL, loc, "the %s cannot access %s buffer '%s'",
                             g->dev    ? tl_side_agent_name((tl_agent_t)g->lane)
                             : g->lane ? "AIV"
                                       : "AIC",
                             tl_scope_name(buf->scope), buf->name);
        tl_buf_printf(b, "((%s *)&D + tlc_err(&E, %d, 0, 0, 0, 0, 0))", ctype, s);
        tl_buf_free(&base);
        return;
    }
    // An element read or written here uses the buffer's scratchpad bytes, so the copies into
    // it must run: it cannot be one of the UB buffers read in place from GM (cgen_copy.c).
    if (g->first_pass && buf->scope == TL_SCOPE_UB) tl_cgen_view_write(g, buf);
    if (n != ndim || n > 4) {
        int s = tl_cgen_site(g, TL_CGEN_SITE_ERR, NULL, loc,
                             "'%s' has %d dimensions but is indexed with %d", buf->name, ndim, n);
        tl_buf_printf(b, "((%s *)&D + tlc_err(&E, %d, 0, 0, 0, 0, 0))", ctype, s);
        tl_buf_free(&base);
        return;
    }
    // dimension sizes as C text
    char dims[4][48];
    bool proven = buf->scope != TL_SCOPE_GM;
    for (int i = 0; i < n; i++) {
        int64_t size = var && ndim != buf->ndim ? numel : buf->shape[i];
        if (buf->scope == TL_SCOPE_GM)
            snprintf(dims[i], sizeof dims[i], "G%d_%d", buf->id, i);
        else
            snprintf(dims[i], sizeof dims[i], "INT64_C(%" PRId64 ")", size);
        tl_cgen_range_t r = tl_cgen_range(g, idx[i]);
        if (!r.known || r.lo < 0 || r.hi >= size) proven = false;
    }
    tl_buf_t flat;
    tl_buf_init(&flat);
    if (proven) {
        for (int i = 0; i < n; i++) {
            tl_buf_t term;
            tl_buf_init(&term);
            tl_cgen_index(g, &term, idx[i]);
            flat_step(&flat, i, dims[i], tl_buf_cstr(&term));
            tl_buf_free(&term);
        }
        tl_buf_printf(b, "((%s *)%s + %s)", ctype, tl_buf_cstr(&base),
                      n ? tl_buf_cstr(&flat) : "0");
    } else {
        tl_buf_t shape;
        tl_buf_init(&shape);
        for (int i = 0; i < buf->ndim; i++) {
            if (i) tl_buf_puts(&shape, ", ");
            if (buf->gm_shape[i])
                tl_ir_print_expr(&shape, buf->gm_shape[i]);
            else
                tl_buf_printf(&shape, "%" PRId64, buf->shape[i]);
        }
        tl_buf_t fmt;
        tl_buf_init(&fmt);
        for (int i = 0; i < n; i++) tl_buf_printf(&fmt, "%s%%lld", i ? ", " : "");
        int s = tl_cgen_site(g, TL_CGEN_SITE_ERR, NULL, loc,
                             "index [%s] is out of bounds for '%s' of shape [%s] (%s)",
                             tl_buf_cstr(&fmt), buf->name, tl_buf_cstr(&shape),
                             tl_scope_name(buf->scope));
        tl_buf_free(&fmt);
        tl_buf_free(&shape);
        int t0 = g->tmp;
        g->tmp += n;
        tl_buf_puts(b, "({ ");
        for (int i = 0; i < n; i++) {
            tl_buf_printf(b, "int64_t t%d = ", t0 + i);
            tl_cgen_index(g, b, idx[i]);
            tl_buf_puts(b, "; ");
        }
        tl_buf_printf(b, "%s *p%d; if (", ctype, t0);
        for (int i = 0; i < n; i++)
            tl_buf_printf(b, "%s(uint64_t)t%d >= (uint64_t)%s", i ? " || " : "", t0 + i, dims[i]);
        if (!n) tl_buf_puts(b, "0");
        tl_buf_printf(b, ") { tlc_err(&E, %d, %d", s, n);
        for (int i = 0; i < 4; i++)
            if (i < n)
                tl_buf_printf(b, ", t%d", t0 + i);
            else
                tl_buf_puts(b, ", 0");
        tl_buf_printf(b, "); p%d = (%s *)&D; } else p%d = (%s *)%s + ", t0, ctype, t0, ctype,
                      tl_buf_cstr(&base));
        for (int i = 0; i < n; i++) {
            char term[32];
            snprintf(term, sizeof term, "t%d", t0 + i);
            flat_step(&flat, i, dims[i], term);
        }
        tl_buf_printf(b, "%s; p%d; })", n ? tl_buf_cstr(&flat) : "0", t0);
    }
    tl_buf_free(&flat);
    tl_buf_free(&base);
}

void tl_cgen_load(tl_buf_t *b, tl_dtype_t t, const char *addr)
{
    switch (t) {
    case TL_F32:
    case TL_F64:
    case TL_U64: tl_buf_printf(b, "(*%s)", addr); break;
    case TL_BF16: tl_buf_printf(b, "tlc_bf16_f32(*%s)", addr); break;
    case TL_F16: tl_buf_printf(b, "tlc_f16_f32(*%s)", addr); break;
    case TL_F8E5M2: tl_buf_printf(b, "tlc_f16_f32((uint16_t)(*%s << 8))", addr); break;
    case TL_F8E4M3: tl_buf_printf(b, "tlc_e4m3_f32(*%s)", addr); break;
    case TL_BOOL: tl_buf_printf(b, "((int64_t)(*%s != 0))", addr); break;
    default: tl_buf_printf(b, "((int64_t)*%s)", addr); break;
    }
}

void tl_cgen_store(tl_buf_t *b, tl_dtype_t t, const char *addr, const char *value)
{
    switch (t) {
    case TL_BF16: tl_buf_printf(b, "*%s = tlc_f32_bf16(%s);", addr, value); break;
    case TL_F16: tl_buf_printf(b, "*%s = tlc_f32_f16(%s);", addr, value); break;
    case TL_F8E4M3: tl_buf_printf(b, "*%s = tlc_e4m3_bits(%s);", addr, value); break;
    case TL_F8E5M2: tl_buf_printf(b, "*%s = (uint8_t)(tlc_f32_f16(%s) >> 8);", addr, value); break;
    default: tl_buf_printf(b, "*%s = (%s)(%s);", addr, tl_dtype_ctype(t), value); break;
    }
}

// --- expressions -----------------------------------------------------------------------------

char *tl_cgen_text(tl_cgen_t *g, const tl_expr_t *e, tl_dtype_t as)
{
    tl_buf_t a, c;
    tl_buf_init(&a);
    tl_buf_init(&c);
    tl_cgen_expr(g, &a, e);
    tl_cgen_cast(g, &c, as, e->dtype, tl_buf_cstr(&a));
    tl_buf_free(&a);
    return tl_buf_take(&c);
}

void tl_cgen_index(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e)
{
    if (tl_dtype_is_float(e->dtype)) {
        int s = tl_cgen_site(g, TL_CGEN_SITE_ERR, NULL, e->loc,
                             "expected an integer, got a %s value", tl_dtype_name(e->dtype));
        tl_buf_printf(b, "tlc_err(&E, %d, 0, 0, 0, 0, 0)", s);
        return;
    }
    tl_buf_puts(b, "((int64_t)");
    tl_cgen_expr(g, b, e);
    tl_buf_puts(b, ")");
}

static void truth(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e)
{
    tl_buf_puts(b, "((");
    tl_cgen_expr(g, b, e);
    tl_buf_puts(b, ") != 0)");
}

static const char *cmp_op(int op)
{
    switch (op) {
    case TL_BIN_EQ: return "==";
    case TL_BIN_NE: return "!=";
    case TL_BIN_LT: return "<";
    case TL_BIN_LE: return "<=";
    case TL_BIN_GT: return ">";
    default: return ">=";
    }
}

static int undefined_op(tl_cgen_t *g, const tl_expr_t *e, tl_dtype_t t, bool bin)
{
    return tl_cgen_site(g, TL_CGEN_SITE_ERR, NULL, e->loc, "operator '%s' is not defined on %s",
                        bin ? tl_binop_text((tl_binop_t)e->op.op)
                            : tl_unop_text((tl_unop_t)e->op.op),
                        tl_dtype_name(t));
}

static void float_bin(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e, tl_dtype_t t, const char *x,
                      const char *y)
{
    const char *vt = tl_cgen_vtype(t);
    bool dbl = t == TL_F64;
    const char *fl = dbl ? "floor" : "floorf";
    tl_buf_t r;
    tl_buf_init(&r);
    int n = g->tmp++;
    tl_buf_printf(&r, "({ %s x%d = %s, y%d = %s; ", vt, n, x, n, y);
    switch (e->op.op) {
    case TL_BIN_ADD: tl_buf_printf(&r, "x%d + y%d; })", n, n); break;
    case TL_BIN_SUB: tl_buf_printf(&r, "x%d - y%d; })", n, n); break;
    case TL_BIN_MUL: tl_buf_printf(&r, "x%d * y%d; })", n, n); break;
    case TL_BIN_DIV: tl_buf_printf(&r, "x%d / y%d; })", n, n); break;
    case TL_BIN_MOD: tl_buf_printf(&r, "%s(x%d, y%d); })", dbl ? "fmod" : "fmodf", n, n); break;
    case TL_BIN_FLOORDIV: tl_buf_printf(&r, "%s(x%d / y%d); })", fl, n, n); break;
    case TL_BIN_FLOORMOD:
        tl_buf_printf(&r, "%s q%d = %s(x%d / y%d) * y%d; x%d - q%d; })", vt, n, fl, n, n, n, n, n);
        break;
    case TL_BIN_MIN: tl_buf_printf(&r, "x%d < y%d ? x%d : y%d; })", n, n, n, n); break;
    case TL_BIN_MAX: tl_buf_printf(&r, "x%d > y%d ? x%d : y%d; })", n, n, n, n); break;
    case TL_BIN_POW: tl_buf_printf(&r, "%s(x%d, y%d); })", dbl ? "pow" : "powf", n, n); break;
    default:
        tl_buf_clear(&r);
        fail_value(&r, t, undefined_op(g, e, t, true));
        tl_buf_puts(b, tl_buf_cstr(&r));
        tl_buf_free(&r);
        return;
    }
    narrow(b, t, tl_buf_cstr(&r));
    tl_buf_free(&r);
}

static void int_bin(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e, tl_dtype_t t, const char *x,
                    const char *y)
{
    bool u = t == TL_U64;
    const char *vt = tl_cgen_vtype(t);
    int n = g->tmp++, op = e->op.op;
    tl_buf_t r;
    tl_buf_init(&r);
    tl_buf_printf(&r, "({ %s x%d = %s, y%d = %s; ", vt, n, x, n, y);
    if (op == TL_BIN_DIV || op == TL_BIN_MOD || op == TL_BIN_FLOORDIV || op == TL_BIN_FLOORMOD) {
        bool div = op == TL_BIN_DIV || op == TL_BIN_FLOORDIV;
        int s = tl_cgen_site(g, TL_CGEN_SITE_ERR, NULL, e->loc, "integer %s by zero",
                             div ? "division" : "modulo");
        tl_buf_printf(&r, "y%d = (%s)tlc_nz(&E, %d, (int64_t)y%d); ", n, vt, s, n);
        if (u)
            tl_buf_printf(&r, "x%d %s y%d; })", n, div ? "/" : "%", n);
        else if (op == TL_BIN_DIV)
            tl_buf_printf(&r, "tlc_tdiv(x%d, y%d); })", n, n);
        else if (op == TL_BIN_MOD)
            tl_buf_printf(&r, "tlc_tmod(x%d, y%d); })", n, n);
        else if (op == TL_BIN_FLOORDIV)
            tl_buf_printf(&r, "tlc_fdiv(x%d, y%d); })", n, n);
        else
            tl_buf_printf(&r, "(int64_t)((uint64_t)x%d - (uint64_t)tlc_fdiv(x%d, y%d) * y%d); })",
                          n, n, n, n);
    } else if (op == TL_BIN_SHL || op == TL_BIN_SHR) {
        int s = tl_cgen_site(g, TL_CGEN_SITE_ERR, NULL, e->loc,
                             "shift count %%lld is out of range for %s", tl_dtype_name(t));
        tl_buf_printf(&r,
                      "if ((uint64_t)y%d >= %d) { tlc_err(&E, %d, 1, (int64_t)y%d, 0, 0, 0); y%d "
                      "= 0; } ",
                      n, tl_dtype_bits(t), s, n, n);
        if (op == TL_BIN_SHL)
            tl_buf_printf(&r, "(%s)((uint64_t)x%d << y%d); })", vt, n, n);
        else
            tl_buf_printf(&r, "x%d >> y%d; })", n, n);
    } else {
        static const char *ops[] = {[TL_BIN_ADD] = "+", [TL_BIN_SUB] = "-", [TL_BIN_MUL] = "*",
                                    [TL_BIN_AND] = "&", [TL_BIN_OR] = "|",  [TL_BIN_XOR] = "^"};
        switch (op) {
        case TL_BIN_ADD:
        case TL_BIN_SUB:
        case TL_BIN_MUL:
            tl_buf_printf(&r, "(%s)((uint64_t)x%d %s (uint64_t)y%d); })", vt, n, ops[op], n);
            break;
        case TL_BIN_AND:
        case TL_BIN_OR:
        case TL_BIN_XOR: tl_buf_printf(&r, "x%d %s y%d; })", n, ops[op], n); break;
        case TL_BIN_MIN: tl_buf_printf(&r, "x%d < y%d ? x%d : y%d; })", n, n, n, n); break;
        case TL_BIN_MAX: tl_buf_printf(&r, "x%d > y%d ? x%d : y%d; })", n, n, n, n); break;
        case TL_BIN_POW:
            tl_buf_printf(&r, "(%s)tlc_ipow((int64_t)x%d, (int64_t)y%d); })", vt, n, n);
            break;
        default: tl_buf_printf(&r, "0; })"); break;
        }
    }
    wrap(b, t, tl_buf_cstr(&r));
    tl_buf_free(&r);
}

static void bin(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e)
{
    int op = e->op.op;
    if (op == TL_BIN_LAND || op == TL_BIN_LOR) {
        tl_buf_puts(b, "((int64_t)(");
        truth(g, b, e->op.a);
        tl_buf_puts(b, op == TL_BIN_LAND ? " && " : " || ");
        truth(g, b, e->op.b);
        tl_buf_puts(b, "))");
        return;
    }
    bool cmp = op >= TL_BIN_EQ && op <= TL_BIN_GE;
    tl_dtype_t t = cmp ? tl_ir_promote(e->op.a, e->op.b) : e->dtype;
    char *x = tl_cgen_text(g, e->op.a, t), *y = tl_cgen_text(g, e->op.b, t);
    if (cmp)
        tl_buf_printf(b, "((int64_t)(%s %s %s))", x, cmp_op(op), y);
    else if (tl_dtype_is_float(t))
        float_bin(g, b, e, t, x, y);
    else
        int_bin(g, b, e, t, x, y);
    free(x);
    free(y);
}

static void un(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e)
{
    int op = e->op.op;
    if (op == TL_UN_NOT) {
        tl_buf_puts(b, "((int64_t)!");
        truth(g, b, e->op.a);
        tl_buf_puts(b, ")");
        return;
    }
    tl_dtype_t t = e->dtype;
    char *x = tl_cgen_text(g, e->op.a, t);
    tl_buf_t r;
    tl_buf_init(&r);
    if (tl_dtype_is_float(t)) {
        bool d = t == TL_F64;
        const char *f = d ? "" : "f";
        switch (op) {
        case TL_UN_EXP: // not libm's expf: tl_expf, as the executor and the tile ops
            if (d)
                tl_buf_printf(&r, "exp(%s)", x);
            else
                tl_buf_printf(&r, "rt->fexp(%s)", x);
            break;
        case TL_UN_LOG: tl_buf_printf(&r, "log%s(%s)", f, x); break;
        case TL_UN_SQRT: tl_buf_printf(&r, "sqrt%s(%s)", f, x); break;
        case TL_UN_RSQRT: tl_buf_printf(&r, "(1.0%s / sqrt%s(%s))", f, f, x); break;
        case TL_UN_ABS: tl_buf_printf(&r, "fabs%s(%s)", f, x); break;
        case TL_UN_SIGMOID:
            if (d)
                tl_buf_printf(&r, "(1.0 / (1.0 + exp(-(%s))))", x);
            else
                tl_buf_printf(&r, "(1.0f / (1.0f + rt->fexp(-(%s))))", x);
            break;
        case TL_UN_TANH: tl_buf_printf(&r, "tanh%s(%s)", f, x); break;
        case TL_UN_FLOOR: tl_buf_printf(&r, "floor%s(%s)", f, x); break;
        case TL_UN_CEIL: tl_buf_printf(&r, "ceil%s(%s)", f, x); break;
        case TL_UN_ROUND: tl_buf_printf(&r, "rint%s(%s)", f, x); break;
        case TL_UN_TRUNC: tl_buf_printf(&r, "trunc%s(%s)", f, x); break;
        case TL_UN_SIN: tl_buf_printf(&r, "sin%s(%s)", f, x); break;
        case TL_UN_COS: tl_buf_printf(&r, "cos%s(%s)", f, x); break;
        case TL_UN_NEG: tl_buf_printf(&r, "(-(%s))", x); break;
        default: fail_value(b, t, undefined_op(g, e, t, false)); goto done;
        }
        narrow(b, t, tl_buf_cstr(&r));
        goto done;
    }
    switch (op) {
    case TL_UN_NEG: tl_buf_printf(&r, "(0 - (uint64_t)(%s))", x); break;
    case TL_UN_BITNOT: tl_buf_printf(&r, "(~(%s))", x); break;
    case TL_UN_ABS:
        tl_buf_printf(
            &r, "({ int64_t a_ = (int64_t)(%s); a_ < 0 ? (int64_t)(0 - (uint64_t)a_) : a_; })", x);
        break;
    case TL_UN_FLOOR:
    case TL_UN_CEIL:
    case TL_UN_ROUND:
    case TL_UN_TRUNC: tl_buf_puts(&r, x); break;
    default: { // transcendental on an integer: in double, truncated
        static const char *fn[] = {[TL_UN_EXP] = "exp",
                                   [TL_UN_LOG] = "log",
                                   [TL_UN_SQRT] = "sqrt",
                                   [TL_UN_RSQRT] = "1.0 / sqrt",
                                   [TL_UN_SIGMOID] = "1.0 / (1.0 + exp(-",
                                   [TL_UN_TANH] = "tanh",
                                   [TL_UN_SIN] = "sin",
                                   [TL_UN_COS] = "cos"};
        tl_buf_t d;
        tl_buf_init(&d);
        if (op == TL_UN_SIGMOID)
            tl_buf_printf(&d, "(1.0 / (1.0 + exp(-(double)(int64_t)(%s))))", x);
        else
            tl_buf_printf(&d, "(%s((double)(int64_t)(%s)))", fn[op] ? fn[op] : "", x);
        tl_cgen_cast(g, b, t, TL_F64, tl_buf_cstr(&d));
        tl_buf_free(&d);
        goto done;
    }
    }
    wrap(b, t, tl_buf_cstr(&r));
done:
    tl_buf_free(&r);
    free(x);
}

static void to_bits(tl_buf_t *b, tl_dtype_t t, const char *x)
{
    switch (t) {
    case TL_F32: tl_buf_printf(b, "(uint64_t)tlc_bits(%s)", x); break;
    case TL_F64: tl_buf_printf(b, "tlc_dbits(%s)", x); break;
    case TL_BF16: tl_buf_printf(b, "(uint64_t)tlc_f32_bf16(%s)", x); break;
    case TL_F16: tl_buf_printf(b, "(uint64_t)tlc_f32_f16(%s)", x); break;
    case TL_F8E4M3: tl_buf_printf(b, "(uint64_t)tlc_e4m3_bits(%s)", x); break;
    case TL_F8E5M2: tl_buf_printf(b, "(uint64_t)(tlc_f32_f16(%s) >> 8)", x); break;
    default: tl_buf_printf(b, "(uint64_t)(%s)", x); break;
    }
}

static void from_bits(tl_buf_t *b, tl_dtype_t t, const char *u)
{
    switch (t) {
    case TL_F32: tl_buf_printf(b, "tlc_float((uint32_t)(%s))", u); break;
    case TL_F64: tl_buf_printf(b, "tlc_double(%s)", u); break;
    case TL_BF16: tl_buf_printf(b, "tlc_bf16_f32((uint16_t)(%s))", u); break;
    case TL_F16: tl_buf_printf(b, "tlc_f16_f32((uint16_t)(%s))", u); break;
    case TL_F8E5M2: tl_buf_printf(b, "tlc_f16_f32((uint16_t)((uint8_t)(%s) << 8))", u); break;
    case TL_F8E4M3: tl_buf_printf(b, "tlc_e4m3_f32((uint8_t)(%s))", u); break;
    default: wrap(b, t, u); break;
    }
}

static void load(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e)
{
    tl_buf_t a;
    tl_buf_init(&a);
    tl_cgen_elem(g, &a, e->load.buf, e->load.n, e->load.idx, e->loc);
    tl_cgen_load(b, e->load.buf->dtype, tl_buf_cstr(&a));
    tl_buf_free(&a);
}

void tl_cgen_expr(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e)
{
    switch (e->kind) {
    case TL_EX_INT: put_num(b, tl_num_int(e->i, e->dtype)); return;
    case TL_EX_FLOAT: {
        tl_num_t f = {TL_F64, 0, e->f};
        put_num(b, tl_num_cast(f, e->dtype));
        return;
    }
    case TL_EX_VAR:
        if (!tl_cgen_var(g, b, e->var)) {
            const char *other = g->lane == 0 ? "vector" : "cube";
            int s = tl_cgen_site(g, TL_CGEN_SITE_ERR, NULL, e->loc,
                                 "'%s' has no value on the %s: it is computed only on the %s side",
                                 e->var->name,
                                 g->dev    ? tl_side_agent_name((tl_agent_t)g->lane)
                                 : g->lane ? "AIV"
                                           : "AIC",
                                 other);
            fail_value(b, e->dtype, s);
        }
        return;
    case TL_EX_LOAD: load(g, b, e); return;
    case TL_EX_BIN: bin(g, b, e); return;
    case TL_EX_UN: un(g, b, e); return;
    case TL_EX_CAST: {
        char *x = tl_cgen_text(g, e->arg, e->arg->dtype);
        tl_cgen_cast(g, b, e->dtype, e->arg->dtype, x);
        free(x);
        return;
    }
    case TL_EX_REINTERPRET: {
        if (tl_dtype_size(e->arg->dtype) != tl_dtype_size(e->dtype)) {
            int s = tl_cgen_site(g, TL_CGEN_SITE_ERR, NULL, e->loc,
                                 "cannot reinterpret %s as %s (sizes differ)",
                                 tl_dtype_name(e->arg->dtype), tl_dtype_name(e->dtype));
            fail_value(b, e->dtype, s);
            return;
        }
        char *x = tl_cgen_text(g, e->arg, e->arg->dtype);
        tl_buf_t u;
        tl_buf_init(&u);
        to_bits(&u, e->arg->dtype, x);
        from_bits(b, e->dtype, tl_buf_cstr(&u));
        tl_buf_free(&u);
        free(x);
        return;
    }
    case TL_EX_SELECT: {
        char *x = tl_cgen_text(g, e->sel.a, e->dtype), *y = tl_cgen_text(g, e->sel.b, e->dtype);
        tl_buf_puts(b, "(");
        truth(g, b, e->sel.cond);
        tl_buf_printf(b, " ? %s : %s)", x, y);
        free(x);
        free(y);
        return;
    }
    }
}
