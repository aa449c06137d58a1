// Lexer internals shared by lex.c (layout, names, numbers, operators, the
// main loop) and lex_string.c (string literals, escapes, f-strings).
#ifndef TL_FRONT_LEX_IMPL_H
#define TL_FRONT_LEX_IMPL_H

#include <setjmp.h>
#include <string.h>

#include "front/lex.h"

enum { TL_LEX_MAX_INDENT = 100, TL_LEX_MAX_BRACKETS = 200, TL_LEX_TABSIZE = 8 };
enum {
#define X(id, s) +1
    TL_LEX_NOPS = 0 TL_TOKEN_OPS(X),
    TL_LEX_NKEYWORDS = 0 TL_TOKEN_KEYWORDS(X),
#undef X
};

typedef struct {
    char c; // the opening bracket
    int line, col;
    uint32_t off;
} tl_bracket_t;

typedef struct {
    tl_arena_t *a;
    const tl_source_t *src;
    const char *p, *end, *line_start;
    int line;
    int ind[TL_LEX_MAX_INDENT], alt[TL_LEX_MAX_INDENT],
        nind; // indent stack: columns with tab size 8 and 1
    tl_bracket_t br[TL_LEX_MAX_BRACKETS];
    int nbr;
    bool paren;              // TL_TOKF_PAREN: no NEWLINE/INDENT/DEDENT
    bool at_line_start;      // indentation of the next line still to be measured
    bool bol_pending;        // the next token starts a logical line
    bool line_has_tok;       // the current logical line has tokens (so it needs a NEWLINE)
    int last_line, last_col; // end of the last token: where NEWLINE is placed
    uint32_t last_off;
    tl_token_t *toks;
    int len, cap;
    tl_buf_t scratch; // decoded string contents
    // ops[] and keywords[] chained by first character (longest operators first)
    int8_t op_first[128], op_next[TL_LEX_NOPS];
    int8_t kw_first[128], kw_next[TL_LEX_NKEYWORDS];
} tl_lexer_t;

static inline bool is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static inline bool is_name_char(char c)
{
    return is_name_start(c) || is_digit(c);
}

static inline bool in(char c, const char *set)
{
    return c && strchr(set, c);
}

static inline int col_of(const tl_lexer_t *lx, const char *at)
{
    return (int)(at - lx->line_start) + 1;
}

static inline uint32_t off_of(const tl_lexer_t *lx, const char *at)
{
    return (uint32_t)(at - lx->src->text);
}

static inline int digit_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 99;
}

// --- lex.c
// A token from `start` (at line:col) to lx->p.
tl_token_t *tl_lex_emit(tl_lexer_t *lx, int kind, const char *start, int line, int col);
// An ERROR token with its message, located at line:col (byte offset off).
void tl_lex_error_at(tl_lexer_t *lx, int line, int col, uint32_t off, const char *fmt, ...)
    TL_PRINTF(5, 6);
void tl_lex_eat_newline(tl_lexer_t *lx); // consumes "\n", "\r\n" or "\r" at lx->p

// --- lex_string.c
enum { TL_STR_RAW = 1, TL_STR_BYTES = 2, TL_STR_F = 4 };
// Prefix flags of the name [s, s+n) directly followed by a quote, or -1.
int tl_lex_string_prefix(const char *s, size_t n);
// A string literal: `start` is its prefix (if any), lx->p its opening quote.
void tl_lex_string_literal(tl_lexer_t *lx, const char *start, int flags);

#endif
