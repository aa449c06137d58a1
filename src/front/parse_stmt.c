// Statement parser: one function per grammar rule of Python 3.11, each
// preceded by its rule.
#include "front/parse_impl.h"

#include <string.h>

static tl_ast_list_t block(tl_parser_t *p, const char *what, const tl_token_t *kw);

static const char assign_hint[] = " here. Maybe you meant '==' instead of '='?";

// The right-hand side of an assignment or an expression statement.
static tl_ast_node_t *rhs(tl_parser_t *p)
{
    return tl_parse_at(p, TL_TOK_YIELD) ? tl_parse_expr_yield(p)
                                        : tl_parse_expr_star_expressions(p);
}

static bool single_target(const tl_ast_node_t *e)
{
    return e->kind == TL_AST_NAME || e->kind == TL_AST_ATTRIBUTE || e->kind == TL_AST_SUBSCRIPT;
}

static const struct {
    uint16_t tok;
    uint8_t op;
} augops[] = {
    {TL_TOK_ADD_EQ, TL_BINOP_ADD},           {TL_TOK_SUB_EQ, TL_BINOP_SUB},
    {TL_TOK_MUL_EQ, TL_BINOP_MUL},           {TL_TOK_DIV_EQ, TL_BINOP_DIV},
    {TL_TOK_FLOORDIV_EQ, TL_BINOP_FLOORDIV}, {TL_TOK_MOD_EQ, TL_BINOP_MOD},
    {TL_TOK_POW_EQ, TL_BINOP_POW},           {TL_TOK_MATMUL_EQ, TL_BINOP_MATMUL},
    {TL_TOK_LSHIFT_EQ, TL_BINOP_LSHIFT},     {TL_TOK_RSHIFT_EQ, TL_BINOP_RSHIFT},
    {TL_TOK_AND_EQ, TL_BINOP_BITAND},        {TL_TOK_OR_EQ, TL_BINOP_BITOR},
    {TL_TOK_XOR_EQ, TL_BINOP_BITXOR},
};

static int augop(int tok)
{
    for (size_t i = 0; i < TL_ARRAY_LEN(augops); i++)
        if (augops[i].tok == tok) return augops[i].op;
    return -1;
}

// assignment = target ':' expression ['=' (yield_expr | star_expressions)]
//            | (star_targets '=')+ (yield_expr | star_expressions)
//            | single_target augassign (yield_expr | star_expressions)
//            | star_expressions                              (an expression statement)
static tl_ast_node_t *assignment(tl_parser_t *p)
{
    tl_token_t *t = p->tok;
    tl_ast_node_t *e = rhs(p), *n;
    int op = augop(p->tok->kind);
    if (tl_parse_at(p, TL_TOK_COLON)) {
        if (e->kind == TL_AST_TUPLE)
            tl_parse_fail_at(p, e->loc, "only single target (not tuple) can be annotated");
        if (!single_target(e)) tl_parse_fail_at(p, e->loc, "illegal target for annotation");
        tl_parse_next(p);
        n = tl_parse_node(p, TL_AST_ANNASSIGN, t);
        n->ann.target = e;
        n->ann.annotation = tl_parse_expr_expression(p);
        if (tl_parse_accept(p, TL_TOK_EQ)) n->ann.value = rhs(p);
        n->ann.simple = t->kind == TL_TOK_NAME && e->kind == TL_AST_NAME;
        return n;
    }
    if (op >= 0) {
        if (!single_target(e))
            tl_parse_fail_at(p, e->loc, "'%s' is an illegal expression for augmented assignment",
                             tl_ast_kind_name(e->kind));
        tl_parse_next(p);
        n = tl_parse_node(p, TL_AST_AUGASSIGN, t);
        n->aug.target = e;
        n->aug.op = (tl_ast_binop_t)op;
        n->aug.value = rhs(p);
        return n;
    }
    if (!tl_parse_at(p, TL_TOK_EQ)) {
        n = tl_parse_node(p, TL_AST_EXPR, t);
        n->expr.value = e;
        return n;
    }
    tl_vec_t targets = {0};
    while (tl_parse_accept(p, TL_TOK_EQ)) {
        if (e->kind == TL_AST_YIELD || e->kind == TL_AST_YIELDFROM)
            tl_parse_fail_at(p, e->loc, "assignment to yield expression not possible");
        tl_parse_expr_check_target(p, e, false, assign_hint);
        tl_vec_push(p->a, &targets, e);
        e = rhs(p);
    }
    n = tl_parse_node(p, TL_AST_ASSIGN, t);
    n->assign.targets = tl_parse_list(targets);
    n->assign.value = e;
    return n;
}

// dotted_name = NAME ('.' NAME)*
static const char *dotted_name(tl_parser_t *p, const char *what)
{
    const char *name = tl_parse_expect_name(p, what);
    while (tl_parse_accept(p, TL_TOK_DOT))
        name = tl_arena_printf(p->a, "%s.%s", name, tl_parse_expect_name(p, "name after '.'"));
    return name;
}

static tl_ast_node_t *alias(tl_parser_t *p, bool dotted, const char *what)
{
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_ALIAS, p->tok);
    n->alias.name = dotted ? dotted_name(p, what) : tl_parse_expect_name(p, what);
    if (tl_parse_accept(p, TL_TOK_AS)) n->alias.asname = tl_parse_expect_name(p, "name after 'as'");
    return n;
}

// import_name = 'import' dotted_name ['as' NAME] (',' dotted_name ['as' NAME])*
static tl_ast_node_t *import_name(tl_parser_t *p)
{
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_IMPORT, tl_parse_next(p));
    tl_vec_t names = {0};
    do tl_vec_push(p->a, &names, alias(p, true, "module name after 'import'"));
    while (tl_parse_accept(p, TL_TOK_COMMA));
    n->import.names = tl_parse_list(names);
    return n;
}

// import_from = 'from' ('.' | '...')* dotted_name 'import' import_from_targets
//             | 'from' ('.' | '...')+ 'import' import_from_targets
// import_from_targets = '(' import_from_as_names [','] ')' | import_from_as_names | '*'
static tl_ast_node_t *import_from(tl_parser_t *p)
{
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_IMPORTFROM, tl_parse_next(p));
    for (;;) {
        if (tl_parse_accept(p, TL_TOK_DOT))
            n->importfrom.level++;
        else if (tl_parse_accept(p, TL_TOK_ELLIPSIS))
            n->importfrom.level += 3;
        else
            break;
    }
    if (!n->importfrom.level || !tl_parse_at(p, TL_TOK_IMPORT))
        n->importfrom.module = dotted_name(p, "module name after 'from'");
    tl_parse_expect(p, TL_TOK_IMPORT, "after the module name");
    tl_vec_t names = {0};
    if (tl_parse_at(p, TL_TOK_STAR)) {
        tl_ast_node_t *a = tl_parse_node(p, TL_AST_ALIAS, tl_parse_next(p));
        a->alias.name = "*";
        tl_vec_push(p->a, &names, a);
    } else {
        bool paren = tl_parse_accept(p, TL_TOK_LPAR);
        do {
            if (paren && tl_parse_at(p, TL_TOK_RPAR)) break;
            tl_vec_push(p->a, &names, alias(p, false, "name to import"));
        } while (tl_parse_accept(p, TL_TOK_COMMA));
        if (paren) tl_parse_expect(p, TL_TOK_RPAR, "after the imported names");
    }
    n->importfrom.names = tl_parse_list(names);
    return n;
}

// del_stmt = 'del' del_target (',' del_target)* [',']
static tl_ast_node_t *del_stmt(tl_parser_t *p)
{
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_DELETE, tl_parse_next(p));
    tl_vec_t targets = {0};
    do {
        tl_ast_node_t *e = tl_parse_expr_bitwise_or(p);
        tl_parse_expr_check_target(p, e, true, "");
        tl_vec_push(p->a, &targets, e);
    } while (tl_parse_accept(p, TL_TOK_COMMA) && tl_parse_expr_starts(p->tok));
    n->del.targets = tl_parse_list(targets);
    return n;
}

// global_stmt = 'global' NAME (',' NAME)*     nonlocal_stmt = 'nonlocal' NAME (',' NAME)*
static tl_ast_node_t *scope_stmt(tl_parser_t *p)
{
    tl_token_t *t = tl_parse_next(p);
    tl_ast_node_t *n =
        tl_parse_node(p, t->kind == TL_TOK_GLOBAL ? TL_AST_GLOBAL : TL_AST_NONLOCAL, t);
    tl_vec_t names = {0};
    do tl_vec_push(p->a, &names, (void *)tl_parse_expect_name(p, "name"));
    while (tl_parse_accept(p, TL_TOK_COMMA));
    n->scope.names = (tl_ast_names_t){(const char **)names.items, names.len};
    return n;
}

// simple_stmt = assignment | star_expressions | return_stmt | import_stmt | raise_stmt
//             | 'pass' | del_stmt | yield_stmt | assert_stmt | 'break' | 'continue'
//             | global_stmt | nonlocal_stmt
// return_stmt = 'return' [star_expressions]
// raise_stmt = 'raise' [expression ['from' expression]]
// assert_stmt = 'assert' expression [',' expression]
static tl_ast_node_t *simple_stmt(tl_parser_t *p)
{
    tl_token_t *t = p->tok;
    tl_ast_node_t *n;
    switch (t->kind) {
    case TL_TOK_RETURN:
        n = tl_parse_node(p, TL_AST_RETURN, tl_parse_next(p));
        if (tl_parse_expr_starts(p->tok)) n->ret.value = tl_parse_expr_star_expressions(p);
        return n;
    case TL_TOK_IMPORT: return import_name(p);
    case TL_TOK_FROM: return import_from(p);
    case TL_TOK_RAISE:
        n = tl_parse_node(p, TL_AST_RAISE, tl_parse_next(p));
        if (!tl_parse_expr_starts(p->tok)) return n;
        n->raise.exc = tl_parse_expr_expression(p);
        if (tl_parse_accept(p, TL_TOK_FROM)) n->raise.cause = tl_parse_expr_expression(p);
        return n;
    case TL_TOK_PASS:
    case TL_TOK_BREAK:
    case TL_TOK_CONTINUE:
        tl_parse_next(p);
        return tl_parse_node(p,
                             t->kind == TL_TOK_PASS    ? TL_AST_PASS
                             : t->kind == TL_TOK_BREAK ? TL_AST_BREAK
                                                       : TL_AST_CONTINUE,
                             t);
    case TL_TOK_DEL: return del_stmt(p);
    case TL_TOK_ASSERT:
        n = tl_parse_node(p, TL_AST_ASSERT, tl_parse_next(p));
        n->check.test = tl_parse_expr_expression(p);
        if (tl_parse_accept(p, TL_TOK_COMMA)) n->check.msg = tl_parse_expr_expression(p);
        return n;
    case TL_TOK_GLOBAL:
    case TL_TOK_NONLOCAL: return scope_stmt(p);
    default: return assignment(p);
    }
}

// simple_stmts = simple_stmt (';' simple_stmt)* [';'] NEWLINE
static void simple_stmts(tl_parser_t *p, tl_vec_t *out)
{
    do tl_vec_push(p->a, out, simple_stmt(p));
    while (tl_parse_accept(p, TL_TOK_SEMI) && !tl_parse_at(p, TL_TOK_NEWLINE));
    if (!tl_parse_accept(p, TL_TOK_NEWLINE))
        tl_parse_fail(p, p->tok, "expected NEWLINE after statement, found %s",
                      tl_parse_describe(p, p->tok));
}

// block = NEWLINE INDENT statement+ DEDENT | simple_stmts
static tl_ast_list_t block(tl_parser_t *p, const char *what, const tl_token_t *kw)
{
    tl_vec_t v = {0};
    if (!tl_parse_accept(p, TL_TOK_NEWLINE)) {
        simple_stmts(p, &v);
        return tl_parse_list(v);
    }
    if (!tl_parse_accept(p, TL_TOK_INDENT))
        tl_parse_fail(p, p->tok, "expected an indented block after %s on line %d, found %s", what,
                      kw->line, tl_parse_describe(p, p->tok));
    while (!tl_parse_at(p, TL_TOK_DEDENT) && !tl_parse_at(p, TL_TOK_EOF))
        tl_parse_stmt_statement(p, &v);
    tl_parse_expect(p, TL_TOK_DEDENT, "at the end of the block");
    return tl_parse_list(v);
}

// else_block = 'else' ':' block
static tl_ast_list_t else_block(tl_parser_t *p)
{
    if (!tl_parse_at(p, TL_TOK_ELSE)) return (tl_ast_list_t){0};
    tl_token_t *t = tl_parse_next(p);
    tl_parse_expect(p, TL_TOK_COLON, "after 'else'");
    return block(p, "'else' statement", t);
}

// function_def = [decorators] 'def' NAME '(' [params] ')' ['->' expression] ':' block
static tl_ast_node_t *function_def(tl_parser_t *p, tl_vec_t decorators)
{
    tl_token_t *t = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_FUNCTIONDEF, t);
    n->def.name = tl_parse_expect_name(p, "function name after 'def'");
    tl_parse_expect(p, TL_TOK_LPAR, "after the function name");
    n->def.params = tl_parse_expr_params(p, TL_TOK_RPAR, true);
    if (!tl_parse_accept(p, TL_TOK_RPAR))
        tl_parse_fail(p, p->tok, "expected ',' or ')' in the parameter list, found %s",
                      tl_parse_describe(p, p->tok));
    if (tl_parse_accept(p, TL_TOK_ARROW)) n->def.returns = tl_parse_expr_expression(p);
    tl_parse_expect(p, TL_TOK_COLON, "after the function signature");
    n->def.body = block(p, "function definition", t);
    n->def.decorators = tl_parse_list(decorators);
    return n;
}

// class_def = [decorators] 'class' NAME ['(' [arguments] ')'] ':' block
static tl_ast_node_t *class_def(tl_parser_t *p, tl_vec_t decorators)
{
    tl_token_t *t = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_CLASSDEF, t);
    n->cls.name = tl_parse_expect_name(p, "class name after 'class'");
    tl_token_t *open = p->tok;
    if (tl_parse_accept(p, TL_TOK_LPAR)) {
        tl_vec_t bases = {0}, kws = {0};
        tl_parse_expr_arguments(p, open, &bases, &kws);
        n->cls.bases = tl_parse_list(bases);
        n->cls.keywords = tl_parse_list(kws);
    }
    tl_parse_expect(p, TL_TOK_COLON, "after the class header");
    n->cls.body = block(p, "class definition", t);
    n->cls.decorators = tl_parse_list(decorators);
    return n;
}

// decorators = ('@' named_expression NEWLINE)+
static tl_ast_node_t *definition(tl_parser_t *p)
{
    tl_vec_t decorators = {0};
    while (tl_parse_accept(p, TL_TOK_AT)) {
        tl_vec_push(p->a, &decorators, tl_parse_expr_named(p));
        tl_parse_expect(p, TL_TOK_NEWLINE, "after the decorator");
    }
    if (tl_parse_at(p, TL_TOK_DEF)) return function_def(p, decorators);
    if (tl_parse_at(p, TL_TOK_CLASS)) return class_def(p, decorators);
    if (tl_parse_at(p, TL_TOK_ASYNC)) tl_parse_fail(p, p->tok, "'async def' is not supported");
    tl_parse_fail(p, p->tok, "expected 'def' or 'class' after the decorator, found %s",
                  tl_parse_describe(p, p->tok));
}

// if_stmt = 'if' named_expression ':' block (elif_stmt | [else_block])
// elif_stmt = 'elif' named_expression ':' block (elif_stmt | [else_block])
// (An elif chain is parsed in a loop: each elif is an if, marked elif, in the
// else of the one before; the chain counts as one level of nesting.)
static tl_ast_node_t *if_stmt(tl_parser_t *p)
{
    tl_ast_node_t *first = NULL, *prev = NULL;
    for (int branches = 1;; branches++) {
        tl_token_t *t = tl_parse_next(p);
        bool elif = t->kind == TL_TOK_ELIF;
        if (branches > TL_MAX_ELIF)
            tl_parse_fail(p, t, "this if/elif chain has more than %d branches; split it (e.g. "
                                "an if on a range of values around shorter chains)",
                          TL_MAX_ELIF);
        tl_ast_node_t *n = tl_parse_node(p, TL_AST_IF, t);
        n->cond.elif = elif;
        n->cond.test = tl_parse_expr_named(p);
        tl_parse_expect(p, TL_TOK_COLON, elif ? "after 'elif' condition" : "after 'if' condition");
        n->cond.body = block(p, elif ? "'elif' statement" : "'if' statement", t);
        if (prev) {
            tl_vec_t v = {0};
            tl_vec_push(p->a, &v, n);
            prev->cond.orelse = tl_parse_list(v);
        } else {
            first = n;
        }
        prev = n;
        if (!tl_parse_at(p, TL_TOK_ELIF)) break;
    }
    prev->cond.orelse = else_block(p);
    return first;
}

// while_stmt = 'while' named_expression ':' block [else_block]
static tl_ast_node_t *while_stmt(tl_parser_t *p)
{
    tl_token_t *t = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_WHILE, t);
    n->cond.test = tl_parse_expr_named(p);
    tl_parse_expect(p, TL_TOK_COLON, "after 'while' condition");
    n->cond.body = block(p, "'while' statement", t);
    n->cond.orelse = else_block(p);
    return n;
}

// for_stmt = 'for' star_targets 'in' star_expressions ':' block [else_block]
static tl_ast_node_t *for_stmt(tl_parser_t *p)
{
    tl_token_t *t = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_FOR, t);
    n->loop.target = tl_parse_expr_star_targets(p);
    tl_parse_expr_check_target(p, n->loop.target, false, "");
    tl_parse_expect(p, TL_TOK_IN, "after 'for' target");
    n->loop.iter = tl_parse_expr_star_expressions(p);
    tl_parse_expect(p, TL_TOK_COLON, "after 'for' iterable");
    n->loop.body = block(p, "'for' statement", t);
    n->loop.orelse = else_block(p);
    return n;
}

// Whether a 'with' is followed by '(' items ')' ':' (the parenthesized form).
static bool parenthesized_items(const tl_parser_t *p)
{
    if (!tl_parse_at(p, TL_TOK_LPAR)) return false;
    int depth = 0;
    for (int i = p->pos; i + 1 < p->ntoks; i++) {
        int k = p->toks[i].kind;
        if (k == TL_TOK_LPAR || k == TL_TOK_LSQB || k == TL_TOK_LBRACE)
            depth++;
        else if ((k == TL_TOK_RPAR || k == TL_TOK_RSQB || k == TL_TOK_RBRACE) && --depth == 0)
            return p->toks[i + 1].kind == TL_TOK_COLON;
        else if (k == TL_TOK_NEWLINE)
            return false;
    }
    return false;
}

// with_item = expression ['as' star_target]
static tl_ast_node_t *with_item(tl_parser_t *p)
{
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_WITHITEM, p->tok);
    n->withitem.context = tl_parse_expr_expression(p);
    if (tl_parse_accept(p, TL_TOK_AS)) {
        n->withitem.target = tl_parse_expr_star_target(p);
        tl_parse_expr_check_target(p, n->withitem.target, false, "");
    }
    return n;
}

// with_stmt = 'with' '(' with_item (',' with_item)* [','] ')' ':' block
//           | 'with' with_item (',' with_item)* ':' block
static tl_ast_node_t *with_stmt(tl_parser_t *p)
{
    tl_token_t *t = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_WITH, t);
    bool paren = parenthesized_items(p);
    if (paren) tl_parse_next(p);
    tl_vec_t items = {0};
    do tl_vec_push(p->a, &items, with_item(p));
    while (tl_parse_accept(p, TL_TOK_COMMA) && !(paren && tl_parse_at(p, TL_TOK_RPAR)));
    if (paren) tl_parse_expect(p, TL_TOK_RPAR, "after the 'with' items");
    tl_parse_expect(p, TL_TOK_COLON, "after the 'with' items");
    n->with.items = tl_parse_list(items);
    n->with.body = block(p, "'with' statement", t);
    return n;
}

// try_stmt = 'try' ':' block (except_block+ [else_block] [finally_block] | finally_block)
// except_block = 'except' [expression ['as' NAME]] ':' block
// finally_block = 'finally' ':' block
static tl_ast_node_t *try_stmt(tl_parser_t *p)
{
    tl_token_t *t = tl_parse_next(p);
    tl_ast_node_t *n = tl_parse_node(p, TL_AST_TRY, t);
    tl_parse_expect(p, TL_TOK_COLON, "after 'try'");
    n->tryblock.body = block(p, "'try' statement", t);
    tl_vec_t handlers = {0};
    while (tl_parse_at(p, TL_TOK_EXCEPT)) {
        tl_token_t *e = tl_parse_next(p);
        tl_ast_node_t *h = tl_parse_node(p, TL_AST_HANDLER, e);
        if (tl_parse_at(p, TL_TOK_STAR)) tl_parse_fail(p, p->tok, "'except*' is not supported");
        if (!tl_parse_at(p, TL_TOK_COLON)) {
            h->handler.type = tl_parse_expr_expression(p);
            if (tl_parse_at(p, TL_TOK_COMMA))
                tl_parse_fail(p, p->tok, "multiple exception types must be parenthesized");
            if (tl_parse_accept(p, TL_TOK_AS))
                h->handler.name = tl_parse_expect_name(p, "a name after 'as'");
        }
        tl_parse_expect(p, TL_TOK_COLON, "after the 'except' clause");
        h->handler.body = block(p, "'except' statement", e);
        tl_vec_push(p->a, &handlers, h);
    }
    n->tryblock.handlers = tl_parse_list(handlers);
    if (handlers.len) n->tryblock.orelse = else_block(p);
    if (tl_parse_at(p, TL_TOK_FINALLY)) {
        tl_token_t *f = tl_parse_next(p);
        tl_parse_expect(p, TL_TOK_COLON, "after 'finally'");
        n->tryblock.finalbody = block(p, "'finally' statement", f);
    }
    if (!handlers.len && !n->tryblock.finalbody.len)
        tl_parse_fail(p, p->tok, "expected 'except' or 'finally' block, found %s",
                      tl_parse_describe(p, p->tok));
    return n;
}

// statement = compound_stmt | simple_stmts
// compound_stmt = function_def | if_stmt | class_def | with_stmt | for_stmt | try_stmt
//               | while_stmt
void tl_parse_stmt_statement(tl_parser_t *p, tl_vec_t *out)
{
    tl_ast_node_t *n;
    tl_token_t *t = p->tok;
    switch (t->kind) {
    case TL_TOK_AT:
    case TL_TOK_DEF:
    case TL_TOK_CLASS: n = definition(p); break;
    case TL_TOK_IF: n = if_stmt(p); break;
    case TL_TOK_WHILE: n = while_stmt(p); break;
    case TL_TOK_FOR: n = for_stmt(p); break;
    case TL_TOK_WITH: n = with_stmt(p); break;
    case TL_TOK_TRY: n = try_stmt(p); break;
    case TL_TOK_INDENT: tl_parse_fail(p, t, "unexpected indent");
    case TL_TOK_ASYNC: tl_parse_fail(p, t, "'async' statements are not supported");
    case TL_TOK_ELSE:
    case TL_TOK_ELIF:
        tl_parse_fail(p, t, "'%s' without a matching 'if'%s before it", tl_lex_kind_name(t->kind),
                      t->kind == TL_TOK_ELSE ? ", 'for', 'while' or 'try'" : "");
    case TL_TOK_EXCEPT:
    case TL_TOK_FINALLY:
        tl_parse_fail(p, t, "'%s' without a matching 'try' before it", tl_lex_kind_name(t->kind));
    default: simple_stmts(p, out); return;
    }
    tl_vec_push(p->a, out, n);
}
