// Vector ops that may run past an operand's buffer (overrun.h).
#include "ir/overrun.h"

// The elements operand i of op s processes from its region's origin when
// that can exceed the region: an element-wise op's count (all its operands),
// gather_mask's source in whole 256-byte repeats (normal mode: "每次repeat操作
// 256Bytes数据", asc-devkit GatherMask.md, reduceMode; upstream's
// tl::ascend::GatherMask runs Ceil(size, 256) repeats of the source) and its
// kept elements (its destination: 2 of 4 for P0101 and P1010, 1 of 4 for
// P0001 ... P1000, all for P1111, of those repeats). False when the
// operand's extent is its region's; *known false when the number is known
// only at run time.
bool tl_overrun_elements(const tl_stmt_t *s, int i, int64_t *n, bool *known)
{
    const tl_op_t *op = &s->op;
    const tl_expr_t *c = tl_op_count(op);
    *known = true;
    if (c) {
        *known = tl_ir_is_const_int(c, n);
        // a packed int4 operand (a cast's): its bytes hold two of the count's elements
        if (*known && i < op->nargs && op->args[i].kind == TL_ARG_REGION && op->args[i].region.buf->int4)
            *n = (*n + 1) / 2;
        return true;
    }
    if (op->code != TL_OP_GATHER_MASK || (i != 0 && i != 1)) return false;
    static const int of4[] = {0, 2, 2, 1, 1, 1, 1, 4};
    const tl_region_t *src = &op->args[1].region;
    int64_t size = tl_dtype_size(src->buf->dtype), m = tl_region_numel(src);
    if (m < 0 || (i == 0 && (op->pattern < 1 || op->pattern > 7))) return (*known = false), true;
    int64_t whole = (m * size + 255) / 256 * (256 / size);
    *n = i == 1 ? whole : whole / 4 * of4[op->pattern];
    return true;
}

bool tl_overrun_each(const tl_stmt_t *s, tl_overrun_fn fn, void *arg)
{
    if (!s) return true;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (!tl_overrun_each(s->seq.items[i], fn, arg)) return false;
        return true;
    case TL_ST_FOR: return tl_overrun_each(s->for_.body, fn, arg);
    case TL_ST_WHILE: return tl_overrun_each(s->while_.body, fn, arg);
    case TL_ST_IF:
        return tl_overrun_each(s->if_.then_, fn, arg) && tl_overrun_each(s->if_.else_, fn, arg);
    case TL_ST_SCOPE: return tl_overrun_each(s->scope.body, fn, arg);
    case TL_ST_OP:
        for (int i = 0; i < s->op.nargs; i++) {
            const tl_arg_t *a = &s->op.args[i];
            int64_t n = 0;
            bool known;
            if (a->kind != TL_ARG_REGION || a->region.buf->scope != TL_SCOPE_UB ||
                !tl_overrun_elements(s, i, &n, &known))
                continue;
            if (!fn(arg, s, i, n, known)) return false;
        }
        return true;
    default: return true;
    }
}

static bool find_possible(void *arg, const tl_stmt_t *s, int i, int64_t c, bool known)
{
    int64_t n = tl_region_numel(&s->op.args[i].region);
    if (!known || n < 0 || c > n) {
        *(bool *)arg = true;
        return false;
    }
    return true;
}

bool tl_overrun_possible(const tl_kernel_t *k)
{
    bool found = false;
    tl_overrun_each(k->body, find_possible, &found);
    return found;
}
