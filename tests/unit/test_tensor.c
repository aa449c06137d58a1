// Host tensors: creation, views, element access, shape formatting.
#include "../test.h"

#include <stdlib.h>

#include "rt/tensor.h"

TEST(tensor_create_zeroed_aligned_row_major)
{
    tl_diag_t d;
    tl_diag_init(&d);
    tl_tensor_t *x;
    int64_t shape[] = {2, 3, 5};
    REQUIRE(tl_tensor_create(&x, TL_F32, 3, shape, &d) == TL_OK);
    CHECK_EQ(tl_tensor_numel(x), 30);
    CHECK_EQ(tl_tensor_nbytes(x), 120);
    CHECK_EQ(x->strides[0], 15);
    CHECK_EQ(x->strides[1], 5);
    CHECK_EQ(x->strides[2], 1);
    CHECK(x->owns_data);
    CHECK_EQ((uintptr_t)x->data % 64, 0);
    CHECK(tl_tensor_is_contiguous(x));
    const float *f = x->data;
    for (int i = 0; i < 30; i++) CHECK(f[i] == 0);
    int64_t idx[] = {1, 2, 3};
    CHECK_EQ(tl_tensor_offset(x, idx), 28);
    tl_tensor_set(x, idx, 2.5);
    CHECK(f[28] == 2.5f);
    CHECK(tl_tensor_get(x, idx) == 2.5);
    CHECK(tl_tensor_get_flat(x, 28) == 2.5);
    tl_tensor_destroy(x);
    CHECK_EQ(d.nerrors, 0);
    tl_diag_free(&d);
}

TEST(tensor_create_rejects_bad_shapes)
{
    tl_diag_t d;
    tl_diag_init(&d);
    tl_tensor_t dummy, *x = &dummy;
    int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK(tl_tensor_create(&x, TL_F32, 9, nine, &d) == TL_ERR_ARG);
    CHECK(x == NULL);
    CHECK_CONTAINS(tl_diag_text(&d), "rank");
    int64_t neg[] = {4, -1};
    CHECK(tl_tensor_create(&x, TL_F32, 2, neg, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "negative dimension");
    int64_t huge[] = {1ll << 40, 1ll << 40};
    CHECK(tl_tensor_create(&x, TL_F32, 2, huge, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "size overflows");
    // empty, but the strides (products of the other extents) would overflow
    int64_t empty_huge[] = {0, 1ll << 40, 1ll << 40};
    CHECK(tl_tensor_create(&x, TL_F32, 3, empty_huge, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "size overflows");
    CHECK(tl_tensor_wrap(&x, TL_F32, 1, neg + 0, NULL, NULL, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "NULL");
    CHECK_EQ(d.nerrors, 5);
    tl_diag_free(&d);
}

TEST(tensor_scalar_and_zero_size)
{
    tl_tensor_t *s, *z;
    REQUIRE(tl_tensor_create(&s, TL_I32, 0, NULL, NULL) == TL_OK);
    CHECK_EQ(tl_tensor_numel(s), 1);
    CHECK_EQ(tl_tensor_nbytes(s), 4);
    tl_tensor_set(s, NULL, 7);
    CHECK_EQ(*(int32_t *)s->data, 7);
    int64_t none[1] = {0};
    CHECK(!tl_tensor_next_index(s, none)); // one element only
    int64_t shape[] = {3, 0, 2};
    REQUIRE(tl_tensor_create(&z, TL_F16, 3, shape, NULL) == TL_OK);
    CHECK_EQ(tl_tensor_numel(z), 0);
    CHECK_EQ(tl_tensor_nbytes(z), 0);
    CHECK(z->data != NULL);
    CHECK(tl_tensor_is_contiguous(z));
    CHECK(!tl_tensor_same_shape(s, z));
    tl_tensor_destroy(s);
    tl_tensor_destroy(z);
    tl_tensor_destroy(NULL);
}

TEST(tensor_wrap_strided_views)
{
    int32_t mem[6] = {0, 1, 2, 3, 4, 5}; // a 2x3 row-major matrix
    tl_tensor_t *m, *tr, *rev;
    int64_t s23[] = {2, 3}, s32[] = {3, 2}, st[] = {1, 3};
    REQUIRE(tl_tensor_wrap(&m, TL_I32, 2, s23, NULL, mem, NULL) == TL_OK);
    CHECK(!m->owns_data);
    CHECK(tl_tensor_is_contiguous(m));
    // The transpose: [3, 2] with strides [1, 3].
    REQUIRE(tl_tensor_wrap(&tr, TL_I32, 2, s32, st, mem, NULL) == TL_OK);
    CHECK(!tl_tensor_is_contiguous(tr));
    int64_t idx[2] = {0, 0};
    int expect[] = {0, 3, 1, 4, 2, 5}, n = 0;
    do {
        CHECK_EQ(tl_tensor_get(tr, idx), expect[n]);
        CHECK_EQ(tl_tensor_get_flat(tr, (size_t)n), expect[n]);
        n++;
    } while (tl_tensor_next_index(tr, idx));
    CHECK_EQ(n, 6);
    tl_tensor_set_flat(tr, 1, 30); // element [0, 1] of the transpose is mem[3]
    CHECK_EQ(mem[3], 30);
    // A reversed vector: data points at the last element, stride -1.
    int64_t s6[] = {6}, sm1[] = {-1};
    REQUIRE(tl_tensor_wrap(&rev, TL_I32, 1, s6, sm1, mem + 5, NULL) == TL_OK);
    CHECK_EQ(tl_tensor_get_flat(rev, 0), 5);
    CHECK_EQ(tl_tensor_get_flat(rev, 5), 0);
    // Strides of extent-1 dimensions do not matter for contiguity.
    int64_t s13[] = {1, 3}, odd[] = {99, 1};
    tl_tensor_t *row;
    REQUIRE(tl_tensor_wrap(&row, TL_I32, 2, s13, odd, mem, NULL) == TL_OK);
    CHECK(tl_tensor_is_contiguous(row));
    tl_tensor_destroy(m);
    tl_tensor_destroy(tr);
    tl_tensor_destroy(rev);
    tl_tensor_destroy(row);
    CHECK_EQ(mem[0], 0); // wrapped memory is not freed or cleared
}

TEST(tensor_set_rounds_and_saturates)
{
    tl_tensor_t *b, *i8, *i64;
    int64_t one[] = {1};
    REQUIRE(tl_tensor_create(&b, TL_BF16, 1, one, NULL) == TL_OK);
    int64_t z[] = {0};
    tl_tensor_set(b, z, 1.0 + 0x1p-8); // a tie: to even, 1.0
    CHECK(tl_tensor_get(b, z) == 1.0);
    tl_tensor_set(b, z, 1.0 + 3 * 0x1p-8); // a tie: to even, 1 + 2^-6
    CHECK(tl_tensor_get(b, z) == 1.015625);
    REQUIRE(tl_tensor_create(&i8, TL_I8, 1, one, NULL) == TL_OK);
    tl_tensor_set(i8, z, 300);
    CHECK_EQ(tl_tensor_get(i8, z), 127);
    tl_tensor_set(i8, z, -2.5); // RINT
    CHECK_EQ(tl_tensor_get(i8, z), -2);
    REQUIRE(tl_tensor_create(&i64, TL_I64, 1, one, NULL) == TL_OK);
    int64_t big = (1ll << 60) + 1;
    tl_tensor_set_i64(i64, z, big);
    CHECK(tl_tensor_get_i64(i64, z) == big);
    tl_tensor_destroy(b);
    tl_tensor_destroy(i8);
    tl_tensor_destroy(i64);
}

TEST(tensor_format_shape)
{
    tl_tensor_t *x;
    int64_t shape[] = {2, 3, 4};
    REQUIRE(tl_tensor_create(&x, TL_U8, 3, shape, NULL) == TL_OK);
    char buf[32];
    CHECK_STREQ(tl_tensor_shape_str(x, buf, sizeof buf), "[2, 3, 4]");
    CHECK_STREQ(tl_tensor_shape_str(x, buf, 5), "[2, ");
    tl_buf_t b;
    tl_buf_init(&b);
    tl_tensor_format_dims(&b, 0, NULL);
    tl_tensor_format_dims(&b, 1, shape + 2);
    CHECK_STREQ(tl_buf_cstr(&b), "[][4]");
    tl_buf_free(&b);
    tl_tensor_t *u;
    REQUIRE(tl_tensor_create(&u, TL_F64, 3, shape, NULL) == TL_OK);
    CHECK(tl_tensor_same_shape(x, u));
    u->shape[2] = 5;
    CHECK(!tl_tensor_same_shape(x, u));
    tl_tensor_destroy(x);
    tl_tensor_destroy(u);
}
