// IR construction: kernels, variables, buffers, expressions (with constant
// folding and dtype promotion) and statements; the derived name tables.
#include "ir/ir.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name, *signature, *api;
    tl_opclass_t cls;
    tl_pipe_t pipe;
    tl_cost_t cost;
    tl_binop_t bin;
} op_table[] = {
#define X(id, name, sig, cls, pipe, cost, bin, run, front, api)                                    \
    {name, sig, api, TL_OPC_##cls, TL_PIPE_##pipe, TL_COST_##cost, TL_BIN_##bin},
    TL_OPS(X)
#undef X
};
_Static_assert(TL_ARRAY_LEN(op_table) == TL_OP_COUNT, "op table out of sync");

static tl_opinfo_t op_info[TL_OP_COUNT];
static char op_spelling[TL_OP_COUNT][48];

// Argument counts come from the signature: letters before '[' are required;
// the spelling is the first word of the api column.
// Filled when the library loads, so threads never race on the table.
__attribute__((constructor)) static void init_op_info(void)
{
    for (int i = 0; i < TL_OP_COUNT; i++) {
        tl_opinfo_t info = {.name = op_table[i].name,
                            .signature = op_table[i].signature,
                            .cls = op_table[i].cls,
                            .pipe = op_table[i].pipe,
                            .cost = op_table[i].cost,
                            .bin = op_table[i].bin};
        int req = 0, all = 0;
        bool opt = false;
        for (const char *p = info.signature; *p; p++) {
            if (*p == '[') opt = true;
            else if (*p != ']') {
                all++;
                if (!opt) req++;
            }
        }
        info.min_args = req;
        info.max_args = all;
        const char *api = op_table[i].api;
        size_t n = strcspn(api, " ");
        snprintf(op_spelling[i], sizeof op_spelling[i], "%.*s", (int)n, api);
        info.spelling = op_spelling[i];
        op_info[i] = info;
    }
}

const tl_opinfo_t *tl_op_info(tl_opcode_t op)
{
    return &op_info[op];
}

tl_binop_t tl_op_binary(tl_opcode_t op)
{
    const tl_opinfo_t *info = &op_info[op];
    return strcmp(info->signature, "wrv") == 0 ? info->bin : TL_BIN_NONE;
}

bool tl_op_has_int4(const tl_op_t *op)
{
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].kind == TL_ARG_REGION && op->args[i].region.buf->int4) return true;
    return false;
}

bool tl_op_arith(tl_opcode_t op)
{
    switch (tl_op_binary(op)) {
    case TL_BIN_ADD:
    case TL_BIN_SUB:
    case TL_BIN_MUL:
    case TL_BIN_DIV:
    case TL_BIN_MAX:
    case TL_BIN_MIN: return true;
    default: return false;
    }
}

char tl_op_role(tl_opcode_t op, int i)
{
    int k = 0;
    for (const char *p = op_info[op].signature; *p; p++) {
        if (*p == '[' || *p == ']') continue;
        if (k++ == i) return *p;
    }
    return 's';
}

static const char *gather_patterns[] = {"", "P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111"};

const char *tl_gather_pattern_name(int pattern)
{
    return pattern > 0 && pattern < (int)TL_ARRAY_LEN(gather_patterns) ? gather_patterns[pattern] : "buffer";
}

bool tl_gather_pattern_parse(const char *name, int *out)
{
    for (int i = 1; i < (int)TL_ARRAY_LEN(gather_patterns); i++)
        if (!strcmp(gather_patterns[i], name)) {
            *out = i;
            return true;
        }
    return false;
}

bool tl_op_lookup(const char *name, tl_opcode_t *out)
{
    for (int i = 0; i < TL_OP_COUNT; i++)
        if (!strcmp(op_info[i].name, name)) {
            *out = (tl_opcode_t)i;
            return true;
        }
    return false;
}

static const struct {
    const char *name;
    tl_side_t side;
} scope_table[] = {
#define X(id, name, side) {name, side},
    TL_SCOPES(X)
#undef X
};
_Static_assert(TL_ARRAY_LEN(scope_table) == TL_SCOPE_COUNT, "scope table out of sync");

const char *tl_scope_name(tl_scope_t s)
{
    return scope_table[s].name;
}

tl_side_t tl_scope_side(tl_scope_t s)
{
    return scope_table[s].side;
}

static const char *pipe_names[] = {
#define X(id, name) name,
    TL_PIPES(X)
#undef X
};
_Static_assert(TL_ARRAY_LEN(pipe_names) == TL_PIPE_COUNT, "pipe table out of sync");

const char *tl_pipe_name(tl_pipe_t p)
{
    return pipe_names[p];
}

bool tl_pipe_parse(const char *name, tl_pipe_t *out)
{
    if (!strncasecmp(name, "PIPE_", 5)) name += 5;
    for (int i = 1; i < TL_PIPE_COUNT; i++)
        if (!strcasecmp(pipe_names[i], name)) {
            *out = (tl_pipe_t)i;
            return true;
        }
    return false;
}

static const char *binop_names[] = {
#define X(id, text, prec) text,
    TL_BINOPS(X)
#undef X
};
_Static_assert(TL_ARRAY_LEN(binop_names) == TL_BIN_COUNT, "binop table out of sync");

static const char *unop_names[] = {
#define X(id, text) text,
    TL_UNOPS(X)
#undef X
};
_Static_assert(TL_ARRAY_LEN(unop_names) == TL_UN_COUNT, "unop table out of sync");

static const char *sync_names[] = {
#define X(id, name) name,
    TL_SYNCS(X)
#undef X
};
_Static_assert(TL_ARRAY_LEN(sync_names) == TL_SYNC_COUNT, "sync table out of sync");

const char *tl_binop_text(tl_binop_t op)
{
    return binop_names[op];
}

const char *tl_unop_text(tl_unop_t op)
{
    return unop_names[op];
}

const char *tl_sync_name(tl_sync_kind_t k)
{
    return sync_names[k];
}

tl_pipe_t tl_op_pipe(const tl_op_t *op)
{
    const tl_opinfo_t *info = tl_op_info(op->code);
    if (info->cls != TL_OPC_COPY) return info->pipe;
    if (op->code == TL_OP_COPY_PA) return TL_PIPE_MTE2; // copy_pa(dst_l1, kv_gm, table_gm, ...)
    if (op->code == TL_OP_IM2COL) return TL_PIPE_MTE1;  // im2col(dst_l0a, src_l1, ...)
    if (op->nargs < 2 || op->args[0].kind != TL_ARG_REGION || op->args[1].kind != TL_ARG_REGION)
        return TL_PIPE_NONE;
    tl_scope_t s = op->args[0].region.buf->scope, d = op->args[1].region.buf->scope;
    if (op->code == TL_OP_ATOMIC_ADD) { // atomic_add(dst_gm, src)
        tl_scope_t src = d;
        return src == TL_SCOPE_L0C ? TL_PIPE_FIX : TL_PIPE_MTE3;
    }
    if (s == TL_SCOPE_GM) return TL_PIPE_MTE2;                     // GM -> L1/UB
    if (s == TL_SCOPE_L1 && (d == TL_SCOPE_L0A || d == TL_SCOPE_L0B)) return TL_PIPE_MTE1;
    if (s == TL_SCOPE_L0C) return TL_PIPE_FIX;                     // L0C -> GM (or L1)
    if (s == TL_SCOPE_UB && d == TL_SCOPE_UB) return TL_PIPE_V;    // UB -> UB (cast copy)
    if (s == TL_SCOPE_UB) return TL_PIPE_MTE3;                     // UB -> GM / L1
    return TL_PIPE_NONE;
}

int64_t tl_buffer_numel(const tl_buffer_t *b)
{
    int64_t n = 1;
    for (int i = 0; i < b->ndim; i++) n *= b->shape[i];
    return n;
}

int64_t tl_region_numel(const tl_region_t *r)
{
    int64_t n = 1, e;
    for (int i = 0; i < r->ndim; i++)
        if (!tl_ir_is_const_int(r->extent[i], &e) || __builtin_mul_overflow(n, e, &n)) return -1;
    return n;
}

int64_t tl_buffer_bytes(const tl_buffer_t *b)
{
    return tl_buffer_numel(b) * tl_dtype_size(b->dtype);
}

int64_t tl_buffer_planned_rows(const tl_kernel_t *k, const tl_buffer_t *b)
{
    int n = b->ndim;
    if (n < 2) return 1;
    int64_t rows = b->shape[n - 2];
    bool fractals = b->scope == TL_SCOPE_L1 || b->scope == TL_SCOPE_L0A || b->scope == TL_SCOPE_L0C;
    return k->cube_fractal_rows && fractals ? TL_ALIGN_UP(rows, 16) : rows;
}

int64_t tl_buffer_planned_bytes(const tl_kernel_t *k, const tl_buffer_t *b)
{
    int64_t rows = b->ndim >= 2 ? b->shape[b->ndim - 2] : 1;
    if (rows <= 0) return tl_buffer_bytes(b);
    return tl_buffer_bytes(b) / rows * tl_buffer_planned_rows(k, b);
}

int64_t tl_gemm_v0_k_l0(const tl_op_t *op)
{
    return op->k_l0 > 0 ? op->k_l0 : 128;
}

int64_t tl_gemm_v0_n_tile(const tl_op_t *op, int64_t n, int64_t elem_bits)
{
    int64_t nmax = 32 * 1024 * 8 / (tl_gemm_v0_k_l0(op) * elem_bits);
    return !op->transpose_b && nmax > 0 && n > nmax && n % nmax == 0 ? nmax : n;
}

bool tl_kernel_npuir(const tl_kernel_t *k)
{
    return k && k->config.target && !strcmp(k->config.target, "npuir");
}

tl_kernel_t *tl_ir_kernel_new(tl_arena_t *a, const char *name, tl_loc_t loc)
{
    tl_kernel_t *k = tl_arena_alloc(a, sizeof *k);
    k->arena = a;
    k->name = tl_arena_strdup(a, name);
    k->loc = loc;
    k->config.target = "auto";
    k->config.schedule = true;
    k->config.auto_sync_vs = true;
    return k;
}

tl_var_t *tl_ir_var(tl_kernel_t *k, const char *name, tl_dtype_t t, tl_var_kind_t kind,
                    tl_loc_t loc)
{
    tl_var_t *v = tl_arena_alloc(k->arena, sizeof *v);
    v->name = tl_arena_strdup(k->arena, name);
    v->dtype = t;
    v->kind = kind;
    v->loc = loc;
    v->id = k->vars.len;
    tl_vec_push(k->arena, &k->vars, v);
    if (kind == TL_VAR_DIM) tl_vec_push(k->arena, &k->dims, v);
    return v;
}

tl_buffer_t *tl_ir_buffer(tl_kernel_t *k, const char *name, tl_scope_t scope, tl_dtype_t t,
                          int ndim, const int64_t *shape, tl_loc_t loc)
{
    tl_buffer_t *b = tl_arena_alloc(k->arena, sizeof *b);
    b->name = tl_arena_strdup(k->arena, name);
    b->scope = b->declared = scope;
    b->dtype = t;
    b->ndim = ndim;
    for (int i = 0; i < ndim && shape; i++) b->shape[i] = shape[i];
    b->loc = loc;
    b->param = -1;
    b->addr = -1;
    b->id = k->buffers.len;
    tl_vec_push(k->arena, &k->buffers, b);
    return b;
}

static tl_expr_t *expr(tl_kernel_t *k, tl_expr_kind_t kind, tl_dtype_t t, tl_loc_t loc)
{
    tl_expr_t *e = tl_arena_alloc(k->arena, sizeof *e);
    e->kind = kind;
    e->dtype = t;
    e->loc = loc;
    e->height = 1;
    return e;
}

void tl_ir_fix_height(tl_expr_t *e)
{
    int h = 0;
    switch (e->kind) {
    case TL_EX_LOAD:
        for (int i = 0; i < e->load.n; i++) h = TL_MAX(h, tl_ir_height(e->load.idx[i]));
        break;
    case TL_EX_BIN: h = TL_MAX(tl_ir_height(e->op.a), tl_ir_height(e->op.b)); break;
    case TL_EX_UN: h = tl_ir_height(e->op.a); break;
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: h = tl_ir_height(e->arg); break;
    case TL_EX_SELECT:
        h = TL_MAX(tl_ir_height(e->sel.cond),
                   TL_MAX(tl_ir_height(e->sel.a), tl_ir_height(e->sel.b)));
        break;
    default: break;
    }
    e->height = h + 1;
}

tl_expr_t *tl_ir_int(tl_kernel_t *k, int64_t v, tl_dtype_t t, tl_loc_t loc)
{
    tl_expr_t *e = expr(k, TL_EX_INT, t, loc);
    e->i = v;
    return e;
}

tl_expr_t *tl_ir_float(tl_kernel_t *k, double v, tl_dtype_t t, tl_loc_t loc)
{
    tl_expr_t *e = expr(k, TL_EX_FLOAT, t, loc);
    e->f = v;
    return e;
}

tl_expr_t *tl_ir_varref(tl_kernel_t *k, tl_var_t *v, tl_loc_t loc)
{
    tl_expr_t *e = expr(k, TL_EX_VAR, v->dtype, loc);
    e->var = v;
    return e;
}

tl_expr_t *tl_ir_load(tl_kernel_t *k, tl_buffer_t *b, int n, tl_expr_t **idx, tl_loc_t loc)
{
    tl_expr_t *e = expr(k, TL_EX_LOAD, b->dtype, loc);
    e->load.buf = b;
    e->load.n = n;
    e->load.idx = tl_arena_dup(k->arena, idx, sizeof *idx * (size_t)n);
    tl_ir_fix_height(e);
    return e;
}

bool tl_ir_is_const_int(const tl_expr_t *e, int64_t *out)
{
    if (!e || e->kind != TL_EX_INT) return false;
    if (out) *out = e->i;
    return true;
}

static bool is_const(const tl_expr_t *e)
{
    return e->kind == TL_EX_INT || e->kind == TL_EX_FLOAT;
}

static double const_value(const tl_expr_t *e)
{
    return e->kind == TL_EX_INT ? (double)e->i : e->f;
}

// Result dtype of a binary arithmetic op. A constant operand adapts to the other
// side (as TVMScript converts Python literals); otherwise float beats int and
// the wider type wins.
tl_dtype_t tl_ir_promote(const tl_expr_t *a, const tl_expr_t *b)
{
    tl_dtype_t ta = a->dtype, tb = b->dtype;
    if (ta == tb) return ta;
    bool fa = tl_dtype_is_float(ta), fb = tl_dtype_is_float(tb);
    if (is_const(a) && !is_const(b) && (fb || !fa)) return tb;
    if (is_const(b) && !is_const(a) && (fa || !fb)) return ta;
    if (fa != fb) return fa ? ta : tb;
    if (tl_dtype_size(ta) != tl_dtype_size(tb)) return tl_dtype_size(ta) > tl_dtype_size(tb) ? ta : tb;
    return ta;
}

static bool is_compare(tl_binop_t op)
{
    return op >= TL_BIN_EQ && op <= TL_BIN_LOR;
}

static int64_t floordiv_i(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Folds integer ops on constants with the IR's (C) semantics. Returns false when
// the op cannot be folded (division by zero is left for run time to report).
static bool fold_int(tl_binop_t op, int64_t a, int64_t b, int64_t *r)
{
    switch (op) {
    case TL_BIN_ADD: *r = (int64_t)((uint64_t)a + (uint64_t)b); return true;
    case TL_BIN_SUB: *r = (int64_t)((uint64_t)a - (uint64_t)b); return true;
    case TL_BIN_MUL: *r = (int64_t)((uint64_t)a * (uint64_t)b); return true;
    case TL_BIN_DIV:
        if (b == 0 || (a == INT64_MIN && b == -1)) return false;
        *r = a / b;
        return true;
    case TL_BIN_MOD:
        if (b == 0 || (a == INT64_MIN && b == -1)) return false;
        *r = a % b;
        return true;
    case TL_BIN_FLOORDIV:
        if (b == 0 || (a == INT64_MIN && b == -1)) return false;
        *r = floordiv_i(a, b);
        return true;
    case TL_BIN_FLOORMOD:
        if (b == 0 || (a == INT64_MIN && b == -1)) return false;
        *r = a - floordiv_i(a, b) * b;
        return true;
    case TL_BIN_MIN: *r = a < b ? a : b; return true;
    case TL_BIN_MAX: *r = a > b ? a : b; return true;
    case TL_BIN_AND: *r = a & b; return true;
    case TL_BIN_OR: *r = a | b; return true;
    case TL_BIN_XOR: *r = a ^ b; return true;
    case TL_BIN_SHL:
        if (b < 0 || b > 62) return false;
        *r = (int64_t)((uint64_t)a << b);
        return true;
    case TL_BIN_SHR:
        if (b < 0 || b > 63) return false;
        *r = a >> b;
        return true;
    case TL_BIN_EQ: *r = a == b; return true;
    case TL_BIN_NE: *r = a != b; return true;
    case TL_BIN_LT: *r = a < b; return true;
    case TL_BIN_LE: *r = a <= b; return true;
    case TL_BIN_GT: *r = a > b; return true;
    case TL_BIN_GE: *r = a >= b; return true;
    case TL_BIN_LAND: *r = a && b; return true;
    case TL_BIN_LOR: *r = a || b; return true;
    default: return false;
    }
}

static int64_t wrap_int(int64_t v, tl_dtype_t t)
{
    switch (t) {
    case TL_I32: return (int32_t)(uint32_t)v;
    case TL_U32: return (uint32_t)v;
    case TL_I16: return (int16_t)(uint16_t)v;
    case TL_U16: return (uint16_t)v;
    case TL_I8: return (int8_t)(uint8_t)v;
    case TL_U8: return (uint8_t)v;
    case TL_BOOL: return v != 0;
    default: return v;
    }
}

tl_expr_t *tl_ir_bin(tl_kernel_t *k, tl_binop_t op, tl_expr_t *a, tl_expr_t *b, tl_loc_t loc)
{
    tl_dtype_t t = is_compare(op) ? TL_BOOL : tl_ir_promote(a, b);
    tl_dtype_t operand_t = is_compare(op) ? tl_ir_promote(a, b) : t;
    if (a->kind == TL_EX_INT && b->kind == TL_EX_INT && !tl_dtype_is_float(operand_t)) {
        int64_t r;
        if (fold_int(op, a->i, b->i, &r)) return tl_ir_int(k, wrap_int(r, t), t, loc);
    }
    // Identities that keep dumps of index arithmetic readable.
    int64_t c;
    // A constant operand decides `and` / `or` (expressions have no side effects):
    // `(k == n - 1) and (tail > 0)` with a Python-false tail is false, so a
    // select on it keeps a constant extent (upstream's gemm_tail_block.py).
    if (op == TL_BIN_LAND || op == TL_BIN_LOR) {
        bool land = op == TL_BIN_LAND;
        for (int i = 0; i < 2; i++) {
            tl_expr_t *x = i ? b : a, *y = i ? a : b;
            if (!tl_ir_is_const_int(x, &c) || tl_dtype_is_float(y->dtype)) continue;
            if ((c != 0) != land) return tl_ir_int(k, !land, TL_BOOL, loc);
            if (y->dtype == TL_BOOL) return y;
        }
    }
    if (!tl_dtype_is_float(t)) {
        if ((op == TL_BIN_ADD || op == TL_BIN_SUB) && tl_ir_is_const_int(b, &c) && c == 0 &&
            a->dtype == t)
            return a;
        if (op == TL_BIN_ADD && tl_ir_is_const_int(a, &c) && c == 0 && b->dtype == t) return b;
        if (op == TL_BIN_MUL && tl_ir_is_const_int(b, &c) && c == 1 && a->dtype == t) return a;
        if (op == TL_BIN_MUL && tl_ir_is_const_int(a, &c) && c == 1 && b->dtype == t) return b;
        if ((op == TL_BIN_DIV || op == TL_BIN_FLOORDIV) && tl_ir_is_const_int(b, &c) && c == 1 &&
            a->dtype == t)
            return a;
        if ((op == TL_BIN_MOD || op == TL_BIN_FLOORMOD) && tl_ir_is_const_int(b, &c) && (c == 1 || c == -1))
            return tl_ir_int(k, 0, t, loc);
        if (op == TL_BIN_MUL && ((tl_ir_is_const_int(b, &c) && c == 0) || (tl_ir_is_const_int(a, &c) && c == 0)))
            return tl_ir_int(k, 0, t, loc);
        // (x + c1) +- c2 and (x - c1) +- c2 fold their constants.
        int64_t c1;
        if ((op == TL_BIN_ADD || op == TL_BIN_SUB) && tl_ir_is_const_int(b, &c) && a->kind == TL_EX_BIN &&
            (a->op.op == TL_BIN_ADD || a->op.op == TL_BIN_SUB) && tl_ir_is_const_int(a->op.b, &c1) &&
            a->dtype == t) {
            int64_t sum = (a->op.op == TL_BIN_ADD ? c1 : -c1) + (op == TL_BIN_ADD ? c : -c);
            if (sum == 0) return a->op.a;
            return tl_ir_bin(k, sum > 0 ? TL_BIN_ADD : TL_BIN_SUB, a->op.a,
                             tl_ir_int(k, sum > 0 ? sum : -sum, b->dtype, loc), loc);
        }
    }
    if (is_const(a) && is_const(b) && tl_dtype_is_float(operand_t)) {
        double x = const_value(a), y = const_value(b), r;
        bool ok = true;
        switch (op) {
        case TL_BIN_ADD: r = x + y; break;
        case TL_BIN_SUB: r = x - y; break;
        case TL_BIN_MUL: r = x * y; break;
        case TL_BIN_DIV: r = x / y; break;
        case TL_BIN_MIN: r = x < y ? x : y; break;
        case TL_BIN_MAX: r = x > y ? x : y; break;
        case TL_BIN_POW: r = pow(x, y); break;
        case TL_BIN_EQ: r = x == y; break;
        case TL_BIN_NE: r = x != y; break;
        case TL_BIN_LT: r = x < y; break;
        case TL_BIN_LE: r = x <= y; break;
        case TL_BIN_GT: r = x > y; break;
        case TL_BIN_GE: r = x >= y; break;
        default: ok = false; r = 0; break;
        }
        if (ok) {
            if (t == TL_BOOL) return tl_ir_int(k, r != 0, TL_BOOL, loc);
            if (t == TL_F32) r = (float)r;
            return tl_ir_float(k, r, t, loc);
        }
    }
    tl_expr_t *e = expr(k, TL_EX_BIN, t, loc);
    e->op.op = op;
    e->op.a = a;
    e->op.b = b;
    tl_ir_fix_height(e);
    return e;
}

tl_expr_t *tl_ir_un(tl_kernel_t *k, tl_unop_t op, tl_expr_t *a, tl_loc_t loc)
{
    tl_dtype_t t = op == TL_UN_NOT ? TL_BOOL : a->dtype;
    if (a->kind == TL_EX_INT && op == TL_UN_NEG) return tl_ir_int(k, wrap_int(-a->i, t), t, loc);
    if (a->kind == TL_EX_INT && op == TL_UN_NOT) return tl_ir_int(k, !a->i, TL_BOOL, loc);
    if (a->kind == TL_EX_INT && op == TL_UN_BITNOT) return tl_ir_int(k, wrap_int(~a->i, t), t, loc);
    if (a->kind == TL_EX_FLOAT && op == TL_UN_NEG) return tl_ir_float(k, -a->f, t, loc);
    tl_expr_t *e = expr(k, TL_EX_UN, t, loc);
    e->op.op = op;
    e->op.a = a;
    tl_ir_fix_height(e);
    return e;
}

tl_expr_t *tl_ir_cast(tl_kernel_t *k, tl_dtype_t t, tl_expr_t *a, tl_loc_t loc)
{
    if (a->dtype == t) return a;
    if (a->kind == TL_EX_INT && tl_dtype_is_int(t)) return tl_ir_int(k, wrap_int(a->i, t), t, loc);
    if (a->kind == TL_EX_INT && tl_dtype_is_float(t)) return tl_ir_float(k, (double)a->i, t, loc);
    tl_expr_t *e = expr(k, TL_EX_CAST, t, loc);
    e->arg = a;
    tl_ir_fix_height(e);
    return e;
}

tl_expr_t *tl_ir_reinterpret(tl_kernel_t *k, tl_dtype_t t, tl_expr_t *a, tl_loc_t loc)
{
    tl_expr_t *e = expr(k, TL_EX_REINTERPRET, t, loc);
    e->arg = a;
    tl_ir_fix_height(e);
    return e;
}

tl_expr_t *tl_ir_select(tl_kernel_t *k, tl_expr_t *c, tl_expr_t *a, tl_expr_t *b, tl_loc_t loc)
{
    int64_t cv;
    if (tl_ir_is_const_int(c, &cv)) return cv ? a : b;
    tl_expr_t *e = expr(k, TL_EX_SELECT, tl_ir_promote(a, b), loc);
    e->sel.cond = c;
    e->sel.a = a;
    e->sel.b = b;
    tl_ir_fix_height(e);
    return e;
}

tl_stmt_t *tl_ir_stmt(tl_kernel_t *k, tl_stmt_kind_t kind, tl_loc_t loc)
{
    tl_stmt_t *s = tl_arena_alloc(k->arena, sizeof *s);
    s->kind = kind;
    s->loc = loc;
    return s;
}

tl_stmt_t *tl_ir_seq(tl_kernel_t *k, tl_loc_t loc)
{
    return tl_ir_stmt(k, TL_ST_SEQ, loc);
}

void tl_ir_seq_push(tl_kernel_t *k, tl_stmt_t *seq, tl_stmt_t *s)
{
    if (seq->seq.n == seq->seq.cap) {
        int cap = seq->seq.cap ? seq->seq.cap * 2 : 4;
        seq->seq.items = tl_arena_grow(k->arena, seq->seq.items, sizeof(tl_stmt_t *),
                                       (size_t)seq->seq.cap, (size_t)cap);
        seq->seq.cap = cap;
    }
    seq->seq.items[seq->seq.n++] = s;
}
