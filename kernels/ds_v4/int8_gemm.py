# DeepSeek-V4 int8 GEMM with per-row scales (research/dsv4_ops.md §4):
#
#     acc[i, j] = sum_k A[i, k] * B[j, k]                    exact, int32
#     C[i, j]   = out_dtype((float32(acc[i, j]) * scale_a[i]) * scale_b[j])
#
#   A        [M, K]  int8       (activations, per-row scale_a [M] float32)
#   B        [N, K]  int8       (weights stored [out, in], per-row scale_b [N])
#   C        [M, N]  float32 / float16 / bfloat16 (out_dtype)
#   M symbolic; N, K compile-time. Any M, N, K: GM copies clip at the edges
#   and the K tail of an L1 tile is zero-filled.
#
# Mode: mixed. The cube and vector parts are explicit T.Scope blocks joined by
# two hand-written cross-core flags per output tile (FIX -> both vector cores:
# the tile is in the workspace; both vector cores -> cube: they have read it,
# which keeps the cube at most `ahead` tiles ahead, as the flag counters need);
# intra-core sync, multi-buffering and memory planning are automatic.
# Persistent: `cores` blocks (24 AI cores on A2), each walking the output
# tiles cid, cid + cores, ... so that the vector cores dequantise one tile
# while the cube computes the next. Per tile the cube runs the K loop as a
# T.Pipelined loop: GM -> L1 (A and B tiles), L1 -> L0A / L0B (B transposed),
# mma into the int32 L0C accumulator; the pipelined pass issues the GM loads
# num_stages - 1 steps ahead and gives the L1 and L0 buffers one version per
# stage, so MTE2, MTE1 and the cube overlap. The cube writes the tile to a GM
# workspace; each vector core loads its scales and broadcasts them to tiles
# while the cube computes, then dequantises half of the tile's rows with the
# two multiplies in the order above and rounds to out_dtype (RNE), in two
# column pieces (a T.Pipelined loop: one piece's load overlaps the other's
# math, which shortens the last tile's tail after the cube is done).
#
# Golden: tl_int8_gemm_ref (src/ref/ref.h) with order TL_INT8_GEMM_SCALE_SEQ and
# out_prec TL_REF_F32 / TL_REF_F16 / TL_REF_BF16 matching out_dtype.
import tilelang
import tilelang.language as T

tilelang.cache.clear_cache()

MIXED_MODE = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
}


@tilelang.jit(out_idx=[4], workspace_idx=[5], pass_configs=MIXED_MODE)
def int8_gemm(N=4096, K=4096, block_M=128, block_N=128, block_K=128, num_stages=4, cores=24,
              out_dtype="bfloat16"):
    assert out_dtype in ("float32", "float16", "bfloat16"), "out_dtype: float32, float16, bfloat16"
    assert block_M % 32 == 0 and block_N % 16 == 0 and block_K % 32 == 0, "block sizes"
    assert num_stages >= 1 and cores >= 1, "num_stages and cores at least 1"
    M = T.symbolic("M")
    f32 = "float32"
    half_M = block_M // 2
    n_num = T.ceildiv(N, block_N)
    k_num = T.ceildiv(K, block_K)
    tiles = T.ceildiv(M, block_M) * n_num
    pieces = 2 if block_N % 32 == 0 else 1  # column pieces of the dequant (16-element aligned)
    piece_N = block_N // pieces
    # A cross-core flag counts at most 15 pending sets (asc-devkit,
    # CrossCoreSetFlag: beyond that the device raises an exception), so the cube
    # may run at most `ahead` tiles ahead of the vector cores: each vector core
    # acknowledges a tile on flag 1 once it has read it.
    ahead = 4

    @T.prim_func
    def main(
        A: T.Tensor([M, K], "int8"),
        B: T.Tensor([N, K], "int8"),
        scale_a: T.Tensor([M], f32),
        scale_b: T.Tensor([N], f32),
        C: T.Tensor([M, N], out_dtype),
        acc_workspace: T.Tensor([M, N], "int32"),
    ):
        with T.Kernel(cores, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1([block_M, block_K], "int8")
            b_l1 = T.alloc_L1([block_N, block_K], "int8")
            a_l0 = T.alloc_L0A([block_M, block_K], "int8")
            b_l0 = T.alloc_L0B([block_K, block_N], "int8")
            acc_l0c = T.alloc_L0C([block_M, block_N], "int32")

            acc_ub = T.alloc_ub([half_M, piece_N], "int32")
            val = T.alloc_ub([half_M, piece_N], f32)
            sa = T.alloc_ub([half_M], f32)
            sb = T.alloc_ub([block_N], f32)
            sa_t = T.alloc_ub([half_M, piece_N], f32)
            sb_t = T.alloc_ub([pieces, half_M, piece_N], f32)
            if out_dtype != f32:
                res = T.alloc_ub([half_M, piece_N], out_dtype)

            with T.Scope("C"):
                for t in T.serial(T.ceildiv(tiles - cid, cores)):
                    tile = t * cores + cid
                    m0 = tile // n_num * block_M
                    n0 = tile % n_num * block_N
                    for k in T.Pipelined(k_num, num_stages=num_stages):
                        T.copy(A[m0, k * block_K], a_l1)
                        T.copy(B[n0, k * block_K], b_l1)
                        T.copy(a_l1, a_l0)
                        T.copy(b_l1, b_l0, transpose=True)
                        T.mma(a_l0, b_l0, acc_l0c, init=(k == 0))
                    T.copy(acc_l0c, acc_workspace[m0, n0])
                    if t >= ahead:  # the vector cores are done with tile t - ahead
                        T.wait_cross_flag(1)
                    T.set_cross_flag("FIX", 0)
                for t in T.serial(T.min(ahead, T.ceildiv(tiles - cid, cores))):
                    T.wait_cross_flag(1)  # the acknowledgements of the last tiles

            with T.Scope("V"):
                for t in T.serial(T.ceildiv(tiles - cid, cores)):
                    tile = t * cores + cid
                    r0 = tile // n_num * block_M + vid * half_M
                    n0 = tile % n_num * block_N
                    T.copy(scale_a[r0], sa)
                    T.copy(scale_b[n0], sb)
                    for i, j in T.Parallel(half_M, piece_N):  # while the cube computes
                        sa_t[i, j] = sa[i]
                    for p in T.serial(pieces):
                        for i, j in T.Parallel(half_M, piece_N):
                            sb_t[p, i, j] = sb[p * piece_N + j]
                    T.wait_cross_flag(0)
                    # column pieces: one piece's load overlaps the other's math
                    for p in T.Pipelined(pieces, num_stages=2):
                        T.copy(acc_workspace[r0, n0 + p * piece_N], acc_ub)
                        T.tile.cast(val, acc_ub, mode="CAST_RINT", count=half_M * piece_N)
                        for i, j in T.Parallel(half_M, piece_N):
                            val[i, j] = val[i, j] * sa_t[i, j]
                            val[i, j] = val[i, j] * sb_t[p, i, j]
                        if out_dtype == f32:
                            T.copy(val, C[r0, n0 + p * piece_N])
                        else:
                            T.tile.cast(res, val, mode="CAST_RINT", count=half_M * piece_N)
                            T.copy(res, C[r0, n0 + p * piece_N])
                    T.set_cross_flag("MTE2", 1)  # tile t's workspace is read

    return main
