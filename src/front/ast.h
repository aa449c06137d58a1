// Abstract syntax tree of a kernel file: Python's node kinds (3.11 `ast`
// module, minus contexts), one node type for statements, expressions and the
// parts between them (keywords, parameters, with items, handlers...), each
// with its source location. Nodes live in an arena.
//
// The printer writes a stable s-expression dump, one statement per line with
// bodies indented:
//
//   (def f (params a (b :default 1)) -> (name int)
//     @ (attr (name T) prim_func)
//     (return (+ (name a) (name b))))
#ifndef TL_FRONT_AST_H
#define TL_FRONT_AST_H

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

// id, name used in messages
#define TL_AST_EXPR_KINDS(X)                                                                       \
    X(TL_AST_NAME, "name")                                                                         \
    X(TL_AST_CONST, "constant")                                                                    \
    X(TL_AST_JOINEDSTR, "f-string")                                                                \
    X(TL_AST_FORMATTED, "f-string field")                                                          \
    X(TL_AST_ATTRIBUTE, "attribute")                                                               \
    X(TL_AST_SUBSCRIPT, "subscript")                                                               \
    X(TL_AST_SLICE, "slice")                                                                       \
    X(TL_AST_CALL, "function call")                                                                \
    X(TL_AST_BINOP, "binary operation")                                                            \
    X(TL_AST_UNARYOP, "unary operation")                                                           \
    X(TL_AST_BOOLOP, "boolean operation")                                                          \
    X(TL_AST_COMPARE, "comparison")                                                                \
    X(TL_AST_IFEXP, "conditional expression")                                                      \
    X(TL_AST_LAMBDA, "lambda")                                                                     \
    X(TL_AST_TUPLE, "tuple")                                                                       \
    X(TL_AST_LIST, "list")                                                                         \
    X(TL_AST_DICT, "dict")                                                                         \
    X(TL_AST_SET, "set")                                                                           \
    X(TL_AST_LISTCOMP, "list comprehension")                                                       \
    X(TL_AST_SETCOMP, "set comprehension")                                                         \
    X(TL_AST_DICTCOMP, "dict comprehension")                                                       \
    X(TL_AST_GENEXP, "generator expression")                                                       \
    X(TL_AST_STARRED, "starred")                                                                   \
    X(TL_AST_NAMEDEXPR, "named expression")                                                        \
    X(TL_AST_YIELD, "yield expression")                                                            \
    X(TL_AST_YIELDFROM, "yield expression")                                                        \
    X(TL_AST_AWAIT, "await expression")

#define TL_AST_STMT_KINDS(X)                                                                       \
    X(TL_AST_FUNCTIONDEF, "function definition")                                                   \
    X(TL_AST_CLASSDEF, "class definition")                                                         \
    X(TL_AST_RETURN, "'return' statement")                                                         \
    X(TL_AST_ASSIGN, "assignment")                                                                 \
    X(TL_AST_AUGASSIGN, "augmented assignment")                                                    \
    X(TL_AST_ANNASSIGN, "annotated assignment")                                                    \
    X(TL_AST_FOR, "'for' statement")                                                               \
    X(TL_AST_WHILE, "'while' statement")                                                           \
    X(TL_AST_IF, "'if' statement")                                                                 \
    X(TL_AST_WITH, "'with' statement")                                                             \
    X(TL_AST_ASSERT, "'assert' statement")                                                         \
    X(TL_AST_IMPORT, "'import' statement")                                                         \
    X(TL_AST_IMPORTFROM, "'from ... import' statement")                                            \
    X(TL_AST_EXPR, "expression statement")                                                         \
    X(TL_AST_PASS, "'pass' statement")                                                             \
    X(TL_AST_BREAK, "'break' statement")                                                           \
    X(TL_AST_CONTINUE, "'continue' statement")                                                     \
    X(TL_AST_RAISE, "'raise' statement")                                                           \
    X(TL_AST_TRY, "'try' statement")                                                               \
    X(TL_AST_GLOBAL, "'global' statement")                                                         \
    X(TL_AST_NONLOCAL, "'nonlocal' statement")                                                     \
    X(TL_AST_DELETE, "'del' statement")                                                            \
    X(TL_AST_ERROR, "statement with a syntax error")

#define TL_AST_PART_KINDS(X)                                                                       \
    X(TL_AST_KEYWORD, "keyword argument")                                                          \
    X(TL_AST_PARAM, "parameter")                                                                   \
    X(TL_AST_COMPREHENSION, "comprehension clause")                                                \
    X(TL_AST_WITHITEM, "with item")                                                                \
    X(TL_AST_HANDLER, "except clause")                                                             \
    X(TL_AST_ALIAS, "import name")

typedef enum {
#define X(id, s) id,
    TL_AST_EXPR_KINDS(X) TL_AST_STMT_KINDS(X) TL_AST_PART_KINDS(X)
#undef X
        TL_AST_KIND_COUNT
} tl_ast_kind_t;

#define TL_AST_BINOPS(X)                                                                           \
    X(TL_BINOP_ADD, "+")                                                                           \
    X(TL_BINOP_SUB, "-")                                                                           \
    X(TL_BINOP_MUL, "*")                                                                           \
    X(TL_BINOP_DIV, "/")                                                                           \
    X(TL_BINOP_FLOORDIV, "//")                                                                     \
    X(TL_BINOP_MOD, "%")                                                                           \
    X(TL_BINOP_POW, "**")                                                                          \
    X(TL_BINOP_MATMUL, "@")                                                                        \
    X(TL_BINOP_LSHIFT, "<<")                                                                       \
    X(TL_BINOP_RSHIFT, ">>")                                                                       \
    X(TL_BINOP_BITAND, "&")                                                                        \
    X(TL_BINOP_BITOR, "|")                                                                         \
    X(TL_BINOP_BITXOR, "^")

#define TL_AST_UNOPS(X)                                                                            \
    X(TL_UNOP_NEG, "-")                                                                            \
    X(TL_UNOP_POS, "+")                                                                            \
    X(TL_UNOP_NOT, "not")                                                                          \
    X(TL_UNOP_INVERT, "~")

#define TL_AST_CMPOPS(X)                                                                           \
    X(TL_CMP_EQ, "==")                                                                             \
    X(TL_CMP_NE, "!=")                                                                             \
    X(TL_CMP_LT, "<")                                                                              \
    X(TL_CMP_LE, "<=")                                                                             \
    X(TL_CMP_GT, ">")                                                                              \
    X(TL_CMP_GE, ">=")                                                                             \
    X(TL_CMP_IS, "is")                                                                             \
    X(TL_CMP_IS_NOT, "is not")                                                                     \
    X(TL_CMP_IN, "in")                                                                             \
    X(TL_CMP_NOT_IN, "not in")

typedef enum {
#define X(id, s) id,
    TL_AST_BINOPS(X)
#undef X
} tl_ast_binop_t;

typedef enum {
#define X(id, s) id,
    TL_AST_UNOPS(X)
#undef X
} tl_ast_unop_t;

typedef enum {
#define X(id, s) id,
    TL_AST_CMPOPS(X)
#undef X
} tl_ast_cmpop_t;

typedef enum { TL_BOOLOP_AND, TL_BOOLOP_OR } tl_ast_boolop_t;

typedef enum {
    TL_PARAM_POSONLY, // before '/'
    TL_PARAM_NORMAL,
    TL_PARAM_VARARG, // *args
    TL_PARAM_KWONLY, // after '*' or '*args'
    TL_PARAM_KWARG,  // **kwargs
} tl_ast_param_kind_t;

typedef enum {
    TL_CONST_INT,
    TL_CONST_FLOAT,
    TL_CONST_STR,
    TL_CONST_BYTES,
    TL_CONST_BOOL,
    TL_CONST_NONE,
    TL_CONST_ELLIPSIS,
} tl_ast_const_kind_t;

typedef struct {
    tl_ast_const_kind_t kind;
    bool big;      // INT larger than INT64_MAX: `i` has the low 64 bits, `f` approximates,
    bool fits_u64; // `s` the literal's text; exact as uint64 when fits_u64
    int64_t i;     // INT, BOOL (0 or 1)
    double f;      // FLOAT
    const char *s; // STR (UTF-8) and BYTES contents, NUL-terminated (may contain NULs)
    size_t len;
} tl_ast_const_t;

typedef struct tl_ast_node tl_ast_node_t;

typedef struct {
    tl_ast_node_t **items;
    int len;
} tl_ast_list_t;

typedef struct {
    const char **items;
    int len;
} tl_ast_names_t;

struct tl_ast_node {
    tl_ast_kind_t kind;
    tl_loc_t loc; // where the node starts
    union {
        // --- expressions
        struct {
            const char *id;
        } name;             // NAME
        tl_ast_const_t cst; // CONST
        struct {
            tl_ast_list_t values; // CONST str and FORMATTED nodes
        } fstr;                   // JOINEDSTR
        struct {
            tl_ast_node_t *value;
            char conv;           // 0, 'r', 's', 'a'
            tl_ast_node_t *spec; // JOINEDSTR or NULL
        } fmt;                   // FORMATTED
        struct {
            tl_ast_node_t *value;
            const char *attr;
        } attr; // ATTRIBUTE
        struct {
            tl_ast_node_t *value, *index; // index: expression, SLICE or TUPLE of them
        } sub;                            // SUBSCRIPT
        struct {
            tl_ast_node_t *lower, *upper, *step; // each may be NULL
        } slice;                                 // SLICE
        struct {
            tl_ast_node_t *func;
            tl_ast_list_t args;     // expressions and STARRED
            tl_ast_list_t keywords; // KEYWORD nodes
        } call;                     // CALL
        struct {
            tl_ast_binop_t op;
            tl_ast_node_t *left, *right;
        } bin; // BINOP
        struct {
            tl_ast_unop_t op;
            tl_ast_node_t *operand;
        } unary; // UNARYOP
        struct {
            tl_ast_boolop_t op;
            tl_ast_list_t values; // two or more: `a and b and c` is one node
        } boolop;                 // BOOLOP
        struct {
            tl_ast_node_t *left;
            tl_ast_cmpop_t *ops;       // comparators.len of them
            tl_ast_list_t comparators; // a < b < c: left a, ops [<, <], comparators [b, c]
        } cmp;                         // COMPARE
        struct {
            tl_ast_node_t *test, *body, *orelse;
        } ifexp; // IFEXP: body if test else orelse
        struct {
            tl_ast_list_t params; // PARAM nodes
            tl_ast_node_t *body;
        } lambda; // LAMBDA
        struct {
            tl_ast_list_t elts;
        } seq; // TUPLE, LIST, SET
        struct {
            tl_ast_list_t keys, values; // keys[i] NULL: `**values[i]`
        } dict;                         // DICT
        struct {
            tl_ast_node_t *elt;   // DICTCOMP: the key
            tl_ast_node_t *value; // DICTCOMP only
            tl_ast_list_t gens;   // COMPREHENSION nodes
        } comp;                   // LISTCOMP, SETCOMP, DICTCOMP, GENEXP
        struct {
            tl_ast_node_t *value; // YIELD: may be NULL
        } starred;                // STARRED, YIELD, YIELDFROM, AWAIT
        struct {
            tl_ast_node_t *target, *value;
        } named; // NAMEDEXPR: (target := value)

        // --- parts
        struct {
            const char *arg; // NULL for `**value`
            tl_ast_node_t *value;
        } keyword; // KEYWORD
        struct {
            const char *name;
            tl_ast_param_kind_t kind;
            tl_ast_node_t *annotation, *default_value; // may be NULL
        } param;                                       // PARAM
        struct {
            tl_ast_node_t *target, *iter;
            tl_ast_list_t ifs;
        } gen; // COMPREHENSION: for target in iter if ...
        struct {
            tl_ast_node_t *context, *target; // target may be NULL
        } withitem;                          // WITHITEM
        struct {
            tl_ast_node_t *type; // may be NULL (bare except)
            const char *name;    // may be NULL
            tl_ast_list_t body;
        } handler; // HANDLER
        struct {
            const char *name;   // dotted name; "*" in `from m import *`
            const char *asname; // may be NULL
        } alias;                // ALIAS

        // --- statements
        struct {
            const char *name;
            tl_ast_list_t params, body, decorators;
            tl_ast_node_t *returns; // may be NULL
        } def;                      // FUNCTIONDEF
        struct {
            const char *name;
            tl_ast_list_t bases, keywords, body, decorators;
        } cls; // CLASSDEF
        struct {
            tl_ast_node_t *value; // may be NULL
        } ret;                    // RETURN
        struct {
            tl_ast_node_t *value;
        } expr; // EXPR
        struct {
            tl_ast_list_t targets; // a = b = v: targets [a, b]
            tl_ast_node_t *value;
        } assign; // ASSIGN
        struct {
            tl_ast_node_t *target;
            tl_ast_binop_t op;
            tl_ast_node_t *value;
        } aug; // AUGASSIGN
        struct {
            tl_ast_node_t *target, *annotation, *value; // value may be NULL
            bool simple; // target is a plain name (not parenthesized)
        } ann;           // ANNASSIGN
        struct {
            tl_ast_node_t *target, *iter;
            tl_ast_list_t body, orelse;
        } loop; // FOR
        struct {
            tl_ast_node_t *test;
            tl_ast_list_t body, orelse; // elif: orelse holds a single IF
            bool elif; // IF: an elif, the single statement of the else before
        } cond;        // IF, WHILE
        struct {
            tl_ast_list_t items, body; // WITHITEM nodes
        } with;                        // WITH
        struct {
            tl_ast_node_t *test, *msg; // msg may be NULL
        } check;                       // ASSERT
        struct {
            tl_ast_list_t names; // ALIAS nodes
        } import;                // IMPORT
        struct {
            const char *module; // NULL in `from . import x`
            int level;          // number of leading dots
            tl_ast_list_t names;
        } importfrom; // IMPORTFROM
        struct {
            tl_ast_node_t *exc, *cause; // both may be NULL
        } raise;                        // RAISE
        struct {
            tl_ast_list_t body, handlers, orelse, finalbody;
        } tryblock; // TRY
        struct {
            tl_ast_names_t names;
        } scope; // GLOBAL, NONLOCAL
        struct {
            tl_ast_list_t targets;
        } del; // DELETE
        struct {
            const char *msg;        // one-line message (report it with tl_diag_error at loc)
            tl_loc_t start;         // where the broken statement starts
            const char *text;       // the formatted diagnostic: file:line:col, message, caret
            tl_ast_names_t defines; // names the broken statement would have bound
        } error;                    // ERROR: a top-level statement that failed to parse
    };
};

typedef struct {
    const tl_source_t *src;
    tl_ast_list_t body;
    int nerrors; // ERROR statements in body
} tl_ast_module_t;

tl_ast_node_t *tl_ast_new(tl_arena_t *a, tl_ast_kind_t kind, tl_loc_t loc);
bool tl_ast_is_expr(tl_ast_kind_t kind);
bool tl_ast_is_stmt(tl_ast_kind_t kind);
const char *tl_ast_kind_name(tl_ast_kind_t kind);
const char *tl_ast_binop_str(tl_ast_binop_t op);
const char *tl_ast_unop_str(tl_ast_unop_t op);
const char *tl_ast_cmpop_str(tl_ast_cmpop_t op);

// Calls fn on each child node of n (operands, arguments, bodies, ...).
void tl_ast_children(const tl_ast_node_t *n, void (*fn)(void *arg, const tl_ast_node_t *c),
                     void *arg);
// Whether a statement of this kind has a body (counts toward TL_MAX_BLOCKS).
bool tl_ast_is_block(tl_ast_kind_t kind);
// A node of root's tree deeper than TL_MAX_NESTING levels (counting root as
// one; the outermost expression holding it is returned) or inside more than
// TL_MAX_BLOCKS compound statements (*blocks set), or NULL. Walks without
// recursion.
const tl_ast_node_t *tl_ast_too_deep(const tl_ast_node_t *root, bool *blocks);

// Dumps a node (statements with their bodies, indented by `indent` spaces
// after the first line) or a whole module (one top-level statement per line).
// The elif after IF n (the single statement of its else), or NULL.
static inline const tl_ast_node_t *tl_ast_elif(const tl_ast_node_t *n)
{
    return n->cond.orelse.len == 1 && n->cond.orelse.items[0]->kind == TL_AST_IF &&
                   n->cond.orelse.items[0]->cond.elif
               ? n->cond.orelse.items[0]
               : NULL;
}
void tl_ast_print(tl_buf_t *out, const tl_ast_node_t *n, int indent);
void tl_ast_print_module(tl_buf_t *out, const tl_ast_module_t *m);

#endif
