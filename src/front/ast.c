// AST node construction, kind names and the s-expression printer.
#include "front/ast.h"

#include <stdlib.h>
#include <string.h>

#include "front/lex.h"

static const char *kind_names[TL_AST_KIND_COUNT] = {
#define X(id, s) [id] = s,
    TL_AST_EXPR_KINDS(X) TL_AST_STMT_KINDS(X) TL_AST_PART_KINDS(X)
#undef X
};

static const char *binop_strs[] = {
#define X(id, s) [id] = s,
    TL_AST_BINOPS(X)
#undef X
};

static const char *unop_strs[] = {
#define X(id, s) [id] = s,
    TL_AST_UNOPS(X)
#undef X
};

static const char *cmpop_strs[] = {
#define X(id, s) [id] = s,
    TL_AST_CMPOPS(X)
#undef X
};

tl_ast_node_t *tl_ast_new(tl_arena_t *a, tl_ast_kind_t kind, tl_loc_t loc)
{
    tl_ast_node_t *n = tl_arena_alloc(a, sizeof *n);
    if (!n) return NULL;
    n->kind = kind;
    n->loc = loc;
    return n;
}

bool tl_ast_is_expr(tl_ast_kind_t kind)
{
    return kind <= TL_AST_AWAIT;
}

bool tl_ast_is_stmt(tl_ast_kind_t kind)
{
    return kind >= TL_AST_FUNCTIONDEF && kind <= TL_AST_ERROR;
}

const char *tl_ast_kind_name(tl_ast_kind_t kind)
{
    return kind < TL_AST_KIND_COUNT ? kind_names[kind] : "?";
}

const char *tl_ast_binop_str(tl_ast_binop_t op)
{
    return binop_strs[op];
}

const char *tl_ast_unop_str(tl_ast_unop_t op)
{
    return unop_strs[op];
}

const char *tl_ast_cmpop_str(tl_ast_cmpop_t op)
{
    return cmpop_strs[op];
}

// --- printer -----------------------------------------------------------------

static void node(tl_buf_t *out, const tl_ast_node_t *n, int indent);

// " x" for each item; `_` for a NULL item.
static void items(tl_buf_t *out, tl_ast_list_t l, int indent)
{
    for (int i = 0; i < l.len; i++) {
        tl_buf_putc(out, ' ');
        node(out, l.items[i], indent);
    }
}

static void opt(tl_buf_t *out, const tl_ast_node_t *n)
{
    tl_buf_putc(out, ' ');
    node(out, n, 0);
}

// A statement body: each statement on its own line, `indent` spaces in.
static void body(tl_buf_t *out, tl_ast_list_t l, int indent)
{
    for (int i = 0; i < l.len; i++) {
        tl_buf_putc(out, '\n');
        tl_buf_indent(out, indent);
        node(out, l.items[i], indent);
    }
}

// "(else ...)", "(finally ...)": a nested block when present.
static void block(tl_buf_t *out, const char *what, tl_ast_list_t l, int indent)
{
    if (!l.len) return;
    tl_buf_putc(out, '\n');
    tl_buf_indent(out, indent);
    tl_buf_printf(out, "(%s", what);
    body(out, l, indent + 2);
    tl_buf_putc(out, ')');
}

static void decorators(tl_buf_t *out, tl_ast_list_t l, int indent)
{
    for (int i = 0; i < l.len; i++) {
        tl_buf_putc(out, '\n');
        tl_buf_indent(out, indent);
        tl_buf_puts(out, "@ ");
        node(out, l.items[i], indent);
    }
}

static void constant(tl_buf_t *out, const tl_ast_const_t *c)
{
    switch (c->kind) {
    case TL_CONST_INT:
        if (c->big)
            tl_buf_printf(out, "(bigint %s)", c->s);
        else
            tl_buf_printf(out, "%lld", (long long)c->i);
        break;
    case TL_CONST_FLOAT: tl_lex_put_float(out, c->f); break;
    case TL_CONST_STR: tl_lex_quote(out, c->s, c->len, false); break;
    case TL_CONST_BYTES:
        tl_buf_putc(out, 'b');
        tl_lex_quote(out, c->s, c->len, true);
        break;
    case TL_CONST_BOOL: tl_buf_puts(out, c->i ? "True" : "False"); break;
    case TL_CONST_NONE: tl_buf_puts(out, "None"); break;
    case TL_CONST_ELLIPSIS: tl_buf_puts(out, "..."); break;
    }
}

static void param(tl_buf_t *out, const tl_ast_node_t *n)
{
    const char *star = n->param.kind == TL_PARAM_VARARG  ? "*"
                       : n->param.kind == TL_PARAM_KWARG ? "**"
                                                         : "";
    bool plain = !n->param.annotation && !n->param.default_value;
    if (!plain) tl_buf_putc(out, '(');
    tl_buf_printf(out, "%s%s", star, n->param.name);
    if (n->param.annotation) {
        tl_buf_puts(out, " :ann");
        opt(out, n->param.annotation);
    }
    if (n->param.default_value) {
        tl_buf_puts(out, " :default");
        opt(out, n->param.default_value);
    }
    if (!plain) tl_buf_putc(out, ')');
}

// (params a b / c * d **kw): the markers show where the kinds change.
static void params(tl_buf_t *out, tl_ast_list_t l)
{
    tl_buf_puts(out, "(params");
    bool star_seen = false;
    for (int i = 0; i < l.len; i++) {
        const tl_ast_node_t *p = l.items[i];
        if (p->param.kind == TL_PARAM_VARARG) star_seen = true;
        if (p->param.kind == TL_PARAM_KWONLY && !star_seen) {
            tl_buf_puts(out, " *");
            star_seen = true;
        }
        tl_buf_putc(out, ' ');
        param(out, p);
        bool last_posonly = p->param.kind == TL_PARAM_POSONLY &&
                            (i + 1 == l.len || l.items[i + 1]->param.kind != TL_PARAM_POSONLY);
        if (last_posonly) tl_buf_puts(out, " /");
    }
    tl_buf_putc(out, ')');
}

static void fstring_parts(tl_buf_t *out, const tl_ast_node_t *n)
{
    tl_buf_puts(out, "(fstr");
    items(out, n->fstr.values, 0);
    tl_buf_putc(out, ')');
}

static void expr(tl_buf_t *out, const tl_ast_node_t *n)
{
    switch (n->kind) {
    case TL_AST_NAME: tl_buf_printf(out, "(name %s)", n->name.id); return;
    case TL_AST_CONST: constant(out, &n->cst); return;
    case TL_AST_JOINEDSTR: fstring_parts(out, n); return;
    case TL_AST_FORMATTED:
        tl_buf_puts(out, "(fmt");
        opt(out, n->fmt.value);
        if (n->fmt.conv) tl_buf_printf(out, " !%c", n->fmt.conv);
        if (n->fmt.spec) opt(out, n->fmt.spec);
        break;
    case TL_AST_ATTRIBUTE:
        tl_buf_puts(out, "(attr");
        opt(out, n->attr.value);
        tl_buf_printf(out, " %s", n->attr.attr);
        break;
    case TL_AST_SUBSCRIPT:
        tl_buf_puts(out, "(subscript");
        opt(out, n->sub.value);
        opt(out, n->sub.index);
        break;
    case TL_AST_SLICE:
        tl_buf_puts(out, "(slice");
        opt(out, n->slice.lower);
        opt(out, n->slice.upper);
        opt(out, n->slice.step);
        break;
    case TL_AST_CALL:
        tl_buf_puts(out, "(call");
        opt(out, n->call.func);
        items(out, n->call.args, 0);
        items(out, n->call.keywords, 0);
        break;
    case TL_AST_BINOP:
        tl_buf_printf(out, "(%s", binop_strs[n->bin.op]);
        opt(out, n->bin.left);
        opt(out, n->bin.right);
        break;
    case TL_AST_UNARYOP:
        tl_buf_printf(out, "(%s", unop_strs[n->unary.op]);
        opt(out, n->unary.operand);
        break;
    case TL_AST_BOOLOP:
        tl_buf_puts(out, n->boolop.op == TL_BOOLOP_AND ? "(and" : "(or");
        items(out, n->boolop.values, 0);
        break;
    case TL_AST_COMPARE:
        tl_buf_puts(out, "(cmp");
        opt(out, n->cmp.left);
        for (int i = 0; i < n->cmp.comparators.len; i++) {
            tl_buf_printf(out, " %s", cmpop_strs[n->cmp.ops[i]]);
            opt(out, n->cmp.comparators.items[i]);
        }
        break;
    case TL_AST_IFEXP:
        tl_buf_puts(out, "(ifexp");
        opt(out, n->ifexp.test);
        opt(out, n->ifexp.body);
        opt(out, n->ifexp.orelse);
        break;
    case TL_AST_LAMBDA:
        tl_buf_puts(out, "(lambda ");
        params(out, n->lambda.params);
        opt(out, n->lambda.body);
        break;
    case TL_AST_TUPLE:
    case TL_AST_LIST:
    case TL_AST_SET:
        tl_buf_puts(out, n->kind == TL_AST_TUPLE  ? "(tuple"
                         : n->kind == TL_AST_LIST ? "(list"
                                                  : "(set");
        items(out, n->seq.elts, 0);
        break;
    case TL_AST_DICT:
        tl_buf_puts(out, "(dict");
        for (int i = 0; i < n->dict.values.len; i++) {
            tl_buf_puts(out, " (");
            if (n->dict.keys.items[i])
                node(out, n->dict.keys.items[i], 0);
            else
                tl_buf_puts(out, "**");
            opt(out, n->dict.values.items[i]);
            tl_buf_putc(out, ')');
        }
        break;
    case TL_AST_LISTCOMP:
    case TL_AST_SETCOMP:
    case TL_AST_DICTCOMP:
    case TL_AST_GENEXP:
        tl_buf_puts(out, n->kind == TL_AST_LISTCOMP  ? "(listcomp"
                         : n->kind == TL_AST_SETCOMP ? "(setcomp"
                         : n->kind == TL_AST_GENEXP  ? "(genexp"
                                                     : "(dictcomp");
        opt(out, n->comp.elt);
        if (n->kind == TL_AST_DICTCOMP) opt(out, n->comp.value);
        items(out, n->comp.gens, 0);
        break;
    case TL_AST_STARRED:
    case TL_AST_YIELD:
    case TL_AST_YIELDFROM:
    case TL_AST_AWAIT:
        tl_buf_puts(out, n->kind == TL_AST_STARRED     ? "(star"
                         : n->kind == TL_AST_YIELD     ? "(yield"
                         : n->kind == TL_AST_YIELDFROM ? "(yield-from"
                                                       : "(await");
        if (n->starred.value) opt(out, n->starred.value);
        break;
    case TL_AST_NAMEDEXPR:
        tl_buf_puts(out, "(:=");
        opt(out, n->named.target);
        opt(out, n->named.value);
        break;
    default: tl_buf_puts(out, "(?"); break;
    }
    tl_buf_putc(out, ')');
}

static void part(tl_buf_t *out, const tl_ast_node_t *n, int indent)
{
    switch (n->kind) {
    case TL_AST_KEYWORD:
        tl_buf_printf(out, "(kw %s", n->keyword.arg ? n->keyword.arg : "**");
        opt(out, n->keyword.value);
        break;
    case TL_AST_PARAM: param(out, n); return;
    case TL_AST_COMPREHENSION:
        tl_buf_puts(out, "(for");
        opt(out, n->gen.target);
        opt(out, n->gen.iter);
        for (int i = 0; i < n->gen.ifs.len; i++) {
            tl_buf_puts(out, " (if");
            opt(out, n->gen.ifs.items[i]);
            tl_buf_putc(out, ')');
        }
        break;
    case TL_AST_WITHITEM:
        tl_buf_puts(out, "(item");
        opt(out, n->withitem.context);
        if (n->withitem.target) opt(out, n->withitem.target);
        break;
    case TL_AST_HANDLER:
        tl_buf_puts(out, "(except");
        if (n->handler.type) opt(out, n->handler.type);
        if (n->handler.name) tl_buf_printf(out, " as %s", n->handler.name);
        body(out, n->handler.body, indent + 2);
        break;
    case TL_AST_ALIAS:
        if (!n->alias.asname) {
            tl_buf_puts(out, n->alias.name);
            return;
        }
        tl_buf_printf(out, "(%s as %s", n->alias.name, n->alias.asname);
        break;
    default: tl_buf_puts(out, "(?"); break;
    }
    tl_buf_putc(out, ')');
}

static void names(tl_buf_t *out, tl_ast_names_t l)
{
    for (int i = 0; i < l.len; i++) tl_buf_printf(out, " %s", l.items[i]);
}

static void stmt(tl_buf_t *out, const tl_ast_node_t *n, int indent)
{
    int in = indent + 2;
    switch (n->kind) {
    case TL_AST_FUNCTIONDEF:
        tl_buf_printf(out, "(def %s ", n->def.name);
        params(out, n->def.params);
        if (n->def.returns) {
            tl_buf_puts(out, " ->");
            opt(out, n->def.returns);
        }
        decorators(out, n->def.decorators, in);
        body(out, n->def.body, in);
        break;
    case TL_AST_CLASSDEF:
        tl_buf_printf(out, "(class %s", n->cls.name);
        if (n->cls.bases.len || n->cls.keywords.len) {
            tl_buf_puts(out, " (bases");
            items(out, n->cls.bases, 0);
            items(out, n->cls.keywords, 0);
            tl_buf_putc(out, ')');
        }
        decorators(out, n->cls.decorators, in);
        body(out, n->cls.body, in);
        break;
    case TL_AST_RETURN:
        tl_buf_puts(out, "(return");
        if (n->ret.value) opt(out, n->ret.value);
        break;
    case TL_AST_ASSIGN:
        tl_buf_puts(out, "(=");
        items(out, n->assign.targets, 0);
        opt(out, n->assign.value);
        break;
    case TL_AST_AUGASSIGN:
        tl_buf_printf(out, "(%s=", binop_strs[n->aug.op]);
        opt(out, n->aug.target);
        opt(out, n->aug.value);
        break;
    case TL_AST_ANNASSIGN:
        tl_buf_puts(out, "(:");
        opt(out, n->ann.target);
        opt(out, n->ann.annotation);
        if (n->ann.value) opt(out, n->ann.value);
        break;
    case TL_AST_FOR:
        tl_buf_puts(out, "(for");
        opt(out, n->loop.target);
        opt(out, n->loop.iter);
        body(out, n->loop.body, in);
        block(out, "else", n->loop.orelse, in);
        break;
    case TL_AST_WHILE:
    case TL_AST_IF:
        tl_buf_puts(out, n->kind == TL_AST_IF ? "(if" : "(while");
        opt(out, n->cond.test);
        body(out, n->cond.body, in);
        block(out, "else", n->cond.orelse, in);
        break;
    case TL_AST_WITH:
        tl_buf_puts(out, "(with");
        items(out, n->with.items, 0);
        body(out, n->with.body, in);
        break;
    case TL_AST_ASSERT:
        tl_buf_puts(out, "(assert");
        opt(out, n->check.test);
        if (n->check.msg) opt(out, n->check.msg);
        break;
    case TL_AST_IMPORT:
        tl_buf_puts(out, "(import");
        items(out, n->import.names, 0);
        break;
    case TL_AST_IMPORTFROM:
        tl_buf_puts(out, "(from ");
        for (int i = 0; i < n->importfrom.level; i++) tl_buf_putc(out, '.');
        if (n->importfrom.module) tl_buf_puts(out, n->importfrom.module);
        tl_buf_puts(out, " import");
        items(out, n->importfrom.names, 0);
        break;
    case TL_AST_EXPR:
        tl_buf_puts(out, "(expr");
        opt(out, n->expr.value);
        break;
    case TL_AST_PASS: tl_buf_puts(out, "(pass"); break;
    case TL_AST_BREAK: tl_buf_puts(out, "(break"); break;
    case TL_AST_CONTINUE: tl_buf_puts(out, "(continue"); break;
    case TL_AST_RAISE:
        tl_buf_puts(out, "(raise");
        if (n->raise.exc) opt(out, n->raise.exc);
        if (n->raise.cause) {
            tl_buf_puts(out, " :from");
            opt(out, n->raise.cause);
        }
        break;
    case TL_AST_TRY:
        tl_buf_puts(out, "(try");
        body(out, n->tryblock.body, in);
        body(out, n->tryblock.handlers, in);
        block(out, "else", n->tryblock.orelse, in);
        block(out, "finally", n->tryblock.finalbody, in);
        break;
    case TL_AST_GLOBAL:
    case TL_AST_NONLOCAL:
        tl_buf_puts(out, n->kind == TL_AST_GLOBAL ? "(global" : "(nonlocal");
        names(out, n->scope.names);
        break;
    case TL_AST_DELETE:
        tl_buf_puts(out, "(del");
        items(out, n->del.targets, 0);
        break;
    case TL_AST_ERROR:
        tl_buf_printf(out, "(error %d:%d ", n->loc.line, n->loc.col);
        tl_lex_quote(out, n->error.msg, strlen(n->error.msg), false);
        if (n->error.defines.len) {
            tl_buf_puts(out, " :defines (");
            for (int i = 0; i < n->error.defines.len; i++)
                tl_buf_printf(out, "%s%s", i ? " " : "", n->error.defines.items[i]);
            tl_buf_putc(out, ')');
        }
        break;
    default: tl_buf_puts(out, "(?"); break;
    }
    tl_buf_putc(out, ')');
}

static void node(tl_buf_t *out, const tl_ast_node_t *n, int indent)
{
    if (!n)
        tl_buf_putc(out, '_');
    else if (tl_ast_is_expr(n->kind))
        expr(out, n);
    else if (tl_ast_is_stmt(n->kind))
        stmt(out, n, indent);
    else
        part(out, n, indent);
}

void tl_ast_print(tl_buf_t *out, const tl_ast_node_t *n, int indent)
{
    node(out, n, indent);
}

void tl_ast_print_module(tl_buf_t *out, const tl_ast_module_t *m)
{
    for (int i = 0; i < m->body.len; i++) {
        node(out, m->body.items[i], 0);
        tl_buf_putc(out, '\n');
    }
}

// --- children and nesting ----------------------------------------------------------

static void each(tl_ast_list_t l, void (*fn)(void *arg, const tl_ast_node_t *c), void *arg)
{
    for (int i = 0; i < l.len; i++)
        if (l.items[i]) fn(arg, l.items[i]);
}

void tl_ast_children(const tl_ast_node_t *n, void (*fn)(void *arg, const tl_ast_node_t *c),
                     void *arg)
{
    const tl_ast_node_t *one[3] = {NULL, NULL, NULL};
    switch (n->kind) {
    case TL_AST_JOINEDSTR: each(n->fstr.values, fn, arg); break;
    case TL_AST_FORMATTED: one[0] = n->fmt.value, one[1] = n->fmt.spec; break;
    case TL_AST_ATTRIBUTE: one[0] = n->attr.value; break;
    case TL_AST_SUBSCRIPT: one[0] = n->sub.value, one[1] = n->sub.index; break;
    case TL_AST_SLICE:
        one[0] = n->slice.lower, one[1] = n->slice.upper, one[2] = n->slice.step;
        break;
    case TL_AST_CALL:
        one[0] = n->call.func;
        each(n->call.args, fn, arg);
        each(n->call.keywords, fn, arg);
        break;
    case TL_AST_BINOP: one[0] = n->bin.left, one[1] = n->bin.right; break;
    case TL_AST_UNARYOP: one[0] = n->unary.operand; break;
    case TL_AST_BOOLOP: each(n->boolop.values, fn, arg); break;
    case TL_AST_COMPARE:
        one[0] = n->cmp.left;
        each(n->cmp.comparators, fn, arg);
        break;
    case TL_AST_IFEXP:
        one[0] = n->ifexp.test, one[1] = n->ifexp.body, one[2] = n->ifexp.orelse;
        break;
    case TL_AST_LAMBDA:
        each(n->lambda.params, fn, arg);
        one[0] = n->lambda.body;
        break;
    case TL_AST_TUPLE:
    case TL_AST_LIST:
    case TL_AST_SET: each(n->seq.elts, fn, arg); break;
    case TL_AST_DICT:
        each(n->dict.keys, fn, arg);
        each(n->dict.values, fn, arg);
        break;
    case TL_AST_LISTCOMP:
    case TL_AST_SETCOMP:
    case TL_AST_DICTCOMP:
    case TL_AST_GENEXP:
        one[0] = n->comp.elt, one[1] = n->comp.value;
        each(n->comp.gens, fn, arg);
        break;
    case TL_AST_STARRED:
    case TL_AST_YIELD:
    case TL_AST_YIELDFROM:
    case TL_AST_AWAIT: one[0] = n->starred.value; break;
    case TL_AST_NAMEDEXPR: one[0] = n->named.target, one[1] = n->named.value; break;
    case TL_AST_KEYWORD: one[0] = n->keyword.value; break;
    case TL_AST_PARAM: one[0] = n->param.annotation, one[1] = n->param.default_value; break;
    case TL_AST_COMPREHENSION:
        one[0] = n->gen.target, one[1] = n->gen.iter;
        each(n->gen.ifs, fn, arg);
        break;
    case TL_AST_WITHITEM: one[0] = n->withitem.context, one[1] = n->withitem.target; break;
    case TL_AST_HANDLER:
        one[0] = n->handler.type;
        each(n->handler.body, fn, arg);
        break;
    case TL_AST_FUNCTIONDEF:
        each(n->def.decorators, fn, arg);
        each(n->def.params, fn, arg);
        one[0] = n->def.returns;
        each(n->def.body, fn, arg);
        break;
    case TL_AST_CLASSDEF:
        each(n->cls.decorators, fn, arg);
        each(n->cls.bases, fn, arg);
        each(n->cls.keywords, fn, arg);
        each(n->cls.body, fn, arg);
        break;
    case TL_AST_RETURN: one[0] = n->ret.value; break;
    case TL_AST_EXPR: one[0] = n->expr.value; break;
    case TL_AST_ASSIGN:
        each(n->assign.targets, fn, arg);
        one[0] = n->assign.value;
        break;
    case TL_AST_AUGASSIGN: one[0] = n->aug.target, one[1] = n->aug.value; break;
    case TL_AST_ANNASSIGN:
        one[0] = n->ann.target, one[1] = n->ann.annotation, one[2] = n->ann.value;
        break;
    case TL_AST_FOR:
        one[0] = n->loop.target, one[1] = n->loop.iter;
        each(n->loop.body, fn, arg);
        each(n->loop.orelse, fn, arg);
        break;
    case TL_AST_WHILE:
    case TL_AST_IF:
        one[0] = n->cond.test;
        each(n->cond.body, fn, arg);
        each(n->cond.orelse, fn, arg);
        break;
    case TL_AST_WITH:
        each(n->with.items, fn, arg);
        each(n->with.body, fn, arg);
        break;
    case TL_AST_ASSERT: one[0] = n->check.test, one[1] = n->check.msg; break;
    case TL_AST_IMPORT: each(n->import.names, fn, arg); break;
    case TL_AST_IMPORTFROM: each(n->importfrom.names, fn, arg); break;
    case TL_AST_RAISE: one[0] = n->raise.exc, one[1] = n->raise.cause; break;
    case TL_AST_TRY:
        each(n->tryblock.body, fn, arg);
        each(n->tryblock.handlers, fn, arg);
        each(n->tryblock.orelse, fn, arg);
        each(n->tryblock.finalbody, fn, arg);
        break;
    case TL_AST_DELETE: each(n->del.targets, fn, arg); break;
    default: break; // names, constants, pass, break, continue, global, errors, aliases
    }
    for (int i = 0; i < 3; i++)
        if (one[i]) fn(arg, one[i]);
}

bool tl_ast_is_block(tl_ast_kind_t kind)
{
    switch (kind) {
    case TL_AST_FUNCTIONDEF:
    case TL_AST_CLASSDEF:
    case TL_AST_FOR:
    case TL_AST_WHILE:
    case TL_AST_IF:
    case TL_AST_WITH:
    case TL_AST_TRY: return true;
    default: return false;
    }
}

typedef struct {
    const tl_ast_node_t *n, *expr; // expr: the outermost expression holding n
    int depth, blocks;
} visit_t;

typedef struct {
    visit_t *v;
    int n, cap;
    visit_t at; // the node whose children are pushed
    bool oom;
} walk_t;

static void push_child(void *arg, const tl_ast_node_t *c)
{
    walk_t *w = arg;
    if (w->n == w->cap) {
        int cap = w->cap ? w->cap * 2 : 256;
        visit_t *g = realloc(w->v, sizeof *g * (size_t)cap);
        if (!g) {
            w->oom = true;
            return;
        }
        w->v = g;
        w->cap = cap;
    }
    const tl_ast_node_t *e = w->at.expr;
    if (!tl_ast_is_expr(c->kind))
        e = NULL;
    else if (!e)
        e = c;
    bool elif = c->kind == TL_AST_IF && c->cond.elif; // at the level of its chain's if
    int blocks = w->at.blocks + (tl_ast_is_block(c->kind) && !elif);
    w->v[w->n++] = (visit_t){c, e, w->at.depth + !elif, blocks};
}

const tl_ast_node_t *tl_ast_too_deep(const tl_ast_node_t *root, bool *blocks)
{
    walk_t w = {0};
    const tl_ast_node_t *bad = NULL;
    push_child(&w, root);
    while (w.n && !w.oom && !bad) {
        visit_t x = w.v[--w.n];
        if (x.depth > TL_MAX_NESTING || x.blocks > TL_MAX_BLOCKS) {
            *blocks = x.blocks > TL_MAX_BLOCKS;
            bad = *blocks || !x.expr ? x.n : x.expr;
            break;
        }
        w.at = x;
        tl_ast_children(x.n, push_child, &w);
    }
    free(w.v);
    return w.oom && !bad ? root : bad;
}
