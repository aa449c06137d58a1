// Executor, developer mode (auto_cv_combine): one logical program per block,
// cube statements on the AIC and vector statements on each vector lane in
// program order; lockstep loops must not depend on vid; single-sided regions
// run lane after lane; the threads= form has one vector lane; manual flags
// are honoured in program order.
#include "../test.h"

#include "test_exec_util.h"

static int64_t at(tl_tensor_t *x, int64_t i)
{
    return tl_tensor_get_i64(x, &i);
}

static void dev_init(kb_t *b, const char *name)
{
    kb_init(b, name);
    b->k->config.auto_cv_combine = true;
}

TEST(exec_dev_interleaved_cube_and_vector_statements_follow_program_order)
{
    kb_t b;
    dev_init(&b, "interleave");
    tl_buffer_t *l1 = kb_buf(&b, "a_l1", TL_SCOPE_L1, TL_I32, 1, 0);
    tl_buffer_t *ub = kb_buf(&b, "a_ub", TL_SCOPE_UB, TL_I32, 2, 0);
    tl_buffer_t *ws = kb_tensor(&b, "ws", TL_ROLE_WORKSPACE, TL_I32, 1, kb_i(&b, 1), NULL);
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 8), NULL);
    tl_var_t *i = kb_for(&b, 2, "i", kb_i(&b, 0), kb_i(&b, 3));
    kb_store1(&b, 3, l1, kb_i(&b, 0), kb_v(&b, i)); // cube
    kb_store1(
        &b, 4, ws, kb_i(&b, 0),
        kb_bin(&b, TL_BIN_MUL, kb_load1(&b, l1, kb_i(&b, 0)), kb_i(&b, 10))); // cube (reads L1)
    kb_store1(&b, 5, ub, kb_i(&b, 0),
              kb_bin(&b, TL_BIN_ADD, kb_load1(&b, ws, kb_i(&b, 0)), kb_vid(&b))); // vector
    kb_store1(&b, 6, out,
              kb_bin(&b, TL_BIN_ADD, kb_bin(&b, TL_BIN_MUL, kb_v(&b, i), kb_i(&b, 2)), kb_vid(&b)),
              kb_bin(&b, TL_BIN_ADD, kb_load1(&b, ub, kb_i(&b, 0)), kb_i(&b, 1))); // vector
    kb_if(&b, 7, kb_bin(&b, TL_BIN_EQ, kb_vid(&b), kb_i(&b, 0))); // vector-only: per lane
    kb_store1(&b, 8, ub, kb_i(&b, 1), kb_i(&b, 7));
    kb_end(&b);
    kb_end(&b);
    kb_store1(&b, 9, out, kb_bin(&b, TL_BIN_ADD, kb_vid(&b), kb_i(&b, 6)),
              kb_load1(&b, ub, kb_i(&b, 1)));
    REQUIRE(kb_run(&b) == TL_OK);
    tl_tensor_t *r = tl_exec_tensor(b.x, "out");
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < 2; v++) CHECK_EQ(at(r, k * 2 + v), k * 10 + v + 1);
    CHECK_EQ(at(r, 6), 7);
    CHECK_EQ(at(r, 7), -1); // AIV1 never wrote ub[1]: its own UB holds the garbage pattern
    kb_free(&b);
}

TEST(exec_dev_vid_dependent_bound_in_a_mixed_loop_is_an_error)
{
    kb_t b;
    dev_init(&b, "vidloop");
    tl_buffer_t *l1 = kb_buf(&b, "a_l1", TL_SCOPE_L1, TL_I32, 1, 0);
    tl_buffer_t *ub = kb_buf(&b, "a_ub", TL_SCOPE_UB, TL_I32, 1, 0);
    tl_var_t *i = kb_for(&b, 3, "i", kb_i(&b, 0), kb_bin(&b, TL_BIN_ADD, kb_vid(&b), kb_i(&b, 2)));
    kb_store1(&b, 4, l1, kb_i(&b, 0), kb_v(&b, i));
    kb_store1(&b, 5, ub, kb_i(&b, 0), kb_v(&b, i));
    kb_end(&b);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:3:5: error: loop bound depends on vid in a loop that mixes "
                                "cube and vector statements (AIC: 2, AIV1: 3)");
    kb_free(&b);
    // The same for an if.
    dev_init(&b, "vidif");
    l1 = kb_buf(&b, "a_l1", TL_SCOPE_L1, TL_I32, 1, 0);
    ub = kb_buf(&b, "a_ub", TL_SCOPE_UB, TL_I32, 1, 0);
    kb_if(&b, 6, kb_bin(&b, TL_BIN_EQ, kb_vid(&b), kb_i(&b, 1)));
    kb_store1(&b, 7, l1, kb_i(&b, 0), kb_i(&b, 1));
    kb_store1(&b, 8, ub, kb_i(&b, 0), kb_i(&b, 1));
    kb_end(&b);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:6:5: error: if condition depends on vid in an if that mixes "
                                "cube and vector statements");
    kb_free(&b);
}

TEST(exec_dev_vector_only_regions_run_lane_after_lane)
{
    kb_t b;
    dev_init(&b, "perlane");
    tl_buffer_t *ub = kb_buf(&b, "a_ub", TL_SCOPE_UB, TL_I32, 1, 0);
    tl_buffer_t *ctr = kb_tensor(&b, "ctr", TL_ROLE_INPUT, TL_I32, 1, kb_i(&b, 1), NULL);
    tl_buffer_t *log = kb_tensor(&b, "log", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 6), NULL);
    // The bound depends on vid: fine, the loop has vector statements only.
    tl_var_t *i = kb_for(&b, 2, "i", kb_i(&b, 0), kb_bin(&b, TL_BIN_ADD, kb_vid(&b), kb_i(&b, 2)));
    kb_store1(&b, 3, ub, kb_i(&b, 0), kb_v(&b, i));
    tl_var_t *n = kb_let(&b, 4, "n", kb_load1(&b, ctr, kb_i(&b, 0)));
    kb_store1(&b, 5, log, kb_v(&b, n),
              kb_bin(&b, TL_BIN_ADD, kb_bin(&b, TL_BIN_MUL, kb_vid(&b), kb_i(&b, 10)),
                     kb_load1(&b, ub, kb_i(&b, 0))));
    kb_store1(&b, 6, ctr, kb_i(&b, 0), kb_bin(&b, TL_BIN_ADD, kb_v(&b, n), kb_i(&b, 1)));
    kb_end(&b);
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_tensor_t *c = kb_new_tensor(&b, TL_I32, 1, 1, 0);
    tl_exec_set_tensor(b.x, "ctr", c);
    REQUIRE(kb_run(&b) == TL_OK);
    tl_tensor_t *r = tl_exec_tensor(b.x, "log");
    int64_t want[6] = {0, 1, 10, 11, 12, -1}; // AIV0's whole loop, then AIV1's
    for (int k = 0; k < 6; k++) CHECK_EQ(at(r, k), want[k]);
    CHECK_EQ(at(c, 0), 5);
    kb_free(&b);
}

TEST(exec_dev_side_less_gm_stores_run_once_lets_on_every_lane)
{
    kb_t b;
    dev_init(&b, "once");
    kb_grid(&b, kb_i(&b, 2));
    tl_buffer_t *l1 = kb_buf(&b, "a_l1", TL_SCOPE_L1, TL_I32, 1, 0);
    tl_buffer_t *ub = kb_buf(&b, "a_ub", TL_SCOPE_UB, TL_I32, 1, 0);
    tl_buffer_t *acc = kb_var(&b, "acc", TL_I32, kb_i(&b, 0));
    tl_buffer_t *ctr = kb_tensor(&b, "ctr", TL_ROLE_INPUT, TL_I32, 1, kb_i(&b, 1), NULL);
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 6), NULL);
    tl_var_t *base = kb_let(&b, 2, "base", kb_bin(&b, TL_BIN_MUL, kb_cid(&b), kb_i(&b, 3)));
    kb_store1(&b, 3, ctr, kb_i(&b, 0),
              kb_bin(&b, TL_BIN_ADD, kb_load1(&b, ctr, kb_i(&b, 0)), kb_i(&b, 1)));
    kb_setvar(&b, 4, acc, kb_bin(&b, TL_BIN_ADD, kb_load1(&b, acc, kb_i(&b, 0)), kb_v(&b, base)));
    kb_store1(&b, 5, l1, kb_i(&b, 0), kb_load1(&b, acc, kb_i(&b, 0)));    // cube
    kb_store1(&b, 6, out, kb_v(&b, base), kb_load1(&b, l1, kb_i(&b, 0))); // cube (reads L1)
    kb_store1(&b, 7, ub, kb_i(&b, 0),
              kb_bin(&b, TL_BIN_ADD, kb_load1(&b, acc, kb_i(&b, 0)), kb_vid(&b)));
    kb_store1(
        &b, 8, out,
        kb_bin(&b, TL_BIN_ADD, kb_v(&b, base), kb_bin(&b, TL_BIN_ADD, kb_vid(&b), kb_i(&b, 1))),
        kb_load1(&b, ub, kb_i(&b, 0)));
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_tensor_t *c = kb_new_tensor(&b, TL_I32, 1, 1, 0);
    tl_exec_set_tensor(b.x, "ctr", c);
    REQUIRE(kb_run(&b) == TL_OK);
    CHECK_EQ(at(c, 0), 2); // once per block, not once per lane
    tl_tensor_t *r = tl_exec_tensor(b.x, "out");
    int64_t want[6] = {0, 0, 1, 3, 3, 4};
    for (int k = 0; k < 6; k++) CHECK_EQ(at(r, k), want[k]);
    kb_free(&b);
}

TEST(exec_dev_threads_form_has_one_vector_lane)
{
    kb_t b;
    dev_init(&b, "threads");
    b.k->threads = 2;
    kb_grid(&b, kb_i(&b, 3));
    tl_buffer_t *ub = kb_buf(&b, "a_ub", TL_SCOPE_UB, TL_I32, 1, 0);
    tl_buffer_t *ctr = kb_tensor(&b, "ctr", TL_ROLE_INPUT, TL_I32, 1, kb_i(&b, 3), NULL);
    kb_store1(&b, 2, ub, kb_i(&b, 0), kb_i(&b, 1));
    kb_store1(&b, 3, ctr, kb_cid(&b),
              kb_bin(&b, TL_BIN_ADD, kb_load1(&b, ctr, kb_cid(&b)), kb_load1(&b, ub, kb_i(&b, 0))));
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_tensor_t *c = kb_new_tensor(&b, TL_I32, 1, 3, 0);
    tl_exec_set_tensor(b.x, "ctr", c);
    REQUIRE(kb_run(&b) == TL_OK);
    for (int k = 0; k < 3; k++) CHECK_EQ(at(c, k), 1);
    kb_free(&b);
}

TEST(exec_dev_values_do_not_cross_sides_implicitly)
{
    kb_t b;
    dev_init(&b, "crossing");
    tl_buffer_t *l1 = kb_buf(&b, "a_l1", TL_SCOPE_L1, TL_I32, 1, 0);
    tl_buffer_t *ub = kb_buf(&b, "a_ub", TL_SCOPE_UB, TL_I32, 1, 0);
    kb_store1(&b, 2, ub, kb_i(&b, 0), kb_i(&b, 3));
    tl_var_t *v = kb_let(&b, 3, "v", kb_load1(&b, ub, kb_i(&b, 0)));
    kb_store1(&b, 4, l1, kb_i(&b, 0), kb_v(&b, v));
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:4:5: error: 'v' has no value on the AIC: it is computed only "
                                "on the vector side");
    kb_free(&b);
}

TEST(exec_dev_break_in_a_mixed_loop_runs_in_lockstep)
{
    kb_t b;
    dev_init(&b, "break");
    tl_buffer_t *l1 = kb_buf(&b, "a_l1", TL_SCOPE_L1, TL_I32, 1, 0);
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 8), NULL);
    tl_var_t *i = kb_for(&b, 2, "i", kb_i(&b, 0), kb_i(&b, 4));
    kb_store1(&b, 3, l1, kb_i(&b, 0), kb_v(&b, i));
    kb_store1(&b, 4, out,
              kb_bin(&b, TL_BIN_ADD, kb_bin(&b, TL_BIN_MUL, kb_v(&b, i), kb_i(&b, 2)), kb_vid(&b)),
              kb_v(&b, i));
    kb_if(&b, 5, kb_bin(&b, TL_BIN_EQ, kb_v(&b, i), kb_i(&b, 1)));
    kb_stmt(&b, 6, TL_ST_BREAK);
    kb_end(&b);
    kb_end(&b);
    REQUIRE(kb_run(&b) == TL_OK);
    tl_tensor_t *r = tl_exec_tensor(b.x, "out");
    int64_t want[8] = {0, 0, 1, 1, -1, -1, -1, -1};
    for (int k = 0; k < 8; k++) CHECK_EQ(at(r, k), want[k]);
    kb_free(&b);
}

TEST(exec_dev_manual_cross_flags_follow_program_order)
{
    for (int bad = 0; bad < 2; bad++) {
        kb_t b;
        dev_init(&b, "devflags");
        tl_buffer_t *l1 = kb_buf(&b, "a_l1", TL_SCOPE_L1, TL_I32, 1, 0);
        tl_buffer_t *ub = kb_buf(&b, "a_ub", TL_SCOPE_UB, TL_I32, 1, 0);
        if (bad) {
            kb_store1(&b, 2, l1, kb_i(&b, 0), kb_i(&b, 1));
            kb_cross_wait(&b, 3, 0); // with the cube statement before it: a cube wait
        }
        kb_store1(&b, 4, ub, kb_i(&b, 0), kb_i(&b, 1));
        kb_cross_set(&b, 5, TL_PIPE_MTE3, 0, 2);
        if (!bad) {
            kb_store1(&b, 6, l1, kb_i(&b, 0), kb_i(&b, 1));
            kb_cross_wait(&b, 7, 0);
        }
        if (bad) {
            CHECK(kb_run(&b) == TL_ERR_RUNTIME);
            CHECK_CONTAINS(kb_text(&b),
                           "k.py:3:5: error: deadlock: every unfinished agent is "
                           "blocked: block 0 AIC waits for cross-core flag 0 (line 3)");
        } else {
            CHECK(kb_run(&b) == TL_OK);
            CHECK_EQ(b.d.nwarnings, 0);
        }
        kb_free(&b);
    }
}
