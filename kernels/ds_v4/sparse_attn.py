# DeepSeek-V4 sparse attention with an attention sink (research/dsv4_ops.md §2).
#
# For every batch bi, query token mi and head j the kernel attends over the
# top-k KV rows named by topk_idxs (MQA: one KV row is both key and value):
#
#     x_s = scale * q[bi, mi, j, :] . kv[bi, idx[s], :]      for valid slots s
#     out = sum_s softmax_s(x_s ; sink[j]) * kv[bi, idx[s], :]
#
# where the sink is one more logit with a zero value vector. A slot is valid
# when 0 <= idx < n (so -1, the "empty" marker, is masked) and it lies before
# the end of the topk row; duplicates count separately.
#
#   q          [b, m, h, d]   bfloat16
#   kv         [b, n, d]      bfloat16
#   attn_sink  [h]            float32
#   topk_idxs  [b, m, topk]   int32
#   out        [b, m, h, d]   float32
#   b, m, n, topk symbolic; h, d compile-time (h a multiple of 16, d of 16).
#
# Mode: developer (all four pass_configs). Persistent: `cores` blocks (24 AI
# cores on A2), block cid taking the tokens cid, cid + cores, ... in one loop
# over (token, slot block) pairs, so the pipeline below runs on from one token
# into the next. The cube computes both GEMMs for all h heads, each vector core
# owns h/2 heads and gathers half of each block's KV rows. Slots go in blocks of 64 with an online
# softmax whose running max starts at the sink logit (so a token whose slots
# are all masked gets 0, and a large sink cannot overflow exp); P is rounded to
# bfloat16 before the second GEMM. Both GEMMs run through L0A/L0B with T.mma,
# two chunks of each in flight: Q.K^T over column slices of d accumulated in
# L0C, P.V in column chunks of O (128 wide at h = 64, d = 512), so that FIX
# writes one O chunk to GM while the cube computes the next (gemm_v0 would wait
# for FIX before every call). Cube and vector cores hand tiles over through
# four GM workspaces (their names contain "workspace" so upstream's cross-core
# sync finds them too). The block loop is T.Pipelined with 4 stages: each
# workspace and the L1 KV tile get 4 versions and the pipelined pass staggers
# the loop's five runs (gather, QK, softmax, PV, rescale) one step apart, so
# the cube computes later blocks while the vector cores work on earlier ones.
#
# Golden: tl_sparse_attn_ref (src/ref/ref.h) with scale = d^-0.5,
# qk_prec = TL_REF_EXACT, p_prec = TL_REF_BF16, out_prec = TL_REF_F32.
import tilelang
import tilelang.language as T

tilelang.disable_cache()

L0A_BYTES = L0B_BYTES = 65536
L0C_BYTES = 131072


def chunk_of(d, fits):
    # the widest of d, d/2, d/4, ... (a multiple of 16 dividing d) that fits
    c = d
    while not fits(c) and c % 32 == 0:
        c //= 2
    assert fits(c), "no chunk of d fits the cube's buffers"
    return c

DEV_MODE = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,
}


@tilelang.jit(out_idx=[4], workspace_idx=[5, 6, 7, 8], pass_configs=DEV_MODE)
def sparse_attn(h=64, d=512, scale=None, slots=64, cores=24):
    assert h % 16 == 0, "h must be a multiple of 16 (h/2 float32 rows of 32-byte multiples)"
    assert d % 16 == 0, "d must be a multiple of 16"
    assert slots % 16 == 0, "slots per block must be a multiple of 16"
    assert cores >= 1, "cores at least 1"
    sm_scale = d**-0.5 if scale is None else scale

    b = T.symbolic("b")
    m = T.symbolic("m")
    n = T.symbolic("n")
    topk = T.symbolic("topk")

    bf16 = "bfloat16"
    f32 = "float32"
    heads_v = h // 2  # heads per vector core
    rows_v = slots // 2  # KV rows each vector core gathers per block
    tokens = b * m
    # at least one block, so that a token with topk = 0 still gets its output
    # (every slot masked: 0)
    nblocks = T.max(T.ceildiv(topk, slots), 1)
    # Both GEMMs go through L0A/L0B in chunks of d, two of each in flight: Q.K^T
    # over k_cols-wide slices of d (accumulated in L0C), P.V in o_cols-wide
    # column chunks of O, so that FIX writes one chunk out while the cube
    # computes the next.
    k_cols = chunk_of(d, lambda c: 2 * h * c * 2 + h * slots * 2 <= L0A_BYTES)
    o_cols = chunk_of(d, lambda c: 2 * slots * c * 2 <= L0B_BYTES and
                      h * (slots + 2 * c) * 4 <= L0C_BYTES)

    @T.prim_func
    def main(
        q: T.Tensor([b, m, h, d], bf16),
        kv: T.Tensor([b, n, d], bf16),
        attn_sink: T.Tensor([h], f32),
        topk_idxs: T.Tensor([b, m, topk], "int32"),
        out: T.Tensor([b, m, h, d], f32),
        kv_workspace: T.Tensor([cores, slots, d], bf16),
        score_workspace: T.Tensor([cores, h, slots], f32),
        prob_workspace: T.Tensor([cores, h, slots], bf16),
        pv_workspace: T.Tensor([cores, h, d], f32),
    ):
        with T.Kernel(cores, is_npu=True) as (cid, vid):
            head0 = vid * heads_v
            row0 = vid * rows_v

            # cube side
            q_l1 = T.alloc_L1([h, d], bf16)
            kv_l1 = T.alloc_L1([slots, d], bf16)
            p_l1 = T.alloc_L1([h, slots], bf16)
            q_l0 = T.alloc_L0A([h, k_cols], bf16)
            k_l0 = T.alloc_L0B([k_cols, slots], bf16)
            p_l0 = T.alloc_L0A([h, slots], bf16)
            v_l0 = T.alloc_L0B([slots, o_cols], bf16)
            s_l0c = T.alloc_L0C([h, slots], f32)
            o_l0c = T.alloc_L0C([h, o_cols], f32)

            # vector side (per core: heads_v heads, rows_v gathered rows)
            slot_ub = T.alloc_ub([slots], "int32")
            gathered = T.alloc_ub([rows_v, d], bf16)
            bias = T.alloc_ub([slots], f32)
            s_ub = T.alloc_ub([heads_v, slots], f32)
            p_ub = T.alloc_ub([heads_v, slots], bf16)
            o_ub = T.alloc_ub([heads_v, d], f32)
            acc = T.alloc_ub([heads_v, d], f32)
            run_max = T.alloc_ub([heads_v], f32)
            blk_max = T.alloc_ub([heads_v], f32)
            alpha = T.alloc_ub([heads_v], f32)
            run_sum = T.alloc_ub([heads_v], f32)
            blk_sum = T.alloc_ub([heads_v], f32)

            # One loop over (token, block) pairs: core cid takes the tokens cid,
            # cid + cores, ... and each token's blocks in order, so the software
            # pipeline runs on from one token into the next.
            n_tok = T.ceildiv(tokens - cid, cores)
            for it in T.Pipelined(n_tok * nblocks, num_stages=4):
                tok = it // nblocks * cores + cid
                t = it % nblocks
                bi = tok // m
                mi = tok % m
                base = t * slots
                T.copy(topk_idxs[bi, mi, base : base + slots], slot_ub)

                # Gather this core's half of the block's KV rows; masked rows
                # become zeros so that 0 * row stays 0.
                for r in T.serial(rows_v):
                    row = slot_ub[row0 + r]
                    if base + row0 + r < topk and row >= 0 and row < n:
                        T.copy(kv[bi, row, :], gathered[r, :])
                    else:
                        T.tile.fill(gathered[r, :], 0.0)
                T.copy(gathered, kv_workspace[cid, row0 : row0 + rows_v, :])

                # Additive mask over the block's slots: 0 or -inf.
                for j in T.serial(slots):
                    sj = slot_ub[j]
                    if base + j < topk and sj >= 0 and sj < n:
                        bias[j] = 0.0
                    else:
                        bias[j] = -T.infinity(f32)

                # S = Q . K^T for all heads.
                if t == 0:
                    T.copy(q[bi, mi, :, :], q_l1)
                T.copy(kv_workspace[cid, :, :], kv_l1)
                for kc in T.Pipelined(d // k_cols, num_stages=2):
                    T.copy(q_l1[:, kc * k_cols : kc * k_cols + k_cols], q_l0)
                    T.copy(kv_l1[:, kc * k_cols : kc * k_cols + k_cols], k_l0, transpose=True)
                    T.mma(q_l0, k_l0, s_l0c, init=(kc == 0))
                T.copy(s_l0c, score_workspace[cid, :, :])

                # Online softmax over this core's heads. The sink is the first
                # logit seen: max = sink (and sum = exp(sink - sink) = 1 below).
                if t == 0:
                    T.copy(attn_sink[head0 : head0 + heads_v], run_max)
                T.copy(score_workspace[cid, head0 : head0 + heads_v, :], s_ub)
                for i, j in T.Parallel(heads_v, slots):
                    s_ub[i, j] = s_ub[i, j] * sm_scale + bias[j]
                T.reduce_max(s_ub, blk_max, dim=-1)
                T.tile.max(blk_max, blk_max, run_max)
                T.tile.sub(alpha, run_max, blk_max)
                T.tile.exp(alpha, alpha)
                T.copy(blk_max, run_max)
                for i, j in T.Parallel(heads_v, slots):
                    s_ub[i, j] = s_ub[i, j] - run_max[i]
                T.tile.exp(s_ub, s_ub)
                T.reduce_sum(s_ub, blk_sum, dim=-1)
                T.tile.cast(p_ub, s_ub, mode="CAST_RINT", count=heads_v * slots)
                T.copy(p_ub, prob_workspace[cid, head0 : head0 + heads_v, :])

                # O_blk = P . V for all heads.
                T.copy(prob_workspace[cid, :, :], p_l1)
                T.copy(p_l1, p_l0)
                for c in T.Pipelined(d // o_cols, num_stages=2):
                    c0 = c * o_cols
                    T.copy(kv_l1[:, c0 : c0 + o_cols], v_l0)
                    T.mma(p_l0, v_l0, o_l0c, init=True)
                    T.copy(o_l0c, pv_workspace[cid, :, c0 : c0 + o_cols])

                # sum = sum * alpha + blk_sum, acc = acc * alpha + O_blk; after
                # the token's last block, out = acc / sum
                if t == 0:
                    T.tile.fill(run_sum, 1.0)
                    T.tile.fill(acc, 0.0)
                T.copy(pv_workspace[cid, head0 : head0 + heads_v, :], o_ub)
                T.tile.mul(run_sum, run_sum, alpha)
                T.tile.add(run_sum, run_sum, blk_sum)
                for i, j in T.Parallel(heads_v, d):
                    acc[i, j] = acc[i, j] * alpha[i]
                    acc[i, j] = acc[i, j] + o_ub[i, j]
                if t == nblocks - 1:
                    for i, j in T.Parallel(heads_v, d):
                        acc[i, j] = acc[i, j] / run_sum[i]
                    T.copy(acc, out[bi, mi, head0 : head0 + heads_v, :])

    return main
