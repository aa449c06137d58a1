// Parser internals shared by parse.c (driver, token helpers, recovery),
// parse_stmt.c (statements) and parse_expr.c (expressions).
//
// A syntax error longjmps to the handler of the top-level statement being
// parsed; everything allocated so far stays in the arena.
#ifndef TL_FRONT_PARSE_IMPL_H
#define TL_FRONT_PARSE_IMPL_H

#include <setjmp.h>

#include "front/lex.h"
#include "front/parse.h"

typedef struct {
    tl_arena_t *a;
    const tl_source_t *src;
    tl_token_t *toks; // tokens being parsed: the file's, or an f-string field's
    int ntoks, pos;
    tl_token_t *tok;  // toks[pos]
    tl_tokens_t file; // the file's tokens
    int depth;        // expression nesting, bounded to keep the C stack small
    jmp_buf *fail;    // where a syntax error goes
    const char *err_msg;
    tl_loc_t err_loc;
} tl_parser_t;

// --- parse.c: tokens and errors
void tl_parse_set_tokens(tl_parser_t *p, tl_token_t *toks, int ntoks, int pos);
tl_token_t *tl_parse_next(tl_parser_t *p); // returns the consumed token
bool tl_parse_accept(tl_parser_t *p, int kind);
// Consumes a `kind` token or fails with "expected ':' <context>, found NEWLINE".
tl_token_t *tl_parse_expect(tl_parser_t *p, int kind, const char *context);
const char *tl_parse_expect_name(tl_parser_t *p, const char *what);
const char *tl_parse_describe(tl_parser_t *p, const tl_token_t *t);
_Noreturn void tl_parse_fail(tl_parser_t *p, const tl_token_t *at, const char *fmt, ...)
    TL_PRINTF(3, 4);
_Noreturn void tl_parse_fail_at(tl_parser_t *p, tl_loc_t loc, const char *fmt, ...) TL_PRINTF(3, 4);
tl_loc_t tl_parse_loc(const tl_parser_t *p, const tl_token_t *t);
tl_ast_node_t *tl_parse_node(tl_parser_t *p, tl_ast_kind_t kind, const tl_token_t *at);

// --- parse_stmt.c
// statement = compound_stmt | simple_stmts   (appends one or more statements)
void tl_parse_stmt_statement(tl_parser_t *p, tl_vec_t *out);

// --- parse_expr.c
tl_ast_node_t *tl_parse_expr_star_expressions(tl_parser_t *p);
tl_ast_node_t *tl_parse_expr_expression(tl_parser_t *p);
tl_ast_node_t *tl_parse_expr_named(tl_parser_t *p);
tl_ast_node_t *tl_parse_expr_bitwise_or(tl_parser_t *p);
tl_ast_node_t *tl_parse_expr_yield(tl_parser_t *p);
tl_ast_node_t *tl_parse_expr_star_targets(tl_parser_t *p);
tl_ast_node_t *tl_parse_expr_star_target(tl_parser_t *p);
bool tl_parse_expr_starts(const tl_token_t *t); // can t begin an expression?
// Parameters up to (not including) `closer`: def (with annotations) and lambda.
tl_ast_list_t tl_parse_expr_params(tl_parser_t *p, int closer, bool annotations);
// Call arguments after `open` ('(') up to and including ')'.
void tl_parse_expr_arguments(tl_parser_t *p, const tl_token_t *open, tl_vec_t *args,
                             tl_vec_t *keywords);
// Fails unless e can be assigned to (del: deleted). `how` is appended to the
// message ("" or " here. Maybe you meant '==' instead of '='?").
void tl_parse_expr_check_target(tl_parser_t *p, const tl_ast_node_t *e, bool del, const char *how);

static inline bool tl_parse_at(const tl_parser_t *p, int kind)
{
    return p->tok->kind == kind;
}

static inline tl_ast_list_t tl_parse_list(tl_vec_t v)
{
    return (tl_ast_list_t){(tl_ast_node_t **)v.items, v.len};
}

#endif
