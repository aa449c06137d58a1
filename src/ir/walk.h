// Walks over expressions and statement trees that several layers need: a
// pre-order visit, whether an expression reads memory (a scalar load of any
// buffer, alloc_var registers included), whether an expression or a statement
// tree mentions a variable.
#ifndef TL_IR_WALK_H
#define TL_IR_WALK_H

#include "ir/ir.h"

// Calls fn on e and its subexpressions in pre-order (load indices included);
// when fn returns false the children of that expression are skipped.
void tl_walk_expr(const tl_expr_t *e, bool (*fn)(void *arg, const tl_expr_t *e), void *arg);
// Whether e contains a scalar element load (TL_EX_LOAD).
bool tl_walk_has_load(const tl_expr_t *e);
// Whether e mentions variable v.
bool tl_walk_mentions(const tl_expr_t *e, const tl_var_t *v);
// Whether any expression in the statement tree s mentions variable v.
bool tl_walk_stmt_mentions(const tl_stmt_t *s, const tl_var_t *v);

#endif
