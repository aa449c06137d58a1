// Executor, expert mode: T.Scope filtering, cross-core flags as counting
// semaphores (mode 2 hand-offs, ping-pong with blocking and resuming inside
// loops, mode 1, mode 0 and T.sync_all across resident blocks), deadlock
// reports, and flag misuse (ids, overflow, set twice, wait without set).
#include "../test.h"

#include "test_exec_util.h"

static int64_t at(tl_tensor_t *x, int64_t i)
{
    return tl_tensor_get_i64(x, &i);
}

TEST(exec_vector_scope_runs_on_both_aivs_with_their_vid)
{
    kb_t b;
    kb_init(&b, "vec");
    kb_grid(&b, kb_i(&b, 3));
    tl_buffer_t *ub = kb_buf(&b, "t_ub", TL_SCOPE_UB, TL_I32, 4, 0);
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 7), NULL);
    tl_buffer_t *cnt = kb_tensor(&b, "cnt", TL_ROLE_INPUT, TL_I32, 1, kb_i(&b, 1), NULL);
    tl_var_t *row =
        kb_let(&b, 2, "row",
               kb_bin(&b, TL_BIN_ADD, kb_bin(&b, TL_BIN_MUL, kb_cid(&b), kb_i(&b, 2)), kb_vid(&b)));
    // Outside scopes all three agents run: the counter ends at 3 per block.
    kb_store1(&b, 3, cnt, kb_i(&b, 0),
              kb_bin(&b, TL_BIN_ADD, kb_load1(&b, cnt, kb_i(&b, 0)), kb_i(&b, 1)));
    kb_scope(&b, 4, TL_SIDE_VEC);
    kb_store1(&b, 5, ub, kb_vid(&b),
              kb_bin(&b, TL_BIN_ADD, kb_bin(&b, TL_BIN_MUL, kb_cid(&b), kb_i(&b, 10)), kb_vid(&b)));
    kb_store1(&b, 6, out, kb_v(&b, row), kb_load1(&b, ub, kb_vid(&b)));
    kb_end(&b);
    kb_scope(&b, 7, TL_SIDE_CUBE);
    kb_store1(&b, 8, out, kb_i(&b, 6), kb_i(&b, 99));
    kb_end(&b);
    REQUIRE(kb_exec(&b, NULL) == TL_OK);
    tl_tensor_t *c = kb_new_tensor(&b, TL_I32, 1, 1, 0);
    tl_exec_set_tensor(b.x, "cnt", c);
    REQUIRE(kb_run(&b) == TL_OK);
    tl_tensor_t *r = tl_exec_tensor(b.x, "out");
    int64_t want[7] = {0, 1, 10, 11, 20, 21, 99};
    for (int i = 0; i < 7; i++) CHECK_EQ(at(r, i), want[i]);
    CHECK_EQ(at(c, 0), 9);
    kb_free(&b);
}

// Cube -> vector hand-off through GM with mode-2 flags. The AIC first waits for
// both AIVs to report ready (flag 1), then writes ws and sets flag 0; each AIV
// reports ready, waits for flag 0 and reads ws. With `wait` false the AIVs do
// not wait and read the garbage the workspace was allocated with.
static void handoff_kernel(kb_t *b, bool wait)
{
    kb_init(b, "handoff");
    kb_grid(b, kb_i(b, 2));
    tl_buffer_t *ws = kb_tensor(b, "ws", TL_ROLE_WORKSPACE, TL_I32, 1, kb_i(b, 2), NULL);
    tl_buffer_t *out = kb_tensor(b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(b, 4), NULL);
    kb_scope(b, 2, TL_SIDE_CUBE);
    kb_cross_wait(b, 3, 1);
    kb_store1(b, 4, ws, kb_cid(b), kb_bin(b, TL_BIN_ADD, kb_i(b, 42), kb_cid(b)));
    kb_cross_set(b, 5, TL_PIPE_FIX, 0, 2);
    kb_end(b);
    kb_scope(b, 6, TL_SIDE_VEC);
    kb_cross_set(b, 7, TL_PIPE_MTE3, 1, 2);
    if (wait) kb_cross_wait(b, 8, 0);
    kb_store1(b, 9, out,
              kb_bin(b, TL_BIN_ADD, kb_bin(b, TL_BIN_MUL, kb_cid(b), kb_i(b, 2)), kb_vid(b)),
              kb_bin(b, TL_BIN_ADD, kb_load1(b, ws, kb_cid(b)), kb_vid(b)));
    kb_end(b);
}

TEST(exec_mode2_handoff_works_only_when_the_aiv_waits)
{
    for (int vf = 0; vf < 2; vf++) {
        kb_t b;
        handoff_kernel(&b, true);
        tl_exec_opts_t o = {.vector_first = vf};
        REQUIRE(kb_exec(&b, &o) == TL_OK);
        REQUIRE(kb_run(&b) == TL_OK);
        tl_tensor_t *r = tl_exec_tensor(b.x, "out");
        CHECK_EQ(at(r, 0), 42);
        CHECK_EQ(at(r, 1), 43);
        CHECK_EQ(at(r, 2), 43);
        CHECK_EQ(at(r, 3), 44);
        CHECK_EQ(b.d.nwarnings, 0);
        kb_free(&b);
    }
    // Without the wait the vector agents read the workspace before the cube wrote it.
    kb_t b;
    handoff_kernel(&b, false);
    REQUIRE(kb_run(&b) == TL_OK);
    CHECK_EQ(at(tl_exec_tensor(b.x, "out"), 0), -1);
    CHECK_EQ(at(tl_exec_tensor(b.x, "out"), 1), 0);
    CHECK_CONTAINS(kb_text(&b), "cross-core flag 0 of block 0 AIV0 ends with 1 set(s) never "
                                "waited for");
    kb_free(&b);
}

// Ping-pong through one GM slot: the cube produces value i*10 (flag 0), both
// vector agents consume it and hand the slot back (flag 1) before the next one.
TEST(exec_ping_pong_flags_block_and_resume_inside_loops)
{
    for (int vf = 0; vf < 2; vf++) {
        kb_t b;
        kb_init(&b, "pingpong");
        tl_buffer_t *ws = kb_tensor(&b, "ws", TL_ROLE_WORKSPACE, TL_I32, 1, kb_i(&b, 1), NULL);
        tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 10), NULL);
        kb_scope(&b, 2, TL_SIDE_CUBE);
        tl_var_t *i = kb_for(&b, 3, "i", kb_i(&b, 0), kb_i(&b, 5));
        kb_if(&b, 4, kb_bin(&b, TL_BIN_GT, kb_v(&b, i), kb_i(&b, 0)));
        kb_cross_wait(&b, 5, 1);
        kb_end(&b);
        kb_store1(&b, 6, ws, kb_i(&b, 0), kb_bin(&b, TL_BIN_MUL, kb_v(&b, i), kb_i(&b, 10)));
        kb_cross_set(&b, 7, TL_PIPE_FIX, 0, 2);
        kb_end(&b);
        kb_end(&b);
        kb_scope(&b, 8, TL_SIDE_VEC);
        tl_var_t *j = kb_for(&b, 9, "j", kb_i(&b, 0), kb_i(&b, 5));
        kb_cross_wait(&b, 10, 0);
        kb_store1(
            &b, 11, out,
            kb_bin(&b, TL_BIN_ADD, kb_bin(&b, TL_BIN_MUL, kb_vid(&b), kb_i(&b, 5)), kb_v(&b, j)),
            kb_bin(&b, TL_BIN_ADD, kb_load1(&b, ws, kb_i(&b, 0)), kb_vid(&b)));
        kb_if(&b, 12, kb_bin(&b, TL_BIN_LT, kb_v(&b, j), kb_i(&b, 4)));
        kb_cross_set(&b, 13, TL_PIPE_MTE3, 1, 2);
        kb_end(&b);
        kb_end(&b);
        kb_end(&b);
        tl_exec_opts_t o = {.vector_first = vf};
        REQUIRE(kb_exec(&b, &o) == TL_OK);
        REQUIRE(kb_run(&b) == TL_OK);
        tl_tensor_t *r = tl_exec_tensor(b.x, "out");
        for (int v = 0; v < 2; v++)
            for (int k = 0; k < 5; k++) CHECK_EQ(at(r, v * 5 + k), k * 10 + v);
        CHECK_EQ(b.d.nwarnings, 0);
        kb_free(&b);
    }
}

TEST(exec_deadlock_lists_every_agent_with_flag_and_line)
{
    kb_t b;
    kb_init(&b, "deadlock");
    kb_grid(&b, kb_i(&b, 4));
    kb_scope(&b, 2, TL_SIDE_CUBE);
    kb_cross_wait(&b, 5, 1);
    kb_end(&b);
    kb_scope(&b, 6, TL_SIDE_VEC);
    kb_if(&b, 7, kb_bin(&b, TL_BIN_EQ, kb_vid(&b), kb_i(&b, 0)));
    kb_cross_wait(&b, 8, 2);
    kb_end(&b);
    kb_end(&b);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:5:5: error: deadlock: every unfinished agent is blocked: "
                                "block 0 AIC waits for cross-core flag 1 (line 5); block 0 AIV0 "
                                "waits for cross-core flag 2 (line 8); block 0 AIV1 finished");
    CHECK_CONTAINS(kb_text(&b), "k.py:8:5: note: block 0 AIV0 waits here");
    CHECK_EQ(b.d.nerrors, 1);
    kb_free(&b);
}

TEST(exec_mode1_synchronises_the_two_vector_agents)
{
    kb_t b;
    kb_init(&b, "mode1");
    tl_buffer_t *ws = kb_tensor(&b, "ws", TL_ROLE_WORKSPACE, TL_I32, 1, kb_i(&b, 1), NULL);
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 2), NULL);
    kb_scope(&b, 2, TL_SIDE_VEC);
    kb_if(&b, 3, kb_bin(&b, TL_BIN_EQ, kb_vid(&b), kb_i(&b, 1)));
    kb_store1(&b, 4, ws, kb_i(&b, 0), kb_i(&b, 7));
    kb_end(&b);
    kb_cross_set(&b, 5, TL_PIPE_MTE3, 3, 1);
    kb_cross_wait(&b, 6, 3);
    kb_store1(&b, 7, out, kb_vid(&b), kb_load1(&b, ws, kb_i(&b, 0)));
    kb_end(&b);
    REQUIRE(kb_run(&b) == TL_OK);
    CHECK_EQ(at(tl_exec_tensor(b.x, "out"), 0), 7); // AIV0 ran first and had to wait
    CHECK_EQ(at(tl_exec_tensor(b.x, "out"), 1), 7);
    kb_free(&b);
    // The AIC cannot take part in mode 1.
    kb_init(&b, "mode1_aic");
    kb_scope(&b, 2, TL_SIDE_CUBE);
    kb_cross_set(&b, 3, TL_PIPE_FIX, 3, 1);
    kb_end(&b);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:3:5: error: set_cross_flag mode 1 synchronises the two "
                                "vector cores");
    kb_free(&b);
}

// Every block's AIC writes ws[cid], then all wait for everyone (T.sync_all or a
// mode-0 flag), then each reads its neighbour's slot: needs all blocks resident.
static void barrier_kernel(kb_t *b, bool sync_all)
{
    kb_init(b, sync_all ? "sync_all" : "mode0");
    kb_grid(b, kb_i(b, 4));
    tl_buffer_t *ws = kb_tensor(b, "ws", TL_ROLE_WORKSPACE, TL_I32, 1, kb_i(b, 4), NULL);
    tl_buffer_t *out = kb_tensor(b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(b, 4), NULL);
    kb_scope(b, 2, TL_SIDE_CUBE);
    kb_store1(b, 3, ws, kb_cid(b), kb_bin(b, TL_BIN_MUL, kb_cid(b), kb_i(b, 3)));
    if (!sync_all) {
        kb_cross_set(b, 4, TL_PIPE_FIX, 5, 0);
        kb_cross_wait(b, 5, 5);
    }
    kb_end(b);
    if (sync_all) kb_sync(b, 6, TL_SYNC_ALL, TL_PIPE_NONE, TL_PIPE_NONE, -1, 0);
    kb_scope(b, 7, TL_SIDE_CUBE);
    tl_expr_t *next =
        kb_bin(b, TL_BIN_MOD, kb_bin(b, TL_BIN_ADD, kb_cid(b), kb_i(b, 1)), kb_i(b, 4));
    kb_store1(b, 8, out, kb_cid(b), kb_load1(b, ws, next));
    kb_end(b);
}

TEST(exec_mode0_flags_and_sync_all_run_blocks_together)
{
    for (int sa = 0; sa < 2; sa++) {
        kb_t b;
        barrier_kernel(&b, sa);
        REQUIRE(kb_run(&b) == TL_OK);
        for (int c = 0; c < 4; c++) CHECK_EQ(at(tl_exec_tensor(b.x, "out"), c), (c + 1) % 4 * 3);
        kb_free(&b);
        barrier_kernel(&b, sa);
        tl_exec_opts_t o = {.max_resident = 3};
        REQUIRE(kb_exec(&b, &o) == TL_OK);
        CHECK(kb_run(&b) == TL_ERR_RUNTIME);
        CHECK_CONTAINS(kb_text(&b), "need all 4 blocks resident at once; at most 3 can be");
        kb_free(&b);
    }
}

TEST(exec_cross_flag_ids_are_0_to_15)
{
    kb_t b;
    kb_init(&b, "flagid");
    kb_scope(&b, 2, TL_SIDE_CUBE);
    kb_cross_set(&b, 3, TL_PIPE_FIX, 16, 2);
    kb_end(&b);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:3:5: error: set_cross_flag: cross-core flag id 16 is not in "
                                "0..15 [block 0 AIC]");
    kb_free(&b);
}

// The counter is 4 bits and saturates: the 16th pending release is lost (a
// warning) and the run goes on; a wait that needs a lost release deadlocks.
TEST(exec_cross_flag_counter_loses_the_16th_pending_release)
{
    kb_t b;
    kb_init(&b, "overflow");
    kb_scope(&b, 2, TL_SIDE_CUBE);
    kb_for(&b, 3, "i", kb_i(&b, 0), kb_i(&b, 20));
    kb_cross_set(&b, 4, TL_PIPE_FIX, 2, 2);
    kb_end(&b);
    kb_end(&b);
    kb_scope(&b, 5, TL_SIDE_VEC);
    kb_cross_wait(&b, 6, 2);
    kb_end(&b);
    CHECK(kb_run(&b) == TL_OK);
    CHECK_CONTAINS(kb_text(&b), "k.py:4:5: warning: set_cross_flag: cross-core flag 2 of block 0 "
                                "AIV0 has 15 releases pending without a wait, its counter's "
                                "most: this release is lost");
    kb_free(&b);
    // Twenty sets, twenty waits, the sets first: five releases are lost and
    // the sixteenth wait never passes.
    kb_init(&b, "lost");
    kb_scope(&b, 2, TL_SIDE_CUBE);
    kb_for(&b, 3, "i", kb_i(&b, 0), kb_i(&b, 20));
    kb_cross_set(&b, 4, TL_PIPE_FIX, 2, 2);
    kb_end(&b);
    kb_end(&b);
    kb_scope(&b, 5, TL_SIDE_VEC);
    kb_for(&b, 6, "j", kb_i(&b, 0), kb_i(&b, 20));
    kb_cross_wait(&b, 7, 2);
    kb_end(&b);
    kb_end(&b);
    CHECK(kb_run(&b) != TL_OK);
    CHECK_CONTAINS(kb_text(&b), "deadlock");
    kb_free(&b);
    // Fifteen sets are fine when the vector side consumes them all.
    kb_init(&b, "fifteen");
    kb_scope(&b, 2, TL_SIDE_CUBE);
    kb_for(&b, 3, "i", kb_i(&b, 0), kb_i(&b, 15));
    kb_cross_set(&b, 4, TL_PIPE_FIX, 2, 2);
    kb_end(&b);
    kb_end(&b);
    kb_scope(&b, 5, TL_SIDE_VEC);
    kb_for(&b, 6, "j", kb_i(&b, 0), kb_i(&b, 15));
    kb_cross_wait(&b, 7, 2);
    kb_end(&b);
    kb_end(&b);
    CHECK(kb_run(&b) == TL_OK);
    CHECK_EQ(b.d.nwarnings, 0);
    kb_free(&b);
}

TEST(exec_intra_core_flag_misuse)
{
    // ids: the first and second statement's; ok: the run goes on (a warning)
    struct {
        tl_sync_kind_t first, second;
        int64_t id1, id2;
        bool ok;
        const char *msg;
    } cases[] = {
        {TL_SYNC_SET_FLAG, TL_SYNC_SET_FLAG, 0, 0, true,
         "k.py:4:5: warning: set_flag(mte2, v, 0) on the AIV0 is set twice without a wait_flag "
         "in between (first set at line 3): the flag is one bit, what the hardware does depends "
         "on timing (tilec sim checks it)"},
        {TL_SYNC_WAIT_FLAG, TL_SYNC_SET_FLAG, 1, 1, false,
         "k.py:3:5: error: wait_flag(mte2, v, 1) on the AIV0 has no set_flag before it: the v "
         "pipe would wait forever"},
        // the id field is 3 bits: 9 is 1 (the wait of 1 takes the set of 9)
        {TL_SYNC_SET_FLAG, TL_SYNC_WAIT_FLAG, 9, 1, true, "never waited for"},
    };
    for (size_t c = 0; c < TL_ARRAY_LEN(cases); c++) {
        kb_t b;
        kb_init(&b, "flags");
        kb_scope(&b, 2, TL_SIDE_VEC);
        kb_sync(&b, 3, cases[c].first, TL_PIPE_MTE2, TL_PIPE_V, cases[c].id1, 0);
        kb_sync(&b, 4, cases[c].second, TL_PIPE_MTE2, TL_PIPE_V, cases[c].id2, 0);
        kb_end(&b);
        CHECK(kb_run(&b) == (cases[c].ok ? TL_OK : TL_ERR_RUNTIME));
        if (cases[c].id1 == 9)
            CHECK(!strstr(kb_text(&b), cases[c].msg)); // 9 and 1 are one flag
        else
            CHECK_CONTAINS(kb_text(&b), cases[c].msg);
        kb_free(&b);
    }
    // A correct pairing, barriers and a pipe check.
    kb_t b;
    kb_init(&b, "flags_ok");
    kb_scope(&b, 2, TL_SIDE_VEC);
    kb_sync(&b, 3, TL_SYNC_SET_FLAG, TL_PIPE_MTE2, TL_PIPE_V, 0, 0);
    kb_sync(&b, 4, TL_SYNC_PIPE_BARRIER, TL_PIPE_V, TL_PIPE_NONE, -1, 0);
    kb_sync(&b, 5, TL_SYNC_BARRIER_ALL, TL_PIPE_NONE, TL_PIPE_NONE, -1, 0);
    kb_sync(&b, 6, TL_SYNC_WAIT_FLAG, TL_PIPE_MTE2, TL_PIPE_V, 0, 0);
    kb_sync(&b, 7, TL_SYNC_SET_FLAG, TL_PIPE_MTE2, TL_PIPE_V, 0, 0);
    kb_end(&b);
    CHECK(kb_run(&b) == TL_OK);
    CHECK_CONTAINS(kb_text(&b), "k.py:7:5: warning: set_flag(mte2, v, 0) on block 0 AIV0 is never "
                                "waited for");
    kb_free(&b);
    kb_init(&b, "flags_pipe");
    kb_sync(&b, 3, TL_SYNC_SET_FLAG, TL_PIPE_V, TL_PIPE_V, 0, 0);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b),
                   "set_flag(v, v): the source and destination must be two different pipes");
    kb_free(&b);
}

TEST(exec_ops_and_stores_need_the_right_scope)
{
    // A UB store inside T.Scope("C"), and a copy from L0C to UB outside developer mode.
    kb_t b;
    kb_init(&b, "scope");
    tl_buffer_t *ub = kb_buf(&b, "x_ub", TL_SCOPE_UB, TL_F32, 8, 0);
    kb_scope(&b, 2, TL_SIDE_CUBE);
    kb_store1(&b, 3, ub, kb_i(&b, 0), kb_f(&b, 1, TL_F32));
    kb_end(&b);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:3:5: error: scalar store works on vector memory but is "
                                "inside T.Scope(\"C\") [block 0 AIC]");
    kb_free(&b);
    kb_init(&b, "mixed");
    tl_buffer_t *c = kb_buf(&b, "c_l0", TL_SCOPE_L0C, TL_F32, 16, 16);
    tl_buffer_t *u = kb_buf(&b, "c_ub", TL_SCOPE_UB, TL_F32, 16, 16);
    kb_arg_t args[] = {KB_BUF(c), KB_BUF(u)};
    kb_op(&b, 4, TL_OP_COPY, 2, args);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b),
                   "k.py:4:5: error: copy mixes cube and vector memory ('c_l0' in L0C, "
                   "'c_ub' in UB); only developer mode (auto_cv_combine) allows that");
    kb_free(&b);
}

TEST(exec_step_limit_stops_endless_loops)
{
    kb_t b;
    kb_init(&b, "forever");
    kb_while(&b, 2, kb_bin(&b, TL_BIN_EQ, kb_cid(&b), kb_i(&b, 0)));
    kb_let(&b, 3, "z", kb_i(&b, 1));
    kb_end(&b);
    tl_exec_opts_t o = {.max_steps = 1000};
    REQUIRE(kb_exec(&b, &o) == TL_OK);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "did not finish within 1000 steps");
    kb_free(&b);
}

// printf outside scopes (every agent), then AIV1 fills a UB tile and dumps it.
static void print_kernel(kb_t *b, const char *fmt)
{
    kb_init(b, "print");
    tl_buffer_t *ub = kb_buf(b, "x_ub", TL_SCOPE_UB, TL_F32, 2, 2);
    kb_printf(b, 2, fmt, kb_cid(b));
    kb_scope(b, 3, TL_SIDE_VEC);
    kb_if(b, 4, kb_bin(b, TL_BIN_EQ, kb_vid(b), kb_i(b, 1)));
    double v[4] = {0.5, 1, -2, 3.25};
    for (int i = 0; i < 4; i++)
        kb_store2(b, 5, ub, kb_i(b, i / 2), kb_i(b, i % 2), kb_f(b, v[i], TL_F32));
    kb_dump(b, 6, "after", ub);
    kb_end(b);
    kb_end(b);
}

TEST(exec_printf_and_dump_tensor_write_the_output_text)
{
    kb_t b;
    print_kernel(&b, "cid=%d|");
    REQUIRE(kb_run(&b) == TL_OK);
    CHECK_STREQ(tl_exec_output(b.x),
                "cid=0|cid=0|cid=0|after x_ub (block 0 AIV1): 0.5 1 -2 3.25\n");
    kb_free(&b);
    print_kernel(&b, "cid=%d x=%.2f%%\n");
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:2:5: error: T.printf: the format needs more than 1 argument");
    CHECK_STREQ(tl_exec_output(b.x), "cid=0 x=");
    kb_free(&b);
}
