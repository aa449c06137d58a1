// Executor with tile ops (the tile-op library on evaluated views): a vector
// kernel in T.Scope("V"), a cube gemm, a developer-mode matmul + add through
// the virtual L0C -> UB copy, the uninitialised-read warning on ops, and the
// evaluated operands the hook sees.
#include "../test.h"

#include "test_exec_util.h"

static double at(tl_tensor_t *x, int64_t i)
{
    return tl_tensor_get_flat(x, (size_t)i);
}

static tl_tensor_t *filled(kb_t *b, tl_dtype_t t, int64_t r, int64_t c, double scale, double off)
{
    tl_tensor_t *x = kb_new_tensor(b, t, 2, r, c);
    for (int64_t i = 0; i < r * c; i++) tl_tensor_set_flat(x, (size_t)i, (double)i * scale + off);
    return x;
}

typedef struct {
    int ops[TL_AGENT_COUNT];
    int64_t rows[8]; // start row of the GM operand of each copy seen
    int nrows;
} ops_t;

static tl_status_t op_hook(void *arg, const tl_exec_event_t *ev)
{
    ops_t *o = arg;
    if (ev->kind != TL_EXEC_EV_OP) return TL_OK;
    o->ops[ev->agent]++;
    const tl_opcall_t *c = ev->call;
    if (c->op->code == TL_OP_COPY && o->nrows < 8)
        for (int i = 0; i < 2; i++)
            if (c->args[i].view.scope == TL_SCOPE_GM)
                o->rows[o->nrows++] = c->args[i].view.start[0];
    return TL_OK;
}

// Y[row, :] = X[row, :] + 1.5 with row = cid * 2 + vid, on the vector agents.
TEST(exec_tile_vector_kernel_in_vector_scope)
{
    kb_t b;
    kb_init(&b, "vadd");
    kb_grid(&b, kb_i(&b, 2));
    tl_buffer_t *xg = kb_tensor(&b, "X", TL_ROLE_INPUT, TL_F32, 2, kb_i(&b, 4), kb_i(&b, 8));
    tl_buffer_t *yg = kb_tensor(&b, "Y", TL_ROLE_OUTPUT, TL_F32, 2, kb_i(&b, 4), kb_i(&b, 8));
    tl_buffer_t *ub = kb_buf(&b, "x_ub", TL_SCOPE_UB, TL_F32, 1, 8);
    kb_scope(&b, 2, TL_SIDE_VEC);
    tl_var_t *row =
        kb_let(&b, 3, "row",
               kb_bin(&b, TL_BIN_ADD, kb_bin(&b, TL_BIN_MUL, kb_cid(&b), kb_i(&b, 2)), kb_vid(&b)));
    kb_arg_t in[] = {KB_AT(xg, kb_v(&b, row), kb_i(&b, 0)), KB_BUF(ub)};
    kb_op(&b, 4, TL_OP_COPY, 2, in);
    kb_arg_t add[] = {KB_BUF(ub), KB_BUF(ub), KB_EXPR(kb_f(&b, 1.5, TL_F32))};
    kb_op(&b, 5, TL_OP_ADD, 3, add);
    kb_arg_t outa[] = {KB_BUF(ub), KB_AT(yg, kb_v(&b, row), kb_i(&b, 0))};
    kb_op(&b, 6, TL_OP_COPY, 2, outa);
    kb_end(&b);
    ops_t o = {0};
    tl_exec_opts_t opts = {.warn_uninit = true, .hook = op_hook, .hook_arg = &o};
    REQUIRE(kb_exec(&b, &opts) == TL_OK);
    tl_exec_set_tensor(b.x, "X", filled(&b, TL_F32, 4, 8, 1, 0));
    REQUIRE(kb_run(&b) == TL_OK);
    tl_tensor_t *y = tl_exec_tensor(b.x, "Y");
    for (int i = 0; i < 32; i++) CHECK(at(y, i) == i + 1.5);
    CHECK_EQ(b.d.nwarnings, 0);
    CHECK_EQ(o.ops[TL_AGENT_AIC], 0);
    CHECK_EQ(o.ops[TL_AGENT_AIV0], 6);
    CHECK_EQ(o.ops[TL_AGENT_AIV1], 6);
    int64_t want[8] = {0, 0, 1, 1, 2, 2, 3, 3};
    REQUIRE(o.nrows == 8);
    for (int i = 0; i < 8; i++) CHECK_EQ(o.rows[i], want[i]);
    kb_free(&b);
}

// C = A @ B on the cube: GM -> L1 copies, gemm_v0 into L0C, L0C -> GM.
static void gemm_body(kb_t *b, tl_buffer_t *ag, tl_buffer_t *bg, tl_buffer_t *l0c, bool init)
{
    tl_buffer_t *al1 = kb_buf(b, "a_l1", TL_SCOPE_L1, TL_F16, 16, 16);
    tl_buffer_t *bl1 = kb_buf(b, "b_l1", TL_SCOPE_L1, TL_F16, 16, 16);
    kb_arg_t ca[] = {KB_BUF(ag), KB_BUF(al1)}, cb[] = {KB_BUF(bg), KB_BUF(bl1)};
    kb_op(b, 3, TL_OP_COPY, 2, ca);
    kb_op(b, 4, TL_OP_COPY, 2, cb);
    kb_arg_t g[] = {KB_BUF(al1), KB_BUF(bl1), KB_BUF(l0c)};
    tl_stmt_t *s = kb_op(b, 5, TL_OP_GEMM_V0, 3, g);
    s->op.init = kb_it(b, init, TL_BOOL);
}

TEST(exec_tile_cube_gemm_and_uninitialised_accumulator)
{
    for (int init = 0; init < 2; init++) {
        kb_t b;
        kb_init(&b, "gemm");
        tl_buffer_t *ag = kb_tensor(&b, "A", TL_ROLE_INPUT, TL_F16, 2, kb_i(&b, 16), kb_i(&b, 16));
        tl_buffer_t *bg = kb_tensor(&b, "B", TL_ROLE_INPUT, TL_F16, 2, kb_i(&b, 16), kb_i(&b, 16));
        tl_buffer_t *cg = kb_tensor(&b, "C", TL_ROLE_OUTPUT, TL_F32, 2, kb_i(&b, 16), kb_i(&b, 16));
        tl_buffer_t *l0c = kb_buf(&b, "c_l0", TL_SCOPE_L0C, TL_F32, 16, 16);
        kb_scope(&b, 2, TL_SIDE_CUBE);
        gemm_body(&b, ag, bg, l0c, init);
        kb_arg_t cc[] = {KB_BUF(l0c), KB_BUF(cg)};
        kb_op(&b, 6, TL_OP_COPY, 2, cc);
        kb_end(&b);
        tl_exec_opts_t opts = {.warn_uninit = true};
        REQUIRE(kb_exec(&b, &opts) == TL_OK);
        tl_tensor_t *a = kb_new_tensor(&b, TL_F16, 2, 16, 16);
        for (int i = 0; i < 16; i++) tl_tensor_set_flat(a, (size_t)(i * 17), 2); // 2 * identity
        tl_exec_set_tensor(b.x, "A", a);
        tl_exec_set_tensor(b.x, "B", filled(&b, TL_F16, 16, 16, 0.5, -3));
        REQUIRE(kb_run(&b) == TL_OK);
        tl_tensor_t *c = tl_exec_tensor(b.x, "C");
        if (init) {
            for (int i = 0; i < 256; i++) CHECK(at(c, i) == 2 * (i * 0.5 - 3));
            CHECK_EQ(b.d.nwarnings, 0);
        } else {
            CHECK(at(c, 0) != at(c, 0)); // accumulated onto the NaN garbage
            CHECK_CONTAINS(kb_text(&b), "k.py:5:5: warning: gemm_v0 on the AIC reads bytes [0, 64) "
                                        "of 'c_l0' (L0C) that were never written in block 0");
        }
        kb_free(&b);
    }
}

// Developer mode, threads=2 (upstream's matmul_add_developer): the cube
// computes A @ B into L0C, the vector lane copies L0C -> UB directly, adds D
// and stores C.
TEST(exec_tile_dev_matmul_add_through_a_virtual_copy)
{
    for (int threads = 0; threads <= 2; threads += 2) {
        kb_t b;
        kb_init(&b, "matmul_add");
        b.k->config.auto_cv_combine = true;
        b.k->threads = threads;
        tl_buffer_t *ag = kb_tensor(&b, "A", TL_ROLE_INPUT, TL_F16, 2, kb_i(&b, 16), kb_i(&b, 16));
        tl_buffer_t *bg = kb_tensor(&b, "B", TL_ROLE_INPUT, TL_F16, 2, kb_i(&b, 16), kb_i(&b, 16));
        tl_buffer_t *dg = kb_tensor(&b, "D", TL_ROLE_INPUT, TL_F32, 2, kb_i(&b, 16), kb_i(&b, 16));
        tl_buffer_t *cg = kb_tensor(&b, "C", TL_ROLE_OUTPUT, TL_F32, 2, kb_i(&b, 16), kb_i(&b, 16));
        tl_buffer_t *l0c = kb_buf(&b, "c_l0", TL_SCOPE_L0C, TL_F32, 16, 16);
        tl_buffer_t *cub = kb_buf(&b, "c_ub", TL_SCOPE_UB, TL_F32, 16, 16);
        tl_buffer_t *dub = kb_buf(&b, "d_ub", TL_SCOPE_UB, TL_F32, 16, 16);
        gemm_body(&b, ag, bg, l0c, true);
        kb_arg_t v1[] = {KB_BUF(l0c), KB_BUF(cub)}, v2[] = {KB_BUF(dg), KB_BUF(dub)};
        kb_op(&b, 7, TL_OP_COPY, 2, v1);
        kb_op(&b, 8, TL_OP_COPY, 2, v2);
        kb_arg_t add[] = {KB_BUF(cub), KB_BUF(cub), KB_BUF(dub)};
        kb_op(&b, 9, TL_OP_ADD, 3, add);
        kb_arg_t st[] = {KB_BUF(cub), KB_BUF(cg)};
        kb_op(&b, 10, TL_OP_COPY, 2, st);
        ops_t o = {0};
        tl_exec_opts_t opts = {.hook = op_hook, .hook_arg = &o};
        REQUIRE(kb_exec(&b, &opts) == TL_OK);
        tl_tensor_t *a = kb_new_tensor(&b, TL_F16, 2, 16, 16);
        for (int i = 0; i < 16; i++) tl_tensor_set_flat(a, (size_t)(i * 17), 1);
        tl_exec_set_tensor(b.x, "A", a);
        tl_exec_set_tensor(b.x, "B", filled(&b, TL_F16, 16, 16, 1, 0));
        tl_exec_set_tensor(b.x, "D", filled(&b, TL_F32, 16, 16, 0, 0.25));
        REQUIRE(kb_run(&b) == TL_OK);
        tl_tensor_t *c = tl_exec_tensor(b.x, "C");
        for (int i = 0; i < 256; i++) CHECK(at(c, i) == i + 0.25);
        CHECK_EQ(o.ops[TL_AGENT_AIC], 3);
        CHECK_EQ(o.ops[TL_AGENT_AIV0], 4);
        CHECK_EQ(o.ops[TL_AGENT_AIV1], threads ? 0 : 4);
        kb_free(&b);
    }
}

TEST(exec_tile_op_errors_carry_the_statement_location)
{
    kb_t b;
    kb_init(&b, "tile_err");
    tl_buffer_t *xg = kb_tensor(&b, "X", TL_ROLE_INPUT, TL_F32, 2, kb_i(&b, 4), kb_i(&b, 8));
    tl_buffer_t *ub = kb_buf(&b, "x_ub", TL_SCOPE_UB, TL_F32, 1, 8);
    kb_scope(&b, 2, TL_SIDE_VEC);
    // a negative start (a start past the tensor clips the box to nothing, as on the
    // device: upstream computes the valid extent as max(shape - start, 0))
    kb_arg_t in[] = {KB_AT(xg, kb_i(&b, -1), kb_i(&b, 0)), KB_BUF(ub)};
    kb_op(&b, 12, TL_OP_COPY, 2, in);
    kb_end(&b);
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_exec_set_tensor(b.x, "X", filled(&b, TL_F32, 4, 8, 1, 0));
    CHECK(kb_run(&b) != TL_OK);
    CHECK_CONTAINS(kb_text(&b), "k.py:12:5: error:");
    CHECK_EQ(b.d.nerrors, 1);
    CHECK_CONTAINS(kb_text(&b), "note: while the AIV0 of block 0 ran it");
    kb_free(&b);
}
