// tl_tileop_accesses / tl_tileop_copy_plan (src/exec/tileop_access.c): the byte
// runs the race detector checks, per op shape rule.
#include "test_tileop.h"

typedef struct {
    int n;
    int operand[64];
    bool write[64];
    int64_t off[64], len[64];
} runs_t;

static void note(void *arg, int operand, bool write, int64_t off, int64_t len)
{
    runs_t *r = arg;
    if (r->n == 64) return;
    r->operand[r->n] = operand;
    r->write[r->n] = write;
    r->off[r->n] = off;
    r->len[r->n++] = len;
}

static runs_t accesses(const tl_op_t *op, int n, const tl_operand_t *args)
{
    tl_opcall_t c = tcall(op, n, args);
    runs_t r = {0};
    tl_tileop_accesses(&c, note, &r);
    return r;
}

#define ACC(op, ...)                                                                               \
    accesses(&(op), (int)(sizeof((tl_operand_t[]){__VA_ARGS__}) / sizeof(tl_operand_t)),           \
             (tl_operand_t[]){__VA_ARGS__})

TEST(sim_access_gm_tile_copy_reads_its_rows_and_writes_the_whole_ub_tile)
{
    static float gm[6][10], ub[4][8];
    tl_op_t op = top(TL_OP_COPY);
    // a 4 x 8 tile at [4, 6] of a 6 x 10 tensor: 2 x 4 elements are in bounds
    runs_t r = ACC(op, OV(tv_at(GM(gm, TL_F32, 6, 10), DIMS(4, 6))), OV(UB(ub, TL_F32, 4, 8)));
    REQUIRE(r.n == 7);
    CHECK(!r.write[0] && r.operand[0] == 0 && r.off[0] == (4 * 10 + 6) * 4 && r.len[0] == 16);
    CHECK(!r.write[1] && r.off[1] == (5 * 10 + 6) * 4 && r.len[1] == 16);
    // the clipped tile is pad-filled first (Duplicate over the whole destination,
    // one run), then its two rows are written
    CHECK(r.write[2] && r.operand[2] == 1 && r.off[2] == 0 && r.len[2] == 4 * 8 * 4);
    CHECK(r.write[3] && r.off[3] == 0 && r.len[3] == 16 && r.write[4] && r.off[4] == 32);
    // and each row's 32-byte block completed with the pad value (DataCopyPad)
    CHECK(r.write[5] && r.off[5] == 16 && r.len[5] == 16 && r.write[6] && r.off[6] == 48);
    tl_copy_exec_t x;
    tl_opcall_t c = tcall(
        &op, 2,
        (tl_operand_t[]){OV(tv_at(GM(gm, TL_F32, 6, 10), DIMS(4, 6))), OV(UB(ub, TL_F32, 4, 8))});
    tl_tileop_ctx_t quiet = {0};
    REQUIRE(tl_tileop_copy_plan(&quiet, &c, 0, 1, &x));
    CHECK(x.plan.rows == 4 && x.plan.cols == 8 && x.rows == 2 && x.cols == 4);
    CHECK(x.plan.rs[1] == 8 && x.plan.rs[0] == 10 && x.fill && x.plan.fill == 32);
    CHECK(x.tail == TL_COPY_TAIL_PAD && x.tail_end == 8);
}

TEST(sim_access_ub_to_gm_copy_writes_only_the_clipped_rows)
{
    static float gm[6][10], ub[4][8];
    tl_op_t op = top(TL_OP_COPY);
    runs_t r = ACC(op, OV(UB(ub, TL_F32, 4, 8)), OV(tv_at(GM(gm, TL_F32, 6, 10), DIMS(3, 0))));
    REQUIRE(r.n == 6); // 3 rows read, 3 rows written
    for (int i = 0; i < 3; i++) CHECK(!r.write[i] && r.off[i] == i * 32 && r.len[i] == 32);
    for (int i = 3; i < 6; i++)
        CHECK(r.write[i] && r.operand[i] == 1 && r.off[i] == (3 + i - 3) * 40 && r.len[i] == 32);
}

TEST(sim_access_vector_ops_touch_flat_spans_with_their_count)
{
    static float a[64], b[64], c[64];
    static uint8_t mask[8];
    tl_op_t add = top(TL_OP_ADD), cast = top(TL_OP_CAST), cmp = top(TL_OP_COMPARE);
    runs_t r = ACC(add, OV(UB(c, TL_F32, 64)), OV(tv_sub(UB(a, TL_F32, 64), DIMS(8), DIMS(16))),
                   OV(UB(b, TL_F32, 64)));
    // the destination's and src1's whole spans, src0's slice; src1 a buffer
    REQUIRE(r.n == 3);
    CHECK(r.write[0] && r.operand[0] == 0 && r.len[0] == 256);
    CHECK(!r.write[1] && r.operand[1] == 1 && r.off[1] == 32 && r.len[1] == 64);
    CHECK(!r.write[2] && r.operand[2] == 2 && r.len[2] == 256);
    r = ACC(cast, OV(UB(c, TL_F32, 64)), OV(UB(a, TL_F32, 64)), OI(10));
    REQUIRE(r.n == 2);
    CHECK(r.len[0] == 40 && r.len[1] == 40);
    r = ACC(cmp, OV(UB(mask, TL_U8, 8)), OV(UB(a, TL_F32, 64)), OF(0.5));
    REQUIRE(r.n == 2);
    CHECK(r.write[0] && r.len[0] == 8); // 64 bits
    CHECK(!r.write[1] && r.len[1] == 256);
}

TEST(sim_access_gemm_reads_c_only_when_it_accumulates)
{
    static uint16_t a[16][32], b[32][16];
    static float c[16][16];
    tl_op_t op = top(TL_OP_MMA);
    tl_operand_t args[] = {OV(VIEW(a, TL_F16, TL_SCOPE_L0A, 16, 32)),
                           OV(VIEW(b, TL_F16, TL_SCOPE_L0B, 32, 16)),
                           OV(VIEW(c, TL_F32, TL_SCOPE_L0C, 16, 16))};
    tl_opcall_t call = tcall(&op, 3, args);
    runs_t r = {0};
    tl_tileop_accesses(&call, note, &r);
    REQUIRE(r.n == 4); // A, B, C read, C written
    CHECK(!r.write[2] && r.operand[2] == 2 && r.write[3] && r.len[3] == 1024);
    call.init.i = 1;
    r.n = 0;
    tl_tileop_accesses(&call, note, &r);
    REQUIRE(r.n == 3);
    CHECK(r.write[2] && r.operand[2] == 2);
}
