// Executor memory: scalar loads and stores with bounds errors, alloc_var
// registers per agent, placement (declaration order, 32-byte alignment,
// pinned addresses that really overlap), scratchpad overflow, developer
// scopes, the uninitialised-read warning, and the leaf hook.
#include "../test.h"

#include "test_exec_util.h"

TEST(exec_scalar_store_out_of_bounds_names_buffer_index_shape_line)
{
    kb_t b;
    kb_init(&b, "oob");
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 4), NULL);
    kb_scope(&b, 2, TL_SIDE_CUBE);
    tl_var_t *i = kb_for(&b, 3, "i", kb_i(&b, 0), kb_i(&b, 5));
    kb_store1(&b, 7, out, kb_v(&b, i), kb_v(&b, i));
    kb_end(&b);
    kb_end(&b);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:7:5: error: index [4] is out of bounds for 'out' of shape "
                                "[4] (gm) [block 0 AIC]");
    CHECK_EQ(tl_tensor_get_flat(tl_exec_tensor(b.x, "out"), 3), 3); // earlier stores happened
    kb_free(&b);
}

TEST(exec_scalar_load_out_of_bounds_in_ub)
{
    kb_t b;
    kb_init(&b, "oob_ub");
    tl_buffer_t *acc = kb_buf(&b, "acc", TL_SCOPE_UB, TL_F32, 2, 8);
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_F32, 1, kb_i(&b, 2), NULL);
    kb_scope(&b, 2, TL_SIDE_VEC);
    kb_store2(&b, 3, acc, kb_i(&b, 1), kb_i(&b, 7), kb_f(&b, 2.5, TL_F32));
    kb_store1(&b, 4, out, kb_vid(&b), kb_load2(&b, acc, kb_i(&b, 1), kb_i(&b, 7)));
    kb_store1(&b, 5, out, kb_vid(&b),
              kb_load2(&b, acc, kb_i(&b, 2), kb_bin(&b, TL_BIN_ADD, kb_vid(&b), kb_i(&b, 9))));
    kb_end(&b);
    CHECK(kb_run(&b) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:5:5: error: index [2, 9] is out of bounds for 'acc' of "
                                "shape [2, 8] (UB) [block 0 AIV0]");
    CHECK(tl_tensor_get_flat(tl_exec_tensor(b.x, "out"), 0) == 2.5);
    CHECK_EQ(b.d.nerrors, 1); // the run stops at the first error
    kb_free(&b);
}

TEST(exec_scalar_access_rules)
{
    // L0C is not scalar-accessible; an AIV cannot touch L1.
    for (int which = 0; which < 2; which++) {
        kb_t b;
        kb_init(&b, "access");
        tl_buffer_t *c = kb_buf(&b, "c_l0", TL_SCOPE_L0C, TL_F32, 16, 16);
        tl_buffer_t *l1 = kb_buf(&b, "a_l1", TL_SCOPE_L1, TL_F16, 16, 16);
        tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_F32, 1, kb_i(&b, 1), NULL);
        kb_scope(&b, 2, which ? TL_SIDE_VEC : TL_SIDE_CUBE);
        kb_store1(&b, 6, out, kb_i(&b, 0),
                  which ? kb_load2(&b, l1, kb_i(&b, 0), kb_i(&b, 0))
                        : kb_load2(&b, c, kb_i(&b, 0), kb_i(&b, 0)));
        kb_end(&b);
        CHECK(kb_run(&b) == TL_ERR_RUNTIME);
        if (which)
            CHECK_CONTAINS(kb_text(&b), "the AIV0 cannot access L1 buffer 'a_l1'");
        else
            CHECK_CONTAINS(kb_text(&b), "scalar access to L0C buffer 'c_l0'");
        CHECK_CONTAINS(kb_text(&b), "k.py:6:");
        kb_free(&b);
    }
}

TEST(exec_alloc_var_registers_are_per_agent)
{
    kb_t b;
    kb_init(&b, "vars");
    tl_buffer_t *acc = kb_var(&b, "acc", TL_I32, kb_bin(&b, TL_BIN_MUL, kb_vid(&b), kb_i(&b, 100)));
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 3), NULL);
    tl_var_t *i = kb_for(&b, 2, "i", kb_i(&b, 0), kb_i(&b, 4));
    kb_setvar(&b, 3, acc, kb_bin(&b, TL_BIN_ADD, kb_load1(&b, acc, kb_i(&b, 0)), kb_v(&b, i)));
    kb_end(&b);
    // Outside any scope: every agent runs it; the AIC is out[0], AIVs out[1 + vid].
    kb_scope(&b, 5, TL_SIDE_CUBE);
    kb_store1(&b, 6, out, kb_i(&b, 0), kb_load1(&b, acc, kb_i(&b, 0)));
    kb_end(&b);
    kb_scope(&b, 7, TL_SIDE_VEC);
    kb_store1(&b, 8, out, kb_bin(&b, TL_BIN_ADD, kb_vid(&b), kb_i(&b, 1)),
              kb_load1(&b, acc, kb_i(&b, 0)));
    kb_end(&b);
    REQUIRE(kb_run(&b) == TL_OK);
    tl_tensor_t *r = tl_exec_tensor(b.x, "out");
    CHECK_EQ(tl_tensor_get_flat(r, 0), 6);
    CHECK_EQ(tl_tensor_get_flat(r, 1), 6);
    CHECK_EQ(tl_tensor_get_flat(r, 2), 106);
    kb_free(&b);
}

TEST(exec_pinned_addresses_overlap_and_clobber)
{
    kb_t b;
    kb_init(&b, "pinned");
    tl_buffer_t *x = kb_buf(&b, "x_ub", TL_SCOPE_UB, TL_F32, 8, 0);
    tl_buffer_t *y = kb_buf(&b, "y_ub", TL_SCOPE_UB, TL_F32, 8, 0);
    x->addr = y->addr = 64;
    x->addr_pinned = y->addr_pinned = true;
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_F32, 1, kb_i(&b, 2), NULL);
    kb_scope(&b, 2, TL_SIDE_VEC);
    kb_store1(&b, 3, x, kb_i(&b, 2), kb_f(&b, 1.5, TL_F32));
    kb_store1(&b, 4, y, kb_i(&b, 2), kb_f(&b, -7.25, TL_F32)); // same bytes as x[2]
    kb_store1(&b, 5, out, kb_vid(&b), kb_load1(&b, x, kb_i(&b, 2)));
    kb_end(&b);
    REQUIRE(kb_run(&b) == TL_OK);
    CHECK(tl_tensor_get_flat(tl_exec_tensor(b.x, "out"), 0) == -7.25);
    CHECK(tl_tensor_get_flat(tl_exec_tensor(b.x, "out"), 1) == -7.25);
    kb_free(&b);
}

typedef struct {
    int ops, stores, loads, syncs, lets;
    int64_t addr[8];
    int naddr;
    int agents[TL_AGENT_COUNT];
    int stop_after;
} counts_t;

static tl_status_t count_hook(void *arg, const tl_exec_event_t *ev)
{
    counts_t *c = arg;
    if (ev->kind == TL_EXEC_EV_SCOPE) return TL_OK;
    c->agents[ev->agent]++;
    switch (ev->kind) {
    case TL_EXEC_EV_OP: c->ops++; break;
    case TL_EXEC_EV_STORE:
        c->stores++;
        if (c->naddr < 8) c->addr[c->naddr++] = ev->addr;
        break;
    case TL_EXEC_EV_LOAD: c->loads++; break;
    case TL_EXEC_EV_SYNC: c->syncs++; break;
    case TL_EXEC_EV_LET: c->lets++; break;
    case TL_EXEC_EV_SYNC_BEGIN:
    case TL_EXEC_EV_SCOPE: break;
    }
    if (c->stop_after && c->stores >= c->stop_after) return TL_ERR_RACE;
    return TL_OK;
}

TEST(exec_buffers_are_placed_in_declaration_order_with_32_byte_alignment)
{
    kb_t b;
    kb_init(&b, "place");
    tl_buffer_t *p = kb_buf(&b, "p", TL_SCOPE_UB, TL_F16, 5, 0);   // 10 B at 0
    tl_buffer_t *q = kb_buf(&b, "q", TL_SCOPE_UB, TL_F32, 3, 0);   // 12 B at 32
    tl_buffer_t *r = kb_buf(&b, "r", TL_SCOPE_UB, TL_I8, 40, 0);   // pinned at 64..104
    tl_buffer_t *s = kb_buf(&b, "s", TL_SCOPE_UB, TL_F32, 16, 0);  // 64 B: skips the pin
    tl_buffer_t *l1 = kb_buf(&b, "l1", TL_SCOPE_L1, TL_F32, 4, 0); // its own scratchpad
    r->addr = 64;
    kb_scope(&b, 2, TL_SIDE_VEC);
    kb_store1(&b, 3, p, kb_i(&b, 1), kb_f(&b, 1, TL_F16));
    kb_store1(&b, 4, q, kb_i(&b, 2), kb_f(&b, 1, TL_F32));
    kb_store1(&b, 5, r, kb_i(&b, 0), kb_it(&b, 1, TL_I8));
    kb_store1(&b, 6, s, kb_i(&b, 1), kb_f(&b, 1, TL_F32));
    kb_end(&b);
    kb_scope(&b, 7, TL_SIDE_CUBE);
    kb_store1(&b, 8, l1, kb_i(&b, 3), kb_f(&b, 1, TL_F32));
    kb_end(&b);
    counts_t c = {0};
    tl_exec_opts_t o = {.hook = count_hook, .hook_arg = &c};
    REQUIRE(kb_exec(&b, &o) == TL_OK);
    REQUIRE(kb_run(&b) == TL_OK);
    REQUIRE(c.naddr == 8);
    // AIC first (the L1 store), then AIV0's four stores.
    CHECK_EQ(c.addr[0], 12);
    CHECK_EQ(c.addr[1], 2);
    CHECK_EQ(c.addr[2], 32 + 8);
    CHECK_EQ(c.addr[3], 64);
    CHECK_EQ(c.addr[4], 128 + 4);
    CHECK_EQ(c.stores, 9);
    CHECK_EQ(c.agents[TL_AGENT_AIC], 1);
    CHECK_EQ(c.agents[TL_AGENT_AIV1], 4);
    kb_free(&b);
}

TEST(exec_hook_can_stop_the_run)
{
    kb_t b;
    kb_init(&b, "hookstop");
    tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_I32, 1, kb_i(&b, 8), NULL);
    kb_scope(&b, 2, TL_SIDE_CUBE);
    tl_var_t *i = kb_for(&b, 3, "i", kb_i(&b, 0), kb_i(&b, 8));
    tl_var_t *t2 = kb_let(&b, 4, "t2", kb_bin(&b, TL_BIN_MUL, kb_v(&b, i), kb_i(&b, 2)));
    kb_store1(&b, 5, out, kb_v(&b, i), kb_v(&b, t2));
    kb_end(&b);
    kb_end(&b);
    counts_t c = {.stop_after = 3};
    tl_exec_opts_t o = {.hook = count_hook, .hook_arg = &c};
    REQUIRE(kb_exec(&b, &o) == TL_OK);
    CHECK(kb_run(&b) == TL_ERR_RACE);
    CHECK_EQ(c.stores, 3);
    CHECK_EQ(c.lets, 3);
    CHECK_EQ(tl_tensor_get_flat(tl_exec_tensor(b.x, "out"), 2), 4);
    CHECK_EQ(tl_tensor_get_flat(tl_exec_tensor(b.x, "out"), 3), -1);
    kb_free(&b);
}

TEST(exec_scratchpad_overflow_names_scope_buffers_and_bytes_over)
{
    kb_t b;
    kb_init(&b, "overflow");
    kb_buf(&b, "a_ub", TL_SCOPE_UB, TL_F32, 128, 128);                 // 65536 B
    kb_buf(&b, "k_l1", TL_SCOPE_L1, TL_F32, 128, 128);                 // other scratchpad
    kb_buf(&b, "b_ub", TL_SCOPE_UB, TL_F16, 100, 300);                 // 60000 B at 65536
    tl_buffer_t *c = kb_buf(&b, "c_ub", TL_SCOPE_UB, TL_F32, 300, 60); // 72000 B at 125536
    c->loc = kb_loc(&b, 9);
    CHECK(kb_exec(&b, NULL) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:9:5: error: UB overflow: 'c_ub' (72000 B at 125536) does "
                                "not fit in 196608 B, 928 B over; placed before it: 'a_ub' "
                                "65536 B at 0, 'b_ub' 60000 B at 65536");
    CHECK(b.x == NULL);
    kb_free(&b);
}

TEST(exec_threads_form_has_a_double_ub_and_pinned_overflow_is_checked)
{
    for (int threads = 0; threads <= 2; threads += 2) {
        kb_t b;
        kb_init(&b, "ub2");
        b.k->threads = threads;
        b.k->config.auto_cv_combine = threads != 0;
        kb_buf(&b, "big", TL_SCOPE_UB, TL_F32, 300, 300); // 360000 B
        CHECK(kb_exec(&b, NULL) == (threads ? TL_OK : TL_ERR_RUNTIME));
        if (!threads) CHECK_CONTAINS(kb_text(&b), "UB overflow: 'big'");
        kb_free(&b);
    }
    kb_t b;
    kb_init(&b, "pinned_over");
    tl_buffer_t *l0a = kb_buf(&b, "a_l0", TL_SCOPE_L0A, TL_F16, 128, 128); // 32 KiB
    l0a->addr = 40000;
    CHECK(kb_exec(&b, NULL) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "L0A overflow: 'a_l0' (32768 B at 40000) does not fit in 65536 B, "
                                "7232 B over; placed before it: nothing");
    kb_free(&b);
}

TEST(exec_developer_scopes_need_scope_inference)
{
    kb_t b;
    kb_init(&b, "devscope");
    tl_buffer_t *s = kb_buf(&b, "s_shared", TL_SCOPE_SHARED, TL_F16, 64, 64);
    s->loc = kb_loc(&b, 4);
    CHECK(kb_exec(&b, NULL) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(kb_text(&b), "k.py:4:5: error: buffer 's_shared' is still in the developer "
                                "scope 'shared': scope inference has not run");
    kb_free(&b);
}

TEST(exec_warns_about_reads_of_unwritten_scratchpad_bytes)
{
    for (int flag = 0; flag < 2; flag++) {
        kb_t b;
        kb_init(&b, "uninit");
        tl_buffer_t *ub = kb_buf(&b, "x_ub", TL_SCOPE_UB, TL_F32, 8, 0);
        tl_buffer_t *v = kb_var(&b, "cnt", TL_I32, NULL);
        tl_buffer_t *out = kb_tensor(&b, "out", TL_ROLE_OUTPUT, TL_F32, 1, kb_i(&b, 2), NULL);
        kb_scope(&b, 2, TL_SIDE_VEC);
        kb_store1(&b, 3, ub, kb_i(&b, 0), kb_f(&b, 1, TL_F32));
        kb_store1(&b, 4, out, kb_vid(&b), kb_load1(&b, ub, kb_i(&b, 0))); // written: fine
        kb_store1(&b, 5, out, kb_vid(&b), kb_load1(&b, ub, kb_i(&b, 3))); // never written
        kb_store1(&b, 6, out, kb_vid(&b), kb_cast(&b, TL_F32, kb_load1(&b, v, kb_i(&b, 0))));
        kb_end(&b);
        tl_exec_opts_t o = {.warn_uninit = flag};
        REQUIRE(kb_exec(&b, &o) == TL_OK);
        REQUIRE(kb_run(&b) == TL_OK);
        if (!flag) {
            CHECK_EQ(b.d.nwarnings, 0);
        } else {
            CHECK_CONTAINS(kb_text(&b),
                           "k.py:5:5: warning: scalar load on the AIV0 reads bytes "
                           "[12, 16) of 'x_ub' (UB) that were never written in block 0");
            CHECK_CONTAINS(kb_text(&b), "k.py:6:5: warning: scalar load on the AIV0 reads bytes "
                                        "[0, 4) of 'cnt' (var)");
            CHECK_EQ(b.d.nwarnings, 2); // once per statement and buffer, not per agent
        }
        kb_free(&b);
    }
}
