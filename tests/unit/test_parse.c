// Parser: AST dumps of the programs in tests/data/parse/ok (expected dumps
// made with CPython's ast module), precedence, node locations, the malformed
// inputs in tests/data/parse/bad (each names its error's line:col and message
// on its first line), error recovery, single-expression parsing.
#include "../test.h"

#include <dirent.h>
#include <stdlib.h>

#include "front/parse.h"

typedef struct {
    tl_source_t *src;
    tl_arena_t arena;
    tl_diag_t diag;
    tl_ast_module_t *m;
    tl_status_t status;
} parsed_t;

static void parse_text(parsed_t *r, const char *text, int flags)
{
    r->src = tl_source_from_string("t.py", text);
    tl_arena_init(&r->arena);
    tl_diag_init(&r->diag);
    r->status = tl_parse_module_ex(&r->arena, r->src, flags, &r->diag, &r->m);
}

static void parsed_free(parsed_t *r)
{
    tl_diag_free(&r->diag);
    tl_arena_free(&r->arena);
    tl_source_free(r->src);
}

static char *module_dump(const tl_ast_module_t *m)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_ast_print_module(&b, m);
    char *s = strdup(tl_buf_cstr(&b));
    tl_buf_free(&b);
    return s;
}

// The dump of `text` (strict unless `lenient`), or the diagnostics when the
// parse failed. Caller frees.
static char *dump(const char *text, bool lenient)
{
    parsed_t r;
    parse_text(&r, text, lenient ? 0 : TL_PARSE_STRICT);
    char *s = r.status == TL_OK ? module_dump(r.m) : strdup(tl_diag_text(&r.diag));
    parsed_free(&r);
    return s;
}

#define CHECK_DUMP_MODE(text, lenient, expected)                                                   \
    do {                                                                                           \
        char *got_ = dump(text, lenient);                                                          \
        CHECK_STREQ(got_, expected);                                                               \
        free(got_);                                                                                \
    } while (0)
#define CHECK_DUMP(text, expected)      CHECK_DUMP_MODE(text, false, expected)
#define CHECK_RECOVERED(text, expected) CHECK_DUMP_MODE(text, true, expected)

// --- data files -------------------------------------------------------------------------

typedef void (*file_test_fn)(tl_test_t *t, void *arg);

static void add_file_tests(const char *dir, const char *prefix, file_test_fn fn)
{
    DIR *dp = opendir(dir);
    if (!dp) return;
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".py") != 0) continue;
        char name[300], *path = malloc(n + strlen(dir) + 2); // the runner keeps it
        snprintf(name, sizeof name, "%s:%.*s", prefix, (int)(n - 3), e->d_name);
        sprintf(path, "%s/%s", dir, e->d_name);
        tl_test_add(name, fn, path);
    }
    closedir(dp);
}

static void ok_file(tl_test_t *t, void *arg)
{
    const char *path = arg;
    char expected_path[512];
    snprintf(expected_path, sizeof expected_path, "%.*s.ast", (int)(strlen(path) - 3), path);
    char *expected = tl_test_read_file(expected_path, NULL);
    REQUIRE(expected != NULL);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_source_t *src = tl_source_read(path, &d);
    REQUIRE(src != NULL);
    tl_arena_t a;
    tl_arena_init(&a);
    tl_ast_module_t *m;
    CHECK_EQ(tl_parse_module_ex(&a, src, TL_PARSE_STRICT, &d, &m), TL_OK);
    CHECK_STREQ(tl_diag_text(&d), "");
    if (m) {
        char *got = module_dump(m);
        CHECK_STREQ(got, expected);
        free(got);
    }
    free(expected);
    tl_arena_free(&a);
    tl_source_free(src);
    tl_diag_free(&d);
}

// The first line of a bad file is "# expect: LINE:COL: MESSAGE".
static void bad_file(tl_test_t *t, void *arg)
{
    const char *path = arg;
    tl_diag_t d;
    tl_diag_init(&d);
    tl_source_t *src = tl_source_read(path, &d);
    REQUIRE(src != NULL);
    const char *nl = strchr(src->text, '\n');
    REQUIRE(strncmp(src->text, "# expect: ", 10) == 0 && nl);
    char expect[512], loc[32];
    int line, col, used;
    REQUIRE(sscanf(src->text + 10, "%d:%d: %n", &line, &col, &used) == 2);
    snprintf(loc, sizeof loc, "%d:%d", line, col);
    snprintf(expect, sizeof expect, "%s:%s: error: %.*s\n", path, loc,
             (int)(nl - (src->text + 10 + used)), src->text + 10 + used);

    // strict: fails with the message first
    tl_arena_t a;
    tl_arena_init(&a);
    tl_ast_module_t *m;
    CHECK_EQ(tl_parse_module_ex(&a, src, TL_PARSE_STRICT, &d, &m), TL_ERR_COMPILE);
    const char *text = tl_diag_text(&d);
    CHECK(strncmp(text, expect, strlen(expect)) == 0);
    if (strncmp(text, expect, strlen(expect)) != 0)
        tl_test_fail(t, __FILE__, __LINE__, "expected\n%sgot\n%s", expect, text);
    CHECK_CONTAINS(text, "^\n");

    // lenient: succeeds silently, the error kept in an ERROR statement
    tl_diag_clear(&d);
    CHECK_EQ(tl_parse_module(&a, src, &d, &m), TL_OK);
    CHECK_EQ(d.nerrors, 0);
    REQUIRE(m && m->nerrors > 0);
    const tl_ast_node_t *err = NULL;
    for (int i = 0; i < m->body.len && !err; i++)
        if (m->body.items[i]->kind == TL_AST_ERROR) err = m->body.items[i];
    REQUIRE(err != NULL);
    CHECK_EQ(err->loc.line, line);
    CHECK_EQ(err->loc.col, col);
    CHECK(strncmp(err->error.text, expect, strlen(expect)) == 0);
    tl_arena_free(&a);
    tl_source_free(src);
    tl_diag_free(&d);
}

TEST_GENERATOR(parse_files)
{
    add_file_tests("tests/data/parse/ok", "parse_ok", ok_file);
    add_file_tests("tests/data/parse/bad", "parse_bad", bad_file);
}

// --- precedence and small forms -----------------------------------------------------------

TEST(precedence)
{
    CHECK_DUMP("-2**2\n", "(expr (- (** 2 2)))\n");
    CHECK_DUMP("2**-1\n", "(expr (** 2 (- 1)))\n");
    CHECK_DUMP("a ** b ** c\n", "(expr (** (name a) (** (name b) (name c))))\n");
    CHECK_DUMP("a - b - c\n", "(expr (- (- (name a) (name b)) (name c)))\n");
    CHECK_DUMP("a < b < c\n", "(expr (cmp (name a) < (name b) < (name c)))\n");
    CHECK_DUMP("not a and b or c\n", "(expr (or (and (not (name a)) (name b)) (name c)))\n");
    CHECK_DUMP("not a == b\n", "(expr (not (cmp (name a) == (name b))))\n");
    CHECK_DUMP("x if c else y\n", "(expr (ifexp (name c) (name x) (name y)))\n");
    CHECK_DUMP("a if b else c if d else e\n",
               "(expr (ifexp (name b) (name a) (ifexp (name d) (name c) (name e))))\n");
    CHECK_DUMP("lambda: 0\n", "(expr (lambda (params) 0))\n");
    CHECK_DUMP("lambda x: x if x else 0\n",
               "(expr (lambda (params x) (ifexp (name x) (name x) 0)))\n");
    CHECK_DUMP("a[1:2, ::3, i]\n",
               "(expr (subscript (name a) (tuple (slice 1 2 _) (slice _ _ 3) (name i))))\n");
    CHECK_DUMP("a | b ^ c & d << e + f * g\n",
               "(expr (| (name a) (^ (name b) (& (name c) (<< (name d) (+ (name e) (* (name f) "
               "(name g))))))))\n");
    CHECK_DUMP("-a.b[c](d)\n",
               "(expr (- (call (subscript (attr (name a) b) (name c)) (name d))))\n");
    CHECK_DUMP("a @ b * c\n", "(expr (* (@ (name a) (name b)) (name c)))\n");
    CHECK_DUMP("x is not None and y not in z\n",
               "(expr (and (cmp (name x) is not None) (cmp (name y) not in (name z))))\n");
    CHECK_DUMP("~-+a\n", "(expr (~ (- (+ (name a)))))\n");
}

TEST(statement_forms)
{
    CHECK_DUMP("a = b = 1, 2\n", "(= (name a) (name b) (tuple 1 2))\n");
    CHECK_DUMP("a, *b = c\n", "(= (tuple (name a) (star (name b))) (name c))\n");
    CHECK_DUMP("x: int = 3\ny: str\n", "(: (name x) (name int) 3)\n(: (name y) (name str))\n");
    CHECK_DUMP("x //= 2\n", "(//= (name x) 2)\n");
    CHECK_DUMP("if a: pass\nelif b: pass\nelse: pass\n",
               "(if (name a)\n  (pass)\n  (else\n    (if (name b)\n      (pass)\n      (else\n"
               "        (pass)))))\n");
    CHECK_DUMP("a = 1; b = 2;\n", "(= (name a) 1)\n(= (name b) 2)\n");
    CHECK_DUMP("with a as (b, c): pass\n",
               "(with (item (name a) (tuple (name b) (name c)))\n  (pass))\n");
    CHECK_DUMP("from .a import (b,\n    c)\n", "(from .a import b c)\n");
    CHECK_DUMP("raise\n", "(raise)\n");
    CHECK_DUMP("del a[0], b.c\n", "(del (subscript (name a) 0) (attr (name b) c))\n");
}

TEST(layout_tolerance)
{
    // blank lines, comments, continuation lines, CRLF and a missing final newline
    CHECK_DUMP("\n\n# c\nif a:  # c\n\n    # c\n    b = (1 +\n  2)\n    c = 3 \\\n  + 4\n",
               "(if (name a)\n  (= (name b) (+ 1 2))\n  (= (name c) (+ 3 4)))\n");
    CHECK_DUMP("if a:\r\n    b = 1\r\nc = 2", "(if (name a)\n  (= (name b) 1))\n(= (name c) 2)\n");
    CHECK_DUMP("", "");
    CHECK_DUMP("# only a comment", "");
}

// --- locations ----------------------------------------------------------------------------

TEST(node_locations)
{
    parsed_t r;
    parse_text(&r, "x = 1\nif x:\n    T.copy(a[i, 0], b)\n", TL_PARSE_STRICT);
    REQUIRE(r.status == TL_OK && r.m->body.len == 2);
    const tl_ast_node_t *s0 = r.m->body.items[0], *s1 = r.m->body.items[1];
    CHECK_EQ(s0->loc.line, 1);
    CHECK_EQ(s0->assign.value->loc.col, 5);
    CHECK_EQ(s1->loc.line, 2);
    const tl_ast_node_t *call = s1->cond.body.items[0]->expr.value;
    REQUIRE(call->kind == TL_AST_CALL);
    CHECK_EQ(call->loc.line, 3);
    CHECK_EQ(call->loc.col, 5);
    CHECK(call->loc.src == r.src);
    const tl_ast_node_t *sub = call->call.args.items[0];
    CHECK_EQ(sub->loc.col, 12);
    CHECK_EQ(sub->sub.index->seq.elts.items[1]->loc.col, 17);
    parsed_free(&r);
}

TEST(fstring_field_locations)
{
    parsed_t r;
    parse_text(&r, "s = f'ab{x + yy!r}'\nt = f'''\n  {z}'''\n", TL_PARSE_STRICT);
    REQUIRE(r.status == TL_OK);
    const tl_ast_node_t *j = r.m->body.items[0]->assign.value;
    REQUIRE(j->kind == TL_AST_JOINEDSTR && j->fstr.values.len == 2);
    const tl_ast_node_t *f = j->fstr.values.items[1];
    CHECK_EQ(f->fmt.conv, 'r');
    CHECK_EQ(f->fmt.value->loc.col, 10);
    CHECK_EQ(f->fmt.value->bin.right->loc.col, 14);
    const tl_ast_node_t *z = r.m->body.items[1]->assign.value->fstr.values.items[1];
    CHECK_EQ(z->fmt.value->loc.line, 3);
    CHECK_EQ(z->fmt.value->loc.col, 4);
    parsed_free(&r);
}

TEST(constants)
{
    parsed_t r;
    parse_text(&r, "a = 0xFFFFFFFFFFFFFFFF, 2**70, 1 << 3, 'x\\0y', True\n", TL_PARSE_STRICT);
    REQUIRE(r.status == TL_OK);
    const tl_ast_list_t e = r.m->body.items[0]->assign.value->seq.elts;
    CHECK(e.items[0]->cst.big && e.items[0]->cst.fits_u64);
    CHECK(e.items[0]->cst.i == -1); // low 64 bits
    CHECK_STREQ(e.items[0]->cst.s, "0xFFFFFFFFFFFFFFFF");
    CHECK(!e.items[1]->bin.left->cst.big);
    CHECK_EQ(e.items[3]->cst.len, 3);
    CHECK_EQ(e.items[3]->cst.s[1], 0);
    CHECK_EQ(e.items[4]->cst.kind, TL_CONST_BOOL);
    CHECK_EQ(e.items[4]->cst.i, 1);
    parsed_free(&r);
}

// --- error recovery -----------------------------------------------------------------------

TEST(recovery_keeps_other_statements)
{
    CHECK_RECOVERED("a = 1\n"
                    "def broken(x:\n"
                    "    return x\n"
                    "b = 2\n",
                    "(= (name a) 1)\n"
                    "(error 2:11 \"'(' was never closed\" :defines (broken))\n"
                    "(= (name b) 2)\n");
    // an unclosed bracket stops at the next line that starts a statement
    CHECK_RECOVERED("x = f(1,\n\ndef g():\n    return 2\n",
                    "(error 1:6 \"'(' was never closed\" :defines (x))\n"
                    "(def g (params)\n  (return 2))\n");
    // an error deep in a block takes the whole top-level statement, with its
    // else/elif clauses and decorators
    CHECK_RECOVERED("@dec\n"
                    "def f():\n"
                    "    if a:\n"
                    "        x = = 1\n"
                    "    return x\n"
                    "if c:\n"
                    "    pass\n"
                    "else:\n"
                    "    y = )\n"
                    "z = 3\n",
                    "(error 4:13 \"expected expression, found '='\" :defines (f))\n"
                    "(error 9:9 \"unmatched ')'\" :defines (y))\n"
                    "(= (name z) 3)\n");
    // bad indentation and an unterminated string
    CHECK_RECOVERED(
        "if a:\n        b = 1\n    c = 2\nd = 'oops\ne = 4\n",
        "(error 3:5 \"unindent does not match any outer indentation level\" :defines (b "
        "c))\n"
        "(error 4:5 \"unterminated string literal (detected at line 4)\" :defines (d))\n"
        "(= (name e) 4)\n");
    // a broken line of `;` statements is dropped whole
    CHECK_RECOVERED("a = 1; b = (\nc = 3\n",
                    "(error 2:3 \"expected ',' or ')' in tuple, found '='\" :defines (a b))\n");
}

TEST(recovery_defined_names)
{
    CHECK_RECOVERED(
        "import os.path, numpy as np\nfrom m import (a, b as c)\n"
        "class K(:\n    pass\n"
        "for i, (j, k) in x y: pass\n"
        "with open(f) as fh, g() as (p, q) oops: pass\n"
        "a.b, c[0], d = e f\n"
        "n: int = 1 2\n"
        "f = lambda x=1: x x\n"
        "if __name__ == '__main__':\n    def main(): pass\n    run = 1\n"
        "    def helper():\n        inner = 2\n    bad bad\n",
        "(import os.path (numpy as np))\n(from m import a (b as c))\n"
        "(error 3:9 \"expected expression, found ':'\" :defines (K))\n"
        "(error 5:20 \"expected ':' after 'for' iterable, found 'y'\" :defines (i j "
        "k))\n"
        "(error 6:35 \"expected ':' after the 'with' items, found 'oops'\" :defines (fh "
        "p q))\n"
        "(error 7:18 \"expected NEWLINE after statement, found 'f'\" :defines (d))\n"
        "(error 8:12 \"expected NEWLINE after statement, found number 2\" :defines (n))\n"
        "(error 9:19 \"expected NEWLINE after statement, found 'x'\" :defines (f))\n"
        "(error 15:9 \"expected NEWLINE after statement, found 'bad'\" :defines (main run "
        "helper))\n");
}

TEST(error_node_fields)
{
    parsed_t r;
    parse_text(&r, "x = 1\n\nif x\n    y = 2\n", 0);
    REQUIRE(r.status == TL_OK);
    CHECK_EQ(r.diag.nerrors, 0);
    CHECK_EQ(r.m->nerrors, 1);
    REQUIRE(r.m->body.len == 2);
    const tl_ast_node_t *e = r.m->body.items[1];
    REQUIRE(e->kind == TL_AST_ERROR);
    CHECK_STREQ(e->error.msg, "expected ':' after 'if' condition, found NEWLINE");
    CHECK_EQ(e->error.start.line, 3);
    CHECK_EQ(e->error.start.col, 1);
    CHECK_EQ(e->loc.line, 3);
    CHECK_EQ(e->loc.col, 5);
    CHECK_STREQ(e->error.text, "t.py:3:5: error: expected ':' after 'if' condition, found NEWLINE\n"
                               "    3 | if x\n"
                               "      |     ^\n");
    REQUIRE(e->error.defines.len == 1);
    CHECK_STREQ(e->error.defines.items[0], "y");
    parsed_free(&r);
}

TEST(strict_reports_every_broken_statement)
{
    parsed_t r;
    parse_text(&r, "a = (\nb = 1\ndef f(:\n    pass\nc = 2 2\n", TL_PARSE_STRICT);
    CHECK_EQ(r.status, TL_ERR_COMPILE);
    CHECK_EQ(r.diag.nerrors, 3);
    CHECK_CONTAINS(tl_diag_text(&r.diag), "t.py:2:3: error: expected ',' or ')' in tuple");
    CHECK_CONTAINS(tl_diag_text(&r.diag), "t.py:3:7: error: expected parameter name, found ':'");
    CHECK_CONTAINS(tl_diag_text(&r.diag), "t.py:5:7: error: expected NEWLINE after statement");
    CHECK_STREQ(r.diag.first_error, "expected ',' or ')' in tuple, found '='");
    parsed_free(&r);
    parse_text(&r, "x = 1\n    y = 2\nz = (\ndef g(): pass\nw = 3 3\n", TL_PARSE_STRICT);
    CHECK_EQ(r.diag.nerrors, 3);
    CHECK_CONTAINS(tl_diag_text(&r.diag), "t.py:2:5: error: unexpected indent");
    CHECK_CONTAINS(tl_diag_text(&r.diag), "t.py:3:5: error: '(' was never closed");
    CHECK_CONTAINS(tl_diag_text(&r.diag), "t.py:5:7: error: expected NEWLINE after statement");
    parsed_free(&r);
}

// --- single expressions -------------------------------------------------------------------

static char *expr_dump(const char *text)
{
    tl_source_t *src = tl_source_from_string("-a", text);
    tl_arena_t a;
    tl_arena_init(&a);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_ast_node_t *e;
    tl_buf_t b;
    tl_buf_init(&b);
    if (tl_parse_expression(&a, src, &d, &e) == TL_OK)
        tl_ast_print(&b, e, 0);
    else
        tl_buf_puts(&b, tl_diag_text(&d));
    char *s = strdup(tl_buf_cstr(&b));
    tl_buf_free(&b);
    tl_diag_free(&d);
    tl_arena_free(&a);
    tl_source_free(src);
    return s;
}

#define CHECK_EXPR(text, expected)                                                                 \
    do {                                                                                           \
        char *got_ = expr_dump(text);                                                              \
        CHECK_STREQ(got_, expected);                                                               \
        free(got_);                                                                                \
    } while (0)

TEST(single_expression)
{
    CHECK_EXPR("lambda a, b: a + b", "(lambda (params a b) (+ (name a) (name b)))");
    CHECK_EXPR("  (64,\n 128) ", "(tuple 64 128)");
    CHECK_EXPR("1, 2", "(tuple 1 2)");
    CHECK_EXPR("'float16'", "\"float16\"");
    CHECK_EXPR("T.float32", "(attr (name T) float32)");
    CHECK_EXPR("{'k': [1, 2]}", "(dict (\"k\" (list 1 2)))");
    CHECK_EXPR("1 +", "-a:1:4: error: expected expression, found end of file\n"
                      "    1 | 1 +\n"
                      "      |    ^\n");
    CHECK_EXPR("a b", "-a:1:3: error: expected end of expression, found 'b'\n"
                      "    1 | a b\n"
                      "      |   ^\n");
    CHECK_EXPR("x = 1", "-a:1:3: error: expected end of expression, found '='\n"
                        "    1 | x = 1\n"
                        "      |   ^\n");
    CHECK_EXPR("(1", "-a:1:1: error: '(' was never closed\n"
                     "    1 | (1\n"
                     "      | ^\n");
}

TEST(deep_nesting_is_an_error_not_a_crash)
{
    char text[5000];
    memset(text, '-', 4000);
    strcpy(text + 4000, "1\n");
    char *got = dump(text, false);
    CHECK_CONTAINS(got, "expression nested too deeply");
    free(got);
    for (int i = 0; i < 1000; i++) memcpy(text + 4 * i, "not ", 4);
    strcpy(text + 4000, "x\n");
    got = dump(text, false);
    CHECK_CONTAINS(got, "expression nested too deeply");
    free(got);
}
