// The IR printer: a stable, readable text form used by `tilec ir`, the
// --dump-after hooks and the golden IR tests. Regions print as
// `buf[start +: extent, ...]`, a whole dimension as `:`, a whole buffer as `buf`.
#include "ir/ir.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const int binop_prec[] = {
#define X(id, text, prec) prec,
    TL_BINOPS(X)
#undef X
};

static void print_expr_prec(tl_buf_t *o, const tl_expr_t *e, int prec);

static void print_float(tl_buf_t *o, double f, tl_dtype_t t)
{
    if (isnan(f))
        tl_buf_puts(o, "nan");
    else if (isinf(f))
        tl_buf_puts(o, f > 0 ? "inf" : "-inf");
    else {
        char s[40];
        snprintf(s, sizeof s, "%.9g", f);
        tl_buf_puts(o, s);
        if (!strpbrk(s, ".eEn")) tl_buf_puts(o, ".0");
    }
    if (t != TL_F32) tl_buf_printf(o, ":%s", tl_dtype_name(t));
}

static void print_args(tl_buf_t *o, int n, tl_expr_t *const *args)
{
    for (int i = 0; i < n; i++) {
        if (i) tl_buf_puts(o, ", ");
        print_expr_prec(o, args[i], 0);
    }
}

static void print_expr_prec(tl_buf_t *o, const tl_expr_t *e, int prec)
{
    switch (e->kind) {
    case TL_EX_INT:
        if (e->dtype == TL_BOOL)
            tl_buf_puts(o, e->i ? "True" : "False");
        else {
            tl_buf_printf(o, "%" PRId64, e->i);
            if (e->dtype != TL_I32) tl_buf_printf(o, ":%s", tl_dtype_name(e->dtype));
        }
        break;
    case TL_EX_FLOAT: print_float(o, e->f, e->dtype); break;
    case TL_EX_VAR: tl_buf_puts(o, e->var->name); break;
    case TL_EX_LOAD:
        tl_buf_printf(o, "%s[", e->load.buf->name);
        print_args(o, e->load.n, e->load.idx);
        tl_buf_putc(o, ']');
        break;
    case TL_EX_BIN: {
        int p = binop_prec[e->op.op];
        if (p == 0) { // function-style operator
            tl_buf_printf(o, "%s(", tl_binop_text(e->op.op));
            print_expr_prec(o, e->op.a, 0);
            tl_buf_puts(o, ", ");
            print_expr_prec(o, e->op.b, 0);
            tl_buf_putc(o, ')');
            break;
        }
        if (p < prec) tl_buf_putc(o, '(');
        print_expr_prec(o, e->op.a, p);
        tl_buf_printf(o, " %s ", tl_binop_text(e->op.op));
        print_expr_prec(o, e->op.b, p + 1); // left associative
        if (p < prec) tl_buf_putc(o, ')');
        break;
    }
    case TL_EX_UN:
        if (e->op.op == TL_UN_NEG || e->op.op == TL_UN_BITNOT) {
            tl_buf_puts(o, tl_unop_text(e->op.op));
            print_expr_prec(o, e->op.a, 14);
        } else if (e->op.op == TL_UN_NOT) {
            if (prec > 4) tl_buf_putc(o, '(');
            tl_buf_puts(o, "not ");
            print_expr_prec(o, e->op.a, 4);
            if (prec > 4) tl_buf_putc(o, ')');
        } else {
            tl_buf_printf(o, "%s(", tl_unop_text(e->op.op));
            print_expr_prec(o, e->op.a, 0);
            tl_buf_putc(o, ')');
        }
        break;
    case TL_EX_CAST:
    case TL_EX_REINTERPRET:
        tl_buf_printf(o, "%s<%s>(", e->kind == TL_EX_CAST ? "cast" : "reinterpret",
                      tl_dtype_name(e->dtype));
        print_expr_prec(o, e->arg, 0);
        tl_buf_putc(o, ')');
        break;
    case TL_EX_SELECT:
        tl_buf_puts(o, "select(");
        print_expr_prec(o, e->sel.cond, 0);
        tl_buf_puts(o, ", ");
        print_expr_prec(o, e->sel.a, 0);
        tl_buf_puts(o, ", ");
        print_expr_prec(o, e->sel.b, 0);
        tl_buf_putc(o, ')');
        break;
    }
}

void tl_ir_print_expr(tl_buf_t *o, const tl_expr_t *e)
{
    print_expr_prec(o, e, 0);
}

static void print_gm_shape(tl_buf_t *o, const tl_buffer_t *b)
{
    tl_buf_printf(o, "%s[", tl_dtype_name(b->dtype));
    for (int i = 0; i < b->ndim; i++) {
        if (i) tl_buf_puts(o, ", ");
        if (b->gm_shape[i])
            tl_ir_print_expr(o, b->gm_shape[i]);
        else
            tl_buf_printf(o, "%" PRId64, b->shape[i]);
    }
    tl_buf_putc(o, ']');
    if (b->int4) tl_buf_puts(o, " (int4, two a byte)");
}

// Whether region dimension i covers the whole buffer dimension.
static bool full_dim(const tl_region_t *r, int i)
{
    const tl_buffer_t *b = r->buf;
    int64_t s, e;
    if (!tl_ir_is_const_int(r->start[i], &s) || s != 0) return false;
    if (b->gm_shape[i]) {
        const tl_expr_t *x = r->extent[i], *y = b->gm_shape[i];
        if (x == y) return true;
        if (x->kind == TL_EX_VAR && y->kind == TL_EX_VAR) return x->var == y->var;
        int64_t a, c;
        return tl_ir_is_const_int(x, &a) && tl_ir_is_const_int(y, &c) && a == c;
    }
    return tl_ir_is_const_int(r->extent[i], &e) && e == b->shape[i];
}

void tl_ir_print_region(tl_buf_t *o, const tl_region_t *r)
{
    tl_buf_puts(o, r->buf->name);
    bool all_full = true;
    for (int i = 0; i < r->ndim; i++) all_full = all_full && full_dim(r, i);
    if (all_full && r->form == TL_REGION_WHOLE) return;
    tl_buf_putc(o, '[');
    for (int i = 0; i < r->ndim; i++) {
        if (i) tl_buf_puts(o, ", ");
        if (full_dim(r, i)) {
            tl_buf_putc(o, ':');
            continue;
        }
        tl_ir_print_expr(o, r->start[i]);
        int64_t e;
        if (!(tl_ir_is_const_int(r->extent[i], &e) && e == 1 && r->form != TL_REGION_POINT)) {
            tl_buf_puts(o, " +: ");
            print_expr_prec(o, r->extent[i], 12);
        }
    }
    tl_buf_putc(o, ']');
}

static void print_arg(tl_buf_t *o, const tl_arg_t *a)
{
    if (a->kind == TL_ARG_REGION)
        tl_ir_print_region(o, &a->region);
    else
        tl_ir_print_expr(o, a->scalar);
}

static const char *cmp_names[] = {
#define X(id, name) name,
    TL_CMP_MODES(X)
#undef X
};
static const char *sel_names[] = {
#define X(id, name) name,
    TL_SEL_MODES(X)
#undef X
};

static void print_op(tl_buf_t *o, const tl_op_t *op)
{
    const tl_opinfo_t *info = tl_op_info(op->code);
    tl_buf_puts(o, info->name);
    for (int i = 0; i < op->nargs; i++) {
        tl_buf_puts(o, i ? ", " : " ");
        print_arg(o, &op->args[i]);
    }
    // attributes, in a fixed order
    tl_buf_t attrs;
    tl_buf_init(&attrs);
    if (op->transpose_a) tl_buf_puts(&attrs, ", transpose_a");
    if (op->transpose_b) tl_buf_puts(&attrs, ", transpose_b");
    if (op->transpose) tl_buf_puts(&attrs, ", transpose");
    if (op->enable_relu) tl_buf_puts(&attrs, ", relu");
    if (op->init) {
        tl_buf_puts(&attrs, ", init=");
        tl_ir_print_expr(&attrs, op->init);
    }
    if (op->pad_value) {
        tl_buf_puts(&attrs, ", pad=");
        tl_ir_print_expr(&attrs, op->pad_value);
    }
    const char *valid_names[2] = {op->code == TL_OP_COPY ? "real_k" : "k_actual",
                                  op->code == TL_OP_COPY ? "real_n" : "n_actual"};
    const tl_expr_t *valid[2] = {op->k_valid, op->n_valid};
    for (int i = 0; i < 2; i++) {
        if (!valid[i]) continue;
        tl_buf_printf(&attrs, ", %s=", valid_names[i]);
        tl_ir_print_expr(&attrs, valid[i]);
    }
    if (op->k_l0) tl_buf_printf(&attrs, ", kL0Size=%d", op->k_l0);
    if (op->unit_flag) {
        tl_buf_puts(&attrs, ", unit_flag=");
        tl_ir_print_expr(&attrs, op->unit_flag);
    }
    if (op->code == TL_OP_CAST) tl_buf_printf(&attrs, ", %s", tl_round_name(op->round));
    if (op->code == TL_OP_COMPARE) tl_buf_printf(&attrs, ", %s", cmp_names[op->cmp]);
    if (op->code == TL_OP_SELECT) tl_buf_printf(&attrs, ", %s", sel_names[op->sel]);
    if (op->code == TL_OP_REINTERPRETCAST) tl_buf_printf(&attrs, ", %s", tl_dtype_name(op->dtype));
    if ((op->code == TL_OP_WHOLE_REDUCE_MAX || op->code == TL_OP_WHOLE_REDUCE_MIN) && op->order) {
        static const char *orders[] = {
#define X(id, name) name,
            TL_REDUCE_ORDERS(X)
#undef X
        };
        tl_buf_printf(&attrs, ", %s", orders[op->order]);
    }
    if (op->code == TL_OP_GATHER_MASK && op->pattern)
        tl_buf_printf(&attrs, ", %s", tl_gather_pattern_name(op->pattern));
    if (info->cls == TL_OPC_REDUCE) {
        tl_buf_printf(&attrs, ", dim=%d", op->dim);
        if (!op->clear) tl_buf_puts(&attrs, ", accumulate");
        if (op->reverse) tl_buf_puts(&attrs, ", reverse");
        if (op->real_shape[0] || op->real_shape[1])
            tl_buf_printf(&attrs, ", real_shape=[%" PRId64 ", %" PRId64 "]", op->real_shape[0],
                          op->real_shape[1]);
    }
    if (op->code == TL_OP_BROADCAST && op->dim >= 0) tl_buf_printf(&attrs, ", axis=%d", op->dim);
    if (attrs.len) tl_buf_printf(o, " [%s]", tl_buf_cstr(&attrs) + 2);
    tl_buf_free(&attrs);
}

static const char *loop_names[] = {"serial", "parallel", "pipelined", "unroll"};
static const char *side_tags[] = {"", "[C] ", "[V] ", "[CV] "};

void tl_ir_print_stmt(tl_buf_t *o, const tl_stmt_t *s, int ind)
{
    if (s->kind == TL_ST_SEQ) {
        for (int i = 0; i < s->seq.n; i++) tl_ir_print_stmt(o, s->seq.items[i], ind);
        return;
    }
    tl_buf_indent(o, ind);
    tl_buf_puts(o, side_tags[s->side]);
    if (s->inserted) tl_buf_puts(o, "+ ");
    switch (s->kind) {
    case TL_ST_SEQ: break;
    case TL_ST_FOR:
        tl_buf_printf(o, "for %s in %s(", s->for_.var->name, loop_names[s->for_.loop]);
        tl_ir_print_expr(o, s->for_.start);
        tl_buf_puts(o, ", ");
        tl_ir_print_expr(o, s->for_.end);
        if (s->for_.loop == TL_LOOP_PIPELINED) tl_buf_printf(o, ", stages=%d", s->for_.num_stages);
        if (s->for_.cross_interval) tl_buf_printf(o, ", cross_interval=%d", s->for_.cross_interval);
        tl_buf_puts(o, "):\n");
        tl_ir_print_stmt(o, s->for_.body, ind + 2);
        return;
    case TL_ST_WHILE:
        tl_buf_puts(o, "while ");
        tl_ir_print_expr(o, s->while_.cond);
        tl_buf_puts(o, ":\n");
        tl_ir_print_stmt(o, s->while_.body, ind + 2);
        return;
    case TL_ST_IF:
        tl_buf_puts(o, "if ");
        tl_ir_print_expr(o, s->if_.cond);
        tl_buf_puts(o, ":\n");
        tl_ir_print_stmt(o, s->if_.then_, ind + 2);
        if (s->if_.else_) {
            tl_buf_indent(o, ind);
            tl_buf_puts(o, "else:\n");
            tl_ir_print_stmt(o, s->if_.else_, ind + 2);
        }
        return;
    case TL_ST_LET:
        tl_buf_printf(o, "let %s: %s = ", s->let.var->name, tl_dtype_name(s->let.var->dtype));
        tl_ir_print_expr(o, s->let.value);
        break;
    case TL_ST_STORE:
        tl_buf_puts(o, s->store.buf->name);
        if (s->store.buf->scope != TL_SCOPE_VAR) {
            tl_buf_putc(o, '[');
            print_args(o, s->store.n, s->store.idx);
            tl_buf_putc(o, ']');
        }
        tl_buf_puts(o, " = ");
        tl_ir_print_expr(o, s->store.value);
        break;
    case TL_ST_OP: print_op(o, &s->op); break;
    case TL_ST_SCOPE:
        tl_buf_printf(o, "scope %s:\n", s->scope.side == TL_SIDE_CUBE ? "C" : "V");
        tl_ir_print_stmt(o, s->scope.body, ind + 2);
        return;
    case TL_ST_SYNC:
        tl_buf_puts(o, tl_sync_name(s->sync.kind));
        switch (s->sync.kind) {
        case TL_SYNC_SET_FLAG:
        case TL_SYNC_WAIT_FLAG:
            tl_buf_printf(o, " %s->%s, ", tl_pipe_name(s->sync.src), tl_pipe_name(s->sync.dst));
            tl_ir_print_expr(o, s->sync.id);
            break;
        case TL_SYNC_PIPE_BARRIER: tl_buf_printf(o, " %s", tl_pipe_name(s->sync.src)); break;
        case TL_SYNC_SET_CROSS:
            tl_buf_printf(o, " %s, ", tl_pipe_name(s->sync.src));
            tl_ir_print_expr(o, s->sync.id);
            if (s->sync.mode != 2) tl_buf_printf(o, ", mode=%d", s->sync.mode);
            break;
        case TL_SYNC_WAIT_CROSS:
            tl_buf_putc(o, ' ');
            tl_ir_print_expr(o, s->sync.id);
            break;
        default: break;
        }
        break;
    case TL_ST_PRINT:
        tl_buf_printf(o, "print \"%s\"", s->print.fmt ? s->print.fmt : "");
        for (int i = 0; i < s->print.n; i++) {
            tl_buf_puts(o, ", ");
            tl_ir_print_expr(o, s->print.args[i]);
        }
        if (s->print.region) {
            tl_buf_puts(o, ", ");
            tl_ir_print_region(o, s->print.region);
        }
        break;
    case TL_ST_BREAK: tl_buf_puts(o, "break"); break;
    case TL_ST_CONTINUE: tl_buf_puts(o, "continue"); break;
    }
    tl_buf_putc(o, '\n');
}

static const char *role_names[] = {"in", "out", "workspace"};

void tl_ir_print_kernel(tl_buf_t *o, const tl_kernel_t *k)
{
    tl_buf_printf(o, "kernel %s(\n", k->name);
    for (int i = 0; i < k->nparams; i++) {
        const tl_param_t *p = &k->params[i];
        tl_buf_printf(o, "  %s: %s ", p->name, role_names[p->role]);
        if (p->buf)
            print_gm_shape(o, p->buf);
        else
            tl_buf_printf(o, "%s", tl_dtype_name(p->var->dtype));
        tl_buf_puts(o, ",\n");
    }
    tl_buf_puts(o, ")\n");
    if (k->dims.len) {
        tl_buf_puts(o, "dims");
        for (int i = 0; i < k->dims.len; i++)
            tl_buf_printf(o, "%s %s", i ? "," : "", ((tl_var_t *)k->dims.items[i])->name);
        tl_buf_putc(o, '\n');
    }
    tl_buf_puts(o, "grid ");
    if (k->grid) tl_ir_print_expr(o, k->grid);
    if (k->threads)
        tl_buf_printf(o, " threads=%d (%s)\n", k->threads, k->cid ? k->cid->name : "_");
    else
        tl_buf_printf(o, " (%s, %s)\n", k->cid ? k->cid->name : "_", k->vid ? k->vid->name : "_");
    const tl_config_t *c = &k->config;
    tl_buf_printf(o, "config%s%s%s%s%s%s%s%s%s%s\n", c->auto_sync ? " auto_sync" : "",
                  c->memory_planning ? " memory_planning" : "",
                  c->auto_cv_combine ? " auto_cv_combine" : "",
                  c->auto_cv_sync ? " auto_cv_sync" : "", c->sync_baseline ? " sync_baseline" : "",
                  c->schedule ? "" : " no_schedule", c->auto_sync_vs ? "" : " no_auto_sync_vs",
                  k->cv_split ? " (cv split)" : "", strcmp(c->target, "auto") ? " target=" : "",
                  strcmp(c->target, "auto") ? c->target : "");
    bool header = false;
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *b = k->buffers.items[i];
        if (b->param >= 0) continue;
        if (!header) tl_buf_puts(o, "buffers\n");
        header = true;
        tl_buf_printf(o, "  %s: %s", b->name, tl_scope_name(b->scope));
        if (b->declared != b->scope) tl_buf_printf(o, " (declared %s)", tl_scope_name(b->declared));
        tl_buf_putc(o, ' ');
        if (b->scope == TL_SCOPE_GM)
            print_gm_shape(o, b);
        else {
            tl_buf_printf(o, "%s[", tl_dtype_name(b->dtype));
            for (int d = 0; d < b->ndim; d++)
                tl_buf_printf(o, "%s%" PRId64, d ? ", " : "", b->shape[d]);
            tl_buf_putc(o, ']');
            if (b->int4) tl_buf_puts(o, " (int4, two a byte)");
        }
        if (b->init) {
            tl_buf_puts(o, " = ");
            tl_ir_print_expr(o, b->init);
        }
        if (b->view_of)
            tl_buf_printf(o, " view of %s + %" PRId64 " B", b->view_of->name, b->view_offset);
        if (b->addr >= 0)
            tl_buf_printf(o, " @%" PRId64 "%s", b->addr, b->addr_pinned ? " pinned" : "");
        if (b->internal) tl_buf_puts(o, " internal");
        tl_buf_putc(o, '\n');
    }
    if (k->plan_note) tl_buf_printf(o, "memplan\n%s", k->plan_note);
    tl_buf_puts(o, "body\n");
    if (k->body) tl_ir_print_stmt(o, k->body, 2);
}
