// Lexer: token streams for indentation, line joining, numbers, strings and
// escapes, f-strings, and lexical errors (which become ERROR tokens).
#include "../test.h"

#include <stdlib.h>

#include "front/lex.h"

// The token dump of `text`, one "line:col KIND value" per line. Caller frees.
static char *lex_dump(const char *text, int flags)
{
    tl_source_t *src = tl_source_from_string("t.py", text);
    tl_arena_t a;
    tl_arena_init(&a);
    tl_tokens_t toks;
    tl_buf_t b;
    tl_buf_init(&b);
    if (flags)
        tl_lex_range(&a, src, 0, (uint32_t)src->len, 1, 1, flags, &toks);
    else
        tl_lex(&a, src, &toks);
    tl_lex_dump(src, &toks, &b);
    char *s = strdup(tl_buf_cstr(&b));
    tl_buf_free(&b);
    tl_arena_free(&a);
    tl_source_free(src);
    return s;
}

#define CHECK_TOKENS_FLAGS(text, flags, expected)                                                  \
    do {                                                                                           \
        char *got_ = lex_dump(text, flags);                                                        \
        CHECK_STREQ(got_, expected);                                                               \
        free(got_);                                                                                \
    } while (0)
#define CHECK_TOKENS(text, expected) CHECK_TOKENS_FLAGS(text, 0, expected)

// Only the values of the tokens: "INT 1|FLOAT 0.5|..." for compact checks.
static char *values(const char *text)
{
    char *d = lex_dump(text, 0), *out = malloc(strlen(d) + 1), *o = out;
    for (char *line = d; *line;) {
        char *nl = strchr(line, '\n'), *sp = strchr(line, ' ');
        size_t n = (size_t)(nl - sp - 1);
        if (strncmp(sp + 1, "NEWLINE", 7) && strncmp(sp + 1, "EOF", 3)) {
            if (o != out) *o++ = '|';
            memcpy(o, sp + 1, n);
            o += n;
        }
        line = nl + 1;
    }
    *o = 0;
    free(d);
    return out;
}

#define CHECK_VALUES(text, expected)                                                               \
    do {                                                                                           \
        char *got_ = values(text);                                                                 \
        CHECK_STREQ(got_, expected);                                                               \
        free(got_);                                                                                \
    } while (0)

TEST(indent_dedent_sequence)
{
    CHECK_TOKENS("if a:\n"
                 "    if b:\n"
                 "\n"
                 "        # comment at another depth\n"
                 "          \n"
                 "        c\n"
                 "d\n",
                 "1:1 'if'\n1:4 NAME a\n1:5 ':'\n1:6 NEWLINE\n"
                 "2:5 INDENT\n2:5 'if'\n2:8 NAME b\n2:9 ':'\n2:10 NEWLINE\n"
                 "6:9 INDENT\n6:9 NAME c\n6:10 NEWLINE\n"
                 "7:1 DEDENT\n7:1 DEDENT\n7:1 NAME d\n7:2 NEWLINE\n"
                 "7:2 EOF\n");
    // dedents owed at the end of the file come before EOF
    CHECK_TOKENS("def f():\n  return 1", "1:1 'def'\n1:5 NAME f\n1:6 '('\n1:7 ')'\n1:8 ':'\n"
                                         "1:9 NEWLINE\n2:3 INDENT\n2:3 'return'\n2:10 INT 1\n"
                                         "2:11 NEWLINE\n2:11 DEDENT\n2:11 EOF\n");
}

TEST(logical_line_starts)
{
    tl_source_t *src = tl_source_from_string("t.py", "a = (1,\n  2)\nif a:\n    b\nc\n");
    tl_arena_t a;
    tl_arena_init(&a);
    tl_tokens_t toks;
    REQUIRE(tl_lex(&a, src, &toks) == TL_OK);
    int bol = 0;
    for (int i = 0; i < toks.len; i++) {
        const tl_token_t *tok = &toks.toks[i];
        if (!(tok->flags & TL_TOKF_BOL)) continue;
        bol++;
        CHECK(tok->kind == TL_TOK_NAME || tok->kind == TL_TOK_IF);
        CHECK_EQ(tok->depth, tok->line == 4 ? 1 : 0);
        CHECK(tok->line != 2); // the continuation line does not start a logical line
    }
    CHECK_EQ(bol, 4);
    tl_arena_free(&a);
    tl_source_free(src);
}

TEST(implicit_joining_and_continuation)
{
    CHECK_TOKENS(
        "x = [1,\n"
        "  # inside\n"
        "     2]\n"
        "y = 1 + \\\n"
        "        2\n",
        "1:1 NAME x\n1:3 '='\n1:5 '['\n1:6 INT 1\n1:7 ','\n3:6 INT 2\n3:7 ']'\n3:8 NEWLINE\n"
        "4:1 NAME y\n4:3 '='\n4:5 INT 1\n4:7 '+'\n5:9 INT 2\n5:10 NEWLINE\n5:10 EOF\n");
}

TEST(crlf_and_missing_final_newline)
{
    CHECK_TOKENS("if a:\r\n    b = 'x'\r\nc", "1:1 'if'\n1:4 NAME a\n1:5 ':'\n1:6 NEWLINE\n"
                                              "2:5 INDENT\n2:5 NAME b\n2:7 '='\n2:9 STRING \"x\"\n"
                                              "2:12 NEWLINE\n3:1 DEDENT\n3:1 NAME c\n3:2 NEWLINE\n"
                                              "3:2 EOF\n");
    // line ends inside a triple-quoted string read as "\n"
    CHECK_VALUES("s = '''a\r\nb\rc'''\r\n", "NAME s|'='|STRING \"a\\nb\\nc\"");
}

TEST(tabs_and_spaces)
{
    // tabs count to the next multiple of 8, consistently used they are fine
    CHECK_VALUES("if a:\n\tb\n\tif c:\n\t\td\n", "'if'|NAME a|':'|INDENT|NAME b|'if'|NAME c|':'|"
                                                 "INDENT|NAME d|DEDENT|DEDENT");
    // a tab and 8 spaces are the same column but ambiguous with tab size 1
    CHECK_TOKENS("if a:\n\tb\n        c\n",
                 "1:1 'if'\n1:4 NAME a\n1:5 ':'\n1:6 NEWLINE\n2:2 INDENT\n2:2 NAME b\n2:3 NEWLINE\n"
                 "3:9 ERROR inconsistent use of tabs and spaces in indentation\n3:9 NAME c\n"
                 "3:10 NEWLINE\n3:10 DEDENT\n3:10 EOF\n");
    // a dedent to a level never pushed: reported, then the line opens a block
    CHECK_VALUES("if a:\n    b\n  c\nd\n", "'if'|NAME a|':'|INDENT|NAME b|"
                                           "ERROR unindent does not match any outer indentation "
                                           "level|DEDENT|INDENT|NAME c|DEDENT|NAME d");
}

TEST(numbers)
{
    CHECK_VALUES("0 7 1_000 0x1F 0XfF 0o17 0b1010 0b_1 9223372036854775807",
                 "INT 0|INT 7|INT 1000|INT 31|INT 255|INT 15|INT 10|INT 1|INT 9223372036854775807");
    CHECK_VALUES("1.5 1e-6 .5 1. 1_0.5 2E+3 0.0 1e308 00 0_0",
                 "FLOAT 1.5|FLOAT 1e-06|FLOAT 0.5|FLOAT 1.0|FLOAT 10.5|FLOAT 2000.0|FLOAT 0.0|"
                 "FLOAT 1e+308|INT 0|INT 0");
    CHECK_VALUES("9223372036854775808 0xFFFFFFFFFFFFFFFF 0x10000000000000000",
                 "INT big 9223372036854775808|INT big 0xFFFFFFFFFFFFFFFF|"
                 "INT big 0x10000000000000000");
    CHECK_VALUES("1if x else 2", "INT 1|'if'|NAME x|'else'|INT 2");
    CHECK_VALUES("x.y 1..real", "NAME x|'.'|NAME y|FLOAT 1.0|'.'|NAME real");

    tl_source_t *src = tl_source_from_string("t.py", "9223372036854775808 18446744073709551616");
    tl_arena_t a;
    tl_arena_init(&a);
    tl_tokens_t toks;
    tl_lex(&a, src, &toks);
    CHECK_EQ(toks.toks[0].flags & (TL_TOKF_BIG | TL_TOKF_U64), TL_TOKF_BIG | TL_TOKF_U64);
    CHECK((uint64_t)toks.toks[0].v.num.i == 9223372036854775808ull);
    CHECK_EQ(toks.toks[1].flags & (TL_TOKF_BIG | TL_TOKF_U64), TL_TOKF_BIG);
    CHECK_NEAR(toks.toks[1].v.num.f, 18446744073709551616.0, 1e4);
    tl_arena_free(&a);
    tl_source_free(src);
}

TEST(number_errors)
{
    CHECK_VALUES("1__0", "ERROR invalid decimal literal");
    CHECK_VALUES("1_", "ERROR invalid decimal literal");
    CHECK_VALUES("1abc", "ERROR invalid decimal literal");
    CHECK_VALUES("1e", "ERROR invalid decimal literal");
    CHECK_VALUES("1e+", "ERROR invalid decimal literal|'+'");
    CHECK_VALUES("0x", "ERROR invalid hexadecimal literal");
    CHECK_VALUES("0b12", "ERROR invalid binary literal");
    CHECK_VALUES("0o8", "ERROR invalid octal literal");
    CHECK_VALUES("012", "ERROR leading zeros in decimal integer literals are not permitted; use an "
                        "0o prefix for octal integers");
    CHECK_VALUES("3j", "ERROR imaginary literals are not supported");
}

TEST(strings_and_escapes)
{
    CHECK_VALUES("'a' \"b\" '''c\nd''' \"\"\"e\"\"\" '' \"\"",
                 "STRING \"a\"|STRING \"b\"|STRING \"c\\nd\"|STRING \"e\"|STRING \"\"|STRING \"\"");
    CHECK_VALUES("'\\n\\t\\\\\\'\\\"\\a\\b\\f\\v\\r\\0'",
                 "STRING \"\\n\\t\\\\'\\\"\\x07\\x08\\x0c\\x0b\\r\\x00\"");
    CHECK_VALUES("'\\x41\\101\\u00e9\\U0001F600' '\\d' 'a\\\nb'",
                 "STRING \"AA\xc3\xa9\xf0\x9f\x98\x80\"|STRING \"\\\\d\"|STRING \"ab\"");
    CHECK_VALUES("r'\\n\\'' R\"\\d\" u'x' U'y'",
                 "STRING \"\\\\n\\\\'\"|STRING \"\\\\d\"|STRING \"x\"|STRING \"y\"");
    CHECK_VALUES(
        "b'\\x00\\xff\\u' B'a' rb'\\n' Br'\\x' bR'c'",
        "BYTES \"\\x00\\xff\\\\u\"|BYTES \"a\"|BYTES \"\\\\n\"|BYTES \"\\\\x\"|BYTES \"c\"");
    CHECK_VALUES("'\xc3\xa9t\xc3\xa9' # caf\xc3\xa9", "STRING \"\xc3\xa9t\xc3\xa9\"");
    CHECK_VALUES("rb bu ub fb", "NAME rb|NAME bu|NAME ub|NAME fb");
    // a triple-quoted string keeps the line count right for what follows
    CHECK_TOKENS("s = '''a\nb\n'''; t\n", "1:1 NAME s\n1:3 '='\n1:5 STRING \"a\\nb\\n\"\n3:4 ';'\n"
                                          "3:6 NAME t\n3:7 NEWLINE\n3:7 EOF\n");
}

TEST(string_errors)
{
    CHECK_TOKENS("s = 'abc\nt = 1\n", "1:1 NAME s\n1:3 '='\n"
                                      "1:5 ERROR unterminated string literal (detected at line 1)\n"
                                      "1:9 NEWLINE\n2:1 NAME t\n2:3 '='\n2:5 INT 1\n2:6 NEWLINE\n"
                                      "2:6 EOF\n");
    CHECK_VALUES("x = '''never\nends\n", "NAME x|'='|ERROR unterminated triple-quoted string "
                                         "starting here");
    CHECK_VALUES("'\\x4'", "ERROR truncated \\xXX escape");
    CHECK_VALUES("'\\u12'", "ERROR truncated \\uXXXX escape");
    CHECK_VALUES("'\\U00110000'", "ERROR illegal Unicode character in \\U escape");
    CHECK_VALUES("'\\N{DASH}'", "ERROR \\N{...} escapes are not supported");
    CHECK_VALUES("b'caf\xc3\xa9'", "ERROR bytes can only contain ASCII literal characters");
    CHECK_TOKENS("\n  '''a\n  \\q\\x'''",
                 "2:3 INDENT\n3:5 ERROR truncated \\xXX escape\n3:10 NEWLINE\n"
                 "3:10 DEDENT\n3:10 EOF\n");
}

TEST(fstrings)
{
    CHECK_VALUES("f'a{x}b' F\"{y!r}\" f'{z:>8}' f''",
                 "FSTRING [\"a\" {x} \"b\"]|FSTRING [{y !r}]|FSTRING [{z :[\">8\"]}]|FSTRING []");
    CHECK_VALUES("f'{x:{w}.{p}f}' f'{{}} {{{x}}}' f'{x=}' f'{ x = !s}'",
                 "FSTRING [{x :[{w} \".\" {p} \"f\"]}]|FSTRING [\"{} {\" {x} \"}\"]|"
                 "FSTRING [\"x=\" {x !r}]|FSTRING [\" x = \" { x  !s}]");
    CHECK_VALUES("f'{d[\"k\"]}' f\"{a['b']:{'>'}8}\" f'{x!=y}' f'{a<=b}' f'{(lambda: 1)()}'",
                 "FSTRING [{d[\"k\"]}]|FSTRING [{a['b'] :[{'>'} \"8\"]}]|FSTRING [{x!=y}]|"
                 "FSTRING [{a<=b}]|FSTRING [{(lambda: 1)()}]");
    CHECK_VALUES("rf'\\d{x}' fR'\\n' f'\\t{x}\\n'",
                 "FSTRING [\"\\\\d\" {x}]|FSTRING [\"\\\\n\"]|FSTRING [\"\\t\" {x} \"\\n\"]");
    CHECK_VALUES("f'''a\n{x\n+ y}'''", "FSTRING [\"a\\n\" {x\\n+ y}]");
    CHECK_VALUES("f'}'", "ERROR f-string: single '}' is not allowed");
    CHECK_VALUES("f'{'", "ERROR f-string: expecting '}'");
    CHECK_VALUES("f'{}'", "ERROR f-string: empty expression not allowed");
    CHECK_VALUES("f'{x!}'", "ERROR f-string: invalid conversion character: expected 's', 'r', or "
                            "'a'");
    CHECK_VALUES("f'{x!rr}'", "ERROR f-string: invalid conversion character: expected 's', 'r', "
                              "or 'a'");
    CHECK_VALUES("f'{a\\nb}'", "ERROR f-string expression part cannot include a backslash");
    CHECK_VALUES("f'{a#}'", "ERROR f-string expression part cannot include '#'");
    CHECK_VALUES("f'{a)}'", "ERROR f-string: unmatched closing bracket");
    CHECK_VALUES("f'{x:{y}'", "ERROR f-string: expecting '}'");
}

TEST(fstring_field_positions)
{
    tl_source_t *src = tl_source_from_string("t.py", "s = f'''ab\n  {xy!r:>{w}}'''\n");
    tl_arena_t a;
    tl_arena_init(&a);
    tl_tokens_t toks;
    tl_lex(&a, src, &toks);
    const tl_token_t *tok = &toks.toks[2];
    REQUIRE(tok->kind == TL_TOK_FSTRING && tok->v.fstr->nparts == 2);
    const tl_fpart_t *f = tok->v.fstr->parts[1];
    CHECK(f->is_expr);
    CHECK_EQ(f->line, 2);
    CHECK_EQ(f->col, 4);
    CHECK_EQ(f->len, 2);
    CHECK(strncmp(src->text + f->off, "xy", 2) == 0);
    CHECK_EQ(f->conv, 'r');
    REQUIRE(f->has_spec && f->nspec == 2);
    CHECK_STREQ(f->spec[0]->lit, ">");
    CHECK_EQ(f->spec[1]->col, 11);
    tl_arena_free(&a);
    tl_source_free(src);
}

TEST(operators_and_keywords)
{
    CHECK_VALUES("** **= // //= << <<= >> >>= ... -> := != == <= >= @ @= ~ ^ |= &=",
                 "'**'|'**='|'//'|'//='|'<<'|'<<='|'>>'|'>>='|'...'|'->'|':='|'!='|'=='|'<='|'>='|"
                 "'@'|'@='|'~'|'^'|'|='|'&='");
    CHECK_VALUES("not in is lambda None True False yield await async match _",
                 "'not'|'in'|'is'|'lambda'|'None'|'True'|'False'|'yield'|'await'|'async'|"
                 "NAME match|NAME _");
}

TEST(bracket_errors_and_recovery_points)
{
    CHECK_VALUES("(]", "'('|ERROR closing parenthesis ']' does not match opening parenthesis '('");
    CHECK_VALUES("(\n]", "'('|ERROR closing parenthesis ']' does not match opening parenthesis "
                         "'(' on line 1");
    CHECK_VALUES("a)", "NAME a|ERROR unmatched ')'");
    CHECK_VALUES("f(a, [1,", "NAME f|'('|NAME a|','|'['|INT 1|','|ERROR '[' was never closed");
    // an unclosed bracket ends where a line starts with a statement keyword
    CHECK_TOKENS("x = f(1,\n\n    return 2\n",
                 "1:1 NAME x\n1:3 '='\n1:5 NAME f\n1:6 '('\n1:7 INT 1\n1:8 ','\n"
                 "1:6 ERROR '(' was never closed\n1:9 NEWLINE\n3:5 INDENT\n3:5 'return'\n"
                 "3:12 INT 2\n3:13 NEWLINE\n3:13 DEDENT\n3:13 EOF\n");
    // ... but not at `else`, `for`, `if` (conditional expressions, comprehensions)
    CHECK_VALUES("(a\nif b\nelse c\nfor d in e)", "'('|NAME a|'if'|NAME b|'else'|NAME c|'for'|"
                                                  "NAME d|'in'|NAME e|')'");
}

TEST(other_errors)
{
    CHECK_VALUES("a $ b", "NAME a|ERROR invalid character '$'|NAME b");
    CHECK_VALUES("a ! b", "NAME a|ERROR invalid character '!'|NAME b");
    CHECK_VALUES("x = 1 \\ 2", "NAME x|'='|INT 1|ERROR unexpected character after line "
                               "continuation character|INT 2");
    CHECK_VALUES("\xc3\xa9t\xc3\xa9 = 1",
                 "ERROR non-ASCII character '\xc3\xa9' outside a string or comment (identifiers "
                 "must be ASCII)|ERROR non-ASCII identifiers are not supported: 't\xc3\xa9'|'='|"
                 "INT 1");
    CHECK_VALUES("ab\xc3\xa9 = 1",
                 "ERROR non-ASCII identifiers are not supported: 'ab\xc3\xa9'|'='|INT 1");
    CHECK_VALUES("\xef\xbb\xbfx", "NAME x"); // a UTF-8 byte order mark is skipped
}

TEST(paren_mode)
{
    // f-string fields and -a values: no layout tokens at all
    CHECK_TOKENS_FLAGS("  a +\n    b", TL_TOKF_PAREN, "1:3 NAME a\n1:5 '+'\n2:5 NAME b\n2:6 EOF\n");
    CHECK_TOKENS_FLAGS("a)", TL_TOKF_PAREN, "1:1 NAME a\n1:2 ERROR unmatched ')'\n1:3 EOF\n");
}

TEST(describe_tokens)
{
    tl_source_t *src = tl_source_from_string(
        "t.py", "x 12 'abc' + '''a\nb''' 'a_very_long_string_literal_indeed'\n");
    tl_arena_t a;
    tl_arena_init(&a);
    tl_tokens_t toks;
    tl_lex(&a, src, &toks);
    const char *expected[] = {"'x'",     "number 12",      "string 'abc'",
                              "'+'",     "string '''a...", "string 'a_very_long_string_lite...",
                              "NEWLINE", "end of file"};
    REQUIRE(toks.len == 8);
    for (int i = 0; i < 8; i++) {
        tl_buf_t b;
        tl_buf_init(&b);
        tl_lex_describe(src, &toks.toks[i], &b);
        CHECK_STREQ(tl_buf_cstr(&b), expected[i]);
        tl_buf_free(&b);
    }
    CHECK_STREQ(tl_lex_kind_name(TL_TOK_DEDENT), "DEDENT");
    CHECK_STREQ(tl_lex_kind_name(TL_TOK_FLOORDIV_EQ), "//=");
    tl_arena_free(&a);
    tl_source_free(src);
}
