// Parser for kernel files: tokens (lex.h) to AST (ast.h), recursive descent
// over Python 3.11's grammar.
//
// A syntax error inside a top-level statement does not fail the module: the
// statement becomes a TL_AST_ERROR node holding the diagnostic and the names
// the statement would have bound, parsing resumes at the next top-level
// statement, and the evaluator reports the error only if the kernel needs one
// of those names. With TL_PARSE_STRICT every syntax error is reported to the
// diagnostics and the call fails.
//
// AST locations point into `src`, which must outlive the AST.
#ifndef TL_FRONT_PARSE_H
#define TL_FRONT_PARSE_H

#include "front/ast.h"

enum { TL_PARSE_STRICT = 1 };

// Parses a whole file; returns TL_OK unless strict mode saw an error
// (TL_ERR_COMPILE, after reporting every broken statement) or memory ran out.
tl_status_t tl_parse_module(tl_arena_t *a, const tl_source_t *src, tl_diag_t *d,
                            tl_ast_module_t **out);
tl_status_t tl_parse_module_ex(tl_arena_t *a, const tl_source_t *src, int flags, tl_diag_t *d,
                               tl_ast_module_t **out);
// Parses the whole of `src` as one expression (a `-a NAME=VALUE` value:
// `lambda a, b: a + b`, `(64, 128)`, `1, 2` is a tuple). Newlines and
// indentation are ignored. Errors are always reported.
tl_status_t tl_parse_expression(tl_arena_t *a, const tl_source_t *src, tl_diag_t *d,
                                tl_ast_node_t **out);

#endif
