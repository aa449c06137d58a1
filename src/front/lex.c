// Lexer for kernel files: turns a source into tokens (see lex.h).
#include "front/lex_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    int len, kind;
} spelling_t;

// Longest operators first, so the first match is the longest one.
static const spelling_t ops[] = {
#define X(id, s) {s, sizeof(s) - 1, id},
    TL_TOKEN_OPS(X)
#undef X
};

static const spelling_t keywords[] = {
#define X(id, s) {s, sizeof(s) - 1, id},
    TL_TOKEN_KEYWORDS(X)
#undef X
};

static const char *kind_names[TL_TOK_COUNT] = {
#define X(id, s) [id] = s,
    TL_TOKEN_OTHERS(X) TL_TOKEN_OPS(X) TL_TOKEN_KEYWORDS(X)
#undef X
};

static void chain(const spelling_t *table, int n, int8_t *first, int8_t *next)
{
    memset(first, -1, 128);
    for (int i = n - 1; i >= 0; i--) {
        unsigned char c = (unsigned char)table[i].s[0];
        next[i] = first[c];
        first[c] = (int8_t)i;
    }
}

const char *tl_lex_kind_name(int kind)
{
    return kind >= 0 && kind < TL_TOK_COUNT ? kind_names[kind] : "?";
}

static int keyword(const tl_lexer_t *lx, const char *s, size_t n)
{
    if ((unsigned char)s[0] >= 128) return TL_TOK_NAME;
    for (int i = lx->kw_first[(unsigned char)s[0]]; i >= 0; i = lx->kw_next[i])
        if ((size_t)keywords[i].len == n && memcmp(keywords[i].s, s, n) == 0)
            return keywords[i].kind;
    return TL_TOK_NAME;
}

static tl_token_t *push(tl_lexer_t *lx, int kind, int line, int col, uint32_t off)
{
    if (lx->len == lx->cap) {
        int cap = lx->cap ? lx->cap * 2 : 256;
        tl_token_t *t = realloc(lx->toks, sizeof *t * (size_t)cap);
        if (!t) longjmp(*lx->a->oom, 1);
        lx->toks = t;
        lx->cap = cap;
    }
    tl_token_t *t = &lx->toks[lx->len++];
    memset(t, 0, sizeof *t);
    t->kind = (uint16_t)kind;
    t->line = line;
    t->col = col;
    t->off = off;
    return t;
}

// Bookkeeping for a token from the line's content (not INDENT/DEDENT/NEWLINE).
static void content(tl_lexer_t *lx, tl_token_t *t)
{
    if (lx->bol_pending) {
        t->flags |= TL_TOKF_BOL;
        t->depth = (uint8_t)(lx->nind - 1);
        lx->bol_pending = false;
    }
    if (lx->paren) t->flags |= TL_TOKF_PAREN;
    lx->line_has_tok = true;
    lx->last_line = lx->line;
    lx->last_col = col_of(lx, lx->p);
    lx->last_off = off_of(lx, lx->p);
}

tl_token_t *tl_lex_emit(tl_lexer_t *lx, int kind, const char *start, int line, int col)
{
    tl_token_t *t = push(lx, kind, line, col, off_of(lx, start));
    t->len = (uint32_t)(lx->p - start);
    content(lx, t);
    return t;
}

// Indentation tokens carry no text and never start a logical line themselves.
static void emit_layout(tl_lexer_t *lx, int kind, int line, int col, uint32_t off)
{
    push(lx, kind, line, col, off);
}

void tl_lex_error_at(tl_lexer_t *lx, int line, int col, uint32_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[256];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    tl_token_t *t = push(lx, TL_TOK_ERROR, line, col, off);
    t->v.str.s = tl_arena_strdup(lx->a, tmp);
    t->v.str.len = strlen(tmp);
    content(lx, t);
}

// Consumes one line end ("\n", "\r\n" or "\r") at lx->p.
void tl_lex_eat_newline(tl_lexer_t *lx)
{
    if (*lx->p == '\r' && lx->p + 1 < lx->end && lx->p[1] == '\n') lx->p++;
    lx->p++;
    lx->line++;
    lx->line_start = lx->p;
}

static void indent_error(tl_lexer_t *lx, const char *at, const char *msg)
{
    tl_lex_error_at(lx, lx->line, col_of(lx, at), off_of(lx, at), "%s", msg);
}

// Compares a new line's indentation with the stack (CPython's rules) and emits
// INDENT/DEDENT. On an inconsistent dedent the line becomes a new block level,
// so the token stream stays balanced for the parser's recovery.
static void indent_to(tl_lexer_t *lx, int col, int alt, const char *at)
{
    static const char tab_msg[] = "inconsistent use of tabs and spaces in indentation";
    int line = lx->line, c = col_of(lx, at);
    uint32_t off = off_of(lx, at);
    int n = lx->nind;
    if (col == lx->ind[n - 1]) {
        if (alt != lx->alt[n - 1]) indent_error(lx, at, tab_msg);
        return;
    }
    if (col > lx->ind[n - 1]) {
        if (alt <= lx->alt[n - 1]) indent_error(lx, at, tab_msg);
        if (n == TL_LEX_MAX_INDENT) {
            indent_error(lx, at, "too many levels of indentation");
            return;
        }
        lx->ind[n] = col;
        lx->alt[n] = alt;
        lx->nind++;
        emit_layout(lx, TL_TOK_INDENT, line, c, off);
        return;
    }
    while (n > 1 && col < lx->ind[n - 1]) n--;
    bool mismatch = col != lx->ind[n - 1];
    if (mismatch)
        indent_error(lx, at, "unindent does not match any outer indentation level");
    else if (alt != lx->alt[n - 1])
        indent_error(lx, at, tab_msg);
    while (lx->nind > n) {
        lx->nind--;
        emit_layout(lx, TL_TOK_DEDENT, line, c, off);
    }
    if (mismatch) {
        lx->ind[n] = col;
        lx->alt[n] = alt;
        lx->nind++;
        emit_layout(lx, TL_TOK_INDENT, line, c, off);
    }
}

// At the start of a physical line outside brackets: skips blank and
// comment-only lines, then handles the indentation. False at end of input.
static bool indentation(tl_lexer_t *lx)
{
    for (;;) {
        int col = 0, alt = 0;
        const char *q = lx->p;
        for (; q < lx->end; q++) {
            if (*q == ' ')
                col++, alt++;
            else if (*q == '\t')
                col = (col / TL_LEX_TABSIZE + 1) * TL_LEX_TABSIZE, alt++;
            else if (*q == '\f')
                col = alt = 0;
            else
                break;
        }
        lx->p = q;
        if (q >= lx->end) return false;
        if (*q == '#' || *q == '\n' || *q == '\r') {
            while (lx->p < lx->end && *lx->p != '\n' && *lx->p != '\r') lx->p++;
            if (lx->p >= lx->end) return false;
            tl_lex_eat_newline(lx);
            continue;
        }
        lx->at_line_start = false;
        indent_to(lx, col, alt, q);
        lx->bol_pending = true;
        return true;
    }
}

// Keywords that can only start a statement, never continue an expression.
static bool statement_keyword(int kind)
{
    switch (kind) {
    case TL_TOK_DEF:
    case TL_TOK_CLASS:
    case TL_TOK_IMPORT:
    case TL_TOK_FROM:
    case TL_TOK_RETURN:
    case TL_TOK_PASS:
    case TL_TOK_BREAK:
    case TL_TOK_CONTINUE:
    case TL_TOK_RAISE:
    case TL_TOK_GLOBAL:
    case TL_TOK_NONLOCAL:
    case TL_TOK_DEL:
    case TL_TOK_ASSERT:
    case TL_TOK_WITH:
    case TL_TOK_WHILE:
    case TL_TOK_TRY:
    case TL_TOK_EXCEPT:
    case TL_TOK_FINALLY:
    case TL_TOK_ELIF: return true;
    default: return false;
    }
}

static void bracket_error(tl_lexer_t *lx, const tl_bracket_t *b, const char *what)
{
    tl_lex_error_at(lx, b->line, b->col, b->off, "'%c' was never closed%s", b->c, what);
}

// Inside brackets, a physical line that starts with a keyword that only
// starts statements (`from` only in column 1: `yield from` may continue a
// line) means a bracket was never closed: report it and resume there, so one
// missing ')' does not swallow the rest of the file.
static void check_unclosed(tl_lexer_t *lx)
{
    const char *q = lx->p, *e;
    while (q < lx->end && (*q == ' ' || *q == '\t' || *q == '\f')) q++;
    for (e = q; e < lx->end && is_name_char(*e);) e++;
    int kw = e > q ? keyword(lx, q, (size_t)(e - q)) : TL_TOK_NAME;
    if (!statement_keyword(kw) || (kw == TL_TOK_FROM && q != lx->p)) return;
    int line = lx->last_line, col = lx->last_col; // end the line after its last token
    uint32_t off = lx->last_off;
    bracket_error(lx, &lx->br[lx->nbr - 1], "");
    lx->nbr = 0;
    emit_layout(lx, TL_TOK_NEWLINE, line, col, off);
    lx->line_has_tok = false;
    lx->at_line_start = true;
}

static void newline(tl_lexer_t *lx)
{
    tl_lex_eat_newline(lx);
    if (lx->paren) return;
    if (lx->nbr > 0) {
        check_unclosed(lx);
        return;
    }
    if (lx->line_has_tok)
        emit_layout(lx, TL_TOK_NEWLINE, lx->last_line, lx->last_col, lx->last_off);
    lx->line_has_tok = false;
    lx->at_line_start = true;
}

static void continuation(tl_lexer_t *lx)
{
    const char *at = lx->p++;
    if (lx->p < lx->end && (*lx->p == '\n' || *lx->p == '\r')) {
        tl_lex_eat_newline(lx);
        if (lx->p >= lx->end)
            tl_lex_error_at(lx, lx->line - 1, col_of(lx, at), off_of(lx, at),
                            "unexpected end of file after line continuation character");
        return;
    }
    tl_lex_error_at(lx, lx->line, col_of(lx, at) + 1, off_of(lx, at) + 1,
                    "unexpected character after line continuation character");
}

// --- numbers ---------------------------------------------------------------

// Scans digits of `radix` with single underscores between them (and, after a
// base prefix, before the first one). Returns the digit count, or -1 when an
// underscore is misplaced.
static int digits(tl_lexer_t *lx, int radix, bool lead_underscore)
{
    int n = 0;
    for (;;) {
        const char *q = lx->p;
        if (q < lx->end && *q == '_' && (n > 0 || lead_underscore)) q++;
        if (q < lx->end && digit_value(*q) < radix) {
            lx->p = q + 1;
            n++;
            continue;
        }
        if (q != lx->p || (lx->p < lx->end && *lx->p == '_')) return -1;
        return n;
    }
}

static void number_value(tl_token_t *t, const char *s, const char *e, int radix)
{
    uint64_t v = 0;
    bool over = false;
    double f = 0;
    for (const char *q = s; q < e; q++) {
        if (*q == '_') continue;
        unsigned d = (unsigned)digit_value(*q);
        if (v > (UINT64_MAX - d) / (unsigned)radix) over = true;
        v = v * (unsigned)radix + d;
        f = f * radix + d;
    }
    t->v.num.i = (int64_t)v;
    t->v.num.f = f;
    if (over || v > INT64_MAX) t->flags |= TL_TOKF_BIG;
    if (!over && v > INT64_MAX) t->flags |= TL_TOKF_U64;
}

static void number(tl_lexer_t *lx)
{
    const char *s = lx->p;
    int line = lx->line, col = col_of(lx, s);
    const char *what = "decimal";
    bool is_float = false, bad = false;
    int radix = 10;
    if (*s == '0' && s + 1 < lx->end && in(s[1], "xXoObB")) {
        radix = in(s[1], "xX") ? 16 : in(s[1], "oO") ? 8 : 2;
        what = radix == 16 ? "hexadecimal" : radix == 8 ? "octal" : "binary";
        lx->p += 2;
        bad = digits(lx, radix, true) <= 0;
        if (!bad && lx->p < lx->end && is_digit(*lx->p)) bad = true; // 0b12, 0o8
    } else {
        int n = is_digit(*s) ? digits(lx, 10, false) : 0;
        bad = n < 0;
        if (!bad && lx->p < lx->end && *lx->p == '.') {
            is_float = true;
            lx->p++;
            if (lx->p < lx->end && is_digit(*lx->p)) bad = digits(lx, 10, false) < 0;
        }
        if (!bad && lx->p < lx->end && (*lx->p == 'e' || *lx->p == 'E')) {
            // without exponent digits the 'e' is left to the check for a trailing
            // name below: "1e" is an error, "1else" is "1 else"
            const char *q = lx->p + 1;
            if (q < lx->end && (*q == '+' || *q == '-')) q++;
            if (q < lx->end && is_digit(*q)) {
                is_float = true;
                lx->p = q;
                bad = digits(lx, 10, false) < 0;
            }
        }
        if (!bad && !is_float && *s == '0') {
            for (const char *q = s; q < lx->p; q++)
                if (*q != '0' && *q != '_') {
                    tl_lex_error_at(
                        lx, line, col, off_of(lx, s),
                        "leading zeros in decimal integer literals are not permitted; use "
                        "an 0o prefix for octal integers");
                    return;
                }
        }
    }
    if (!bad && lx->p < lx->end && (*lx->p == 'j' || *lx->p == 'J')) {
        lx->p++;
        tl_lex_error_at(lx, line, col, off_of(lx, s), "imaginary literals are not supported");
        return;
    }
    if (!bad && lx->p < lx->end && is_name_char(*lx->p)) {
        // "1if x else y" is valid: a keyword may follow a number directly
        const char *e = lx->p;
        while (e < lx->end && is_name_char(*e)) e++;
        bad = keyword(lx, lx->p, (size_t)(e - lx->p)) == TL_TOK_NAME;
    }
    if (bad) {
        while (lx->p < lx->end && (is_name_char(*lx->p) || *lx->p == '.')) lx->p++;
        tl_lex_error_at(lx, line, col, off_of(lx, s), "invalid %s literal", what);
        return;
    }
    if (is_float) {
        char *buf = tl_arena_alloc(lx->a, (size_t)(lx->p - s) + 1), *b = buf;
        for (const char *q = s; q < lx->p; q++)
            if (*q != '_') *b++ = *q;
        tl_token_t *t = tl_lex_emit(lx, TL_TOK_FLOAT, s, line, col);
        t->v.num.f = strtod(buf, NULL);
        return;
    }
    tl_token_t *t = tl_lex_emit(lx, TL_TOK_INT, s, line, col);
    number_value(t, radix == 10 ? s : s + 2, lx->p, radix);
}

// --- names, operators, the main loop ----------------------------------------------

static void name(tl_lexer_t *lx)
{
    const char *s = lx->p;
    int line = lx->line, col = col_of(lx, s);
    while (lx->p < lx->end && is_name_char(*lx->p)) lx->p++;
    size_t n = (size_t)(lx->p - s);
    if (lx->p < lx->end && (*lx->p == '\'' || *lx->p == '"')) {
        int flags = tl_lex_string_prefix(s, n);
        if (flags >= 0) {
            tl_lex_string_literal(lx, s, flags);
            return;
        }
    }
    if (lx->p < lx->end && (unsigned char)*lx->p >= 0x80) {
        while (lx->p < lx->end && (is_name_char(*lx->p) || (unsigned char)*lx->p >= 0x80)) lx->p++;
        tl_lex_error_at(lx, line, col, off_of(lx, s),
                        "non-ASCII identifiers are not supported: '%.*s'", (int)(lx->p - s), s);
        return;
    }
    int kind = keyword(lx, s, n);
    tl_token_t *t = tl_lex_emit(lx, kind, s, line, col);
    if (kind == TL_TOK_NAME) {
        t->v.str.s = tl_arena_strndup(lx->a, s, n);
        t->v.str.len = n;
    }
}

static const char closing_of[128] = {['('] = ')', ['['] = ']', ['{'] = '}'};

static void bracket(tl_lexer_t *lx, char c, int line, int col, const char *at)
{
    if (closing_of[(unsigned char)c]) {
        if (lx->nbr == TL_LEX_MAX_BRACKETS) {
            tl_lex_error_at(lx, line, col, off_of(lx, at), "too many nested parentheses");
            return;
        }
        lx->br[lx->nbr++] = (tl_bracket_t){c, line, col, off_of(lx, at)};
        return;
    }
    if (lx->nbr == 0) {
        tl_lex_error_at(lx, line, col, off_of(lx, at), "unmatched '%c'", c);
        return;
    }
    tl_bracket_t *b = &lx->br[--lx->nbr];
    if (closing_of[(unsigned char)b->c] == c) return;
    if (b->line != line)
        tl_lex_error_at(
            lx, line, col, off_of(lx, at),
            "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d", c, b->c,
            b->line);
    else
        tl_lex_error_at(lx, line, col, off_of(lx, at),
                        "closing parenthesis '%c' does not match opening parenthesis '%c'", c,
                        b->c);
}

static void operator(tl_lexer_t *lx)
{
    const char *s = lx->p;
    int line = lx->line, col = col_of(lx, s);
    size_t left = (size_t)(lx->end - s);
    int first = (unsigned char)*s < 128 ? lx->op_first[(unsigned char)*s] : -1;
    for (int i = first; i >= 0; i = lx->op_next[i]) {
        const spelling_t *o = &ops[i];
        if ((size_t)o->len > left || memcmp(o->s, s, (size_t)o->len) != 0) continue;
        lx->p += o->len;
        if (in(*s, "()[]{}")) {
            int before = lx->len;
            bracket(lx, *s, line, col, s);
            if (lx->len != before) return; // reported a bracket error instead
        }
        tl_lex_emit(lx, o->kind, s, line, col);
        return;
    }
    unsigned char c = (unsigned char)*s;
    if (c >= 0x80) {
        lx->p++;
        while (lx->p < lx->end && ((unsigned char)*lx->p & 0xC0) == 0x80) lx->p++;
        tl_lex_error_at(
            lx, line, col, off_of(lx, s),
            "non-ASCII character '%.*s' outside a string or comment (identifiers must be "
            "ASCII)",
            (int)(lx->p - s), s);
        return;
    }
    lx->p++;
    if (c >= 0x20 && c < 0x7F)
        tl_lex_error_at(lx, line, col, off_of(lx, s), "invalid character '%c'", c);
    else
        tl_lex_error_at(lx, line, col, off_of(lx, s), "invalid character (byte 0x%02x)", c);
}

static void token(tl_lexer_t *lx)
{
    char c = *lx->p;
    if (is_name_start(c))
        name(lx);
    else if (is_digit(c) || (c == '.' && lx->p + 1 < lx->end && is_digit(lx->p[1])))
        number(lx);
    else if (c == '\'' || c == '"')
        tl_lex_string_literal(lx, lx->p, 0);
    else
        operator(lx);
}

static void finish(tl_lexer_t *lx)
{
    if (lx->nbr > 0) bracket_error(lx, &lx->br[lx->nbr - 1], "");
    int line = lx->line, col = col_of(lx, lx->p);
    uint32_t off = off_of(lx, lx->p);
    if (col == 1 && lx->last_line > 0) { // after the final newline: point at the last line's end
        line = lx->last_line;
        col = lx->last_col;
        off = lx->last_off;
    }
    if (lx->line_has_tok && !lx->paren)
        emit_layout(lx, TL_TOK_NEWLINE, lx->last_line, lx->last_col, lx->last_off);
    for (; lx->nind > 1; lx->nind--) emit_layout(lx, TL_TOK_DEDENT, line, col, off);
    emit_layout(lx, TL_TOK_EOF, line, col, off);
}

static void run(tl_lexer_t *lx)
{
    for (;;) {
        if (lx->at_line_start && !lx->paren && lx->nbr == 0 && !indentation(lx)) break;
        while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\f')) lx->p++;
        if (lx->p >= lx->end) break;
        char c = *lx->p;
        if (c == '#') {
            while (lx->p < lx->end && *lx->p != '\n' && *lx->p != '\r') lx->p++;
        } else if (c == '\n' || c == '\r') {
            newline(lx);
        } else if (c == '\\') {
            continuation(lx);
        } else {
            token(lx);
        }
    }
    finish(lx);
}

tl_status_t tl_lex_range(tl_arena_t *a, const tl_source_t *src, uint32_t off, uint32_t len,
                         int line, int col, int flags, tl_tokens_t *out)
{
    tl_status_t st = tl_lex_range_heap(a, src, off, len, line, col, flags, out);
    if (st != TL_OK) return st;
    tl_token_t *heap = out->toks;
    jmp_buf jb, *saved = a->oom;
    if (setjmp(jb)) {
        a->oom = saved;
        free(heap);
        if (saved) longjmp(*saved, 1);
        return TL_ERR_NOMEM;
    }
    a->oom = &jb;
    out->toks = tl_arena_dup(a, heap, sizeof *heap * (size_t)out->len);
    a->oom = saved;
    free(heap);
    return TL_OK;
}

tl_status_t tl_lex_range_heap(tl_arena_t *a, const tl_source_t *src, uint32_t off, uint32_t len,
                              int line, int col, int flags, tl_tokens_t *out)
{
    tl_lexer_t *lx = calloc(1, sizeof *lx);
    if (!lx) return TL_ERR_NOMEM;
    // Clean up on allocation failure, then pass it on to the caller's handler.
    jmp_buf jb, *saved = a->oom;
    if (setjmp(jb)) {
        a->oom = saved;
        free(lx->toks);
        tl_buf_free(&lx->scratch);
        free(lx);
        if (saved) longjmp(*saved, 1);
        return TL_ERR_NOMEM;
    }
    a->oom = &jb;
    chain(ops, (int)TL_ARRAY_LEN(ops), lx->op_first, lx->op_next);
    chain(keywords, (int)TL_ARRAY_LEN(keywords), lx->kw_first, lx->kw_next);
    lx->a = a;
    lx->src = src;
    lx->p = src->text + off;
    lx->end = lx->p + len;
    lx->line_start = lx->p - (col - 1);
    lx->line = line;
    lx->nind = 1;
    lx->paren = flags & TL_TOKF_PAREN;
    lx->at_line_start = !lx->paren;
    tl_buf_init(&lx->scratch);
    if (off == 0 && len >= 3 && memcmp(lx->p, "\xEF\xBB\xBF", 3) == 0) lx->p += 3; // BOM
    lx->cap = (int)(len / 3) + 64; // about 0.22 tokens per byte in kernel files
    lx->toks = malloc(sizeof *lx->toks * (size_t)lx->cap);
    if (!lx->toks) longjmp(jb, 1);
    run(lx);
    out->len = lx->len;
    out->toks = lx->toks;
    a->oom = saved;
    tl_buf_free(&lx->scratch);
    free(lx);
    return TL_OK;
}

tl_status_t tl_lex(tl_arena_t *a, const tl_source_t *src, tl_tokens_t *out)
{
    return tl_lex_range(a, src, 0, (uint32_t)src->len, 1, 1, 0, out);
}

// --- describing and dumping tokens ---------------------------------------------

void tl_lex_describe(const tl_source_t *src, const tl_token_t *t, tl_buf_t *out)
{
    // at most 24 bytes of the token's first line
    const char *text = src->text + t->off;
    int n = 0;
    while (n < 24 && (uint32_t)n < t->len && text[n] != '\n' && text[n] != '\r') n++;
    const char *more = (uint32_t)n < t->len ? "..." : "";
    switch (t->kind) {
    case TL_TOK_EOF:
    case TL_TOK_NEWLINE:
    case TL_TOK_INDENT:
    case TL_TOK_DEDENT: tl_buf_puts(out, kind_names[t->kind]); break;
    case TL_TOK_INT:
    case TL_TOK_FLOAT: tl_buf_printf(out, "number %.*s%s", n, text, more); break;
    case TL_TOK_STRING:
    case TL_TOK_BYTES:
    case TL_TOK_FSTRING: tl_buf_printf(out, "string %.*s%s", n, text, more); break;
    case TL_TOK_ERROR: tl_buf_printf(out, "invalid token (%s)", t->v.str.s); break;
    default: tl_buf_printf(out, "'%.*s%s'", n, text, more);
    }
}

static void dump_fparts(tl_buf_t *out, const tl_source_t *src, tl_fpart_t **parts, int n)
{
    for (int i = 0; i < n; i++) {
        const tl_fpart_t *f = parts[i];
        if (i) tl_buf_putc(out, ' ');
        if (!f->is_expr) {
            tl_lex_quote(out, f->lit, f->lit_len, false);
            continue;
        }
        tl_buf_putc(out, '{');
        for (uint32_t k = 0; k < f->len; k++) {
            char c = src->text[f->off + k];
            if (c == '\n')
                tl_buf_puts(out, "\\n");
            else
                tl_buf_putc(out, c);
        }
        if (f->conv) tl_buf_printf(out, " !%c", f->conv);
        if (f->has_spec) {
            tl_buf_puts(out, " :[");
            dump_fparts(out, src, f->spec, f->nspec);
            tl_buf_putc(out, ']');
        }
        tl_buf_putc(out, '}');
    }
}

void tl_lex_dump(const tl_source_t *src, const tl_tokens_t *toks, tl_buf_t *out)
{
    for (int i = 0; i < toks->len; i++) {
        const tl_token_t *t = &toks->toks[i];
        tl_buf_printf(out, "%d:%d ", t->line, t->col);
        switch (t->kind) {
        case TL_TOK_NAME: tl_buf_printf(out, "NAME %s", t->v.str.s); break;
        case TL_TOK_INT:
            if (t->flags & TL_TOKF_BIG)
                tl_buf_printf(out, "INT big %.*s", (int)t->len, src->text + t->off);
            else
                tl_buf_printf(out, "INT %lld", (long long)t->v.num.i);
            break;
        case TL_TOK_FLOAT:
            tl_buf_puts(out, "FLOAT ");
            tl_lex_put_float(out, t->v.num.f);
            break;
        case TL_TOK_STRING:
        case TL_TOK_BYTES:
            tl_buf_puts(out, t->kind == TL_TOK_STRING ? "STRING " : "BYTES ");
            tl_lex_quote(out, t->v.str.s, t->v.str.len, t->kind == TL_TOK_BYTES);
            break;
        case TL_TOK_FSTRING:
            tl_buf_puts(out, "FSTRING [");
            dump_fparts(out, src, t->v.fstr->parts, t->v.fstr->nparts);
            tl_buf_putc(out, ']');
            break;
        case TL_TOK_ERROR: tl_buf_printf(out, "ERROR %s", t->v.str.s); break;
        case TL_TOK_EOF: tl_buf_puts(out, "EOF"); break;
        case TL_TOK_NEWLINE:
        case TL_TOK_INDENT:
        case TL_TOK_DEDENT: tl_buf_puts(out, kind_names[t->kind]); break;
        default: tl_buf_printf(out, "'%s'", kind_names[t->kind]);
        }
        tl_buf_putc(out, '\n');
    }
}

void tl_lex_quote(tl_buf_t *out, const char *s, size_t n, bool ascii)
{
    tl_buf_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': tl_buf_puts(out, "\\\""); break;
        case '\\': tl_buf_puts(out, "\\\\"); break;
        case '\n': tl_buf_puts(out, "\\n"); break;
        case '\t': tl_buf_puts(out, "\\t"); break;
        case '\r': tl_buf_puts(out, "\\r"); break;
        default:
            if (c < 0x20 || c == 0x7F || (ascii && c >= 0x80))
                tl_buf_printf(out, "\\x%02x", c);
            else
                tl_buf_putc(out, (char)c);
        }
    }
    tl_buf_putc(out, '"');
}

void tl_lex_put_float(tl_buf_t *out, double f)
{
    if (isinf(f)) {
        tl_buf_puts(out, f > 0 ? "inf" : "-inf");
        return;
    }
    if (isnan(f)) {
        tl_buf_puts(out, "nan");
        return;
    }
    char tmp[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, f);
        if (strtod(tmp, NULL) == f) break;
    }
    tl_buf_puts(out, tmp);
    if (!strpbrk(tmp, ".e")) tl_buf_puts(out, ".0");
}
