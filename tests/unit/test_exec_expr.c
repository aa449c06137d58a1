// Executor: scalar expression semantics (integer wrapping, truncating and
// flooring division, float32 and float16 rounding, casts, short-circuit
// evaluation, division by zero reported at the expression).
#include "../test.h"

#include <math.h>
#include <stdint.h>

#include "test_exec_util.h"

// Stores e[i] into out[i] inside T.Scope("C") (one agent) and runs the kernel.
static tl_status_t run_stores(kb_t *b, tl_buffer_t *out, int n, tl_expr_t **e)
{
    kb_scope(b, 2, TL_SIDE_CUBE);
    for (int i = 0; i < n; i++) kb_store1(b, 10 + i, out, kb_i(b, i), e[i]);
    kb_end(b);
    return kb_run(b);
}

static int64_t geti(tl_tensor_t *x, int64_t i)
{
    return tl_tensor_get_i64(x, &i);
}

static double getf(tl_tensor_t *x, int64_t i)
{
    return tl_tensor_get(x, &i);
}

TEST(exec_int32_wraps_at_32_bits)
{
    kb_t b;
    kb_init(&b, "wrap");
    tl_expr_t *a = kb_v(&b, kb_param(&b, "a", TL_I32));
    tl_expr_t *m = kb_v(&b, kb_param(&b, "m", TL_I32));
    tl_expr_t *l = kb_v(&b, kb_param(&b, "l", TL_I64));
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I64, 1, kb_i(&b, 5), NULL);
    tl_expr_t *e[] = {
        kb_bin(&b, TL_BIN_ADD, a, kb_i(&b, 1)), // INT32_MAX + 1
        kb_bin(&b, TL_BIN_MUL, m, m),           // 65536 * 65536
        kb_bin(&b, TL_BIN_SUB, kb_un(&b, TL_UN_NEG, a), kb_i(&b, 2)),
        kb_bin(&b, TL_BIN_ADD, l, kb_it(&b, 1, TL_I64)),             // int64 does not wrap here
        kb_cast(&b, TL_I8, kb_bin(&b, TL_BIN_ADD, m, kb_i(&b, 44))), // 65580 -> int8 44
    };
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_exec_set_int(b.x, "a", INT32_MAX);
    tl_exec_set_int(b.x, "m", 65536);
    tl_exec_set_int(b.x, "l", INT32_MAX);
    REQUIRE(run_stores(&b, out, 5, e) == TL_OK);
    tl_tensor_t *r = tl_exec_tensor(b.x, "out");
    CHECK_EQ(geti(r, 0), INT32_MIN);
    CHECK_EQ(geti(r, 1), 0);
    CHECK_EQ(geti(r, 2), INT32_MAX); // -INT32_MAX - 2 wraps
    CHECK_EQ(geti(r, 3), (int64_t)INT32_MAX + 1);
    CHECK_EQ(geti(r, 4), 44);
    kb_free(&b);
}

TEST(exec_division_truncates_floor_ops_floor)
{
    kb_t b;
    kb_init(&b, "div");
    tl_expr_t *p = kb_v(&b, kb_param(&b, "p", TL_I32));
    tl_expr_t *q = kb_v(&b, kb_param(&b, "q", TL_I32));
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 8), NULL);
    tl_expr_t *np = kb_un(&b, TL_UN_NEG, p), *nq = kb_un(&b, TL_UN_NEG, q);
    tl_expr_t *e[] = {
        kb_bin(&b, TL_BIN_DIV, np, q),      kb_bin(&b, TL_BIN_MOD, np, q),
        kb_bin(&b, TL_BIN_FLOORDIV, np, q), kb_bin(&b, TL_BIN_FLOORMOD, np, q),
        kb_bin(&b, TL_BIN_DIV, p, nq),      kb_bin(&b, TL_BIN_MOD, p, nq),
        kb_bin(&b, TL_BIN_FLOORDIV, p, nq), kb_bin(&b, TL_BIN_FLOORMOD, p, nq),
    };
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_exec_set_int(b.x, "p", 7);
    tl_exec_set_int(b.x, "q", 2);
    REQUIRE(run_stores(&b, out, 8, e) == TL_OK);
    tl_tensor_t *r = tl_exec_tensor(b.x, "out");
    int64_t want[] = {-3, -1, -4, 1, -3, 1, -4, -1}; // -7/2, -7%2, floor..., 7/-2, 7%-2, floor...
    for (int i = 0; i < 8; i++) CHECK_EQ(geti(r, i), want[i]);
    kb_free(&b);
}

TEST(exec_float32_computes_in_float_float16_rounds_each_op)
{
    kb_t b;
    kb_init(&b, "fp");
    tl_expr_t *x = kb_v(&b, kb_param(&b, "x", TL_F32));
    tl_expr_t *d = kb_v(&b, kb_param(&b, "d", TL_F64));
    tl_expr_t *h = kb_v(&b, kb_param(&b, "h", TL_F16));
    tl_expr_t *tp = kb_v(&b, kb_param(&b, "t", TL_F32));
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_F64, 1, kb_i(&b, 5), NULL);
    tl_expr_t *one32 = kb_f(&b, 1, TL_F32), *one16 = kb_f(&b, 1, TL_F16);
    tl_expr_t *e[] = {
        // (2^24 + 1) - 2^24: 0 in float32, 1 in float64
        kb_cast(&b, TL_F64, kb_bin(&b, TL_BIN_SUB, kb_bin(&b, TL_BIN_ADD, x, one32), x)),
        kb_bin(&b, TL_BIN_SUB, kb_bin(&b, TL_BIN_ADD, d, kb_f(&b, 1, TL_F64)), d),
        // float16: 2048 + 1 + 1 stays 2048 when each op rounds (2050 if rounded once)
        kb_cast(&b, TL_F64, kb_bin(&b, TL_BIN_ADD, kb_bin(&b, TL_BIN_ADD, h, one16), one16)),
        // 0.1f * 3: the float32 product, not the double one
        kb_cast(&b, TL_F64, kb_bin(&b, TL_BIN_MUL, tp, kb_f(&b, 3, TL_F32))),
        kb_cast(&b, TL_F64, kb_bin(&b, TL_BIN_DIV, one32, kb_bin(&b, TL_BIN_SUB, tp, tp))),
    };
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_exec_set_float(b.x, "x", 16777216.0);
    tl_exec_set_float(b.x, "d", 16777216.0);
    tl_exec_set_float(b.x, "h", 2048.0);
    tl_exec_set_float(b.x, "t", 0.1);
    REQUIRE(run_stores(&b, out, 5, e) == TL_OK);
    tl_tensor_t *r = tl_exec_tensor(b.x, "out");
    CHECK(getf(r, 0) == 0.0);
    CHECK(getf(r, 1) == 1.0);
    CHECK(getf(r, 2) == 2048.0);
    volatile float tf = 0.1f, three = 3.0f;
    float prod = tf * three;
    CHECK(getf(r, 3) == (double)prod);
    CHECK(getf(r, 3) != 0.1 * 3.0);
    CHECK(isinf(getf(r, 4))); // float division by zero is not an error
    kb_free(&b);
}

TEST(exec_casts_follow_dtype_rules)
{
    kb_t b;
    kb_init(&b, "casts");
    tl_expr_t *f = kb_v(&b, kb_param(&b, "f", TL_F32));
    tl_expr_t *big = kb_v(&b, kb_param(&b, "big", TL_F32));
    tl_expr_t *nan = kb_v(&b, kb_param(&b, "nan", TL_F32));
    tl_expr_t *n = kb_v(&b, kb_param(&b, "n", TL_I32));
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_F64, 1, kb_i(&b, 7), NULL);
    tl_expr_t *e[] = {
        kb_cast(&b, TL_I32, f),                       // -2.7 -> -2 (truncates)
        kb_cast(&b, TL_I32, big),                     // 3e9 saturates
        kb_cast(&b, TL_I32, nan),                     // NaN -> 0
        kb_cast(&b, TL_F16, n),                       // 2049 -> 2048 (ties to even)
        kb_cast(&b, TL_BF16, kb_cast(&b, TL_F32, n)), // 2049 -> 2048 in bfloat16
        kb_cast(&b, TL_BOOL, kb_bin(&b, TL_BIN_MUL, f, kb_f(&b, 0.1, TL_F32))),
        tl_ir_reinterpret(b.k, TL_I32, kb_bin(&b, TL_BIN_SUB, f, f),
                          kb_loc(&b, 1)), // bits of +0.0f
    };
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_exec_set_float(b.x, "f", -2.7);
    tl_exec_set_float(b.x, "big", 3e9);
    tl_exec_set_float(b.x, "nan", NAN);
    tl_exec_set_int(b.x, "n", 2049);
    REQUIRE(run_stores(&b, out, 7, e) == TL_OK);
    tl_tensor_t *r = tl_exec_tensor(b.x, "out");
    CHECK(getf(r, 0) == -2);
    CHECK(getf(r, 1) == 2147483647.0);
    CHECK(getf(r, 2) == 0);
    CHECK(getf(r, 3) == 2048);
    CHECK(getf(r, 4) == 2048);
    CHECK(getf(r, 5) == 1);
    CHECK(getf(r, 6) == 0);
    kb_free(&b);
}

TEST(exec_logic_short_circuits_and_select_picks_one_branch)
{
    kb_t b;
    kb_init(&b, "logic");
    tl_var_t *iv = kb_param(&b, "i", TL_I32);
    tl_expr_t *i = kb_v(&b, iv);
    tl_buffer_t *in = kb_tensor(&b, "in", TL_ROLE_INPUT, TL_I32, 1, kb_i(&b, 2), NULL);
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 3), NULL);
    tl_expr_t *inside = kb_bin(&b, TL_BIN_LT, i, kb_i(&b, 2));
    tl_expr_t *e[] = {
        // in[5] would be out of bounds: neither form evaluates it
        kb_bin(&b, TL_BIN_LAND, inside, kb_bin(&b, TL_BIN_GT, kb_load1(&b, in, i), kb_i(&b, 0))),
        tl_ir_select(b.k, inside, kb_load1(&b, in, i), kb_i(&b, -9), kb_loc(&b, 1)),
        kb_bin(&b, TL_BIN_LOR, kb_bin(&b, TL_BIN_GE, i, kb_i(&b, 2)), kb_load1(&b, in, i)),
    };
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_exec_set_tensor(b.x, "in", kb_new_tensor(&b, TL_I32, 1, 2, 0));
    tl_exec_set_int(b.x, "i", 5);
    REQUIRE(run_stores(&b, out, 3, e) == TL_OK);
    tl_tensor_t *r = tl_exec_tensor(b.x, "out");
    CHECK_EQ(geti(r, 0), 0);
    CHECK_EQ(geti(r, 1), -9);
    CHECK_EQ(geti(r, 2), 1);
    kb_free(&b);
}

TEST(exec_division_by_zero_is_an_error_at_the_expression)
{
    for (int mod = 0; mod < 2; mod++) {
        kb_t b;
        kb_init(&b, "div0");
        tl_expr_t *p = kb_v(&b, kb_param(&b, "p", TL_I32));
        tl_expr_t *q = kb_v(&b, kb_param(&b, "q", TL_I32));
        tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 1), NULL);
        tl_expr_t *e = kb_bin_at(&b, 17, mod ? TL_BIN_FLOORMOD : TL_BIN_DIV, p, q);
        REQUIRE(kb_exec(&b, NULL) == TL_OK);
        tl_exec_set_int(b.x, "p", 7);
        tl_exec_set_int(b.x, "q", 0);
        CHECK(run_stores(&b, out, 1, &e) == TL_ERR_RUNTIME);
        CHECK_CONTAINS(kb_text(&b), mod ? "integer modulo by zero" : "integer division by zero");
        CHECK_CONTAINS(kb_text(&b), "k.py:17:5: error");
        CHECK_CONTAINS(kb_text(&b), "[block 0 AIC]");
        kb_free(&b);
    }
}

TEST(exec_shift_out_of_range_is_an_error)
{
    kb_t b;
    kb_init(&b, "shift");
    tl_expr_t *p = kb_v(&b, kb_param(&b, "p", TL_I32));
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 2), NULL);
    tl_expr_t *e[] = {kb_bin(&b, TL_BIN_SHL, kb_i(&b, 3), kb_bin(&b, TL_BIN_SUB, p, kb_i(&b, 30))),
                      kb_bin_at(&b, 20, TL_BIN_SHL, kb_i(&b, 1), p)};
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_exec_set_int(b.x, "p", 32);
    CHECK(run_stores(&b, out, 2, e) == TL_ERR_RUNTIME);
    CHECK_EQ(geti(tl_exec_tensor(b.x, "out"), 0), 12);
    CHECK_CONTAINS(kb_text(&b), "k.py:20:5: error: shift count 32 is out of range for int32");
    kb_free(&b);
}
