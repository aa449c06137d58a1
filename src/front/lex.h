// Lexer for kernel files (Python 3.11 token rules): names, keywords, numbers,
// strings and f-strings, operators, NEWLINE and INDENT/DEDENT from an indent
// stack (CPython's tokenizer rules, tabs to multiples of 8, tab/space
// ambiguity checked with tab size 1 as well).
//
// The lexer never fails: a lexical error becomes a TL_TOK_ERROR token carrying
// its message (located where the caret should point), and lexing continues so
// the parser can skip the broken statement. The stream always ends with EOF and
// INDENT/DEDENT stay balanced.
#ifndef TL_FRONT_LEX_H
#define TL_FRONT_LEX_H

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

// id, spelling (used by the lexer to match operators and keywords)
#define TL_TOKEN_OPS(X)                                                                            \
    X(TL_TOK_POW_EQ, "**=")                                                                        \
    X(TL_TOK_FLOORDIV_EQ, "//=")                                                                   \
    X(TL_TOK_LSHIFT_EQ, "<<=")                                                                     \
    X(TL_TOK_RSHIFT_EQ, ">>=")                                                                     \
    X(TL_TOK_ELLIPSIS, "...")                                                                      \
    X(TL_TOK_NE, "!=")                                                                             \
    X(TL_TOK_MOD_EQ, "%=")                                                                         \
    X(TL_TOK_AND_EQ, "&=")                                                                         \
    X(TL_TOK_POW, "**")                                                                            \
    X(TL_TOK_MUL_EQ, "*=")                                                                         \
    X(TL_TOK_ADD_EQ, "+=")                                                                         \
    X(TL_TOK_SUB_EQ, "-=")                                                                         \
    X(TL_TOK_ARROW, "->")                                                                          \
    X(TL_TOK_FLOORDIV, "//")                                                                       \
    X(TL_TOK_DIV_EQ, "/=")                                                                         \
    X(TL_TOK_WALRUS, ":=")                                                                         \
    X(TL_TOK_LSHIFT, "<<")                                                                         \
    X(TL_TOK_LE, "<=")                                                                             \
    X(TL_TOK_EQEQ, "==")                                                                           \
    X(TL_TOK_GE, ">=")                                                                             \
    X(TL_TOK_RSHIFT, ">>")                                                                         \
    X(TL_TOK_MATMUL_EQ, "@=")                                                                      \
    X(TL_TOK_XOR_EQ, "^=")                                                                         \
    X(TL_TOK_OR_EQ, "|=")                                                                          \
    X(TL_TOK_LPAR, "(")                                                                            \
    X(TL_TOK_RPAR, ")")                                                                            \
    X(TL_TOK_LSQB, "[")                                                                            \
    X(TL_TOK_RSQB, "]")                                                                            \
    X(TL_TOK_LBRACE, "{")                                                                          \
    X(TL_TOK_RBRACE, "}")                                                                          \
    X(TL_TOK_COMMA, ",")                                                                           \
    X(TL_TOK_COLON, ":")                                                                           \
    X(TL_TOK_SEMI, ";")                                                                            \
    X(TL_TOK_DOT, ".")                                                                             \
    X(TL_TOK_PLUS, "+")                                                                            \
    X(TL_TOK_MINUS, "-")                                                                           \
    X(TL_TOK_STAR, "*")                                                                            \
    X(TL_TOK_SLASH, "/")                                                                           \
    X(TL_TOK_PERCENT, "%")                                                                         \
    X(TL_TOK_AT, "@")                                                                              \
    X(TL_TOK_AMP, "&")                                                                             \
    X(TL_TOK_VBAR, "|")                                                                            \
    X(TL_TOK_CARET, "^")                                                                           \
    X(TL_TOK_TILDE, "~")                                                                           \
    X(TL_TOK_LT, "<")                                                                              \
    X(TL_TOK_GT, ">")                                                                              \
    X(TL_TOK_EQ, "=")

#define TL_TOKEN_KEYWORDS(X)                                                                       \
    X(TL_TOK_FALSE, "False")                                                                       \
    X(TL_TOK_NONE, "None")                                                                         \
    X(TL_TOK_TRUE, "True")                                                                         \
    X(TL_TOK_AND, "and")                                                                           \
    X(TL_TOK_AS, "as")                                                                             \
    X(TL_TOK_ASSERT, "assert")                                                                     \
    X(TL_TOK_ASYNC, "async")                                                                       \
    X(TL_TOK_AWAIT, "await")                                                                       \
    X(TL_TOK_BREAK, "break")                                                                       \
    X(TL_TOK_CLASS, "class")                                                                       \
    X(TL_TOK_CONTINUE, "continue")                                                                 \
    X(TL_TOK_DEF, "def")                                                                           \
    X(TL_TOK_DEL, "del")                                                                           \
    X(TL_TOK_ELIF, "elif")                                                                         \
    X(TL_TOK_ELSE, "else")                                                                         \
    X(TL_TOK_EXCEPT, "except")                                                                     \
    X(TL_TOK_FINALLY, "finally")                                                                   \
    X(TL_TOK_FOR, "for")                                                                           \
    X(TL_TOK_FROM, "from")                                                                         \
    X(TL_TOK_GLOBAL, "global")                                                                     \
    X(TL_TOK_IF, "if")                                                                             \
    X(TL_TOK_IMPORT, "import")                                                                     \
    X(TL_TOK_IN, "in")                                                                             \
    X(TL_TOK_IS, "is")                                                                             \
    X(TL_TOK_LAMBDA, "lambda")                                                                     \
    X(TL_TOK_NONLOCAL, "nonlocal")                                                                 \
    X(TL_TOK_NOT, "not")                                                                           \
    X(TL_TOK_OR, "or")                                                                             \
    X(TL_TOK_PASS, "pass")                                                                         \
    X(TL_TOK_RAISE, "raise")                                                                       \
    X(TL_TOK_RETURN, "return")                                                                     \
    X(TL_TOK_TRY, "try")                                                                           \
    X(TL_TOK_WHILE, "while")                                                                       \
    X(TL_TOK_WITH, "with")                                                                         \
    X(TL_TOK_YIELD, "yield")

// Token kinds without a fixed spelling; the string is how messages name them.
#define TL_TOKEN_OTHERS(X)                                                                         \
    X(TL_TOK_EOF, "end of file")                                                                   \
    X(TL_TOK_NEWLINE, "NEWLINE")                                                                   \
    X(TL_TOK_INDENT, "INDENT")                                                                     \
    X(TL_TOK_DEDENT, "DEDENT")                                                                     \
    X(TL_TOK_NAME, "name")                                                                         \
    X(TL_TOK_INT, "integer")                                                                       \
    X(TL_TOK_FLOAT, "float")                                                                       \
    X(TL_TOK_STRING, "string")                                                                     \
    X(TL_TOK_BYTES, "bytes")                                                                       \
    X(TL_TOK_FSTRING, "f-string")                                                                  \
    X(TL_TOK_ERROR, "error")

typedef enum {
#define X(id, s) id,
    TL_TOKEN_OTHERS(X) TL_TOKEN_OPS(X) TL_TOKEN_KEYWORDS(X)
#undef X
        TL_TOK_COUNT
} tl_tok_kind_t;

enum {
    TL_TOKF_BOL = 1,   // first token of a logical line (after its INDENT/DEDENTs)
    TL_TOKF_BIG = 2,   // integer literal larger than INT64_MAX (v.num.i has the low bits)
    TL_TOKF_U64 = 4,   // with BIG: the value still fits in uint64
    TL_TOKF_PAREN = 8, // lexed as if inside brackets (f-string expressions, -a values)
};

// One part of an f-string: a decoded literal, or a replacement field whose
// expression text is the source range [off, off+len) starting at line:col.
typedef struct tl_fpart tl_fpart_t;
struct tl_fpart {
    bool is_expr;
    const char *lit; // literal part, decoded (NUL-terminated, may contain NULs)
    size_t lit_len;
    uint32_t off, len; // expression part
    int line, col;
    char conv;         // 0, 'r', 's' or 'a'
    bool has_spec;     // a ':' format spec follows (spec may still be empty)
    tl_fpart_t **spec; // the spec's own parts (literals and nested fields)
    int nspec;
};

typedef struct {
    tl_fpart_t **parts;
    int nparts;
} tl_fstring_t;

typedef struct {
    uint16_t kind;     // tl_tok_kind_t
    uint8_t flags;     // TL_TOKF_*
    uint8_t depth;     // with TL_TOKF_BOL: indentation depth (0 = top level)
    int line, col;     // 1-based
    uint32_t off, len; // byte range in the source (the whole literal for strings)
    union {
        struct {
            int64_t i;
            double f; // FLOAT value; for INT an approximation (useful when BIG)
        } num;
        struct {
            const char *s; // NAME text; STRING/BYTES decoded contents; ERROR message
            size_t len;
        } str;
        tl_fstring_t *fstr;
    } v;
} tl_token_t;

typedef struct {
    tl_token_t *toks;
    int len; // the last token is always TL_TOK_EOF
} tl_tokens_t;

// Lexes the whole source. Tokens, names and decoded strings live in `a`.
// Returns TL_OK (lexical errors are TL_TOK_ERROR tokens) or TL_ERR_NOMEM.
tl_status_t tl_lex(tl_arena_t *a, const tl_source_t *src, tl_tokens_t *out);
// Lexes src->text[off, off+len) whose first byte is at line:col. With
// TL_TOKF_PAREN the text is treated as if inside brackets: no NEWLINE,
// INDENT or DEDENT tokens, only the final EOF.
tl_status_t tl_lex_range(tl_arena_t *a, const tl_source_t *src, uint32_t off, uint32_t len,
                         int line, int col, int flags, tl_tokens_t *out);

// The same with the token array malloc'd (the caller frees out->toks) for
// callers that drop the tokens once parsed; names and strings are in `a`.
tl_status_t tl_lex_range_heap(tl_arena_t *a, const tl_source_t *src, uint32_t off, uint32_t len,
                              int line, int col, int flags, tl_tokens_t *out);

const char *tl_lex_kind_name(int kind); // "NEWLINE", "if", "+", "name", ...
// How a message names a token: "NEWLINE", "end of file", "'foo'", "'+'",
// "number 12", "string \"abc\"".
void tl_lex_describe(const tl_source_t *src, const tl_token_t *t, tl_buf_t *out);
// Appends s[0, n) as a double-quoted string with C-style escapes for control
// characters, quotes and backslashes (used by token and AST dumps); with
// `ascii` bytes >= 0x80 are escaped too (bytes literals).
void tl_lex_quote(tl_buf_t *out, const char *s, size_t n, bool ascii);
// Appends the shortest "%g" form that reads back as f, always with a '.' or an
// exponent ("1.0", "1e-06", "inf").
void tl_lex_put_float(tl_buf_t *out, double f);
// One token per line: "1:1 NAME x", "1:3 '='", "1:5 INT 1", "1:6 NEWLINE"...
void tl_lex_dump(const tl_source_t *src, const tl_tokens_t *toks, tl_buf_t *out);

#endif
