// Parser driver: token helpers, syntax errors, the module loop with its
// per-statement error recovery, and single-expression parsing.
#include "front/parse_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// --- tokens and errors -------------------------------------------------------

tl_loc_t tl_parse_loc(const tl_parser_t *p, const tl_token_t *t)
{
    return (tl_loc_t){p->src, t->line, t->col};
}

tl_ast_node_t *tl_parse_node(tl_parser_t *p, tl_ast_kind_t kind, const tl_token_t *at)
{
    return tl_ast_new(p->a, kind, tl_parse_loc(p, at));
}

static _Noreturn void vfail(tl_parser_t *p, tl_loc_t loc, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    p->err_msg = tl_arena_strdup(p->a, msg);
    p->err_loc = loc;
    longjmp(*p->fail, 1);
}

void tl_parse_fail_at(tl_parser_t *p, tl_loc_t loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(p, loc, fmt, ap);
}

void tl_parse_fail(tl_parser_t *p, const tl_token_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(p, tl_parse_loc(p, at), fmt, ap);
}

// A lexical error becomes the syntax error as soon as the parser reaches it.
static void check_error_token(tl_parser_t *p)
{
    if (p->tok->kind == TL_TOK_ERROR) tl_parse_fail(p, p->tok, "%s", p->tok->v.str.s);
}

void tl_parse_set_tokens(tl_parser_t *p, tl_token_t *toks, int ntoks, int pos)
{
    p->toks = toks;
    p->ntoks = ntoks;
    p->pos = pos;
    p->tok = &toks[pos];
    check_error_token(p);
}

tl_token_t *tl_parse_next(tl_parser_t *p)
{
    tl_token_t *t = p->tok;
    if (p->pos + 1 < p->ntoks) p->tok = &p->toks[++p->pos];
    check_error_token(p);
    return t;
}

bool tl_parse_accept(tl_parser_t *p, int kind)
{
    if (p->tok->kind != kind) return false;
    tl_parse_next(p);
    return true;
}

const char *tl_parse_describe(tl_parser_t *p, const tl_token_t *t)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_lex_describe(p->src, t, &b);
    char *s = tl_arena_strdup(p->a, tl_buf_cstr(&b));
    tl_buf_free(&b);
    return s;
}

tl_token_t *tl_parse_expect(tl_parser_t *p, int kind, const char *context)
{
    if (p->tok->kind == kind) return tl_parse_next(p);
    bool quoted = kind >= TL_TOK_POW_EQ; // operators and keywords
    tl_parse_fail(p, p->tok, "expected %s%s%s%s%s, found %s", quoted ? "'" : "",
                  tl_lex_kind_name(kind), quoted ? "'" : "", context ? " " : "",
                  context ? context : "", tl_parse_describe(p, p->tok));
}

const char *tl_parse_expect_name(tl_parser_t *p, const char *what)
{
    if (p->tok->kind != TL_TOK_NAME)
        tl_parse_fail(p, p->tok, "expected %s, found %s", what, tl_parse_describe(p, p->tok));
    return tl_parse_next(p)->v.str.s;
}

// --- error recovery ------------------------------------------------------------

// Index of the first token after the broken top-level statement that starts
// at token s: the next logical line at indentation 0, skipping the clauses
// that continue a compound statement and the definition after decorators.
static int recovery_point(const tl_token_t *t, int s)
{
    bool decorated = t[s].kind == TL_TOK_AT;
    for (int i = s + 1;; i++) {
        if (t[i].kind == TL_TOK_EOF) return i;
        if (!(t[i].flags & TL_TOKF_BOL) || t[i].depth != 0) continue;
        int k = t[i].kind;
        if (k == TL_TOK_ELSE || k == TL_TOK_ELIF || k == TL_TOK_EXCEPT || k == TL_TOK_FINALLY)
            continue;
        if (decorated) {
            decorated = k == TL_TOK_AT;
            continue;
        }
        return i;
    }
}

static void add_name(tl_arena_t *a, tl_vec_t *v, const char *name)
{
    for (int i = 0; i < v->len; i++)
        if (strcmp(v->items[i], name) == 0) return;
    tl_vec_push(a, v, (void *)name);
}

static bool is_open(int k)
{
    return k == TL_TOK_LPAR || k == TL_TOK_LSQB || k == TL_TOK_LBRACE;
}

static bool is_close(int k)
{
    return k == TL_TOK_RPAR || k == TL_TOK_RSQB || k == TL_TOK_RBRACE;
}

// Index after the bracket that closes the one at i (or e).
static int skip_brackets(const tl_token_t *t, int i, int e)
{
    int depth = 0;
    for (; i < e; i++) {
        if (is_open(t[i].kind))
            depth++;
        else if (is_close(t[i].kind) && --depth == 0)
            return i + 1;
    }
    return e;
}

// Names bound by the target tokens [i, e): names, possibly in tuples and
// lists, that are not attribute bases, called, subscripted or annotated.
static void target_names(tl_arena_t *a, const tl_token_t *t, int i, int e, tl_vec_t *out)
{
    while (i < e) {
        int k = t[i].kind;
        if (k == TL_TOK_COLON) return; // annotation follows
        if (is_open(k) && i > 0 && (t[i - 1].kind == TL_TOK_NAME || is_close(t[i - 1].kind))) {
            i = skip_brackets(t, i, e); // call or subscript
            continue;
        }
        bool attr_base = i + 1 < e && (t[i + 1].kind == TL_TOK_DOT || is_open(t[i + 1].kind));
        bool attr = i > 0 && t[i - 1].kind == TL_TOK_DOT;
        if (k == TL_TOK_NAME && !attr_base && !attr) add_name(a, out, t[i].v.str.s);
        i++;
    }
}

// The names one logical line [i, e) binds, judged from its tokens.
static void line_names(tl_arena_t *a, const tl_token_t *t, int i, int e, tl_vec_t *out)
{
    int k = t[i].kind;
    if (k == TL_TOK_ASYNC && i + 1 < e) k = t[++i].kind;
    if ((k == TL_TOK_DEF || k == TL_TOK_CLASS) && i + 1 < e && t[i + 1].kind == TL_TOK_NAME) {
        add_name(a, out, t[i + 1].v.str.s);
    } else if (k == TL_TOK_IMPORT || k == TL_TOK_FROM) {
        // import a.b as c, d  /  from m import (x, y as z)
        bool after_import = k == TL_TOK_IMPORT, first = true;
        for (int j = i + 1; j < e; j++) {
            int kj = t[j].kind;
            if (kj == TL_TOK_IMPORT) after_import = true;
            if (!after_import || kj != TL_TOK_NAME) {
                if (kj == TL_TOK_COMMA) first = true;
                continue;
            }
            bool as = j + 2 < e && t[j + 1].kind == TL_TOK_AS;
            bool dotted = t[j - 1].kind == TL_TOK_DOT;
            if (t[j - 1].kind == TL_TOK_AS || (first && !dotted && !as))
                add_name(a, out, t[j].v.str.s);
            first = false;
        }
    } else if (k == TL_TOK_FOR) {
        int j = i + 1;
        while (j < e && t[j].kind != TL_TOK_IN) j++;
        target_names(a, t, i + 1, j, out);
    } else if (k == TL_TOK_WITH) {
        for (int j = i + 1; j + 1 < e; j++) {
            if (t[j].kind != TL_TOK_AS) continue;
            int s = j + 1;
            target_names(a, t, s, is_open(t[s].kind) ? skip_brackets(t, s, e) : s + 1, out);
        }
    } else if (k == TL_TOK_NAME || k == TL_TOK_LPAR || k == TL_TOK_LSQB || k == TL_TOK_STAR) {
        // a = b = value: every '=' at bracket depth 0 ends a target list
        int s = i;
        for (int j = i; j < e && t[j].kind != TL_TOK_LAMBDA;) {
            if (t[j].kind == TL_TOK_EQ) {
                target_names(a, t, s, j, out);
                s = j + 1;
            }
            j = is_open(t[j].kind) ? skip_brackets(t, j, e) : j + 1;
        }
    }
}

// The names the simple statements of one logical line [i, e) bind: the
// pieces between ';' at bracket depth 0.
static void logical_line_names(tl_arena_t *a, const tl_token_t *t, int i, int e, tl_vec_t *out)
{
    for (int s = i, j = i; j <= e;) {
        if (j == e || t[j].kind == TL_TOK_SEMI) {
            if (j > s) line_names(a, t, s, j, out);
            s = ++j;
            continue;
        }
        j = is_open(t[j].kind) ? skip_brackets(t, j, e) : j + 1;
    }
}

// Names a broken top-level statement [s, e) would have bound: walks its
// logical lines, descending into if/for/with/try bodies but not into the
// bodies of nested functions and classes.
static tl_ast_names_t defined_names(tl_parser_t *p, int s, int e)
{
    const tl_token_t *t = p->file.toks;
    tl_vec_t out = {0};
    int skip_deeper = -1;
    for (int i = s; i < e;) {
        int j = i + 1;
        while (j < e && !(t[j].flags & TL_TOKF_BOL)) j++;
        int depth = (t[i].flags & TL_TOKF_BOL) ? t[i].depth : 0;
        if (skip_deeper >= 0 && depth > skip_deeper) {
            i = j;
            continue;
        }
        skip_deeper = -1;
        logical_line_names(p->a, t, i, j, &out);
        int k = t[i].kind == TL_TOK_ASYNC && i + 1 < e ? t[i + 1].kind : t[i].kind;
        if (k == TL_TOK_DEF || k == TL_TOK_CLASS) skip_deeper = depth;
        i = j;
    }
    return (tl_ast_names_t){(const char **)out.items, out.len};
}

// Turns the error just raised into an ERROR statement (and, when strict, a
// reported diagnostic) and returns the index to resume at.
static int recover(tl_parser_t *p, int s, bool strict, tl_diag_t *d, tl_vec_t *body)
{
    const tl_token_t *t = p->file.toks;
    int resume = recovery_point(t, s);
    // A parse error at the first token of a line, inside a bracket of an earlier
    // line that is never closed: the bracket is the error (as CPython reports it).
    bool at_bol = false;
    for (int i = s; i < resume && !at_bol; i++)
        at_bol = t[i].line == p->err_loc.line && t[i].col == p->err_loc.col && i > 0 && t[i - 1].line < t[i].line;
    for (int i = s; at_bol && i < resume; i++)
        if (t[i].kind == TL_TOK_ERROR && strstr(t[i].v.str.s, "was never closed") && t[i].line < p->err_loc.line) {
            p->err_msg = t[i].v.str.s;
            p->err_loc = tl_parse_loc(p, &t[i]);
            break;
        }
    tl_ast_node_t *n = tl_ast_new(p->a, TL_AST_ERROR, p->err_loc);
    n->error.msg = p->err_msg;
    n->error.start = tl_parse_loc(p, &t[s]);
    tl_diag_t tmp;
    tl_diag_init(&tmp);
    tl_diag_error(&tmp, p->err_loc, "%s", p->err_msg);
    n->error.text = tl_arena_strdup(p->a, tl_diag_text(&tmp));
    tl_diag_free(&tmp);
    n->error.defines = defined_names(p, s, resume);
    if (strict) tl_diag_error(d, p->err_loc, "%s", p->err_msg);
    tl_vec_push(p->a, body, n);
    return resume;
}

// --- entry points ------------------------------------------------------------------

// Fails when n nests deeper than the limits (base/common.h): everything after
// the parser walks the tree recursively.
static void check_nesting(tl_parser_t *p, const tl_ast_node_t *n)
{
    bool blocks = false;
    const tl_ast_node_t *bad = tl_ast_too_deep(n, &blocks);
    if (!bad) return;
    if (blocks)
        tl_parse_fail_at(p, bad->loc,
                         "statements nest too deeply: more than %d compound statements inside one "
                         "another",
                         TL_MAX_BLOCKS);
    tl_parse_fail_at(p, bad->loc,
                     "this expression nests too deeply: more than %d levels (each operator of a "
                     "chain like a + b + c, each call, subscript and enclosing statement is a "
                     "level); split it into smaller expressions",
                     TL_MAX_NESTING);
}

// Parses one top-level statement at token `pos`; false after a syntax error.
static bool top_statement(tl_parser_t *p, int pos, tl_vec_t *body)
{
    jmp_buf jb;
    p->fail = &jb;
    p->depth = 0;
    if (setjmp(jb)) return false;
    tl_parse_set_tokens(p, p->file.toks, p->file.len, pos);
    int first = body->len;
    tl_parse_stmt_statement(p, body);
    for (int i = first; i < body->len; i++) check_nesting(p, body->items[i]);
    return true;
}

enum { MAX_SYNTAX_ERRORS = 101 };

// file = statement* EOF
static int module(tl_parser_t *p, bool strict, tl_diag_t *d, tl_vec_t *body)
{
    int nerrors = 0;
    for (int pos = 0; p->file.toks[pos].kind != TL_TOK_EOF;) {
        int mark = body->len;
        if (top_statement(p, pos, body)) {
            pos = p->pos;
            continue;
        }
        body->len = mark; // drop `a = 1` of a broken `a = 1; b = (`
        pos = recover(p, pos, strict, d, body);
        // a flood of errors (a generated file gone wrong) stops: recovering
        // from each costs up to the rest of the file
        if (++nerrors == MAX_SYNTAX_ERRORS) {
            p->err_msg = tl_arena_printf(p->a, "more than %d syntax errors; the rest of the "
                                               "file was not read", MAX_SYNTAX_ERRORS - 1);
            p->err_loc = tl_parse_loc(p, &p->file.toks[pos]);
            recover(p, pos, strict, d, body);
            break;
        }
    }
    return nerrors;
}

// expression_input = star_expressions EOF
static tl_ast_node_t *expression_input(tl_parser_t *p)
{
    jmp_buf jb;
    p->fail = &jb;
    if (setjmp(jb)) return NULL;
    tl_parse_set_tokens(p, p->file.toks, p->file.len, 0);
    tl_ast_node_t *e = tl_parse_expr_star_expressions(p);
    if (!tl_parse_at(p, TL_TOK_EOF))
        tl_parse_fail(p, p->tok, "expected end of expression, found %s",
                      tl_parse_describe(p, p->tok));
    check_nesting(p, e);
    return e;
}

// Both entry points: lexes src, then parses a module (*mod) or a single
// expression (*expr), with allocation failures caught.
static tl_status_t run(tl_arena_t *a, const tl_source_t *src, int flags, tl_diag_t *d,
                       tl_ast_module_t **mod, tl_ast_node_t **expr)
{
    // The file's tokens are needed only while parsing: they stay on the heap.
    tl_tokens_t *volatile toks = NULL;
    jmp_buf oom, *saved = a->oom;
    if (setjmp(oom)) {
        a->oom = saved;
        if (toks) free(toks->toks);
        return tl_diag_report(d, TL_SEV_ERROR, (tl_loc_t){0}, TL_ERR_NOMEM,
                              "out of memory while parsing %s", src->path);
    }
    a->oom = &oom;
    tl_parser_t *p = tl_arena_alloc(a, sizeof *p);
    p->a = a;
    p->src = src;
    tl_lex_range_heap(a, src, 0, (uint32_t)src->len, 1, 1, expr ? TL_TOKF_PAREN : 0, &p->file);
    toks = &p->file;
    tl_status_t st = TL_OK;
    if (expr) {
        *expr = expression_input(p);
        if (!*expr) st = tl_diag_error(d, p->err_loc, "%s", p->err_msg);
    } else {
        tl_vec_t body = {0};
        tl_ast_module_t *m = tl_arena_alloc(a, sizeof *m);
        m->src = src;
        m->nerrors = module(p, flags & TL_PARSE_STRICT, d, &body);
        m->body = tl_parse_list(body);
        *mod = m;
        if ((flags & TL_PARSE_STRICT) && m->nerrors) st = TL_ERR_COMPILE;
    }
    a->oom = saved;
    free(p->file.toks);
    return st;
}

tl_status_t tl_parse_module_ex(tl_arena_t *a, const tl_source_t *src, int flags, tl_diag_t *d,
                               tl_ast_module_t **out)
{
    *out = NULL;
    return run(a, src, flags, d, out, NULL);
}

tl_status_t tl_parse_module(tl_arena_t *a, const tl_source_t *src, tl_diag_t *d,
                            tl_ast_module_t **out)
{
    return tl_parse_module_ex(a, src, 0, d, out);
}

tl_status_t tl_parse_expression(tl_arena_t *a, const tl_source_t *src, tl_diag_t *d,
                                tl_ast_node_t **out)
{
    *out = NULL;
    return run(a, src, 0, d, NULL, out);
}
