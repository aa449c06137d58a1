// Expression parser: one function per grammar rule of Python 3.11, each
// preceded by its rule; precedence from loosest to tightest is
// lambda/if-else, or, and, not, comparisons, | ^ & << >> + - * / // % @,
// unary + - ~, **, await, primary (. () []), atoms.
#include "front/parse_impl.h"

#include <string.h>

enum { MAX_DEPTH = 200 }; // nested expressions, bounded to protect the C stack

static tl_ast_node_t *factor(tl_parser_t *p);
static tl_ast_list_t for_if_clauses(tl_parser_t *p);

static void enter(tl_parser_t *p)
{
    if (++p->depth > MAX_DEPTH) tl_parse_fail(p, p->tok, "expression nested too deeply");
}

static const tl_token_t *peek(const tl_parser_t *p, int k)
{
    int i = p->pos + k;
    return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}

static tl_ast_node_t *new_at(tl_parser_t *p, tl_ast_kind_t kind, tl_loc_t loc)
{
    return tl_ast_new(p->a, kind, loc);
}

bool tl_parse_expr_starts(const tl_token_t *t)
{
    switch (t->kind) {
    case TL_TOK_NAME:
    case TL_TOK_INT:
    case TL_TOK_FLOAT:
    case TL_TOK_STRING:
    case TL_TOK_BYTES:
    case TL_TOK_FSTRING:
    case TL_TOK_LPAR:
    case TL_TOK_LSQB:
    case TL_TOK_LBRACE:
    case TL_TOK_MINUS:
    case TL_TOK_PLUS:
    case TL_TOK_TILDE:
    case TL_TOK_NOT:
    case TL_TOK_LAMBDA:
    case TL_TOK_AWAIT:
    case TL_TOK_STAR:
    case TL_TOK_ELLIPSIS:
    case TL_TOK_TRUE:
    case TL_TOK_FALSE:
    case TL_TOK_NONE: return true;
    default: return false;
    }
}

// --- comma-separated lists -------------------------------------------------------

typedef tl_ast_node_t *(*item_fn)(tl_parser_t *p);

// (',' item)* [','] after a first item: stops at `closer`, or (closer < 0)
// before anything that cannot start an expression.
static void comma_tail(tl_parser_t *p, tl_vec_t *v, item_fn item, int closer)
{
    while (tl_parse_accept(p, TL_TOK_COMMA)) {
        if (closer >= 0 ? tl_parse_at(p, closer) : !tl_parse_expr_starts(p->tok)) break;
        tl_vec_push(p->a, v, item(p));
    }
}

static tl_ast_node_t *tuple_of(tl_parser_t *p, tl_vec_t v, tl_loc_t loc)
{
    tl_ast_node_t *n = new_at(p, TL_AST_TUPLE, loc);
    n->seq.elts = tl_parse_list(v);
    return n;
}

// item (',' item)* [','] : a tuple when there is a comma.
static tl_ast_node_t *comma_list(tl_parser_t *p, item_fn item, int closer)
{
    tl_ast_node_t *first = item(p);
    if (!tl_parse_at(p, TL_TOK_COMMA)) return first;
    tl_vec_t v = {0};
    tl_vec_push(p->a, &v, first);
    comma_tail(p, &v, item, closer);
    return tuple_of(p, v, first->loc);
}

// The closing bracket of a display, after its last element.
static void close_display(tl_parser_t *p, int closer, const char *what)
{
    if (!tl_parse_accept(p, closer))
        tl_parse_fail(p, p->tok, "expected ',' or '%s' in %s, found %s", tl_lex_kind_name(closer),
                      what, tl_parse_describe(p, p->tok));
}

// --- strings ------------------------------------------------------------------------

// A string being built in the arena (no heap memory survives a syntax error).
typedef struct {
    char *s;
    size_t len, cap;
    const tl_token_t *tok; // where the pending literal started
} lit_t;

static void lit_append(tl_parser_t *p, lit_t *l, const char *s, size_t n, const tl_token_t *tok)
{
    if (!l->tok) l->tok = tok;
    if (l->len + n + 1 > l->cap) {
        size_t cap = TL_MAX(l->cap * 2, l->len + n + 1);
        l->s = tl_arena_grow(p->a, l->s, 1, l->cap, cap);
        l->cap = cap;
    }
    memcpy(l->s + l->len, s, n);
    l->len += n;
    l->s[l->len] = 0;
}

static tl_ast_node_t *str_const(tl_parser_t *p, const tl_token_t *at, const char *s, size_t n,
                                bool bytes)
{
    tl_ast_node_t *c = tl_parse_node(p, TL_AST_CONST, at);
    c->cst.kind = bytes ? TL_CONST_BYTES : TL_CONST_STR;
    c->cst.s = s ? s : "";
    c->cst.len = n;
    return c;
}

// Moves a pending literal into `values` as a string constant.
static void lit_flush(tl_parser_t *p, lit_t *l, tl_vec_t *values)
{
    if (l->len) tl_vec_push(p->a, values, str_const(p, l->tok, l->s, l->len, false));
    *l = (lit_t){0};
}

static tl_ast_node_t *joined(tl_parser_t *p, tl_fpart_t **parts, int n, tl_loc_t loc);

// A replacement field: its expression text is lexed and parsed on its own.
static tl_ast_node_t *formatted(tl_parser_t *p, const tl_fpart_t *f)
{
    tl_tokens_t toks;
    tl_lex_range(p->a, p->src, f->off, f->len, f->line, f->col, TL_TOKF_PAREN, &toks);
    tl_token_t *saved = p->toks;
    int saved_n = p->ntoks, saved_pos = p->pos;
    tl_parse_set_tokens(p, toks.toks, toks.len, 0);
    tl_ast_node_t *e =
        tl_parse_at(p, TL_TOK_YIELD) ? tl_parse_expr_yield(p) : tl_parse_expr_star_expressions(p);
    if (!tl_parse_at(p, TL_TOK_EOF))
        tl_parse_fail(p, p->tok, "f-string: expected '}' after the expression, found %s",
                      tl_parse_describe(p, p->tok));
    p->toks = saved;
    p->ntoks = saved_n;
    p->pos = saved_pos;
    p->tok = &saved[saved_pos];
    tl_ast_node_t *n = new_at(p, TL_AST_FORMATTED, e->loc);
    n->fmt.value = e;
    n->fmt.conv = f->conv;
    if (f->has_spec) n->fmt.spec = joined(p, f->spec, f->nspec, e->loc);
    return n;
}

// Appends f-string parts: literals to the pending literal, fields as nodes.
static void add_fparts(tl_parser_t *p, tl_fpart_t **parts, int n, const tl_token_t *tok, lit_t *lit,
                       tl_vec_t *values)
{
    for (int i = 0; i < n; i++) {
        if (!parts[i]->is_expr) {
            lit_append(p, lit, parts[i]->lit, parts[i]->lit_len, tok);
            continue;
        }
        lit_flush(p, lit, values);
        tl_vec_push(p->a, values, formatted(p, parts[i]));
    }
}

// A format spec: a JoinedStr of its own parts.
static tl_ast_node_t *joined(tl_parser_t *p, tl_fpart_t **parts, int n, tl_loc_t loc)
{
    tl_ast_node_t *j = new_at(p, TL_AST_JOINEDSTR, loc);
    tl_vec_t values = {0};
    lit_t lit = {0};
    add_fparts(p, parts, n, &p->toks[p->pos], &lit, &values);
    lit_flush(p, &lit, &values);
    j->fstr.values = tl_parse_list(values);
    return j;
}

static bool is_string(int kind)
{
    return kind == TL_TOK_STRING || kind == TL_TOK_BYTES || kind == TL_TOK_FSTRING;
}

// strings = (STRING | BYTES | FSTRING)+   (adjacent literals concatenate)
static tl_ast_node_t *strings(tl_parser_t *p)
{
    tl_token_t *first = p->tok;
    bool bytes = first->kind == TL_TOK_BYTES, fstr = false;
    int n = 0;
    for (; is_string(first[n].kind); n++) {
        if ((first[n].kind == TL_TOK_BYTES) != bytes)
            tl_parse_fail(p, &first[n], "cannot mix bytes and nonbytes literals");
        fstr |= first[n].kind == TL_TOK_FSTRING;
    }
    for (int i = 0; i < n; i++) tl_parse_next(p);
    if (n == 1 && !fstr) return str_const(p, first, first->v.str.s, first->v.str.len, bytes);
    lit_t lit = {0};
    if (!fstr) {
        for (int i = 0; i < n; i++)
            lit_append(p, &lit, first[i].v.str.s, first[i].v.str.len, first);
        return str_const(p, first, lit.s, lit.len, bytes);
    }
    tl_ast_node_t *j = tl_parse_node(p, TL_AST_JOINEDSTR, first);
    tl_vec_t values = {0};
    for (int i = 0; i < n; i++) {
        const tl_token_t *t = &first[i];
        if (t->kind == TL_TOK_STRING)
            lit_append(p, &lit, t->v.str.s, t->v.str.len, t);
        else
            add_fparts(p, t->v.fstr->parts, t->v.fstr->nparts, t, &lit, &values);
    }
    lit_flush(p, &lit, &values);
    j->fstr.values = tl_parse_list(values);
    return j;
}

// --- atoms ------------------------------------------------------------------------------

static tl_ast_node_t *starred(tl_parser_t *p)
{
    tl_token_t *t = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_STARRED, t);
    n->starred.value = tl_parse_expr_bitwise_or(p);
    return n;
}

// star_named_expression = '*' bitwise_or | named_expression
static tl_ast_node_t *star_named(tl_parser_t *p)
{
    return tl_parse_at(p, TL_TOK_STAR) ? starred(p) : tl_parse_expr_named(p);
}

// star_expression = '*' bitwise_or | expression
static tl_ast_node_t *star_expression(tl_parser_t *p)
{
    return tl_parse_at(p, TL_TOK_STAR) ? starred(p) : tl_parse_expr_expression(p);
}

// A comprehension whose first element(s) are parsed; then its closing bracket
// (closer < 0: the caller's).
static tl_ast_node_t *comprehension(tl_parser_t *p, tl_ast_kind_t kind, tl_ast_node_t *elt,
                                    tl_ast_node_t *value, const tl_token_t *at, int closer)
{
    tl_ast_node_t *n = tl_parse_node(p, kind, at);
    n->comp.elt = elt;
    n->comp.value = value;
    n->comp.gens = for_if_clauses(p);
    if (closer >= 0) tl_parse_expect(p, closer, "after the comprehension");
    return n;
}

// tuple = '(' [star_named_expression ',' [star_named_expressions]] ')'
// group = '(' (yield_expr | named_expression) ')'
// genexp = '(' named_expression for_if_clauses ')'
static tl_ast_node_t *paren(tl_parser_t *p)
{
    tl_token_t *open = tl_parse_next(p);
    tl_vec_t v = {0};
    if (tl_parse_accept(p, TL_TOK_RPAR)) return tuple_of(p, v, tl_parse_loc(p, open));
    tl_ast_node_t *first;
    if (tl_parse_at(p, TL_TOK_YIELD)) {
        first = tl_parse_expr_yield(p);
        tl_parse_expect(p, TL_TOK_RPAR, "after yield expression");
        return first;
    }
    first = star_named(p);
    if (tl_parse_at(p, TL_TOK_FOR))
        return comprehension(p, TL_AST_GENEXP, first, NULL, open, TL_TOK_RPAR);
    if (tl_parse_accept(p, TL_TOK_RPAR)) {
        if (first->kind == TL_AST_STARRED)
            tl_parse_fail_at(p, first->loc, "cannot use starred expression here");
        return first;
    }
    tl_vec_push(p->a, &v, first);
    comma_tail(p, &v, star_named, TL_TOK_RPAR);
    close_display(p, TL_TOK_RPAR, "tuple");
    return tuple_of(p, v, tl_parse_loc(p, open));
}

// list = '[' [star_named_expressions] ']'
// listcomp = '[' named_expression for_if_clauses ']'
static tl_ast_node_t *list_display(tl_parser_t *p)
{
    tl_token_t *open = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_LIST, open);
    tl_vec_t v = {0};
    if (!tl_parse_at(p, TL_TOK_RSQB)) {
        tl_ast_node_t *first = star_named(p);
        if (tl_parse_at(p, TL_TOK_FOR))
            return comprehension(p, TL_AST_LISTCOMP, first, NULL, open, TL_TOK_RSQB);
        tl_vec_push(p->a, &v, first);
        comma_tail(p, &v, star_named, TL_TOK_RSQB);
    }
    close_display(p, TL_TOK_RSQB, "list");
    n->seq.elts = tl_parse_list(v);
    return n;
}

// The rest of a dict display after its first entry:
// double_starred_kvpairs = (kvpair | '**' bitwise_or) (',' ...)* [',']
// kvpair = expression ':' expression
static tl_ast_node_t *dict_rest(tl_parser_t *p, tl_ast_node_t *n, tl_vec_t *keys, tl_vec_t *values)
{
    while (tl_parse_accept(p, TL_TOK_COMMA) && !tl_parse_at(p, TL_TOK_RBRACE)) {
        if (tl_parse_accept(p, TL_TOK_POW)) {
            tl_vec_push(p->a, keys, NULL);
            tl_vec_push(p->a, values, tl_parse_expr_bitwise_or(p));
            continue;
        }
        tl_vec_push(p->a, keys, tl_parse_expr_expression(p));
        tl_parse_expect(p, TL_TOK_COLON, "after dict key");
        tl_vec_push(p->a, values, tl_parse_expr_expression(p));
    }
    close_display(p, TL_TOK_RBRACE, "dict");
    n->dict.keys = tl_parse_list(*keys);
    n->dict.values = tl_parse_list(*values);
    return n;
}

// dict = '{' [double_starred_kvpairs] '}'     dictcomp = '{' kvpair for_if_clauses '}'
// set = '{' star_named_expressions '}'        setcomp = '{' named_expression for_if_clauses '}'
static tl_ast_node_t *brace(tl_parser_t *p)
{
    tl_token_t *open = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_DICT, open);
    tl_vec_t keys = {0}, values = {0};
    if (tl_parse_accept(p, TL_TOK_RBRACE)) return n;
    if (tl_parse_accept(p, TL_TOK_POW)) {
        tl_vec_push(p->a, &keys, NULL);
        tl_vec_push(p->a, &values, tl_parse_expr_bitwise_or(p));
        return dict_rest(p, n, &keys, &values);
    }
    tl_ast_node_t *first = star_named(p);
    if (tl_parse_accept(p, TL_TOK_COLON)) {
        if (first->kind == TL_AST_STARRED)
            tl_parse_fail_at(p, first->loc, "cannot use a starred expression in a dict key");
        tl_ast_node_t *value = tl_parse_expr_expression(p);
        if (tl_parse_at(p, TL_TOK_FOR))
            return comprehension(p, TL_AST_DICTCOMP, first, value, open, TL_TOK_RBRACE);
        tl_vec_push(p->a, &keys, first);
        tl_vec_push(p->a, &values, value);
        return dict_rest(p, n, &keys, &values);
    }
    if (tl_parse_at(p, TL_TOK_FOR))
        return comprehension(p, TL_AST_SETCOMP, first, NULL, open, TL_TOK_RBRACE);
    n->kind = TL_AST_SET;
    tl_vec_push(p->a, &values, first);
    comma_tail(p, &values, star_named, TL_TOK_RBRACE);
    close_display(p, TL_TOK_RBRACE, "set");
    n->seq.elts = tl_parse_list(values);
    return n;
}

static tl_ast_node_t *constant(tl_parser_t *p, tl_ast_const_kind_t kind)
{
    tl_token_t *t = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_CONST, t);
    n->cst.kind = kind;
    n->cst.i = t->kind == TL_TOK_TRUE;
    if (t->kind == TL_TOK_INT || t->kind == TL_TOK_FLOAT) {
        n->cst.i = t->kind == TL_TOK_INT ? t->v.num.i : 0;
        n->cst.f = t->v.num.f;
    }
    if (t->flags & TL_TOKF_BIG) {
        n->cst.big = true;
        n->cst.fits_u64 = t->flags & TL_TOKF_U64;
        n->cst.s = tl_arena_strndup(p->a, p->src->text + t->off, t->len);
        n->cst.len = t->len;
    }
    return n;
}

// atom = NAME | 'True' | 'False' | 'None' | '...' | strings | NUMBER
//      | tuple | group | genexp | list | listcomp | dict | set | dictcomp | setcomp
static tl_ast_node_t *atom(tl_parser_t *p)
{
    tl_token_t *t = p->tok;
    switch (t->kind) {
    case TL_TOK_NAME: {
        tl_parse_next(p);
        tl_ast_node_t *n = tl_parse_node(p, TL_AST_NAME, t);
        n->name.id = t->v.str.s;
        return n;
    }
    case TL_TOK_TRUE:
    case TL_TOK_FALSE: return constant(p, TL_CONST_BOOL);
    case TL_TOK_NONE: return constant(p, TL_CONST_NONE);
    case TL_TOK_ELLIPSIS: return constant(p, TL_CONST_ELLIPSIS);
    case TL_TOK_INT: return constant(p, TL_CONST_INT);
    case TL_TOK_FLOAT: return constant(p, TL_CONST_FLOAT);
    case TL_TOK_STRING:
    case TL_TOK_BYTES:
    case TL_TOK_FSTRING: return strings(p);
    case TL_TOK_LPAR: return paren(p);
    case TL_TOK_LSQB: return list_display(p);
    case TL_TOK_LBRACE: return brace(p);
    default: tl_parse_fail(p, t, "expected expression, found %s", tl_parse_describe(p, t));
    }
}

// --- primaries, calls, subscripts ----------------------------------------------------

// arguments = arg (',' arg)* [',']
// arg = '*' expression | '**' expression | NAME '=' expression
//     | named_expression [for_if_clauses]      (a bare generator only as the sole argument)
void tl_parse_expr_arguments(tl_parser_t *p, const tl_token_t *open, tl_vec_t *args,
                             tl_vec_t *keywords)
{
    bool seen_kw = false, seen_kwstar = false;
    while (!tl_parse_at(p, TL_TOK_RPAR)) {
        tl_token_t *t = p->tok;
        if (tl_parse_accept(p, TL_TOK_STAR)) {
            if (seen_kwstar)
                tl_parse_fail(p, t,
                              "iterable argument unpacking follows keyword argument unpacking");
            tl_ast_node_t *n = tl_parse_node(p, TL_AST_STARRED, t);
            n->starred.value = tl_parse_expr_expression(p);
            tl_vec_push(p->a, args, n);
        } else if (tl_parse_at(p, TL_TOK_POW) ||
                   (tl_parse_at(p, TL_TOK_NAME) && peek(p, 1)->kind == TL_TOK_EQ)) {
            tl_ast_node_t *n = tl_parse_node(p, TL_AST_KEYWORD, t);
            if (tl_parse_next(p)->kind == TL_TOK_NAME) {
                n->keyword.arg = t->v.str.s;
                tl_parse_next(p);
                seen_kw = true;
            } else {
                seen_kwstar = true;
            }
            n->keyword.value = tl_parse_expr_expression(p);
            tl_vec_push(p->a, keywords, n);
        } else {
            tl_ast_node_t *e = tl_parse_expr_named(p);
            if (tl_parse_at(p, TL_TOK_FOR)) {
                if (args->len || keywords->len)
                    tl_parse_fail_at(p, e->loc, "generator expression must be parenthesized");
                e = comprehension(p, TL_AST_GENEXP, e, NULL, open, -1);
                if (!tl_parse_at(p, TL_TOK_RPAR))
                    tl_parse_fail_at(p, e->loc, "generator expression must be parenthesized");
            }
            if (seen_kwstar)
                tl_parse_fail(p, t, "positional argument follows keyword argument unpacking");
            if (seen_kw) tl_parse_fail(p, t, "positional argument follows keyword argument");
            tl_vec_push(p->a, args, e);
        }
        if (!tl_parse_accept(p, TL_TOK_COMMA)) break;
    }
    if (!tl_parse_accept(p, TL_TOK_RPAR))
        tl_parse_fail(p, p->tok, "expected ',' or ')' after argument, found %s",
                      tl_parse_describe(p, p->tok));
}

// slice = [expression] ':' [expression] [':' [expression]] | named_expression
//       | '*' bitwise_or
static tl_ast_node_t *slice(tl_parser_t *p)
{
    tl_token_t *t = p->tok;
    if (tl_parse_at(p, TL_TOK_STAR)) return starred(p);
    tl_ast_node_t *lower = tl_parse_at(p, TL_TOK_COLON) ? NULL : tl_parse_expr_named(p);
    if (!tl_parse_accept(p, TL_TOK_COLON)) return lower;
    tl_ast_node_t *n =
        lower ? new_at(p, TL_AST_SLICE, lower->loc) : tl_parse_node(p, TL_AST_SLICE, t);
    n->slice.lower = lower;
    if (tl_parse_expr_starts(p->tok)) n->slice.upper = tl_parse_expr_expression(p);
    if (tl_parse_accept(p, TL_TOK_COLON) && tl_parse_expr_starts(p->tok))
        n->slice.step = tl_parse_expr_expression(p);
    return n;
}

// primary = atom ('.' NAME | '(' [arguments] ')' | '[' slices ']')*
// slices = slice (',' slice)* [',']
static tl_ast_node_t *primary(tl_parser_t *p)
{
    tl_ast_node_t *e = atom(p);
    for (;;) {
        tl_token_t *t = p->tok;
        tl_ast_node_t *n;
        if (tl_parse_accept(p, TL_TOK_DOT)) {
            n = new_at(p, TL_AST_ATTRIBUTE, e->loc);
            n->attr.value = e;
            n->attr.attr = tl_parse_expect_name(p, "attribute name after '.'");
        } else if (tl_parse_accept(p, TL_TOK_LPAR)) {
            n = new_at(p, TL_AST_CALL, e->loc);
            n->call.func = e;
            tl_vec_t args = {0}, kws = {0};
            tl_parse_expr_arguments(p, t, &args, &kws);
            n->call.args = tl_parse_list(args);
            n->call.keywords = tl_parse_list(kws);
        } else if (tl_parse_accept(p, TL_TOK_LSQB)) {
            n = new_at(p, TL_AST_SUBSCRIPT, e->loc);
            n->sub.value = e;
            n->sub.index = comma_list(p, slice, TL_TOK_RSQB);
            close_display(p, TL_TOK_RSQB, "subscript");
        } else {
            return e;
        }
        e = n;
    }
}

// --- operators ----------------------------------------------------------------------------

// power = await_primary ['**' factor]
// await_primary = 'await' primary | primary
static tl_ast_node_t *power(tl_parser_t *p)
{
    tl_token_t *t = p->tok;
    tl_ast_node_t *e;
    if (tl_parse_accept(p, TL_TOK_AWAIT)) {
        e = tl_parse_node(p, TL_AST_AWAIT, t);
        e->starred.value = primary(p);
    } else {
        e = primary(p);
    }
    if (!tl_parse_accept(p, TL_TOK_POW)) return e;
    tl_ast_node_t *n = new_at(p, TL_AST_BINOP, e->loc);
    n->bin.op = TL_BINOP_POW;
    n->bin.left = e;
    enter(p);
    n->bin.right = factor(p);
    p->depth--;
    return n;
}

// factor = ('+' | '-' | '~') factor | power
static tl_ast_node_t *factor(tl_parser_t *p)
{
    tl_token_t *t = p->tok;
    tl_ast_unop_t op;
    switch (t->kind) {
    case TL_TOK_MINUS: op = TL_UNOP_NEG; break;
    case TL_TOK_PLUS: op = TL_UNOP_POS; break;
    case TL_TOK_TILDE: op = TL_UNOP_INVERT; break;
    default: return power(p);
    }
    tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_UNARYOP, t);
    n->unary.op = op;
    enter(p);
    n->unary.operand = factor(p);
    p->depth--;
    return n;
}

// Binary operators by token: level (1 = '|' ... 6 = '*' etc.; 0 = not one) and operator.
static const struct {
    uint8_t level, op;
} binops[TL_TOK_COUNT] = {
    [TL_TOK_VBAR] = {1, TL_BINOP_BITOR},    [TL_TOK_CARET] = {2, TL_BINOP_BITXOR},
    [TL_TOK_AMP] = {3, TL_BINOP_BITAND},    [TL_TOK_LSHIFT] = {4, TL_BINOP_LSHIFT},
    [TL_TOK_RSHIFT] = {4, TL_BINOP_RSHIFT}, [TL_TOK_PLUS] = {5, TL_BINOP_ADD},
    [TL_TOK_MINUS] = {5, TL_BINOP_SUB},     [TL_TOK_STAR] = {6, TL_BINOP_MUL},
    [TL_TOK_SLASH] = {6, TL_BINOP_DIV},     [TL_TOK_FLOORDIV] = {6, TL_BINOP_FLOORDIV},
    [TL_TOK_PERCENT] = {6, TL_BINOP_MOD},   [TL_TOK_AT] = {6, TL_BINOP_MATMUL},
};

// bitwise_or  = bitwise_xor ('|' bitwise_xor)*
// bitwise_xor = bitwise_and ('^' bitwise_and)*
// bitwise_and = shift_expr ('&' shift_expr)*
// shift_expr  = sum (('<<' | '>>') sum)*
// sum         = term (('+' | '-') term)*
// term        = factor (('*' | '/' | '//' | '%' | '@') factor)*
// All six by precedence climbing: binary(p, L) parses the rule of level L
// (1 = bitwise_or ... 6 = term); operators of a level are left-associative.
static tl_ast_node_t *binary(tl_parser_t *p, int min_level)
{
    tl_ast_node_t *left = factor(p);
    for (int level; (level = binops[p->tok->kind].level) >= min_level && level > 0;) {
        tl_ast_node_t *n = new_at(p, TL_AST_BINOP, left->loc);
        n->bin.op = binops[tl_parse_next(p)->kind].op;
        n->bin.left = left;
        n->bin.right = binary(p, level + 1);
        left = n;
    }
    return left;
}

tl_ast_node_t *tl_parse_expr_bitwise_or(tl_parser_t *p)
{
    return binary(p, 1);
}

// comp_op = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not' 'in' | 'is' ['not']
// Consumes the operator; -1 when there is none.
static int comp_op(tl_parser_t *p)
{
    int op;
    switch (p->tok->kind) {
    case TL_TOK_EQEQ: op = TL_CMP_EQ; break;
    case TL_TOK_NE: op = TL_CMP_NE; break;
    case TL_TOK_LT: op = TL_CMP_LT; break;
    case TL_TOK_LE: op = TL_CMP_LE; break;
    case TL_TOK_GT: op = TL_CMP_GT; break;
    case TL_TOK_GE: op = TL_CMP_GE; break;
    case TL_TOK_IN: op = TL_CMP_IN; break;
    case TL_TOK_NOT:
        if (peek(p, 1)->kind != TL_TOK_IN) return -1;
        tl_parse_next(p);
        op = TL_CMP_NOT_IN;
        break;
    case TL_TOK_IS:
        tl_parse_next(p);
        return tl_parse_accept(p, TL_TOK_NOT) ? TL_CMP_IS_NOT : TL_CMP_IS;
    default: return -1;
    }
    tl_parse_next(p);
    return op;
}

// comparison = bitwise_or (comp_op bitwise_or)*
static tl_ast_node_t *comparison(tl_parser_t *p)
{
    tl_ast_node_t *left = tl_parse_expr_bitwise_or(p);
    int op = comp_op(p);
    if (op < 0) return left;
    tl_ast_node_t *n = new_at(p, TL_AST_COMPARE, left->loc);
    tl_vec_t rights = {0};
    int cap = 0;
    n->cmp.left = left;
    for (; op >= 0; op = comp_op(p)) {
        if (rights.len == cap) {
            n->cmp.ops = tl_arena_grow(p->a, n->cmp.ops, sizeof *n->cmp.ops, (size_t)cap,
                                       (size_t)(cap ? cap * 2 : 4));
            cap = cap ? cap * 2 : 4;
        }
        n->cmp.ops[rights.len] = (tl_ast_cmpop_t)op;
        tl_vec_push(p->a, &rights, tl_parse_expr_bitwise_or(p));
    }
    n->cmp.comparators = tl_parse_list(rights);
    return n;
}

// inversion = 'not' inversion | comparison
static tl_ast_node_t *inversion(tl_parser_t *p)
{
    tl_token_t *t = p->tok;
    if (!tl_parse_accept(p, TL_TOK_NOT)) return comparison(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_UNARYOP, t);
    n->unary.op = TL_UNOP_NOT;
    enter(p);
    n->unary.operand = inversion(p);
    p->depth--;
    return n;
}

static tl_ast_node_t *conjunction(tl_parser_t *p);

// disjunction = conjunction ('or' conjunction)*
// conjunction = inversion ('and' inversion)*
static tl_ast_node_t *boolop(tl_parser_t *p, int tok)
{
    item_fn operand = tok == TL_TOK_OR ? conjunction : inversion;
    tl_ast_node_t *first = operand(p);
    if (!tl_parse_at(p, tok)) return first;
    tl_ast_node_t *n = new_at(p, TL_AST_BOOLOP, first->loc);
    n->boolop.op = tok == TL_TOK_OR ? TL_BOOLOP_OR : TL_BOOLOP_AND;
    tl_vec_t v = {0};
    tl_vec_push(p->a, &v, first);
    while (tl_parse_accept(p, tok)) tl_vec_push(p->a, &v, operand(p));
    n->boolop.values = tl_parse_list(v);
    return n;
}

static tl_ast_node_t *conjunction(tl_parser_t *p)
{
    return boolop(p, TL_TOK_AND);
}

static tl_ast_node_t *disjunction(tl_parser_t *p)
{
    return boolop(p, TL_TOK_OR);
}

// --- parameters, lambda, conditional and named expressions -----------------------------

static tl_ast_node_t *param(tl_parser_t *p, tl_ast_param_kind_t kind, bool annotations)
{
    tl_token_t *t = p->tok;
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_PARAM, t);
    n->param.name = tl_parse_expect_name(p, "parameter name");
    n->param.kind = kind;
    if (annotations && tl_parse_accept(p, TL_TOK_COLON))
        n->param.annotation = tl_parse_expr_expression(p);
    return n;
}

// params = param_item (',' param_item)* [',']
// param_item = NAME [':' expression] ['=' expression] | '/' | '*' [NAME [':' expression]]
//            | '**' NAME [':' expression]
tl_ast_list_t tl_parse_expr_params(tl_parser_t *p, int closer, bool annotations)
{
    tl_vec_t v = {0};
    tl_ast_param_kind_t kind = TL_PARAM_NORMAL;
    bool seen_default = false, seen_slash = false;
    const tl_token_t *bare_star = NULL;
    while (!tl_parse_at(p, closer)) {
        tl_token_t *t = p->tok;
        if (tl_parse_accept(p, TL_TOK_SLASH)) {
            if (kind != TL_PARAM_NORMAL) tl_parse_fail(p, t, "/ must be ahead of *");
            if (seen_slash) tl_parse_fail(p, t, "/ may appear only once");
            if (!v.len) tl_parse_fail(p, t, "at least one argument must precede /");
            for (int i = 0; i < v.len; i++)
                ((tl_ast_node_t *)v.items[i])->param.kind = TL_PARAM_POSONLY;
            seen_slash = true;
        } else if (tl_parse_accept(p, TL_TOK_STAR)) {
            if (kind != TL_PARAM_NORMAL) tl_parse_fail(p, t, "* argument may appear only once");
            kind = TL_PARAM_KWONLY;
            if (tl_parse_at(p, TL_TOK_NAME))
                tl_vec_push(p->a, &v, param(p, TL_PARAM_VARARG, annotations));
            else
                bare_star = t;
        } else if (tl_parse_accept(p, TL_TOK_POW)) {
            tl_vec_push(p->a, &v, param(p, TL_PARAM_KWARG, annotations));
            tl_parse_accept(p, TL_TOK_COMMA);
            if (!tl_parse_at(p, closer))
                tl_parse_fail(p, p->tok, "arguments cannot follow var-keyword argument");
            break;
        } else {
            tl_ast_node_t *n = param(p, kind, annotations);
            if (tl_parse_accept(p, TL_TOK_EQ)) {
                n->param.default_value = tl_parse_expr_expression(p);
                seen_default |= kind == TL_PARAM_NORMAL;
            } else if (seen_default && kind == TL_PARAM_NORMAL) {
                tl_parse_fail(p, t, "non-default argument follows default argument");
            }
            if (kind == TL_PARAM_KWONLY) bare_star = NULL;
            tl_vec_push(p->a, &v, n);
        }
        if (!tl_parse_accept(p, TL_TOK_COMMA)) break;
    }
    if (bare_star) tl_parse_fail(p, bare_star, "named arguments must follow bare *");
    return tl_parse_list(v);
}

// lambdef = 'lambda' [params] ':' expression
static tl_ast_node_t *lambdef(tl_parser_t *p)
{
    tl_token_t *t = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_LAMBDA, t);
    n->lambda.params = tl_parse_expr_params(p, TL_TOK_COLON, false);
    tl_parse_expect(p, TL_TOK_COLON, "after lambda parameters");
    n->lambda.body = tl_parse_expr_expression(p);
    return n;
}

// expression = disjunction ['if' disjunction 'else' expression] | lambdef
tl_ast_node_t *tl_parse_expr_expression(tl_parser_t *p)
{
    enter(p);
    tl_ast_node_t *e;
    if (tl_parse_at(p, TL_TOK_LAMBDA)) {
        e = lambdef(p);
    } else {
        e = disjunction(p);
        if (tl_parse_accept(p, TL_TOK_IF)) {
            tl_ast_node_t *n = new_at(p, TL_AST_IFEXP, e->loc);
            n->ifexp.body = e;
            n->ifexp.test = disjunction(p);
            tl_parse_expect(p, TL_TOK_ELSE, "after 'if' expression");
            n->ifexp.orelse = tl_parse_expr_expression(p);
            e = n;
        }
    }
    p->depth--;
    return e;
}

// named_expression = NAME ':=' expression | expression
tl_ast_node_t *tl_parse_expr_named(tl_parser_t *p)
{
    if (tl_parse_at(p, TL_TOK_NAME) && peek(p, 1)->kind == TL_TOK_WALRUS) {
        tl_ast_node_t *target = atom(p);
        tl_parse_next(p);
        tl_ast_node_t *n = new_at(p, TL_AST_NAMEDEXPR, target->loc);
        n->named.target = target;
        n->named.value = tl_parse_expr_expression(p);
        return n;
    }
    tl_ast_node_t *e = tl_parse_expr_expression(p);
    if (tl_parse_at(p, TL_TOK_WALRUS))
        tl_parse_fail_at(p, e->loc, "cannot use assignment expressions with %s",
                         tl_ast_kind_name(e->kind));
    return e;
}

// star_expressions = star_expression (',' star_expression)* [',']
tl_ast_node_t *tl_parse_expr_star_expressions(tl_parser_t *p)
{
    return comma_list(p, star_expression, -1);
}

// yield_expr = 'yield' 'from' expression | 'yield' [star_expressions]
tl_ast_node_t *tl_parse_expr_yield(tl_parser_t *p)
{
    tl_token_t *t = tl_parse_next(p);
    if (tl_parse_accept(p, TL_TOK_FROM)) {
        tl_ast_node_t *n = tl_parse_node(p, TL_AST_YIELDFROM, t);
        n->starred.value = tl_parse_expr_expression(p);
        return n;
    }
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_YIELD, t);
    if (tl_parse_expr_starts(p->tok)) n->starred.value = tl_parse_expr_star_expressions(p);
    return n;
}

// star_target = '*' bitwise_or | bitwise_or      (checked by the caller)
tl_ast_node_t *tl_parse_expr_star_target(tl_parser_t *p)
{
    return tl_parse_at(p, TL_TOK_STAR) ? starred(p) : tl_parse_expr_bitwise_or(p);
}

// star_targets = star_target (',' star_target)* [',']
tl_ast_node_t *tl_parse_expr_star_targets(tl_parser_t *p)
{
    return comma_list(p, tl_parse_expr_star_target, -1);
}

// for_if_clauses = ('for' star_targets 'in' disjunction ('if' disjunction)*)+
static tl_ast_list_t for_if_clauses(tl_parser_t *p)
{
    tl_vec_t v = {0};
    while (tl_parse_at(p, TL_TOK_FOR) || tl_parse_at(p, TL_TOK_ASYNC)) {
        tl_token_t *t = tl_parse_next(p);
        if (t->kind == TL_TOK_ASYNC) tl_parse_fail(p, t, "async comprehensions are not supported");
        tl_ast_node_t *g = tl_parse_node(p, TL_AST_COMPREHENSION, t);
        g->gen.target = tl_parse_expr_star_targets(p);
        tl_parse_expr_check_target(p, g->gen.target, false, "");
        tl_parse_expect(p, TL_TOK_IN, "after comprehension target");
        g->gen.iter = disjunction(p);
        tl_vec_t ifs = {0};
        while (tl_parse_accept(p, TL_TOK_IF)) tl_vec_push(p->a, &ifs, disjunction(p));
        g->gen.ifs = tl_parse_list(ifs);
        tl_vec_push(p->a, &v, g);
    }
    return tl_parse_list(v);
}

// --- assignment targets ----------------------------------------------------------------

static const char *target_what(const tl_ast_node_t *e)
{
    switch (e->kind) {
    case TL_AST_CONST:
        if (e->cst.kind == TL_CONST_BOOL) return e->cst.i ? "True" : "False";
        if (e->cst.kind == TL_CONST_NONE) return "None";
        if (e->cst.kind == TL_CONST_ELLIPSIS) return "ellipsis";
        return "literal";
    case TL_AST_BINOP:
    case TL_AST_UNARYOP:
    case TL_AST_BOOLOP: return "expression";
    case TL_AST_JOINEDSTR: return "f-string expression";
    default: return tl_ast_kind_name(e->kind);
    }
}

void tl_parse_expr_check_target(tl_parser_t *p, const tl_ast_node_t *e, bool del, const char *how)
{
    switch (e->kind) {
    case TL_AST_NAME:
    case TL_AST_ATTRIBUTE:
    case TL_AST_SUBSCRIPT: return;
    case TL_AST_TUPLE:
    case TL_AST_LIST:
        for (int i = 0; i < e->seq.elts.len; i++) {
            const tl_ast_node_t *x = e->seq.elts.items[i];
            if (x->kind == TL_AST_STARRED && !del) x = x->starred.value;
            tl_parse_expr_check_target(p, x, del, how);
        }
        return;
    case TL_AST_STARRED:
        if (!del)
            tl_parse_fail_at(p, e->loc, "starred assignment target must be in a list or tuple");
        break;
    default: break;
    }
    tl_parse_fail_at(p, e->loc, "cannot %s %s%s", del ? "delete" : "assign to", target_what(e),
                     how);
}
