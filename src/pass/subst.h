// Substitution and deep copies of IR: expressions with variables replaced by
// expressions and buffers replaced by buffers, statement trees copied with the
// same replacements (for passes that duplicate or specialise code: T.Parallel
// lowering, software pipelining).
//
// Rebuilt expressions keep the dtype of the node they replace (integer
// arithmetic on constants is folded when the folded dtype is the same), so a
// substitution never changes what an expression computes except through the
// values substituted.
#ifndef TL_PASS_SUBST_H
#define TL_PASS_SUBST_H

#include "ir/ir.h"

typedef struct {
    int nvars, capvars;
    const tl_var_t **from;
    tl_expr_t **to;
    int nbufs, capbufs;
    const tl_buffer_t **bfrom;
    tl_buffer_t **bto;
    // Copies of loops and lets define new variables (mapped from the old ones),
    // so that a copy next to the original defines each variable once.
    bool fresh_vars;
} tl_subst_t;

void tl_subst_init(tl_subst_t *m);
void tl_subst_free(tl_subst_t *m);
void tl_subst_var(tl_subst_t *m, const tl_var_t *v, tl_expr_t *with);
void tl_subst_buffer(tl_subst_t *m, const tl_buffer_t *b, tl_buffer_t *with);

tl_expr_t *tl_subst_expr(tl_kernel_t *k, tl_subst_t *m, tl_expr_t *e);
void tl_subst_region(tl_kernel_t *k, tl_subst_t *m, const tl_region_t *in, tl_region_t *out);
// A deep copy of s with the substitutions applied.
tl_stmt_t *tl_subst_stmt(tl_kernel_t *k, tl_subst_t *m, const tl_stmt_t *s);
// Replaces every direct child statement c of s (seq items, loop bodies,
// branches, scope bodies) by fn(arg, c); returns s. Rewrites recurse by
// calling it from fn.
tl_stmt_t *tl_subst_children(tl_stmt_t *s, tl_stmt_t *(*fn)(void *arg, tl_stmt_t *c), void *arg);

#endif
