// Small statement-tree editing helpers shared by the passes that restructure
// the program (cv_split, vid_split, cross_sync, intra_sync).
#ifndef TL_PASS_REWRITE_H
#define TL_PASS_REWRITE_H

#include "ir/ir.h"

// Makes every compound body (for, while, if branches, scope) a seq, so that
// statements can be inserted next to any statement.
void tl_rewrite_normalize(tl_kernel_t *k);
// Inserts s into seq at index (0 = first; seq->seq.n = last).
void tl_rewrite_insert(tl_kernel_t *k, tl_stmt_t *seq, int index, tl_stmt_t *s);
// Removes the item at index from seq.
void tl_rewrite_remove(tl_stmt_t *seq, int index);
// A new sync statement marked inserted (id may be NULL for barriers).
tl_stmt_t *tl_rewrite_sync(tl_kernel_t *k, tl_sync_kind_t kind, tl_pipe_t src, tl_pipe_t dst,
                           tl_expr_t *id, int mode, tl_loc_t loc);
// A copy of a leaf statement (tile op operands copied, expressions shared).
tl_stmt_t *tl_rewrite_clone_leaf(tl_kernel_t *k, const tl_stmt_t *s);
// T.Scope(side) around body.
tl_stmt_t *tl_rewrite_scope(tl_kernel_t *k, tl_side_t side, tl_stmt_t *body, tl_loc_t loc);
// Calls fn on every statement of the tree in pre-order.
void tl_rewrite_walk(tl_stmt_t *s, void (*fn)(void *arg, tl_stmt_t *s), void *arg);
// Number of statements in the tree.
int tl_rewrite_count(tl_stmt_t *s);

#endif
