# Sparse attention with an attention sink, tiled for the CPU target (the
# benchmark's kernel; the math of kernels/ds_v4/sparse_attn.py, see there):
#
#     x_s = scale * q[bi, mi, j, :] . kv[bi, idx[s], :]      for valid slots s
#     out = sum_s softmax_s(x_s ; sink[j]) * kv[bi, idx[s], :]
#
# The one difference: `head_groups` blocks share a token, each with
# h / head_groups heads (so a single decode token keeps several cores busy);
# each block gathers the token's KV rows itself. Shapes, dtypes and the
# developer mode are those of the operator kernel.
#
# Golden: tl_sparse_attn_ref (src/ref/ref.h) with scale = d^-0.5,
# qk_prec = TL_REF_EXACT, p_prec = TL_REF_BF16, out_prec = TL_REF_F32.
import tilelang
import tilelang.language as T

tilelang.disable_cache()

L0C_BYTES = 131072

DEV_MODE = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,
}


@tilelang.jit(out_idx=[4], workspace_idx=[5, 6, 7, 8], pass_configs=DEV_MODE)
def sparse_attn_tiled(h=64, d=512, scale=None, slots=64, head_groups=2):
    assert h % head_groups == 0 and (h // head_groups) % 16 == 0, "h / head_groups: a multiple of 16"
    assert d % 16 == 0, "d must be a multiple of 16"
    assert slots % 16 == 0, "slots per block must be a multiple of 16"
    sm_scale = d**-0.5 if scale is None else scale

    b = T.symbolic("b")
    m = T.symbolic("m")
    n = T.symbolic("n")
    topk = T.symbolic("topk")

    bf16 = "bfloat16"
    f32 = "float32"
    hb = h // head_groups  # heads per block
    heads_v = hb // 2  # heads per vector core
    rows_v = slots // 2  # KV rows each vector core gathers per block
    tokens = b * m
    nblk = tokens * head_groups
    nblocks = T.ceildiv(topk, slots)
    # P.V in column chunks of o_cols so that S and O fit in L0C side by side
    o_cols = d if h * (slots + d) * 4 <= L0C_BYTES else d // 2
    assert d % o_cols == 0 and o_cols % 16 == 0, "d / 2 must be a multiple of 16"
    assert h * (slots + o_cols) * 4 <= L0C_BYTES, "h * (slots + d / 2) floats exceed L0C"

    @T.prim_func
    def main(
        q: T.Tensor([b, m, h, d], bf16),
        kv: T.Tensor([b, n, d], bf16),
        attn_sink: T.Tensor([h], f32),
        topk_idxs: T.Tensor([b, m, topk], "int32"),
        out: T.Tensor([b, m, h, d], f32),
        kv_workspace: T.Tensor([nblk, slots, d], bf16),
        score_workspace: T.Tensor([nblk, hb, slots], f32),
        prob_workspace: T.Tensor([nblk, hb, slots], bf16),
        pv_workspace: T.Tensor([nblk, hb, d], f32),
    ):
        with T.Kernel(nblk, is_npu=True) as (cid, vid):
            tok = cid // head_groups
            bi = tok // m
            mi = tok % m
            hbase = cid % head_groups * hb
            head0 = hbase + vid * heads_v
            lhead0 = vid * heads_v
            row0 = vid * rows_v

            # cube side
            q_l1 = T.alloc_L1([hb, d], bf16)
            kv_l1 = T.alloc_L1([slots, d], bf16)
            p_l1 = T.alloc_L1([hb, slots], bf16)
            s_l0c = T.alloc_L0C([hb, slots], f32)
            o_l0c = T.alloc_L0C([hb, o_cols], f32)

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

            T.copy(q[bi, mi, hbase : hbase + hb, :], q_l1)
            # The sink is the first logit seen: max = sink, sum = exp(sink - sink).
            T.copy(attn_sink[head0 : head0 + heads_v], run_max)
            T.tile.fill(run_sum, 1.0)
            T.tile.fill(acc, 0.0)

            for t in T.serial(nblocks):
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
                T.copy(kv_workspace[cid, :, :], kv_l1)
                T.gemm_v0(q_l1, kv_l1, s_l0c, transpose_B=True, init=True)
                T.copy(s_l0c, score_workspace[cid, :, :])

                # Online softmax over this core's heads.
                T.copy(score_workspace[cid, lhead0 : lhead0 + heads_v, :], s_ub)
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
                T.tile.mul(run_sum, run_sum, alpha)
                T.tile.add(run_sum, run_sum, blk_sum)
                T.tile.cast(p_ub, s_ub, mode="CAST_RINT", count=heads_v * slots)
                T.copy(p_ub, prob_workspace[cid, lhead0 : lhead0 + heads_v, :])

                # O_blk = P . V for all heads.
                T.copy(prob_workspace[cid, :, :], p_l1)
                for c in T.serial(d // o_cols):
                    c0 = c * o_cols
                    T.gemm_v0(p_l1, kv_l1[:, c0 : c0 + o_cols], o_l0c, init=True)
                    T.copy(o_l0c, pv_workspace[cid, :, c0 : c0 + o_cols])

                # acc = acc * alpha + O_blk
                T.copy(pv_workspace[cid, lhead0 : lhead0 + heads_v, :], o_ub)
                for i, j in T.Parallel(heads_v, d):
                    acc[i, j] = acc[i, j] * alpha[i]
                    acc[i, j] = acc[i, j] + o_ub[i, j]

            for i, j in T.Parallel(heads_v, d):
                acc[i, j] = acc[i, j] / run_sum[i]
            T.copy(acc, out[bi, mi, head0 : head0 + heads_v, :])

    return main
