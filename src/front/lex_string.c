// String literals: finding their end, decoding escapes, and splitting
// f-strings into literal parts and replacement fields.
#include "front/lex_impl.h"

#include <stdlib.h>

// Line and column of `at`, which lies after `from` (at line:col, which may be
// on an earlier line).
static void locate(const char *from, int line, int col, const char *at, int *oline, int *ocol)
{
    for (const char *q = from; q < at; q++) {
        if (*q == '\n' || (*q == '\r' && q[1] != '\n'))
            line++, col = 1;
        else
            col++;
    }
    *oline = line;
    *ocol = col;
}

int tl_lex_string_prefix(const char *s, size_t n)
{
    int f = 0;
    if (n > 2) return -1;
    for (size_t i = 0; i < n; i++) {
        int bit;
        switch (s[i] | 0x20) {
        case 'r': bit = TL_STR_RAW; break;
        case 'b': bit = TL_STR_BYTES; break;
        case 'f': bit = TL_STR_F; break;
        case 'u': bit = n == 1 ? 0 : -1; break;
        default: bit = -1;
        }
        if (bit < 0 || (f & bit)) return -1;
        f |= bit;
    }
    if ((f & TL_STR_BYTES) && (f & TL_STR_F)) return -1;
    return f;
}

static void put_utf8(tl_buf_t *b, uint32_t c)
{
    if (c < 0x80) {
        tl_buf_putc(b, (char)c);
    } else if (c < 0x800) {
        tl_buf_putc(b, (char)(0xC0 | (c >> 6)));
        tl_buf_putc(b, (char)(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        tl_buf_putc(b, (char)(0xE0 | (c >> 12)));
        tl_buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
        tl_buf_putc(b, (char)(0x80 | (c & 0x3F)));
    } else {
        tl_buf_putc(b, (char)(0xF0 | (c >> 18)));
        tl_buf_putc(b, (char)(0x80 | ((c >> 12) & 0x3F)));
        tl_buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
        tl_buf_putc(b, (char)(0x80 | (c & 0x3F)));
    }
}

// Hex escape of exactly n digits at q; false when too short.
static bool hex_escape(const char *q, const char *e, int n, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < n; i++) {
        if (q + i >= e || digit_value(q[i]) >= 16) return false;
        v = v * 16 + (uint32_t)digit_value(q[i]);
    }
    *out = v;
    return true;
}

// Appends the contents [s, e) with escapes decoded (unless raw). Returns NULL
// or an error message; *err_at then points at the offending backslash.
static const char *decode(const char *s, const char *e, int flags, tl_buf_t *out,
                          const char **err_at)
{
    bool bytes = flags & TL_STR_BYTES;
    for (const char *q = s; q < e;) {
        if (bytes && (unsigned char)*q >= 0x80) {
            *err_at = q;
            return "bytes can only contain ASCII literal characters";
        }
        if (*q == '\r') { // line ends inside literals read as "\n", as in Python
            tl_buf_putc(out, '\n');
            q += q + 1 < e && q[1] == '\n' ? 2 : 1;
            continue;
        }
        if (*q != '\\' || (flags & TL_STR_RAW) || q + 1 >= e) {
            tl_buf_putc(out, *q++);
            continue;
        }
        const char *bs = q++;
        char c = *q++;
        uint32_t v;
        switch (c) {
        case '\n': break;
        case '\r':
            if (q < e && *q == '\n') q++;
            break;
        case '\\':
        case '\'':
        case '"': tl_buf_putc(out, c); break;
        case 'a': tl_buf_putc(out, '\a'); break;
        case 'b': tl_buf_putc(out, '\b'); break;
        case 'f': tl_buf_putc(out, '\f'); break;
        case 'n': tl_buf_putc(out, '\n'); break;
        case 'r': tl_buf_putc(out, '\r'); break;
        case 't': tl_buf_putc(out, '\t'); break;
        case 'v': tl_buf_putc(out, '\v'); break;
        case '0':
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
            v = (uint32_t)(c - '0');
            for (int i = 0; i < 2 && q < e && *q >= '0' && *q <= '7'; i++)
                v = v * 8 + (uint32_t)(*q++ - '0');
            if (bytes)
                tl_buf_putc(out, (char)(v & 0xFF));
            else
                put_utf8(out, v);
            break;
        case 'x':
            if (!hex_escape(q, e, 2, &v)) {
                *err_at = bs;
                return "truncated \\xXX escape";
            }
            q += 2;
            if (bytes)
                tl_buf_putc(out, (char)v);
            else
                put_utf8(out, v);
            break;
        case 'u':
        case 'U':
            if (bytes) goto keep;
            if (!hex_escape(q, e, c == 'u' ? 4 : 8, &v)) {
                *err_at = bs;
                return c == 'u' ? "truncated \\uXXXX escape" : "truncated \\UXXXXXXXX escape";
            }
            if (v > 0x10FFFF) {
                *err_at = bs;
                return "illegal Unicode character in \\U escape";
            }
            q += c == 'u' ? 4 : 8;
            put_utf8(out, v);
            break;
        case 'N':
            if (bytes) goto keep;
            *err_at = bs;
            return "\\N{...} escapes are not supported";
        default:
        keep: // unknown escapes keep their backslash, as in Python
            tl_buf_putc(out, '\\');
            tl_buf_putc(out, c);
        }
    }
    return NULL;
}

// Where a string literal starts, for locating errors inside it.
typedef struct {
    const char *start;
    int line, col;
    int flags;
    const char *err;    // first error found in an f-string
    const char *err_at; // where it points
} strctx_t;

static void *fail(strctx_t *sc, const char *at, const char *msg)
{
    if (!sc->err) sc->err = msg, sc->err_at = at;
    return NULL;
}

static tl_fpart_t *lit_part(tl_lexer_t *lx)
{
    tl_fpart_t *part = tl_arena_alloc(lx->a, sizeof *part);
    part->lit_len = lx->scratch.len;
    part->lit = tl_arena_strndup(lx->a, tl_buf_cstr(&lx->scratch), lx->scratch.len);
    tl_buf_clear(&lx->scratch);
    return part;
}

static const char *fparts(tl_lexer_t *lx, strctx_t *sc, const char *q, const char *e, bool spec,
                          tl_vec_t *parts);

// Skips a string literal nested in an f-string expression; NULL if unterminated.
static const char *skip_nested_string(const char *q, const char *e)
{
    char quote = *q;
    int n = (q + 2 < e && q[1] == quote && q[2] == quote) ? 3 : 1;
    for (q += n; q + n <= e; q++)
        if (*q == quote && (n == 1 || (q[1] == quote && q[2] == quote))) return q + n;
    return NULL;
}

// A replacement field; q is just after its '{'. Returns the position after
// the closing '}', or NULL on error.
static const char *ffield(tl_lexer_t *lx, strctx_t *sc, const char *q, const char *e,
                          tl_vec_t *parts)
{
    const char *es = q;
    int depth = 0;
    bool selfdoc = false;
    while (q < e) {
        char c = *q;
        if (c == '\\') return fail(sc, q, "f-string expression part cannot include a backslash");
        if (c == '#') return fail(sc, q, "f-string expression part cannot include '#'");
        if (c == '\'' || c == '"') {
            q = skip_nested_string(q, e);
            if (!q) return fail(sc, es, "f-string: unterminated string");
            continue;
        }
        if (in(c, "([{")) {
            depth++;
        } else if (in(c, ")]}")) {
            if (depth == 0 && c == '}') break;
            if (depth-- == 0) return fail(sc, q, "f-string: unmatched closing bracket");
        } else if (depth == 0 && in(c, "!=<>") && q + 1 < e && q[1] == '=') {
            q++; // != == <= >=
        } else if (depth == 0 && (c == '!' || c == ':')) {
            break;
        } else if (depth == 0 && c == '=') {
            selfdoc = true;
            break;
        }
        q++;
    }
    if (q >= e) return fail(sc, e, "f-string: expecting '}'");
    const char *ee = q;
    const char *t = es;
    while (t < ee && in(*t, " \t\r\n\f")) t++;
    if (t == ee) return fail(sc, ee, "f-string: empty expression not allowed");
    tl_fpart_t *f = tl_arena_alloc(lx->a, sizeof *f);
    f->is_expr = true;
    f->off = off_of(lx, es);
    f->len = (uint32_t)(ee - es);
    locate(sc->start, sc->line, sc->col, es, &f->line, &f->col);
    if (selfdoc) {
        q++;
        while (q < e && in(*q, " \t\r\n\f")) q++;
        tl_buf_putn(&lx->scratch, es, (size_t)(q - es));
        tl_vec_push(lx->a, parts, lit_part(lx));
    }
    if (q < e && *q == '!') {
        q++;
        if (q >= e || !in(*q, "rsa") || q + 1 >= e || !in(q[1], ":}"))
            return fail(sc, q, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
        f->conv = *q++;
    }
    if (q < e && *q == ':') {
        tl_vec_t spec = {0};
        f->has_spec = true;
        q = fparts(lx, sc, q + 1, e, true, &spec);
        if (!q) return NULL;
        f->spec = (tl_fpart_t **)spec.items;
        f->nspec = spec.len;
    }
    if (q >= e || *q != '}') return fail(sc, q, "f-string: expecting '}'");
    if (selfdoc && !f->conv && !f->has_spec) f->conv = 'r';
    tl_vec_push(lx->a, parts, f);
    return q + 1;
}

// The parts of an f-string body [q, e), or of a format spec (spec: stops at
// its closing '}', which it returns). NULL on error.
static const char *fparts(tl_lexer_t *lx, strctx_t *sc, const char *q, const char *e, bool spec,
                          tl_vec_t *parts)
{
    tl_buf_clear(&lx->scratch);
    while (q < e) {
        const char *s = q;
        while (q < e && *q != '{' && *q != '}') {
            if (*q == '\\' && !(sc->flags & TL_STR_RAW) && q + 1 < e && q[1] != '{' && q[1] != '}')
                q++;
            q++;
        }
        const char *err_at = NULL, *err = decode(s, q, sc->flags, &lx->scratch, &err_at);
        if (err) return fail(sc, err_at, err);
        if (q >= e) break;
        if (spec && *q == '}') break;
        if (!spec && q + 1 < e && q[1] == *q) { // {{ or }}
            tl_buf_putc(&lx->scratch, *q);
            q += 2;
            continue;
        }
        if (*q == '}') return fail(sc, q, "f-string: single '}' is not allowed");
        if (lx->scratch.len) tl_vec_push(lx->a, parts, lit_part(lx));
        q = ffield(lx, sc, q + 1, e, parts);
        if (!q) return NULL;
    }
    if (lx->scratch.len) tl_vec_push(lx->a, parts, lit_part(lx));
    if (spec && q >= e) return fail(sc, e, "f-string: expecting '}'");
    return q;
}

void tl_lex_string_literal(tl_lexer_t *lx, const char *start, int flags)
{
    int line = lx->line, col = col_of(lx, start);
    char quote = *lx->p;
    int n = (lx->p + 2 < lx->end && lx->p[1] == quote && lx->p[2] == quote) ? 3 : 1;
    const char *body = lx->p + n;
    lx->p = body;
    for (;;) {
        if (lx->p >= lx->end) {
            if (n == 3)
                tl_lex_error_at(lx, line, col, off_of(lx, start),
                                "unterminated triple-quoted string starting here");
            else
                tl_lex_error_at(lx, line, col, off_of(lx, start),
                                "unterminated string literal (detected at line %d)", lx->line);
            return;
        }
        char c = *lx->p;
        if (c == '\\' && lx->p + 1 < lx->end) {
            lx->p++;
            if (*lx->p == '\n' || *lx->p == '\r')
                tl_lex_eat_newline(lx);
            else
                lx->p++;
        } else if (c == '\n' || c == '\r') {
            if (n == 1) {
                tl_lex_error_at(lx, line, col, off_of(lx, start),
                                "unterminated string literal (detected at line %d)", lx->line);
                return;
            }
            tl_lex_eat_newline(lx);
        } else if (c == quote &&
                   (n == 1 || (lx->p + 2 < lx->end && lx->p[1] == quote && lx->p[2] == quote))) {
            break;
        } else {
            lx->p++;
        }
    }
    const char *body_end = lx->p;
    lx->p += n;
    strctx_t sc = {start, line, col, flags, NULL, NULL};
    tl_buf_clear(&lx->scratch);
    if (flags & TL_STR_F) {
        tl_vec_t parts = {0};
        fparts(lx, &sc, body, body_end, false, &parts);
        if (!sc.err) {
            tl_token_t *t = tl_lex_emit(lx, TL_TOK_FSTRING, start, line, col);
            t->v.fstr = tl_arena_alloc(lx->a, sizeof *t->v.fstr);
            t->v.fstr->parts = (tl_fpart_t **)parts.items;
            t->v.fstr->nparts = parts.len;
            return;
        }
    } else {
        sc.err = decode(body, body_end, flags, &lx->scratch, &sc.err_at);
        if (!sc.err) {
            tl_token_t *t = tl_lex_emit(lx, flags & TL_STR_BYTES ? TL_TOK_BYTES : TL_TOK_STRING,
                                        start, line, col);
            t->v.str.len = lx->scratch.len;
            t->v.str.s = tl_arena_strndup(lx->a, tl_buf_cstr(&lx->scratch), lx->scratch.len);
            return;
        }
    }
    int el, ec;
    locate(start, line, col, sc.err_at, &el, &ec);
    tl_lex_error_at(lx, el, ec, off_of(lx, sc.err_at), "%s", sc.err);
}
