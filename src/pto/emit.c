// The kernel as PTO-ISA C++ (pto.h): the entry, the cube and vector
// programs, statements, syncs and scalar expressions. Tile ops are written by
// emit_copy.c, emit_vec.c and emit_cube.c.
//
// The IR is the NPU pipeline's (cv_split, cross_sync, memplan, schedule,
// intra_sync): every on-chip buffer has its planned address, every sync is in
// the IR. The body is written twice, once per core: statements of the other
// core's memory (ir/side.h, EXPERT mode: only a leaf's own memory decides) are
// left out, T.Scope keeps its side's program only, and everything else
// (loops, lets, conditions) is in both.
#include "pto/pto.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto/pto_int.h"

void pto_line(pto_emit_t *e, const char *fmt, ...)
{
    tl_buf_indent(e->out, 4 * e->indent);
    va_list ap;
    va_start(ap, fmt);
    tl_buf_vprintf(e->out, fmt, ap);
    va_end(ap);
    tl_buf_putc(e->out, '\n');
}

void pto_unsupported(pto_emit_t *e, tl_loc_t loc, const char *fmt, ...)
{
    if (e->failed) return;
    e->failed = true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tl_diag_error(e->d, loc, "%s: not lowered to PTO yet (--target pto)", msg);
}

// Any length: expressions of upstream kernels run past a kilobyte of text.
char *pto_fmt(pto_emit_t *e, const char *fmt, ...)
{
    tl_buf_t b;
    tl_buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    tl_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *s = tl_arena_strdup(e->k->arena, tl_buf_cstr(&b));
    tl_buf_free(&b);
    return s;
}

const char *pto_ctype(tl_dtype_t t)
{
    switch (t) {
    case TL_F32: return "float";
    case TL_F16: return "half";
    case TL_BF16: return "TILEC_BF16";
    case TL_I8: return "int8_t";
    case TL_U8: return "uint8_t";
    case TL_I16: return "int16_t";
    case TL_U16: return "uint16_t";
    case TL_I32: return "int32_t";
    case TL_U32: return "uint32_t";
    case TL_I64: return "int64_t";
    case TL_U64: return "uint64_t";
    case TL_BOOL: return "bool";
    case TL_F64: return "double";
    default: return NULL;
    }
}

// --- expressions ------------------------------------------------------------------------------

static void float_literal(tl_buf_t *b, double v, tl_dtype_t t)
{
    if (isnan(v)) {
        tl_buf_puts(b, "NAN");
    } else if (isinf(v)) {
        tl_buf_puts(b, v < 0 ? "(-INFINITY)" : "INFINITY");
    } else if (t == TL_F64) {
        tl_buf_printf(b, "%a", v);
    } else {
        char s[64];
        snprintf(s, sizeof s, "%.9g", (float)v);
        if ((float)strtod(s, NULL) != (float)v)
            snprintf(s, sizeof s, "%a", (double)(float)v);
        else if (!strpbrk(s, ".en"))
            strcat(s, ".0");
        tl_buf_printf(b, "%sf", s);
    }
}

// Linear element index of a load or store into buffer buf.
static void linear_index(pto_emit_t *e, tl_buf_t *b, const tl_buffer_t *buf, int n,
                         tl_expr_t *const *idx)
{
    tl_buf_putc(b, '(');
    for (int i = 0; i < n; i++) {
        if (i) tl_buf_puts(b, " + ");
        tl_buf_putc(b, '(');
        pto_expr(e, b, idx[i]);
        tl_buf_puts(b, ")");
        for (int j = i + 1; j < n; j++) {
            if (buf->scope == TL_SCOPE_GM) {
                tl_buf_puts(b, " * (");
                pto_expr(e, b, buf->gm_shape[j]);
                tl_buf_putc(b, ')');
            } else {
                tl_buf_printf(b, " * %" PRId64, buf->shape[j]);
            }
        }
    }
    if (!n) tl_buf_putc(b, '0');
    tl_buf_putc(b, ')');
}

// The element reference buf[idx] as an lvalue.
static void element(pto_emit_t *e, tl_buf_t *b, const tl_buffer_t *buf, int n,
                    tl_expr_t *const *idx, tl_loc_t loc)
{
    const char *ct = pto_ctype(buf->dtype);
    if (!ct) {
        pto_unsupported(e, loc, "an element of '%s' (%s)", buf->name, tl_dtype_name(buf->dtype));
        return;
    }
    switch (buf->scope) {
    case TL_SCOPE_GM: tl_buf_printf(b, "%s[", buf->name); break;
    case TL_SCOPE_VAR: tl_buf_printf(b, "%s[", buf->name); break;
    case TL_SCOPE_UB: tl_buf_printf(b, "TILEC_UB(%s, %" PRId64 ")[", ct, buf->addr); break;
    default:
        pto_unsupported(e, loc, "a scalar access to %s buffer '%s'", tl_scope_name(buf->scope),
                        buf->name);
        return;
    }
    linear_index(e, b, buf, n, idx);
    tl_buf_putc(b, ']');
}

// Operand x of an operation computed in C++ type ct (float types: "float"/"double").
static void operand(pto_emit_t *e, tl_buf_t *b, const tl_expr_t *x, bool f, const char *ct)
{
    bool conv = f ? !(x->dtype == TL_F32 || (x->dtype == TL_F64 && !strcmp(ct, "double")))
                  : tl_dtype_is_float(x->dtype);
    if (conv) tl_buf_printf(b, "(%s)(", ct);
    pto_expr(e, b, x);
    if (conv) tl_buf_putc(b, ')');
}

// a op b in dtype t: integers in int64_t (every integer variable of the
// emitted code is one), float32 in float, 16-bit floats in float rounded once.
static void binary(pto_emit_t *e, tl_buf_t *b, const tl_expr_t *x)
{
    tl_binop_t op = (tl_binop_t)x->op.op;
    tl_dtype_t t = x->dtype;
    bool cmp = op >= TL_BIN_EQ && op <= TL_BIN_GE;
    bool logic = op == TL_BIN_LAND || op == TL_BIN_LOR;
    tl_dtype_t ot = cmp ? tl_ir_promote(x->op.a, x->op.b) : t;
    bool f = tl_dtype_is_float(ot);
    const char *ct = f ? (ot == TL_F64 ? "double" : "float") : "int64_t";
    bool narrow = f && ot != TL_F32 && ot != TL_F64 && !cmp;
    if (narrow) tl_buf_printf(b, "(%s)(", pto_ctype(ot));
    const char *fn = NULL;
    switch (op) {
    case TL_BIN_FLOORDIV: fn = "tilec_floordiv"; break;
    case TL_BIN_FLOORMOD: fn = "tilec_floormod"; break;
    case TL_BIN_MIN: fn = "tilec_min"; break;
    case TL_BIN_MAX: fn = "tilec_max"; break;
    case TL_BIN_POW: fn = f ? (ot == TL_F64 ? "pow" : "powf") : "tilec_ipow"; break;
    default: break;
    }
    if (logic) {
        tl_buf_puts(b, "(");
        pto_expr(e, b, x->op.a);
        tl_buf_printf(b, " %s ", op == TL_BIN_LAND ? "&&" : "||");
        pto_expr(e, b, x->op.b);
        tl_buf_puts(b, ")");
    } else if (fn) {
        if (op == TL_BIN_POW)
            tl_buf_printf(b, "%s(", fn);
        else
            tl_buf_printf(b, "%s<%s>(", fn, ct);
        operand(e, b, x->op.a, f, ct);
        tl_buf_puts(b, ", ");
        operand(e, b, x->op.b, f, ct);
        tl_buf_puts(b, ")");
    } else {
        tl_buf_puts(b, "(");
        operand(e, b, x->op.a, f, ct);
        tl_buf_printf(b, " %s ", tl_binop_text(op));
        operand(e, b, x->op.b, f, ct);
        tl_buf_puts(b, ")");
    }
    if (narrow) tl_buf_putc(b, ')');
}

static void unary(pto_emit_t *e, tl_buf_t *b, const tl_expr_t *x)
{
    tl_unop_t op = (tl_unop_t)x->op.op;
    tl_dtype_t t = x->dtype;
    bool f = tl_dtype_is_float(t);
    if (!f || op == TL_UN_NEG) {
        const char *text = op == TL_UN_NEG      ? "-"
                           : op == TL_UN_NOT    ? "!"
                           : op == TL_UN_BITNOT ? "~"
                                                : NULL;
        if (!text && op == TL_UN_ABS) text = "tilec_iabs";
        if (!text) {
            pto_unsupported(e, x->loc, "%s of a %s value", tl_unop_text(op), tl_dtype_name(t));
            return;
        }
        tl_buf_printf(b, "(%s)(%s(", pto_ctype(t), text);
        pto_expr(e, b, x->op.a);
        tl_buf_puts(b, "))");
        return;
    }
    static const char *const fns[TL_UN_COUNT] = {
        [TL_UN_EXP] = "tilec_expf", [TL_UN_LOG] = "logf",
        [TL_UN_SQRT] = "sqrtf",     [TL_UN_RSQRT] = "tilec_rsqrtf",
        [TL_UN_ABS] = "fabsf",      [TL_UN_SIGMOID] = "tilec_sigmoidf",
        [TL_UN_TANH] = "tanhf",     [TL_UN_FLOOR] = "floorf",
        [TL_UN_CEIL] = "ceilf",     [TL_UN_ROUND] = "rintf",
        [TL_UN_TRUNC] = "truncf",   [TL_UN_SIN] = "sinf",
        [TL_UN_COS] = "cosf",
    };
    if (t == TL_F64 || !fns[op]) {
        pto_unsupported(e, x->loc, "%s of a %s value", tl_unop_text(op), tl_dtype_name(t));
        return;
    }
    tl_buf_printf(b, "(%s)%s((float)(", pto_ctype(t), fns[op]);
    pto_expr(e, b, x->op.a);
    tl_buf_puts(b, "))");
}

void pto_expr(pto_emit_t *e, tl_buf_t *b, const tl_expr_t *x)
{
    switch (x->kind) {
    case TL_EX_INT:
        if (x->dtype == TL_BOOL)
            tl_buf_puts(b, x->i ? "true" : "false");
        else if (x->i > INT32_MAX || x->i < INT32_MIN)
            tl_buf_printf(b, "INT64_C(%" PRId64 ")", x->i);
        else
            tl_buf_printf(b, x->i < 0 ? "(%" PRId64 ")" : "%" PRId64, x->i);
        break;
    case TL_EX_FLOAT:
        if (x->dtype == TL_F32 || x->dtype == TL_F64) {
            float_literal(b, x->f, x->dtype);
        } else {
            tl_buf_printf(b, "(%s)(", pto_ctype(x->dtype) ? pto_ctype(x->dtype) : "float");
            float_literal(b, x->f, TL_F32);
            tl_buf_putc(b, ')');
        }
        break;
    case TL_EX_VAR: tl_buf_puts(b, x->var->name); break;
    case TL_EX_LOAD: element(e, b, x->load.buf, x->load.n, x->load.idx, x->loc); break;
    case TL_EX_BIN: binary(e, b, x); break;
    case TL_EX_UN: unary(e, b, x); break;
    case TL_EX_CAST: {
        const char *ct = pto_ctype(x->dtype);
        if (!ct) {
            pto_unsupported(e, x->loc, "a cast to %s", tl_dtype_name(x->dtype));
            return;
        }
        if (tl_dtype_is_int(x->dtype) && tl_dtype_is_float(x->arg->dtype))
            tl_buf_printf(b, "tilec_f2i<%s>((double)(", ct);
        else if (x->dtype == TL_BOOL)
            tl_buf_puts(b, "(bool)((");
        else
            tl_buf_printf(b, "(%s)((%s)(", ct,
                          tl_dtype_is_float(x->arg->dtype) ? "float" : "double");
        pto_expr(e, b, x->arg);
        tl_buf_puts(b, "))");
        break;
    }
    case TL_EX_REINTERPRET: {
        const char *ct = pto_ctype(x->dtype), *from = pto_ctype(x->arg->dtype);
        if (!ct || !from) {
            pto_unsupported(e, x->loc, "a reinterpretation as %s", tl_dtype_name(x->dtype));
            return;
        }
        tl_buf_printf(b, "tilec_bits<%s, %s>(", ct, from);
        pto_expr(e, b, x->arg);
        tl_buf_putc(b, ')');
        break;
    }
    case TL_EX_SELECT:
        tl_buf_puts(b, "((bool)(");
        pto_expr(e, b, x->sel.cond);
        tl_buf_printf(b, ") ? (%s)(", pto_ctype(x->dtype));
        pto_expr(e, b, x->sel.a);
        tl_buf_printf(b, ") : (%s)(", pto_ctype(x->dtype));
        pto_expr(e, b, x->sel.b);
        tl_buf_puts(b, "))");
        break;
    }
}

const char *pto_expr_str(pto_emit_t *e, const tl_expr_t *x)
{
    tl_buf_t b;
    tl_buf_init(&b);
    pto_expr(e, &b, x);
    const char *s = tl_arena_strdup(e->k->arena, tl_buf_cstr(&b));
    tl_buf_free(&b);
    return s;
}

const char *pto_cond(pto_emit_t *e, const char *c)
{
    size_t n = strlen(c);
    if (n < 2 || c[0] != '(' || c[n - 1] != ')') return c;
    int depth = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        depth += c[i] == '(' ? 1 : c[i] == ')' ? -1 : 0;
        if (depth == 0) return c; // "(a) + (b)": the first pair closes early
    }
    return pto_fmt(e, "%.*s", (int)(n - 2), c + 1);
}

// --- statements ---------------------------------------------------------------------------------

static const char *pipe_name(tl_pipe_t p)
{
    static const char *const names[TL_PIPE_COUNT] = {
        [TL_PIPE_S] = "PIPE_S",       [TL_PIPE_MTE1] = "PIPE_MTE1", [TL_PIPE_MTE2] = "PIPE_MTE2",
        [TL_PIPE_MTE3] = "PIPE_MTE3", [TL_PIPE_M] = "PIPE_M",       [TL_PIPE_V] = "PIPE_V",
        [TL_PIPE_FIX] = "PIPE_FIX",   [TL_PIPE_ALL] = "PIPE_ALL",
    };
    return names[p] ? names[p] : "PIPE_ALL";
}

static void sync_stmt(pto_emit_t *e, const tl_stmt_t *s)
{
    const char *id = s->sync.id ? pto_expr_str(e, s->sync.id) : "0";
    int64_t c;
    // pto::SYNCALL (T.sync_all on the NPU) sets and waits cross-core flags 11-14
    // of its own (pto-isa's SYNC_AIC_FLAG ... SYNC_AIV_ONLY_ALL)
    if (e->sync_all && (s->sync.kind == TL_SYNC_SET_CROSS || s->sync.kind == TL_SYNC_WAIT_CROSS) &&
        s->sync.id && tl_ir_is_const_int(s->sync.id, &c) && c >= 11 && c <= 14 && !e->failed) {
        tl_diag_error(e->d, s->loc,
                      "cross-core flag %" PRId64 " in a kernel with T.sync_all: on the NPU "
                      "T.sync_all (pto::SYNCALL) uses flags 11-14 itself (--target pto)",
                      c);
        e->failed = true;
        return;
    }
    bool small = s->sync.id && tl_ir_is_const_int(s->sync.id, &c) && c >= 0 && c <= 7;
    const char *ev = small ? pto_fmt(e, "EVENT_ID%" PRId64, c) : pto_fmt(e, "(event_t)(%s)", id);
    switch (s->sync.kind) {
    case TL_SYNC_SET_FLAG:
    case TL_SYNC_WAIT_FLAG:
        pto_line(e, "%s(%s, %s, %s);", s->sync.kind == TL_SYNC_SET_FLAG ? "set_flag" : "wait_flag",
                 pipe_name(s->sync.src), pipe_name(s->sync.dst), ev);
        break;
    case TL_SYNC_PIPE_BARRIER: pto_line(e, "pipe_barrier(%s);", pipe_name(s->sync.src)); break;
    case TL_SYNC_BARRIER_ALL: pto_line(e, "pipe_barrier(PIPE_ALL);"); break;
    case TL_SYNC_SET_CROSS:
        pto_line(e, "ffts_cross_core_sync(%s, tilec_ffts_config(%d, %s));", pipe_name(s->sync.src),
                 s->sync.mode, id);
        break;
    case TL_SYNC_WAIT_CROSS: pto_line(e, "wait_flag_dev(%s);", id); break;
    case TL_SYNC_ALL:
        // inside T.Scope the cores of that kind (upstream's choice for the
        // NPU), else every core; the CPU harness waits for every core
        pto_line(e, "tilec_sync_all<pto::SyncCoreType::%s>();",
                 !e->in_scope              ? "Mix"
                 : e->prog == TL_SIDE_CUBE ? "AICOnly"
                                           : "AIVOnly");
        break;
    default: break;
    }
}

static void stmt(pto_emit_t *e, const tl_stmt_t *s);

// A C++ block: the lets it declares end with it.
static void block(pto_emit_t *e, const tl_stmt_t *s)
{
    int declared = e->ndeclared;
    e->indent++;
    stmt(e, s);
    e->indent--;
    e->ndeclared = declared;
}

// A let: declared at its first binding in the C++ block, assigned at later
// ones (software pipelining repeats a loop body's lets in one block).
static void let_stmt(pto_emit_t *e, const tl_stmt_t *s)
{
    const tl_var_t *v = s->let.var;
    tl_dtype_t t = v->dtype;
    const char *ct = tl_dtype_is_int(t) || !pto_ctype(t) ? "int64_t" : pto_ctype(t);
    const char *value = pto_expr_str(e, s->let.value);
    for (int i = 0; i < e->ndeclared; i++)
        if (e->declared[i] == v ||
            (!strcmp(e->declared[i]->name, v->name) && e->declared[i]->dtype == t)) {
            pto_line(e, "%s = (%s)(%s);", v->name, ct, value);
            return;
        }
    if (e->ndeclared < (int)TL_ARRAY_LEN(e->declared)) e->declared[e->ndeclared++] = v;
    pto_line(e, "%s %s = (%s)(%s);", ct, v->name, ct, value);
    pto_line(e, "(void)%s;", v->name);
}

static void op_stmt(pto_emit_t *e, const tl_stmt_t *s)
{
    tl_buf_t text;
    tl_buf_init(&text);
    tl_ir_print_stmt(&text, s, 0);
    const char *t = tl_buf_cstr(&text);
    t += strspn(t, " +");
    pto_line(e, "// %s%.*s", s->inserted ? "+ " : "", (int)strcspn(t, "\n"), t);
    tl_buf_free(&text);
    switch (s->op.code) {
    case TL_OP_COPY:
    case TL_OP_ATOMIC_ADD: pto_emit_copy(e, s); break;
    case TL_OP_COPY_PA: pto_emit_copy_pa(e, s); break;
    case TL_OP_IM2COL: pto_emit_im2col(e, s); break;
    case TL_OP_MMA: pto_emit_mma(e, s); break;
    case TL_OP_GEMM_V0: pto_emit_gemm_v0(e, s); break;
    default: pto_emit_vec(e, s); break;
    }
}

static void store_stmt(pto_emit_t *e, const tl_stmt_t *s)
{
    tl_buf_t b;
    tl_buf_init(&b);
    element(e, &b, s->store.buf, s->store.n, s->store.idx, s->loc);
    tl_buf_printf(&b, " = (%s)(",
                  pto_ctype(s->store.buf->dtype) ? pto_ctype(s->store.buf->dtype) : "int");
    pto_expr(e, &b, s->store.value);
    tl_buf_puts(&b, ");");
    pto_line(e, "%s", tl_buf_cstr(&b));
    tl_buf_free(&b);
}

static void stmt(pto_emit_t *e, const tl_stmt_t *s)
{
    if (e->failed) return;
    tl_side_t side = tl_side_get(e->sides, s);
    if ((side == TL_SIDE_CUBE || side == TL_SIDE_VEC) && side != e->prog) return;
    if (tl_side_skips(e->sides, s, e->prog)) return; // work this core does not need
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) stmt(e, s->seq.items[i]);
        break;
    case TL_ST_FOR:
        pto_line(e, "for (int64_t %s = %s; %s < %s; %s++) {", s->for_.var->name,
                 pto_expr_str(e, s->for_.start), s->for_.var->name, pto_expr_str(e, s->for_.end),
                 s->for_.var->name);
        block(e, s->for_.body);
        pto_line(e, "}");
        break;
    case TL_ST_WHILE:
        pto_line(e, "while (%s) {", pto_cond(e, pto_expr_str(e, s->while_.cond)));
        block(e, s->while_.body);
        pto_line(e, "}");
        break;
    case TL_ST_IF:
        pto_line(e, "if (%s) {", pto_cond(e, pto_expr_str(e, s->if_.cond)));
        block(e, s->if_.then_);
        if (s->if_.else_) {
            pto_line(e, "} else {");
            block(e, s->if_.else_);
        }
        pto_line(e, "}");
        break;
    case TL_ST_LET: let_stmt(e, s); break;
    case TL_ST_STORE: store_stmt(e, s); break;
    case TL_ST_OP: op_stmt(e, s); break;
    case TL_ST_SCOPE:
        if (s->scope.side == e->prog) {
            int outer = e->in_scope++;
            stmt(e, s->scope.body);
            e->in_scope = outer;
        }
        break;
    case TL_ST_SYNC: sync_stmt(e, s); break;
    case TL_ST_PRINT: pto_unsupported(e, s->loc, "T.printf / T.dump_tensor"); break;
    case TL_ST_BREAK: pto_line(e, "break;"); break;
    case TL_ST_CONTINUE: pto_line(e, "continue;"); break;
    }
}

// --- the kernel
// -----------------------------------------------------------------------------------

// The C++ type of a scalar argument: integers travel as int64_t.
static const char *arg_ctype(const tl_var_t *v)
{
    return tl_dtype_is_float(v->dtype) && pto_ctype(v->dtype) ? pto_ctype(v->dtype) : "int64_t";
}

// Scalar parameters and dims, in the order of the entry's arguments after the tensors.
static void scalar_args(const tl_kernel_t *k, const tl_var_t **vars, int *n)
{
    *n = 0;
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].var) vars[(*n)++] = k->params[i].var;
    for (int i = 0; i < k->dims.len; i++) vars[(*n)++] = k->dims.items[i];
}

static void program(pto_emit_t *e, tl_side_t prog)
{
    const tl_kernel_t *k = e->k;
    e->prog = prog;
    e->ndeclared = 0;
    bool cube = prog == TL_SIDE_CUBE;
    tl_buf_printf(e->out, "#if %s\n", cube ? "TILEC_AIC_CODE" : "TILEC_AIV_CODE");
    if (cube)
        pto_line(e, "if (TILEC_IS_AIC) {");
    else if (k->threads)
        pto_line(e, "if (TILEC_IS_AIV && get_subblockid() == 0) { // one vector core (threads=%d)",
                 k->threads);
    else
        pto_line(e, "if (TILEC_IS_AIV) {");
    e->indent++;
    if (!cube && k->vid) pto_line(e, "const int64_t %s = (int64_t)get_subblockid();", k->vid->name);
    if (!cube && k->vid) pto_line(e, "(void)%s;", k->vid->name);
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *b = k->buffers.items[i];
        if (b->scope != TL_SCOPE_VAR) continue;
        const char *ct = pto_ctype(b->dtype);
        pto_line(e, "%s %s[%" PRId64 "] = {%s};", ct ? ct : "int64_t", b->name, tl_buffer_numel(b),
                 b->init ? pto_expr_str(e, b->init) : "");
        pto_line(e, "(void)%s;", b->name);
    }
    // the core's deq scale (T.set_deq_scale; int32 -> float16 casts read it)
    if (e->deq) pto_line(e, "float tilec_deq = 1.0f;");
    if (e->deq) pto_line(e, "(void)tilec_deq;");
    stmt(e, k->body);
    e->indent--;
    pto_line(e, "}");
    tl_buf_puts(e->out, "#endif\n");
}

static void entry_params(const tl_kernel_t *k, tl_buf_t *o, bool types)
{
    bool first = true;
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].buf) {
            tl_buf_printf(o, "%s%s%s_", first ? "" : ", ", types ? "__gm__ uint8_t *" : "",
                          k->params[i].name);
            first = false;
        }
    const tl_var_t *vars[128];
    int n;
    scalar_args(k, vars, &n);
    for (int i = 0; i < n; i++) {
        tl_buf_printf(o, "%s%s%s%s", first ? "" : ", ", types ? arg_ctype(vars[i]) : "",
                      types ? " " : "", vars[i]->name);
        first = false;
    }
    tl_buf_printf(o, "%s%s", first ? "" : ", ", types ? "uint64_t ffts_addr" : "ffts_addr");
}

static void entry(pto_emit_t *e)
{
    const tl_kernel_t *k = e->k;
    tl_buf_t *o = e->out;
    tl_buf_printf(o, "extern \"C\" __global__ __aicore__ void %s_kernel(", k->name);
    entry_params(k, o, true);
    tl_buf_puts(o, ")\n{\n");
    e->indent = 1;
    pto_line(e, "set_ffts_base_addr(ffts_addr);");
    for (int i = 0; i < k->nparams; i++) {
        const tl_buffer_t *b = k->params[i].buf;
        if (!b) continue;
        const char *ct = pto_ctype(b->dtype);
        if (!ct && (b->dtype == TL_F8E4M3 || b->dtype == TL_F8E5M2)) {
            // not a gap of the emitter: the target has no such type
            e->failed = true;
            tl_diag_error(e->d, b->loc,
                          "a %s tensor: the A2/A3 NPU that --target pto emits for has no float8 "
                          "types (float8 TMATMUL is A5's; upstream's float8 GEMM example skips "
                          "itself off A5)",
                          tl_dtype_name(b->dtype));
            return;
        }
        if (!ct) {
            pto_unsupported(e, b->loc, "a %s tensor", tl_dtype_name(b->dtype));
            return;
        }
        pto_line(e, "__gm__ %s *%s = (__gm__ %s *)%s_;", ct, b->name, ct, b->name);
        pto_line(e, "(void)%s;", b->name);
    }
    const tl_var_t *vars[128];
    int n;
    scalar_args(k, vars, &n);
    for (int i = 0; i < n; i++) pto_line(e, "(void)%s;", vars[i]->name);
    pto_line(e, "const int64_t %s = (int64_t)get_block_idx();",
             k->cid ? k->cid->name : "tilec_cid");
    pto_line(e, "(void)%s;", k->cid ? k->cid->name : "tilec_cid");
    program(e, TL_SIDE_CUBE);
    program(e, TL_SIDE_VEC);
    tl_buf_puts(o, "}\n");
}

static const char *param_dtype_enum(tl_dtype_t t)
{
    switch (t) {
    case TL_F32: return "TILEC_PTO_F32";
    case TL_F16: return "TILEC_PTO_F16";
    case TL_BF16: return "TILEC_PTO_BF16";
    default: return "TILEC_PTO_OTHER";
    }
}

// The CPU simulation's glue: what the harness (tilec_pto_harness.c) calls.
static void cpu_glue(pto_emit_t *e)
{
    const tl_kernel_t *k = e->k;
    tl_buf_t *o = e->out;
    tl_buf_puts(o, "\n#if defined(__CPU_SIM)\n// The harness's view of the kernel (tilec run "
                   "--target pto).\nextern \"C\" {\n");
    tl_buf_printf(o, "extern const char *const tilec_pto_kernel = \"%s\";\n", k->name);
    tl_buf_printf(o, "extern const int tilec_pto_nvec = %d;\n", k->threads ? 1 : 2);
    tl_buf_printf(o, "extern const int tilec_pto_all_resident = %d;\n",
                  tl_side_all_resident(e->sides));
    tl_buf_puts(o, "int tilec_pto_agent(const tilec_pto_rt_t *rt, void *const *args, const "
                   "tilec_pto_val_t *vals)\n{\n");
    tl_buf_puts(o,
                "    (void)args, (void)vals;\n    return tilec_pto_run_agent(rt, [&] {\n        ");
    tl_buf_printf(o, "%s_kernel(", k->name);
    int t = 0;
    bool first = true;
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].buf) {
            tl_buf_printf(o, "%s(__gm__ uint8_t *)args[%d]", first ? "" : ", ", t++);
            first = false;
        }
    const tl_var_t *vars[128];
    int n;
    scalar_args(k, vars, &n);
    for (int i = 0; i < n; i++) {
        tl_buf_printf(o, "%s(%s)vals[%d].%c", first ? "" : ", ", arg_ctype(vars[i]), i,
                      tl_dtype_is_float(vars[i]->dtype) ? 'f' : 'i');
        first = false;
    }
    tl_buf_printf(o, "%s0);\n    });\n}\n}\n#endif\n", first ? "" : ", ");
    (void)param_dtype_enum;
}

// The host side: the launch function a CANN build links (bisheng's host pass).
static void host_launch(pto_emit_t *e)
{
    const tl_kernel_t *k = e->k;
    tl_buf_t *o = e->out;
    tl_buf_puts(o, "\n#if !defined(__CPU_SIM) && !defined(__CCE_AICORE__)\n");
    tl_buf_printf(o, "#include \"%s_launch.h\"\n", k->name);
    tl_buf_printf(o, "extern \"C\" int %s_launch(", k->name);
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].buf) tl_buf_printf(o, "uint8_t *%s, ", k->params[i].name);
    const tl_var_t *vars[128];
    int n;
    scalar_args(k, vars, &n);
    for (int i = 0; i < n; i++) tl_buf_printf(o, "%s %s, ", arg_ctype(vars[i]), vars[i]->name);
    tl_buf_puts(o, "void *stream)\n{\n    uint64_t ffts_addr = 0;\n    uint32_t ffts_len = 0;\n");
    tl_buf_puts(o, "    int rc = (int)rtGetC2cCtrlAddr(&ffts_addr, &ffts_len);\n    if (rc != 0) "
                   "return rc;\n");
    tl_buf_printf(o, "    const int64_t blocks = %s;\n", pto_expr_str(e, k->grid));
    tl_buf_printf(o, "    %s_kernel<<<(uint32_t)blocks, nullptr, stream>>>(", k->name);
    bool first = true;
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].buf) {
            tl_buf_printf(o, "%s%s", first ? "" : ", ", k->params[i].name);
            first = false;
        }
    for (int i = 0; i < n; i++)
        tl_buf_printf(o, "%s%s", first ? "" : ", ", vars[i]->name), first = false;
    tl_buf_printf(o, "%sffts_addr);\n    return 0;\n}\n#endif\n", first ? "" : ", ");
}

static void launch_header(const tl_kernel_t *k, tl_buf_t *h)
{
    tl_buf_printf(
        h, "// Host launch of the PTO kernel %s, generated by tilec %s (its definition is in\n",
        k->name, TILEC_VERSION);
    tl_buf_printf(h, "// %s.cpp). Build for the A2/A3 NPU with CANN's bisheng (docs/pto.md):\n",
                  k->name);
    tl_buf_printf(
        h,
        "//   bisheng -xcce --cce-aicore-arch=dav-c220 -O2 -std=c++17 -DMEMORY_BASE \\\n"
        "//     -I$PTO_ISA_DIR/include -I$ASCEND_HOME/include %s.cpp --shared -o lib%s.so \\\n"
        "//     -lruntime -lascendcl\n",
        k->name, k->name);
    tl_buf_printf(
        h, "#ifndef TILEC_PTO_%s_LAUNCH_H\n#define TILEC_PTO_%s_LAUNCH_H\n\n#include <cstdint>\n\n",
        k->name, k->name);
    tl_buf_puts(
        h, "// GM tensors as device pointers, then the scalar parameters and the symbolic dims;\n"
           "// the grid is computed from them. Returns 0, or the runtime's error code.\n");
    tl_buf_printf(h, "extern \"C\" int %s_launch(", k->name);
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].buf) tl_buf_printf(h, "uint8_t *%s, ", k->params[i].name);
    const tl_var_t *vars[128];
    int n;
    scalar_args(k, vars, &n);
    for (int i = 0; i < n; i++) tl_buf_printf(h, "%s %s, ", arg_ctype(vars[i]), vars[i]->name);
    tl_buf_puts(h, "void *stream);\n\n#endif\n");
}

static void header(pto_emit_t *e)
{
    const tl_kernel_t *k = e->k;
    tl_buf_t *o = e->out;
    tl_buf_printf(o,
                  "// Kernel %s as PTO-ISA C++, generated by tilec %s from the IR after the NPU\n",
                  k->name, TILEC_VERSION);
    tl_buf_puts(o, "// pipeline (planned addresses, the syncs of intra_sync/cross_sync or the "
                   "kernel's own).\n");
    tl_buf_puts(o, "// Buffers:");
    int col = 11;
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *b = k->buffers.items[i];
        if (b->scope == TL_SCOPE_GM || b->scope == TL_SCOPE_VAR) continue;
        char item[160];
        snprintf(item, sizeof item, " %s %s@%" PRId64 ",", b->name, tl_scope_name(b->scope),
                 b->addr);
        if (col + (int)strlen(item) > 100) tl_buf_puts(o, "\n//"), col = 2;
        tl_buf_puts(o, item);
        col += (int)strlen(item);
    }
    tl_buf_puts(o, "\n#include \"tilec_pto.h\"\n\n");
}

// Whether a statement of the tree satisfies pred.
static bool tree_has(const tl_stmt_t *s, bool (*pred)(const tl_stmt_t *))
{
    if (!s) return false;
    if (pred(s)) return true;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (tree_has(s->seq.items[i], pred)) return true;
        return false;
    case TL_ST_FOR: return tree_has(s->for_.body, pred);
    case TL_ST_WHILE: return tree_has(s->while_.body, pred);
    case TL_ST_IF: return tree_has(s->if_.then_, pred) || tree_has(s->if_.else_, pred);
    case TL_ST_SCOPE: return tree_has(s->scope.body, pred);
    default: return false;
    }
}

static bool is_set_deq(const tl_stmt_t *s)
{
    return s->kind == TL_ST_OP && s->op.code == TL_OP_SET_DEQ_SCALE;
}

static bool is_sync_all(const tl_stmt_t *s)
{
    return s->kind == TL_ST_SYNC && s->sync.kind == TL_SYNC_ALL;
}

tl_status_t tl_pto_emit(const tl_kernel_t *k, tl_buf_t *cpp, tl_buf_t *launch_h, tl_diag_t *d)
{
    pto_emit_t e = {.k = k, .d = d, .out = cpp};
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *b = k->buffers.items[i];
        if (b->int4) // upstream's words (test_int4_pto_target_clear_error)
            return tl_diag_error(d, b->loc,
                                 "int4 is not supported by the pto target (buffer '%s' is not "
                                 "lowered to PTO yet: pto-isa has no s4 instructions, mad_s4 or "
                                 "vconv_f162s4; cann/pto-isa#115)",
                                 b->name);
        if (b->scope == TL_SCOPE_UB && b->addr >= 0 && b->addr + tl_buffer_bytes(b) > e.ub_top)
            e.ub_top = (b->addr + tl_buffer_bytes(b) + 31) / 32 * 32;
        if (b->scope != TL_SCOPE_GM && b->scope != TL_SCOPE_VAR && b->addr < 0)
            return tl_diag_error(d, b->loc,
                                 "buffer '%s' has no planned address (the pto target needs the NPU "
                                 "pipeline's memory planning)",
                                 b->name);
    }
    e.deq = tree_has(k->body, is_set_deq);
    e.sync_all = tree_has(k->body, is_sync_all);
    tl_side_map_t *sides = NULL;
    tl_status_t st = tl_side_map_build(k, TL_SIDE_MODE_EXPERT, d, &sides);
    if (st != TL_OK) return st;
    e.sides = sides;
    header(&e);
    entry(&e);
    if (!e.failed) {
        cpu_glue(&e);
        host_launch(&e);
        if (launch_h) launch_header(k, launch_h);
    }
    tl_side_map_free(sides);
    return e.failed ? TL_ERR_UNSUPPORTED : TL_OK;
}
