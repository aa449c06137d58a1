// Parser: AST dumps of small programs, precedence, syntax errors with exact
// locations, error recovery, single-expression parsing.
#include "../test.h"

#include <stdlib.h>

#include "front/parse.h"

// Parses `text` (strict unless `lenient`) and returns its dump (malloc'd), or
// the diagnostics text when parsing failed.
static char *dump(const char *text, bool lenient)
{
    tl_source_t *src = tl_source_from_string("t.py", text);
    tl_arena_t a;
    tl_arena_init(&a);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_ast_module_t *m;
    tl_buf_t b;
    tl_buf_init(&b);
    if (tl_parse_module_ex(&a, src, lenient ? 0 : TL_PARSE_STRICT, &d, &m) == TL_OK)
        tl_ast_print_module(&b, m);
    else
        tl_buf_puts(&b, tl_diag_text(&d));
    char *s = strdup(tl_buf_cstr(&b));
    tl_buf_free(&b);
    tl_diag_free(&d);
    tl_arena_free(&a);
    tl_source_free(src);
    return s;
}

#define CHECK_DUMP(text, expected)                                                                 \
    do {                                                                                           \
        char *got_ = dump(text, false);                                                            \
        CHECK_STREQ(got_, expected);                                                               \
        free(got_);                                                                                \
    } while (0)

TEST(precedence_basics)
{
    CHECK_DUMP("-2**2\n", "(expr (- (** 2 2)))\n");
    CHECK_DUMP("a < b < c\n", "(expr (cmp (name a) < (name b) < (name c)))\n");
    CHECK_DUMP("not a and b or c\n", "(expr (or (and (not (name a)) (name b)) (name c)))\n");
    CHECK_DUMP("x if c else y\n", "(expr (ifexp (name c) (name x) (name y)))\n");
    CHECK_DUMP("lambda: 0\n", "(expr (lambda (params) 0))\n");
    CHECK_DUMP("a[1:2, ::3, i]\n",
               "(expr (subscript (name a) (tuple (slice 1 2 _) (slice _ _ 3) (name i))))\n");
}
