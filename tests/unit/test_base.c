// Arena, buffers, hash map and diagnostics formatting.
#include "../test.h"

#include <stdlib.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/hash.h"

TEST(arena_zeroed_and_aligned)
{
    tl_arena_t a;
    tl_arena_init(&a);
    for (int i = 1; i < 2000; i += 37) {
        unsigned char *p = tl_arena_alloc(&a, (size_t)i);
        REQUIRE(p != NULL);
        CHECK(((uintptr_t)p % _Alignof(max_align_t)) == 0);
        for (int k = 0; k < i; k++) CHECK(p[k] == 0);
        memset(p, 0xAB, (size_t)i);
    }
    char *big = tl_arena_alloc(&a, 1 << 20); // larger than a chunk
    REQUIRE(big != NULL);
    big[(1 << 20) - 1] = 1;
    CHECK_STREQ(tl_arena_printf(&a, "%d-%s", 42, "x"), "42-x");
    CHECK_STREQ(tl_arena_strndup(&a, "abcdef", 3), "abc");
    tl_arena_free(&a);
}

TEST(vec_push_keeps_order)
{
    tl_arena_t a;
    tl_arena_init(&a);
    tl_vec_t v = {0};
    static int vals[100];
    for (int i = 0; i < 100; i++) vals[i] = i, tl_vec_push(&a, &v, &vals[i]);
    CHECK_EQ(v.len, 100);
    for (int i = 0; i < 100; i++) CHECK_EQ(*(int *)v.items[i], i);
    tl_arena_free(&a);
}

TEST(buf_printf_grows)
{
    tl_buf_t b;
    tl_buf_init(&b);
    CHECK_STREQ(tl_buf_cstr(&b), "");
    for (int i = 0; i < 1000; i++) tl_buf_printf(&b, "%d,", i % 10);
    CHECK_EQ(b.len, 2000);
    CHECK(strncmp(tl_buf_cstr(&b), "0,1,2,", 6) == 0);
    char *s = tl_buf_take(&b);
    CHECK_EQ(strlen(s), 2000);
    free(s);
    CHECK_EQ(b.len, 0);
}

TEST(map_put_get_replace)
{
    tl_arena_t a;
    tl_arena_init(&a);
    tl_map_t m;
    tl_map_init(&m, &a);
    CHECK(tl_map_get(&m, "x") == NULL);
    static int vals[500];
    char *keys[500];
    for (int i = 0; i < 500; i++) {
        keys[i] = tl_arena_printf(&a, "key%d", i);
        tl_map_put(&m, keys[i], &vals[i]);
    }
    CHECK_EQ(m.len, 500);
    for (int i = 0; i < 500; i++) CHECK(tl_map_get(&m, keys[i]) == &vals[i]);
    tl_map_put(&m, "key7", &vals[0]);
    CHECK(tl_map_get(&m, "key7") == &vals[0]);
    CHECK_EQ(m.len, 500);
    CHECK(!tl_map_has(&m, "key500"));
    tl_arena_free(&a);
}

TEST(diag_caret_under_column)
{
    tl_source_t *src = tl_source_from_string("k.py", "a = 1\n\tb = foo(2)\nc\n");
    tl_diag_t d;
    tl_diag_init(&d);
    tl_loc_t loc = {src, 2, 6};
    CHECK_EQ(tl_diag_error(&d, loc, "unknown name '%s'", "foo"), TL_ERR_COMPILE);
    CHECK_STREQ(tl_diag_text(&d), "k.py:2:6: error: unknown name 'foo'\n"
                                  "    2 | \tb = foo(2)\n"
                                  "      | \t    ^\n");
    CHECK_EQ(d.nerrors, 1);
    CHECK_STREQ(d.first_error, "unknown name 'foo'");
    tl_diag_warning(&d, (tl_loc_t){0}, "no location");
    CHECK_CONTAINS(tl_diag_text(&d), "warning: no location\n");
    CHECK_EQ(d.nwarnings, 1);
    tl_diag_free(&d);
    tl_source_free(src);
}

TEST(source_read_missing_file)
{
    tl_diag_t d;
    tl_diag_init(&d);
    CHECK(tl_source_read("/nonexistent/file.py", &d) == NULL);
    CHECK_CONTAINS(tl_diag_text(&d), "cannot open '/nonexistent/file.py'");
    tl_diag_free(&d);
}
