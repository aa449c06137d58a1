// Executor: binding arguments (dtype, rank and dims of tensors, symbolic dim
// inference and its errors, scalar parameters), allocation of outputs filled
// with the garbage pattern, strided arguments, taking outputs.
#include "../test.h"

#include <math.h>

#include "test_exec_util.h"

// A (M, K) and B (K, N) in, C (M, N) out; the AIC writes C[0, 0] = M*100 + K*10 + N.
typedef struct {
    tl_var_t *m, *k, *n;
    tl_buffer_t *a, *b, *c;
} mkn_t;

// Builds the kernel and gives A as a x k and B as k2 x n.
static void mkn_kernel(kb_t *b, mkn_t *p, int64_t m, int64_t k, int64_t k2, int64_t n)
{
    kb_init(b, "mkn");
    p->m = kb_dim(b, "M");
    p->k = kb_dim(b, "K");
    p->n = kb_dim(b, "N");
    p->a = kb_tensor(b, "A", TL_ROLE_INPUT, TL_F32, 2, kb_v(b, p->m), kb_v(b, p->k));
    p->b = kb_tensor(b, "B", TL_ROLE_INPUT, TL_F32, 2, kb_v(b, p->k), kb_v(b, p->n));
    p->c = kb_tensor(b, "C", TL_ROLE_OUTPUT, TL_F32, 2, kb_v(b, p->m), kb_v(b, p->n));
    kb_scope(b, 3, TL_SIDE_CUBE);
    tl_expr_t *v = kb_bin(b, TL_BIN_ADD, kb_bin(b, TL_BIN_MUL, kb_v(b, p->m), kb_i(b, 100)),
                          kb_bin(b, TL_BIN_MUL, kb_v(b, p->k), kb_i(b, 10)));
    kb_store2(b, 4, p->c, kb_i(b, 0), kb_i(b, 0),
              kb_cast(b, TL_F32, kb_bin(b, TL_BIN_ADD, v, kb_v(b, p->n))));
    kb_end(b);
    if (kb_exec(b, NULL) != TL_OK) return;
    tl_exec_set_tensor(b->x, "A", kb_new_tensor(b, TL_F32, 2, m, k));
    tl_exec_set_tensor(b->x, "B", kb_new_tensor(b, TL_F32, 2, k2, n));
}

TEST(exec_bind_infers_dims_and_allocates_garbage_outputs)
{
    kb_t b;
    mkn_t p;
    mkn_kernel(&b, &p, 4, 8, 8, 3);
    REQUIRE(b.x != NULL);
    REQUIRE(kb_run(&b) == TL_OK);
    int64_t v;
    CHECK(tl_exec_dim(b.x, "M", &v) && v == 4);
    CHECK(tl_exec_dim(b.x, "K", &v) && v == 8);
    CHECK(tl_exec_dim(b.x, "N", &v) && v == 3);
    tl_tensor_t *c = tl_exec_tensor(b.x, "C");
    REQUIRE(c != NULL);
    CHECK_EQ(c->ndim, 2);
    CHECK_EQ(c->shape[0], 4);
    CHECK_EQ(c->shape[1], 3);
    CHECK(tl_tensor_get_flat(c, 0) == 483);
    CHECK(isnan(tl_tensor_get_flat(c, 1))); // never written: the 0xFF pattern
    CHECK_EQ(((const uint32_t *)c->data)[11], 0xFFFFFFFFu);
    CHECK_EQ(b.d.nerrors, 0);
    kb_free(&b);
}

TEST(exec_bind_checks_every_dimension)
{
    kb_t b;
    mkn_t p;
    mkn_kernel(&b, &p, 4, 8, 6, 3);
    REQUIRE(b.x != NULL);
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "tensor 'B' has shape [6, 3], the kernel expects [8, 3] (K, N)");
    // A given output is checked too.
    tl_exec_set_tensor(b.x, "B", kb_new_tensor(&b, TL_F32, 2, 8, 3));
    tl_exec_set_tensor(b.x, "C", kb_new_tensor(&b, TL_F32, 2, 4, 4));
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "tensor 'C' has shape [4, 4], the kernel expects [4, 3]");
    // An explicit dim that disagrees with the tensors.
    tl_exec_set_tensor(b.x, "C", NULL);
    CHECK(tl_exec_set_dim(b.x, "M", 5) == TL_OK);
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "tensor 'A' has shape [4, 8], the kernel expects [5, 8]");
    CHECK(tl_exec_set_dim(b.x, "Q", 5) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "has no symbolic dim 'Q'");
    kb_free(&b);
}

TEST(exec_bind_checks_dtype_rank_and_presence)
{
    kb_t b;
    mkn_t p;
    mkn_kernel(&b, &p, 4, 8, 8, 3);
    REQUIRE(b.x != NULL);
    tl_exec_set_tensor(b.x, "A", NULL);
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "input tensor 'A' is not given");
    tl_exec_set_tensor(b.x, "A", kb_new_tensor(&b, TL_F16, 2, 4, 8));
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "tensor 'A' has dtype float16, the kernel expects float32");
    tl_exec_set_tensor(b.x, "A", kb_new_tensor(&b, TL_F32, 1, 32, 0));
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "tensor 'A' has 1 dimension (shape [32]), the kernel expects 2: (M, K)");
    CHECK(tl_exec_set_tensor(b.x, "Z", NULL) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "kernel 'mkn' has no tensor parameter 'Z'");
    kb_free(&b);
}

TEST(exec_bind_reports_dims_it_cannot_infer)
{
    kb_t b;
    kb_init(&b, "topk");
    tl_var_t *n = kb_dim(&b, "n"), *topk = kb_dim(&b, "topk");
    kb_tensor(&b, "x", TL_ROLE_INPUT, TL_F32, 1, kb_v(&b, n), NULL);
    kb_tensor(&b, "idx", TL_ROLE_OUTPUT, TL_I32, 1, kb_v(&b, topk), NULL);
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_exec_set_tensor(b.x, "x", kb_new_tensor(&b, TL_F32, 1, 10, 0));
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "dim 'topk' appears in no input shape; give it with -d topk=N");
    REQUIRE(tl_exec_set_dim(b.x, "topk", 3) == TL_OK);
    REQUIRE(kb_run(&b) == TL_OK);
    tl_tensor_t *idx = tl_exec_tensor(b.x, "idx");
    REQUIRE(idx != NULL);
    CHECK_EQ(idx->shape[0], 3);
    CHECK_EQ(tl_tensor_get_flat(idx, 2), -1); // 0xFF bytes
    kb_free(&b);
}

TEST(exec_bind_evaluates_compound_shapes)
{
    kb_t b;
    kb_init(&b, "flat");
    tl_var_t *bd = kb_dim(&b, "b"), *m = kb_dim(&b, "m");
    kb_tensor(&b, "x", TL_ROLE_INPUT, TL_F32, 1, kb_bin(&b, TL_BIN_MUL, kb_v(&b, bd), kb_v(&b, m)),
              NULL);
    kb_tensor(&b, "y", TL_ROLE_INPUT, TL_F32, 2, kb_v(&b, bd), kb_i(&b, 4));
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_exec_set_tensor(b.x, "x", kb_new_tensor(&b, TL_F32, 1, 6, 0));
    tl_exec_set_tensor(b.x, "y", kb_new_tensor(&b, TL_F32, 2, 2, 4));
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "dim 'm' cannot be inferred: it appears only in the shape "
                                "expression 'b * m' of 'x'; give it with -d m=N");
    tl_exec_set_dim(b.x, "m", 3);
    CHECK(kb_run(&b) == TL_OK);
    tl_exec_set_dim(b.x, "m", 4);
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "tensor 'x' has shape [6], the kernel expects [8] (b * m)");
    // Constant dimensions are checked as well.
    tl_exec_set_dim(b.x, "m", 3);
    tl_exec_set_tensor(b.x, "y", kb_new_tensor(&b, TL_F32, 2, 2, 5));
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "tensor 'y' has shape [2, 5], the kernel expects [2, 4] (b, 4)");
    kb_free(&b);
}

TEST(exec_bind_scalar_parameters)
{
    kb_t b;
    kb_init(&b, "scal");
    tl_var_t *n = kb_param(&b, "n", TL_I32), *s = kb_param(&b, "s", TL_F32);
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_F32, 1, kb_i(&b, 1), NULL);
    kb_grid(&b, kb_v(&b, n));
    kb_scope(&b, 2, TL_SIDE_CUBE);
    kb_store1(&b, 3, out, kb_i(&b, 0),
              kb_bin(&b, TL_BIN_ADD, kb_v(&b, s), kb_cast(&b, TL_F32, kb_cid(&b))));
    kb_end(&b);
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_exec_set_float(b.x, "s", 0.5);
    CHECK(kb_run(&b) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "scalar parameter 'n' is not given");
    CHECK(tl_exec_set_int(b.x, "n", 1ll << 40) == TL_ERR_ARG);
    CHECK_CONTAINS(kb_text(&b), "value 1099511627776 does not fit the int32 parameter 'n'");
    CHECK(tl_exec_set_float(b.x, "n", 2.5) == TL_ERR_ARG);
    REQUIRE(tl_exec_set_int(b.x, "n", 3) == TL_OK);
    REQUIRE(kb_run(&b) == TL_OK);
    CHECK_EQ(tl_exec_num_blocks(b.x), 3);
    CHECK(tl_tensor_get_flat(tl_exec_tensor(b.x, "out"), 0) == 2.5); // the last block wrote it
    kb_free(&b);
}

TEST(exec_strided_arguments_and_taken_outputs)
{
    kb_t b;
    kb_init(&b, "strided");
    tl_buffer_t *x = kb_tensor(&b, "x", TL_ROLE_INPUT, TL_I32, 2, kb_i(&b, 2), kb_i(&b, 3));
    tl_buffer_t *y = kb_tensor(&b, "y", TL_ROLE_OUTPUT, TL_I32, 2, kb_i(&b, 2), kb_i(&b, 3));
    kb_scope(&b, 2, TL_SIDE_CUBE);
    tl_var_t *i = kb_for(&b, 3, "i", kb_i(&b, 0), kb_i(&b, 2));
    tl_var_t *j = kb_for(&b, 4, "j", kb_i(&b, 0), kb_i(&b, 3));
    kb_store2(&b, 5, y, kb_v(&b, i), kb_v(&b, j),
              kb_bin(&b, TL_BIN_MUL, kb_load2(&b, x, kb_v(&b, i), kb_v(&b, j)), kb_i(&b, 10)));
    kb_end(&b);
    kb_end(&b);
    kb_end(&b);
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    // x is the transpose of a row-major 3 x 2 array; y is given with column-major strides.
    int32_t xdata[6] = {1, 4, 2, 5, 3, 6}, ydata[6] = {0};
    int64_t shape[2] = {2, 3}, strides[2] = {1, 2};
    tl_tensor_t *xt, *yt;
    REQUIRE(tl_tensor_wrap(&xt, TL_I32, 2, shape, strides, xdata, &b.d) == TL_OK);
    REQUIRE(tl_tensor_wrap(&yt, TL_I32, 2, shape, strides, ydata, &b.d) == TL_OK);
    tl_exec_set_tensor(b.x, "x", xt);
    tl_exec_set_tensor(b.x, "y", yt);
    REQUIRE(kb_run(&b) == TL_OK);
    CHECK(tl_exec_tensor(b.x, "y") == yt);
    int32_t want[6] = {10, 40, 20, 50, 30, 60};
    for (int k = 0; k < 6; k++) CHECK_EQ(ydata[k], want[k]);
    // An allocated output can be taken; the next run allocates a new one.
    tl_exec_set_tensor(b.x, "y", NULL);
    REQUIRE(kb_run(&b) == TL_OK);
    tl_tensor_t *owned = tl_exec_take_tensor(b.x, "y");
    REQUIRE(owned != NULL && owned != yt);
    CHECK_EQ(tl_tensor_get_flat(owned, 1), 20);
    REQUIRE(kb_run(&b) == TL_OK);
    CHECK(tl_exec_tensor(b.x, "y") != owned);
    tl_tensor_destroy(owned);
    tl_tensor_destroy(xt);
    tl_tensor_destroy(yt);
    kb_free(&b);
}
